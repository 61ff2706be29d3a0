"""Numbers as values: the one number reader of the checker and the answerer (pure).

"891 seconds", "1,800 machines", "3.5 × 10^6", "3.5e6", "10⁶·⁶", "44%", "forty-four percent",
"ten thousand", "a dozen", "twice", "half", "about 1 TB", "over 20", "3–5 GB", "1.2 ± 0.1 mm"
are each read into a ``Quantity``: a value (with its range and the precision the writer stated),
a unit of a known dimension (SI prefixes applied), whether it is approximate or a bound, and the
words around it (its role: "235 languages" and "350 languages" stand in the same role).

Numbers in words go through ``text_to_num`` (alpha2digit, a compiled, well-kept parser of
number words in eight languages) after a small table of words it leaves alone ("a dozen",
"twice", "half", scale words after digits). Every pattern here is linear: no nested quantifiers.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from research_assistant.number_words import (
    DENOMINATORS,
    GERMAN_NUMBER,
    WORD_VALUES,
    german_in_digits,
    in_digits,
    multiples,
    share_text,
    shares_and_multiples,
    vague_amounts,
    word_values,
)
from research_assistant.units import UNITS, offset_of, unit_of

__all__ = ["NUMBER_WORDS", "Quantity", "quantities"]


@dataclass(frozen=True)
class Quantity:
    value: float
    low: float  # the range the writer stated (== value for a single number)
    high: float
    tol: float  # half a unit of the last digit written, in the quantity's own scale
    unit: str  # canonical unit of its dimension ("s", "B", "m", "%", "x", ...), "" for a count
    text: str  # as written (after number words became digits)
    role: frozenset[str] = frozenset()  # content words next to it
    approx: bool = False
    bound: str = ""  # ">" (over, at least), "<" (under, up to), "" exact
    from_words: bool = False
    scale: float = 1.0  # the unit's factor and offset: (value - offset) / scale is the number
    offset: float = 0.0  # as written ("18 months"; "298 K" is 24.85 °C)


_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺·", "0123456789-+.")
_SUPER_RUN = re.compile(r"(?<=\d)([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺][⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺·]*)")
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2009": " ", "\u202f": " "})
# "3/4 of the papers", "with probability 3/4": a proper fraction, read as a share (a percentage).
_FRACTION = re.compile(r"(?<![\d/.,])([1-9])/([2-9]|10)(?![\d/.,]\d|[\d/])")
# "1/200 the speed", "1/1000 of the time": a share too.
_ONE_IN = re.compile(r"(?<![\d/.])1/([1-9]\d{1,4})(?![\d/])(?=\s+(?:of|the)\b)")
# "10−22 eV": a power of ten whose raised exponent a PDF flattened, kept apart from a range
# by its true minus sign (U+2212; ranges use a hyphen or an en dash).
_FLAT_POWER = re.compile(r"(?<![\d.])10\u2212(\d{1,3})(?![\d.])")
_LATEX_POWER = re.compile(r"\^\{\s*([-+−]?\d+(?:\.\d+)?)\s*\}")
# "5 Performance", "5.3 Fault Tolerance" opening a line: a section heading's number.
_HEADING = re.compile(r"(?:^|\n)\s*$")
_SCALE = {
    "hundred": 1e2, "thousand": 1e3, "million": 1e6, "mln": 1e6, "billion": 1e9, "bn": 1e9,
    "bln": 1e9, "trillion": 1e12, "tausend": 1e3, "millionen": 1e6, "mio": 1e6,
    "milliarde": 1e9, "milliarden": 1e9, "mrd": 1e9,
}  # fmt: skip
# "35 hundred" is 3,500 (alpha2digit left "35 100", a number with a space between thousands),
# "1.2 bn" and "4 mln" as business and European writing abbreviate; "five hundred thousand"
# is the word reader's.
_SCALED = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(hundred(?!\s+(?:thousand|million|billion))|thousand|million|mln|billion"
    r"|bn|bln|trillion|tausend|millionen|mio|milliarden?|mrd)\b",
    re.I,
)
# alpha2digit reads "3.5 million" as "3.5 1000000": a decimal then a bare power of a thousand.
_SPLIT_SCALE = re.compile(r"(?<![\d.])(\d+\.\d+) (1000|1000000|1000000000|1000000000000)\b")
_SMALL = "one two three four five six seven eight nine ten".split()

_NUM = r"[-+]?(?:\d{1,3}(?:[, ]\d{3})+(?![\d.])|\d+|(?=\.\d))(?:\.\d+)?"
_TOKEN = re.compile(
    rf"(?<![\w.^/@])(?<![^\W\d_]-)(?P<num>{_NUM})"
    r"(?:(?P<sci>\s?[×x*·]\s?10\^?(?P<exp1>[-+]?\d+(?:\.\d+)?))|[eE](?P<exp2>[-+]?\d{1,3})\b"
    r"|\^(?P<pow>[-+]?\d+(?:\.\d+)?))?"
    rf"(?:(?:x|\s?%)?\s?(?:-|to)\s?(?P<hi>{_NUM})(?!\d|,\d)(?:\^(?P<hipow>[-+]?\d{{1,3}})(?![\d.]))?"
    r"(?:\s?[×x*·]\s?10\^?(?P<hiexp>[-+]?\d+(?:\.\d+)?))?)?"
    r"(?:\s?±\s?(?P<pm>\d+(?:\.\d+)?))?"
    r"(?P<suffix>[kKMB](?![\w]))?"
)
_UNIT_WORD = re.compile(r"(?:\s|-)?(%|[A-Za-zµμ°˚]+(?:/s\b)?)")  # "60-minute" has a unit too
_BEFORE = re.compile(r"([\w~≈<>≥≤.]+(?:\s+[\w.]+)?)\s*$")
_APPROX = frozenset(
    "about approximately around roughly nearly almost circa ca. ca some ~ ≈ approx approx. etwa "
    "rund ungefähr knapp".split()
)
_LOWER = frozenset(
    "over above exceeding exceeds more least > ≥ beyond über mehr mindestens".split()
)
_UPPER = frozenset("under below less fewer most up < ≤ within unter weniger höchstens".split())
# "no more than 17,029", "not less than 5": a negated bound is the other bound.
_NEGATED_BOUND = re.compile(
    r"\b(?:no|not)\s+(?:more|less|fewer|greater|over|under|above|below)\s+(?:than\s+)?$", re.I
)
_NOT_A_VALUE = frozenset(
    "figure fig fig. figs table tab tab. section sect sect. sec sec. equation eq eq. eqs chapter "
    "ch. page p. pp. pp step algorithm line lines appendix ref ref. refs version v. model models "
    "curve curves".split()
)
_ROLE_STOP = frozenset(
    "the a an of and or in on at to for with by from as is are was were be been than that this "
    "these those its their our we it about approximately around over under up more less nearly "
    "almost roughly only some each per".split()
)

_SUFFIX = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}
# "one terabyte", "two seconds": small number words count only before a unit (alpha2digit leaves
# them as words, and "one of the workers" states no value).
_UNIT_NAMES = sorted((u for u in UNITS if len(u) > 1 and u.isalpha()), key=len, reverse=True)
_SMALL_UNIT = re.compile(
    r"(?<![\w-])(" + "|".join(_SMALL) + r") (?=(?:" + "|".join(_UNIT_NAMES) + r")\b)", re.I
)
_NUMBER_WORD = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|billion|point)\b",
    re.I,
)


_MAY_HOLD = re.compile(r"[\d⁰¹²³⁴⁵⁶⁷⁸⁹]")
_LETTERS = re.compile(r"[a-z]+")
# Every word that _normalise reads as a number (WORD_VALUES and _NUMBER_WORD): a text with
# none of them and no digit holds no quantity.
NUMBER_WORDS = frozenset(
    {w for phrase in WORD_VALUES for w in phrase.split() if w != "a"}
    | set(re.findall(r"[a-z]{3,}", _NUMBER_WORD.pattern))
    | set(DENOMINATORS)
)


# "8,07 · 10^5", "82,5 %", "3,5 Millionen": a decimal comma where a thousands separator cannot stand (one or two
# digits after it) before a power of ten or a percent sign; elsewhere "1,5" stays a list.
_DECIMAL_COMMA = re.compile(
    r"(?<![\d,.])(\d+),(\d{1,2})(?![\d,])(?=\s?(?:[×x*·]\s?10|%|(?:Millionen|Milliarden|Mio|Mrd)\b))"
)
# Separators that leave no doubt: "1,000.5" and "1.000,5" (thousands grouped one way, a decimal
# mark the other), "1.234.567" (two or more groups), "0,25" (a leading zero groups nothing).
# "2.500" alone stays as written (2.5 in English, 2500 in German), and so does a list ("k=0,1,...").
# Rewritten as plain digits.
_GROUPED = re.compile(
    r"(?<![\d.,])(?:(?P<en>\d{1,3}(?:,\d{3})+\.\d+)|(?P<eu>\d{1,3}(?:\.\d{3})+,\d+)"
    r"|(?P<dots>\d{1,3}(?:\.\d{3}){2,})|(?P<zero>0,\d+(?!,)))(?![\d]|[.,]\d)"
)


def _ungrouped(m: re.Match[str]) -> str:
    if m["en"]:
        return m["en"].replace(",", "")
    if m["eu"]:
        return m["eu"].replace(".", "").replace(",", ".")
    if m["dots"]:
        return m["dots"].replace(".", "")
    return m["zero"].replace(",", ".")


# "forty-five-minute": a number word joined to its unit, which alpha2digit does not read.
_ONE_WORD = "(?:" + "|".join(sorted(NUMBER_WORDS)) + ")"
_WORD_UNIT = re.compile(
    rf"\b({_ONE_WORD}(?:-{_ONE_WORD})?)-(?=(?:" + "|".join(_UNIT_NAMES) + r")\b)", re.I
)


# "between four hundred and six hundred nm": two numbers of one scale (alpha2digit reads "406
# 100"; "four hundred and six" is one number), a range as "four hundred to six hundred" is read.
_BETWEEN_WORDS = re.compile(
    r"\b(between [a-z]+(?:[\s-][a-z]+){0,2} (hundred|thousand|million|billion)) and "
    r"(?=[a-z]+(?:-[a-z]+)? \2\b)",
    re.I,
)
# "between 0.1 and 0.2 Tbps": a range, as "0.1 to 0.2 Tbps" is read.
_BETWEEN = re.compile(
    r"\bbetween\s+(\d+(?:[.,]\d+)*(?:\^[-+]?\d{1,3}|\s?[×x*·]\s?10\^?[-+]?\d{1,3})?(?:\s?%)?)"
    r"\s+and\s+(?=\d)",
    re.I,
)
# "0 through 255", "5 thru 10", "from 5 up to 10 layers": a range, as "0 to 255" is read ("up to
# 10" alone is a bound, "at most 10").
_THROUGH = re.compile(
    r"(?<=\d)(\s?%)?\s+(?:through|thru)\s+(?=\d)|(?<=\bfrom\s)(\d+(?:[.,]\d+)*(?:\s?%)?)\s+up\s+to\s+(?=\d)",
    re.I,
)


def _through(m: re.Match[str]) -> str:
    return f"{m.group(2)} to " if m.group(2) is not None else f"{m.group(1) or ''} to "


_VAGUE_WORDS = ("hundred", "thousand", "million", "billion", "dozens")


def _vague_word(lower: str) -> bool:
    return any(w in lower for w in _VAGUE_WORDS)  # five substring scans: cheaper than a regex


# a digit, a separator, three digits, a separator and a digit; or "0,": what _GROUPED may rewrite
_GROUP_HINT = re.compile(r"\d[.,]\d\d\d[.,]\d|0,\d")
# "4 out of the 6 participants": the evidence also states the share (66.7 %).
# A claim's "9 out of 10 users" is read as the share only (``out`` present).
_OUT_OF = re.compile(
    r"(?<![\d.,])(?P<part>\d{1,9})\s+(?P<out>out\s+)?of\s+(?:the\s+|all\s+|a\s+total\s+of\s+)?"
    r"(?P<whole>\d{1,9})(?![\d.,])"
)


def _part_of(m: re.Match[str]) -> float | None:
    """The share "k (out) of N" states, in per cent; None unless 0 < k <= N."""
    part, whole = int(m["part"]), int(m["whole"])
    return 100 * part / whole if 0 < part <= whole else None


def _normalise(text: str, small_words: bool = False) -> str:
    text = _FLAT_POWER.sub(r"10^-\1", unicodedata.normalize("NFC", text)).translate(_MINUS)
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    if _GROUP_HINT.search(text):
        text = _GROUPED.sub(_ungrouped, text)
    if "-" in text:
        text = _WORD_UNIT.sub(r"\1 ", text)
    text = _ONE_IN.sub(lambda m: share_text(100 / int(m.group(1))), text)
    text = _SUPER_RUN.sub(lambda m: "^" + m.group(1).translate(_SUPER), text)
    if "{" in text or "\\" in text:  # LaTeX: "3.5 \times 10^{6}", "10^{-3}"
        text = _LATEX_POWER.sub(r"^\1", text.replace("\\times", "×").replace("\\cdot", "·"))
    text = shares_and_multiples(text)
    if _vague_word(text.lower()):
        text = vague_amounts(text)
    text = word_values(text)
    text = _FRACTION.sub(_fraction, text)
    text = multiples(re.sub(r"(?<=\w)-fold\b", " fold", text))
    text = _SCALED.sub(lambda m: _scaled(m.group(1), _SCALE[m.group(2).lower()]), text)
    if _NUMBER_WORD.search(text):
        if "between" in text:
            text = _BETWEEN_WORDS.sub(r"\1 to ", text)
        text = in_digits(text, "en", small_words)
        text = _SMALL_UNIT.sub(lambda m: f"{_SMALL.index(m.group(1).lower()) + 1} ", text)
    if not small_words and " out of " in text:  # a claim's "9 out of 10 users" is a share
        text = _OUT_OF.sub(
            lambda m: m.group() if not m["out"] or (k := _part_of(m)) is None else share_text(k),
            text,
        )
    text = german_in_digits(text, small_words)
    text = _BETWEEN.sub(r"between \1 to ", text)
    if "thr" in text or " up to " in text:
        text = _THROUGH.sub(_through, text)
    return _SPLIT_SCALE.sub(lambda m: _scaled(m.group(1), float(m.group(2))), text)


def _fraction(m: re.Match[str]) -> str:
    top, bottom = int(m.group(1)), int(m.group(2))
    return share_text(100 * top / bottom) if top < bottom else m.group()


def _scaled(number: str, factor: float) -> str:
    """ "3.5" and a million as "3.5e6": the precision the writer gave stays with the number."""
    return f"{number}e{round(math.log10(factor))}"


def _decimals(number: str) -> int:
    return len(number.partition(".")[2])


def _role(text: str, start: int, end: int) -> frozenset[str]:
    before = re.findall(r"[^\W\d_]+", text[max(0, start - 30) : start].lower())[-2:]
    after = re.findall(r"[^\W\d_]+", text[end : end + 40].lower())[:3]
    return frozenset(w[:6] for w in (*before, *after) if w not in _ROLE_STOP and len(w) > 1)


def quantities(text: str, *, small_words: bool = False) -> tuple[Quantity, ...]:
    """Every number in ``text`` that states a value (figure and section numbers are not).
    Number words below ten count only before a unit ("one terabyte"; "one of the workers"
    states no value) unless ``small_words``: evidence reads them all, so that a claim's "10
    participants" finds the paper's "ten participants"."""
    if not _MAY_HOLD.search(text) and (
        not NUMBER_WORDS & set(_LETTERS.findall(lower := text.lower()))
        and not GERMAN_NUMBER.search(text)
        and "fold" not in lower
        and not _vague_word(lower)
    ):
        return ()  # most sentences: no digit, no number word (the passes below cost ~100 µs)
    norm = _normalise(text, small_words)
    out = []
    for m in _TOKEN.finditer(norm):
        q = _quantity(norm, m)
        if q is not None:
            out.append(q)
    if small_words:  # the evidence: "4 out of the 6" also states two thirds
        for m in _OUT_OF.finditer(norm):
            if (share := _part_of(m)) is not None:
                role = _role(norm, m.start(), m.end())
                out.append(Quantity(share, share, share, 0.05, "%", m.group(), role))
    return tuple(out)


