"""Numbers written in words that the English reader (text_to_num's alpha2digit, in
quantities) leaves alone (pure): shares ("two thirds", "a tenth of"), and a German sentence's
number words ("fünfundzwanzig")."""

from __future__ import annotations

import contextlib
import re

from text_to_num import alpha2digit

__all__ = [
    "DENOMINATORS",
    "GERMAN_NUMBER",
    "fractions_as_shares",
    "german_in_digits",
    "in_digits",
    "share_text",
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
    + r")|(half))\b(\s+of\b)?"
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
    to the whole per cent, the precision a paper's "33%" has: a third agrees with 33 %, 33.3 %
    and 0.333, not with 34 %); "12.5 %" for an eighth (halves, quarters, fifths, eighths and
    tenths are exact to a tenth)."""
    exact = abs(share * 10 - round(share * 10)) < 1e-9
    return f"{share:.1f} %" if exact else f"{share:.0f} %"


def fractions_as_shares(text: str) -> str:
    """Fractions in words as shares ("two thirds" -> "66.7 %"), or as values before a unit
    ("a quarter of an hour" -> "0.25 hour")."""
    return _FRACTION_WORDS.sub(_fraction_words, text)


# A German sentence ("unter fünfundzwanzig Sekunden"): its number words are read in German.
_GERMAN = re.compile(
    r"\b(?:der|die|das|und|mit|für|ist|wurde|wurden|nicht|eine?|einer|auf|bei|wird|werden|"
    r"sind|den|dem|des|unter|über|sowie|betrug|beträgt)\b",
    re.I,
)
_GERMAN_WORDS = 3
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
    if GERMAN_NUMBER.search(text) and len(_GERMAN.findall(text)) >= _GERMAN_WORDS:
        return in_digits(text, "de", small_words)
    return text
