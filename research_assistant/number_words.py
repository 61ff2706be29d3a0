"""Numbers written in words that the English reader (text_to_num's alpha2digit, in
quantities) leaves alone (pure): shares ("two thirds", "a tenth of", "one in five", "every
fifth"), multiples ("two dozen", "twofold", "a factor of two", "three orders of magnitude"),
and a German sentence's number words ("fünfundzwanzig")."""

from __future__ import annotations

import contextlib
import re

from text_to_num import alpha2digit

from research_assistant.terms import german

__all__ = [
    "DENOMINATORS",
    "GERMAN_NUMBER",
    "WORD_VALUES",
    "fractions_as_shares",
    "german_in_digits",
    "in_digits",
    "multiples",
    "share_text",
    "shares_and_multiples",
    "word_values",
]

# "two thirds", "a tenth of a magnitude", "three quarters": a share, read as a percentage (which
# agree() also compares with a plain 0.1). "A fifth" and smaller after "a"/"one" only before
# "of" ("a fifth experiment" is an ordinal).
_NUMERATORS = dict(
    zip("one two three four five six seven eight nine".split(), range(1, 10), strict=True),
    a=1,
    an=1,
)
DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5,
    "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8,
    "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10, "twentieth": 20, "twentieths": 20,
    "hundredth": 100, "hundredths": 100, "thousandth": 1000, "thousandths": 1000,
}  # fmt: skip
_FRACTION_WORDS = re.compile(
    r"\b(?:(an?|one|two|three|four|five|six|seven|eight|nine)[\s-]+("
    + "|".join(sorted(DENOMINATORS, key=len, reverse=True))
    + r")|(half))\b(?!-)(\s+of\b)?"
    # "a quarter of an hour", "half an hour": a part of one unit, a value in that unit
    r"(\s+an?\s+(?=(?:hour|minute|second|day|week|month|year|magnitude|metre|meter|mile"
    # "a quarter of a million": a part of one scale word, a value in it
    r"|thousand|million|billion)\b))?",
    re.I,
)


def _fraction_words(m: re.Match[str]) -> str:
    if m.group(3):  # "half": a share only before a unit here (``_WORD_VALUES`` reads the rest)
        return "0.5 " if m.group(5) else m.group()
    top, bottom = _NUMERATORS[m.group(1).lower()], DENOMINATORS[m.group(2).lower()]
    if m.group(5):
        return f"{top / bottom:.3g} "
    if top == 1 and bottom >= 5 and not m.group(4):
        return m.group()
    return share_text(100 * top / bottom) + (m.group(4) or "")


def share_text(share: float) -> str:
    """A fraction's share as the number reader reads it: "33 %" for a third (33.33... %, written
    to two significant digits, the precision a paper's "33%" has: a third agrees with 33 %,
    33.3 % and 0.333, not with 34 %; one in 300 is "0.33 %"); "12.5 %" for an eighth (halves,
    quarters, fifths, eighths and tenths are exact to a tenth)."""
    exact = abs(share * 10 - round(share * 10)) < 1e-9
    return f"{share:.1f} %" if exact else f"{share:.2g} %"


def fractions_as_shares(text: str) -> str:
    """Fractions in words as shares ("two thirds" -> "66.7 %"), or as values before a unit
    ("a quarter of an hour" -> "0.25 hour")."""
    return _FRACTION_WORDS.sub(_fraction_words, text)


GERMAN_NUMBER = re.compile(
    r"(?:eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|"
    r"hundert|tausend|million)",
    re.I,
)


def in_digits(text: str, language: str, small_words: bool) -> str:
    """text_to_num's reading: number words as digits; ``small_words``: below ten too."""
    with contextlib.suppress(ValueError, RuntimeError):  # an odd input must not stop a check
        return str(alpha2digit(text, language, threshold=0 if small_words else 3))
    return text


def german_in_digits(text: str, small_words: bool) -> str:
    """A German sentence's number words as digits ("unter 25 Sekunden"); other text as it is."""
    if GERMAN_NUMBER.search(text) and german(text):
        return in_digits(text, "de", small_words)
    return text


