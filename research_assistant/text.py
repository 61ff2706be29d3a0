"""Pure text helpers shared by the core: folding names, words, numbers and sentences.

Every function runs in linear time; the regular expressions have no nested quantifiers.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})
_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-"})
# Letters that NFKD does not decompose into a base letter plus accent.
_SPECIAL = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ß": "ss",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ı": "i",
        "þ": "th",
        "ð": "d",
    }
)


def normalize_space(text: str) -> str:
    """NFC, unified apostrophes and dashes, all whitespace (incl. NBSP) as single spaces."""
    text = unicodedata.normalize("NFC", text).translate(_APOSTROPHES).translate(_DASHES)
    return " ".join(text.split())


# One regex pass instead of str.translate with dict tables (~150 µs per 1,000 characters, which
# alone would break the verifier's 1 ms budget); tests/test_text.py checks it against that form.
_FOLD_MAP = {chr(k): v for t in (_APOSTROPHES, _DASHES, _SPECIAL) for k, v in t.items()}
_FOLD_CHARS = re.compile("[" + re.escape("".join(_FOLD_MAP)) + "]")

# Accents are dropped only where they are accents: on Latin, Greek and Cyrillic letters ("é" is
# "e", "й" is "и"), and on no letter at all (a PDF's spacing "¨" decomposes to a space and a
# combining diaeresis; "≠" is "=" with a combining stroke). Elsewhere a mark makes another
# letter: Japanese dakuten ("ば" is not "は"), Indic vowel signs and nukta, Hebrew and Arabic
# points; those are kept, composed (NFC), so "ば" folds to itself and Hangul stays syllables.
_ACCENTED_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
# Every mark (categories Mn, Mc, Me) lies below U+20000 or among the variation selectors at
# U+E0100, and every precomposed character that loses its accents lies below U+10000:
# tests/test_text.py checks both against a scan of all code points.
_MARK_PLANES = (range(0x20000), range(0xE0000, 0xE1000))


def _keeps_marks_uncached(base: str) -> bool:
    """True when combining marks after ``base`` make another letter and must not be dropped: a
    letter of any script but Latin, Greek and Cyrillic."""
    if not unicodedata.category(base).startswith("L"):
        return False
    return unicodedata.name(base, "").partition(" ")[0] not in _ACCENTED_SCRIPTS


_keeps_marks = functools.cache(_keeps_marks_uncached)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _mark_code_points() -> list[int]:
    """The code points of all combining marks this Python's Unicode tables know."""
    return [c for r in _MARK_PLANES for c in r if _is_mark(chr(c))]


def _char_class(points: list[int]) -> str:
    """The inside of a regex character class holding ``points`` (sorted), as ranges."""
    ranges: list[str] = []
    first = last = points[0]
    for c in [*points[1:], -1]:
        if c == last + 1:
            last = c
            continue
        ranges.append(re.escape(chr(first)) + ("-" + re.escape(chr(last)) if last > first else ""))
        first = last = c
    return "".join(ranges)


# fold's patterns are made from Python's Unicode tables: 0.15 s of work in every process that
# folds non-ASCII text (the CLI, each PDF reader, the app). unicode_tables.py holds the result
# for one Unicode version (written by `make unicode-tables`, checked by tests/test_text.py);
# another version computes its own on first use.
Tables = tuple[str, dict[str, str], str, str]