def _quantity(text: str, m: re.Match[str]) -> Quantity | None:
    before = _BEFORE.search(text, max(0, m.start() - 24), m.start())
    prev = before.group(1).lower().split() if before else []
    if prev and prev[-1] in _NOT_A_VALUE:
        return None
    after = text[m.end("num") : m.end("num") + 2]
    if after[:1] == "." and after[1:].isdigit():  # a version: "SciPy 1.0.0"
        return None
    if (
        not m.group("suffix")
        and _HEADING.search(text, max(0, m.start() - 8), m.start())
        and re.match(r"\s[A-Z][a-z]", text[m.end() : m.end() + 3])
        and "," not in m.group()
        and "^" not in m.group()  # "2.5 × 10^4 Kanten" opening a text is no heading
        and len(m.group("num").partition(".")[0]) <= 2
        and not ((u := _UNIT_WORD.match(text, m.end())) and unit_of(u.group(1)))
    ):  # "5 Performance" opening a line: a heading ("4.5 Gyr ago" is no heading)
        return None
    raw = m.group("num").replace(",", "").replace(" ", "")
    value = float(raw)
    tol = 0.5 * 10 ** -_decimals(raw)
    exp = m.group("exp1") or m.group("exp2")
    if m.group("pow") is not None:  # 10^6.6: the power is the number
        power = float(m.group("pow"))
        base, value = value, value**power
        if _decimals(m.group("pow")):  # 10^6.6: half a unit of the exponent's last digit
            spread = 0.5 * 10 ** -_decimals(m.group("pow"))
            tol = value * (10**spread - 1) if value else 0.0
        elif base == 10:  # 10^6 is "a million": one significant digit (not 10^5.5 to 10^6.5)
            tol = 0.5 * value
        else:  # 2^10 is 1,024
            tol = 0.5 * 10 ** -_decimals(raw)
    elif exp is not None:
        scale = 10 ** float(exp)
        value, tol = value * scale, tol * scale
    low = high = value
    if m.group("hi"):
        hi = float(m.group("hi").replace(",", "").replace(" ", ""))
        if m.group("hipow") is not None:  # "10^1 - 10^2": a range of powers
            hi = hi ** float(m.group("hipow"))
        if m.group("hiexp") is not None:  # "0.3x10^-27 to 1.1x10^-27"; "0.3-1.1 × 10^-27":
            scale = 10 ** float(m.group("hiexp"))  # the power scales both ends
            hi *= scale
            if exp is None and m.group("pow") is None:
                value, tol = value * scale, tol * scale
                low = high = value
        if hi > value:
            high = hi
    if m.group("pm"):
        spread = float(m.group("pm"))
        low, high = value - spread, value + spread
    unit, factor, offset, end = "", 1.0, 0.0, m.end()
    if m.group("suffix"):
        factor = _SUFFIX[m.group("suffix")]
    else:
        u = _UNIT_WORD.match(text, m.end())
        if u:
            word = u.group(1)
            if text[u.start(1) : u.start(1) + 8].lower() == "per cent":
                word = "per cent"
            known, end = unit_of(word), u.end()
            if word == "K" and text[end : end + 1] == "-":  # "2 K-means runs": no kelvin
                known = None
            if known is None and word.endswith("/s"):  # "3 m/s": its metres, as before
                known, end = unit_of(word[:-2]), end - 2
            if known is not None:
                unit, factor, offset = *known, offset_of(word)
            else:
                end = m.end()
    if unit == "%":
        pass  # percentages compare as percentages (agree() also tries them as fractions)
    value, low, high = value * factor + offset, low * factor + offset, high * factor + offset
    tol *= factor
    words = set(prev)
    approx = bool(words & _APPROX) or "~" in "".join(prev)
    bound = ">" if words & _LOWER else "<" if words & _UPPER else ""
    if bound and _NEGATED_BOUND.search(text, max(0, m.start() - 24), m.start()):
        bound = "<" if bound == ">" else ">"
    written = text[m.start() : end]
    return Quantity(
        value=value,
        low=low,
        high=high,
        tol=tol,
        unit=unit,
        text=written,
        role=_role(text, m.start(), end),
        approx=approx,
        bound=bound,
        scale=factor if unit else 1.0,
        offset=offset,
    )