# Forms of counts, shares and multiples that neither alpha2digit nor the fractions above read.
# "twofold", "tenfold" (one word; "2-fold" reads as "2 fold"), "a factor of two": multipliers.
_FOLD_WORD = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|hundred|thousand)fold\b", re.I
)
_FOLD_VALUES = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "hundred": 100, "thousand": 1000,
}  # fmt: skip
_COUNT_WORDS = {
    w: i for i, w in enumerate("one two three four five six seven eight nine ten".split(), 1)
} | {"a": 1, "an": 1, "a single": 1}
_COUNT = r"(\d{1,6}|one|two|three|four|five|six|seven|eight|nine|ten)"
# "two dozen runs" (24; "a dozen" is the number reader's), "one and a half million" (1.5 million)
_DOZENS = re.compile(rf"\b{_COUNT}\s+dozen\b", re.I)
_AND_A_HALF = re.compile(rf"\b{_COUNT}\s+and\s+a\s+half\b", re.I)
# "one in five", "1 in 5 users", "one in a thousand": a share
_ONE_IN_WORDS = re.compile(
    r"\b(one|1|a single)\s+in\s+(?:every\s+)?(\d{1,9}|two|three|four|five|six|seven|eight|nine"
    r"|ten|a hundred|a thousand|a million)\b(?![.,]\d)",
    re.I,
)
# "every fifth timepoint", "every 10th epoch": one in five, in ten ("every other layer" is all
# the others as often as every second one, and "every second" a rate in time: neither is read)
_ORDINALS = {
    "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "hundredth": 100, "thousandth": 1000,
}  # fmt: skip
_EVERY_NTH = re.compile(
    r"\bevery\s+(" + "|".join(_ORDINALS) + r"|(\d{1,9})(?:st|nd|rd|th))\b", re.I
)
# "three orders of magnitude faster": about a thousand times
_ORDERS = re.compile(r"\b(an|one|two|three|four|five|six|\d)\s+orders?\s+of\s+magnitude\b", re.I)
_FACTOR_OF = re.compile(
    r"\bfactor\s+of\s+(\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten)\b", re.I
)
_POWERS = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# "an hour and a half", "two days and a half": the unit between the count and the half
_UNIT_AND_A_HALF = re.compile(
    rf"\b({_COUNT[1:-1]}|an?)\s+(second|minute|hour|day|week|month|year)s?\s+and\s+a\s+half\b",
    re.I,
)
# "a couple of hundred papers": about two hundred ("a couple of papers" is left alone: two or
# three, which no exact number matches)
_COUPLE = re.compile(r"\ba\s+couple\s+of\s+(hundred|thousand|million|billion)\b", re.I)
# "ten to the sixth", "10 to the power of 6", "ten to the minus three": a power of ten
_POWER_WORDS = {
    **{w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())},
    **{w: i for i, w in enumerate("_ _ second third fourth fifth sixth seventh eighth ninth".split()) if i > 1},
    "ten": 10, "tenth": 10, "twelve": 12, "twelfth": 12,
}  # fmt: skip
_TO_THE = re.compile(
    r"\b(?:ten|10)\s+to\s+the\s+(?:power\s+of\s+)?((?:minus\s+|-)?(?:\d{1,3}(?:st|nd|rd|th)?|"
    + "|".join(_POWER_WORDS)
    + r"))\b",
    re.I,
)


def _exponent(written: str) -> str:
    """The exponent of "ten to the sixth" ("6"), "to the minus three" ("-3")."""
    word = written.lower()
    sign = "-" if word.startswith(("minus", "-")) else ""
    word = word.removeprefix("minus").lstrip(" -")
    digits = word.rstrip("stndrh") if word[:1].isdigit() else ""
    return sign + (digits or str(_POWER_WORDS[word]))