def computed_tables() -> Tables:
    """The first pass's character class and table, the dropped-marks pattern and the class of
    every mark, as _first_pass, _dropped_marks and _mark_runs use them."""
    # _FOLD_MAP, and every precomposed character (as NFKC leaves it) whose accents go, with
    # its base letter as _FOLD_MAP leaves it: "é" -> "e", "ΐ" -> "ι", "≠" -> "=", "Ǿ" -> "O".
    table = dict(_FOLD_MAP)
    marks: list[int] = []
    plain: list[int] = []
    for c in range(0x10000):
        ch = chr(c)
        decomposed = unicodedata.normalize("NFD", ch)
        base, accents = decomposed[0], decomposed[1:]
        if (
            accents
            and not _is_mark(base)  # a precomposed mark ("\u09cb") is left to the mark step
            and all(_is_mark(m) for m in accents)
            and not _keeps_marks_uncached(base)
            and unicodedata.normalize("NFKC", ch) == ch
        ):
            table[ch] = _FOLD_MAP.get(base, base)
        if _is_mark(ch):
            marks.append(c)
        elif (ch.isalnum() or ch == "_") and not _keeps_marks_uncached(ch):
            plain.append(c)
    m, p = _char_class(marks), _char_class(plain)
    # The dropped marks: in text below U+10000, the runs of marks after a character that is
    # neither a word character nor a mark (or at the start), or after a word character that
    # does not keep its marks (a digit, "_", a Latin, Greek or Cyrillic letter), found without
    # a Python call per run (Devanagari has one every few letters). The class comes first so
    # that the engine skips to the next mark at C speed; the lookbehinds then look at the
    # character before that first mark. Astral ranges in a class would make the engine test
    # them one by one for every character, so astral text goes by _mark_runs.
    dropped = f"[{m}](?:(?<![\\w{m}][{m}])|(?<=[{p}][{m}]))[{m}]*"
    first = _char_class(sorted(map(ord, table)))
    return first, table, dropped, _char_class(_mark_code_points())


@functools.cache
def _tables() -> Tables:
    from research_assistant import unicode_tables as saved  # here: only non-ASCII text needs it

    if unicodedata.unidata_version == saved.UNIDATA_VERSION:
        return saved.FIRST_PASS, saved.FIRST_PASS_TABLE, saved.DROPPED_MARKS, saved.MARKS
    return computed_tables()


@functools.cache
def _first_pass() -> tuple[re.Pattern[str], dict[str, str]]:
    """One pass with one table: a Python call per match is the cost of this step."""
    first, table, _, _ = _tables()
    return re.compile(f"[{first}]"), table


@functools.cache
def _dropped_marks() -> re.Pattern[str]:
    return re.compile(_tables()[2])


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@functools.cache
def _mark_runs() -> re.Pattern[str]:
    """Every run of marks, astral ones included; _strip_accents decides on each."""
    return re.compile(f"[{_tables()[3]}]+")


def write_tables(path: Path) -> None:
    """Write unicode_tables.py for this Python's Unicode version (`make unicode-tables`)."""
    first, table, dropped, marks = computed_tables()
    lines = [
        '"""Generated by `make unicode-tables` (text.write_tables): fold\'s patterns for one',
        'Unicode version. Do not edit; tests/test_text.py checks them against text.py."""',
        "",
        f"UNIDATA_VERSION = {unicodedata.unidata_version!r}",
        f"FIRST_PASS = {first!r}",
        f"FIRST_PASS_TABLE = {table!r}",
        f"DROPPED_MARKS = {dropped!r}",
        f"MARKS = {marks!r}",
        "",
    ]
    path.write_text("\n".join(lines), encoding="ascii", errors="backslashreplace")


def _strip_accents(m: re.Match[str]) -> str:
    i = m.start()
    return m.group() if i and _keeps_marks(m.string[i - 1]) else ""


def _fold_char(m: re.Match[str]) -> str:
    return _FOLD_MAP[m.group()]


def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive form for comparing names, titles and claims:
    compatibility forms unified ("ﬁ" is "fi"), accents dropped from Latin, Greek and Cyrillic
    letters (see _keeps_marks_uncached), case-folded, composed (NFC), spaces collapsed. Folding
    twice changes nothing.

    Equal to NFC(casefold(NFKD(text) without the marks after a Latin, Greek or Cyrillic letter
    or after no letter)) with the letters and punctuation of _FOLD_MAP replaced before and
    after, which tests/test_text.py computes character by character. This form maps composed
    letters to their bases instead of decomposing everything (text in other scripts would be
    decomposed only to be composed again) and drops marks with regular expressions, not a
    Python loop."""
    if text.isascii():  # the common case
        return " ".join(text.replace("`", "'").split()).casefold()
    first, table = _first_pass()
    text = first.sub(lambda m: table[m.group()], unicodedata.normalize("NFC", text))
    if not unicodedata.is_normalized("NFKC", text):  # "ﬁ", "ǅ" -> "Dž", "e" + dot below -> "ẹ"
        text = first.sub(lambda m: table[m.group()], unicodedata.normalize("NFKC", text))
    if _ASTRAL.search(text):
        text = _mark_runs().sub(_strip_accents, text)
    else:
        text = _dropped_marks().sub("", text)
    text = text.casefold()
    if _FOLD_CHARS.search(text):  # case-folding makes letters the first pass maps: "Ð" -> "ð"
        text = _FOLD_CHARS.sub(_fold_char, text)
    return " ".join(unicodedata.normalize("NFC", text).split())


# A word the PDF broke at a line end: "automati-\ncally". The verifier joins these before
# comparing, and the extractive answerer must join them the same way or its sentences would not
# verify: one pattern for both. The hyphen is matched before the letter behind it is looked at:
# a pattern that opens with a look-behind is tried at every character (20x slower on chunks).
LINE_HYPHEN = re.compile(r"-(?<=[^\W\d_]-)[ \t]*\n\s*(?=[^\W\d_])")

# Lower-case name particles ("van der Berg", "op den Kamp", "ibn Sina"): kept in cited names by
# citations.py, skipped by verify.py when it compares family names.
PARTICLES = frozenset(
    "van von der den de del della dela di da du des dos das la le ten ter te op het zu vom zum "
    "zur am al el bin ibn ben y d l".split()
)
# The particles also written capitalised at the start of a cited name ("Van der Berg (2019)",
# "De Gennes"); the others capitalised are more often names or words of their own ("Al", "El").
CAPITAL_PARTICLES = frozenset(
    p.capitalize() for p in PARTICLES & set("le la de van von du da di del den der ten ter".split())
)


_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


def words(text: str) -> list[str]:
    """Folded word tokens (letters and digits; inner apostrophes and hyphens kept)."""
    return _WORD.findall(fold(text))


STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up very
    was we were what when where which while who whom why will with would you your yours
    yourself yourselves may might must shall via per using use used based show shows shown
    we our paper study results et al however thus therefore also""".split()
)


def content_words(text: str) -> list[str]:
    """Words that carry meaning: not stopwords, not one-letter, not bare numbers."""
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1 and not w.isdigit()]


_NUMBER = re.compile(r"(?<![\w.])[-+\u2212]?\d+(?:[.,]\d+)*(?:\.\d+)?")


def numbers(text: str) -> list[str]:
    """Numbers as written, normalised: '1,000' -> '1000', '\u22121.5' -> '-1.5'."""
    out = []
    for m in _NUMBER.finditer(normalize_space(text)):
        raw = m.group().replace("\u2212", "-").lstrip("+")
        # a comma between groups of three digits is a thousands separator; otherwise decimal
        if re.fullmatch(r"-?\d{1,3}(,\d{3})+", raw):
            raw = raw.replace(",", "")
        else:
            raw = raw.replace(",", ".")
        out.append(raw)
    return out


# Abbreviations after which a full stop does not end a sentence.
_ABBREVIATIONS = frozenset(
    "al e.g i.e etc fig figs eq eqs ref refs sec vs cf approx no vol pp p dr mr ms prof "
    "st jr sr tab resp ca sect secs chap ch eqn "
    "sog bzw vgl usw".split()  # German: "die sog. Homophilie", "bzw.", "vgl.", "usw."
)
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*\s+")


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence in ``text``; ends are exclusive, whitespace trimmed."""
    start = 0
    n = len(text)
    for m in _SENTENCE_END.finditer(text):
        end = m.end()
        before = text[start : m.start()].rsplit(None, 1)
        last = before[-1].lower().lstrip("([{\"'").rstrip(".") if before else ""
        nxt = text[end : end + 1]
        if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue  # "et al." / "Fig." / an initial "J."
        if nxt and not (nxt.isupper() or nxt.isdigit() or nxt in "[(\"'"):
            continue  # next word starts lower-case: not a sentence boundary
        yield from _trimmed(text, start, m.start() + len(m.group().rstrip()))
        start = end
    if start < n:
        yield from _trimmed(text, start, n)


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        yield start, end


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]