def _count(word: str) -> int:
    """A small count written in digits or words ("2", "two", "a hundred")."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word.startswith("a ") and word[2:] in _POWERS:
        return _POWERS[word[2:]]
    return _COUNT_WORDS[word]


def _one_in(n: int, written: str) -> str:
    """One in ``n`` as a share ("1 in 0" stays as written)."""
    return share_text(100 / n) if n > 0 else written


def shares_and_multiples(text: str) -> str:
    """``text`` with fractions (fractions_as_shares), "N dozen", "N and a half", "an hour and a
    half", "a couple of hundred", "ten to the sixth", "one in N", "every Nth" and "N orders of
    magnitude" in digits."""
    if "dozen" in text or " half" in text:  # before "a half" is read as a share
        text = _DOZENS.sub(lambda m: f"{12 * _count(m.group(1))}", text)
        text = _AND_A_HALF.sub(lambda m: f"{_count(m.group(1)) + 0.5:g}", text)
        text = _UNIT_AND_A_HALF.sub(lambda m: f"{_count(m.group(1)) + 0.5:g} {m.group(2)}s", text)
    if "couple" in text:
        text = _COUPLE.sub(lambda m: f"about 2 {m.group(1)}", text)
    if " to the " in text:
        text = _TO_THE.sub(lambda m: f"10^{_exponent(m.group(1))}", text)
    text = fractions_as_shares(text)
    if " in " in text:
        text = _ONE_IN_WORDS.sub(lambda m: _one_in(_count(m.group(2)), m.group()), text)
    if "very " in text:  # "every", "Every"
        text = _EVERY_NTH.sub(
            lambda m: _one_in(int(m.group(2) or _ORDINALS[m.group(1).lower()]), m.group()), text
        )
    if "magnitude" in text:
        text = _ORDERS.sub(lambda m: f"about {10 ** _count(m.group(1))} times", text)
    return text


def multiples(text: str) -> str:
    """``text`` with "twofold" and "a factor of N" as "2 fold" and "N times" (after "2-fold"
    became "2 fold")."""
    if "fold" in text or "factor" in text:
        text = _FOLD_WORD.sub(lambda m: f"{_FOLD_VALUES[m.group(1).lower()]} fold", text)
        text = _FACTOR_OF.sub(
            lambda m: f"factor of {_FOLD_VALUES.get(m.group(1).lower(), m.group(1))} times", text
        )
    return text


# Words text_to_num leaves alone: multipliers and fractions.
WORD_VALUES = {
    "a dozen": "12",
    "dozen": "12",
    "twice": "2 times",
    "double": "2 times",
    "doubled": "2 times",
    "thrice": "3 times",
    "triple": "3 times",
    "tripled": "3 times",
    "half a": "0.5",
    "half": "50 %",
    # the word reader reads these on ("one hundred and fifty" is 150, not 100 and 50)
    "a hundred": "one hundred",
    "a thousand": "one thousand",
    "a million": "one million",
    "a billion": "one billion",
    "zero": "0",  # "zero errors" (not "zero-shot": _VALUE_WORDS skips a word before a hyphen)
}
_VALUE_WORDS = re.compile(
    r"\b(" + "|".join(sorted(WORD_VALUES, key=len, reverse=True)) + r")\b(?!-)", re.I
)


def word_values(text: str) -> str:
    """``text`` with the words of WORD_VALUES as the number reader reads them."""
    return _VALUE_WORDS.sub(lambda m: WORD_VALUES[m.group(1).lower()], text)


# Vague amounts, as the ranges they span: "several thousand users" is 2,000 to 9,000 (not the
# 1,000 that reading "thousand" alone gave: a claim of 1,000 agreed with it), "tens of
# thousands" 10,000 to 99,999, "hundreds of" 100 to 999, "dozens of" 24 to 99. Written "about
# ... to ...": an approximate range, which a value inside it states (``agreement.agree``).
_SCALE_WORDS = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_VAGUE = re.compile(
    r"\b(?:several|a\s+few|many)\s+(hundred|thousand|million|billion)s?\b(?!\s+and\b)"
    r"|\b(tens|hundreds)\s+of\s+(thousands|millions|billions)\b"
    r"|\b(hundreds|thousands|millions|billions|dozens)\s+of\b",
    re.I,
)


def _vague(m: re.Match[str]) -> str:
    if m.group(1):  # "several thousand"
        scale = _SCALE_WORDS[m.group(1).lower()]
        return f"about {2 * scale} to {9 * scale}"
    if m.group(2):  # "tens of thousands": 10,000 to 99,999
        scale = _SCALE_WORDS[m.group(3).lower()[:-1]] * (
            10 if m.group(2).lower() == "tens" else 100
        )
        return f"about {scale} to {10 * scale - 1}"
    word = m.group(4).lower()
    if word == "dozens":
        return "about 24 to 99 of"
    scale = _SCALE_WORDS[word[:-1]]  # "thousands of": 1,000 to 9,999
    return f"about {scale} to {10 * scale - 1} of"


def vague_amounts(text: str) -> str:
    """The vague amounts of ``text`` written as approximate ranges."""
    return _VAGUE.sub(_vague, text)
