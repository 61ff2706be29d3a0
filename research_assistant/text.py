"""Pure text helpers shared by the core: folding names, words, numbers and sentences.

Every function runs in linear time; the regular expressions have no nested quantifiers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

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
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive form for comparing names, titles and claims."""
    if text.isascii():  # the common case
        return " ".join(text.replace("`", "'").split()).casefold()
    text = _FOLD_CHARS.sub(lambda m: _FOLD_MAP[m.group()], unicodedata.normalize("NFC", text))
    text = unicodedata.normalize("NFKD", " ".join(text.split()))
    return _COMBINING.sub("", text).casefold()


# A word the PDF broke at a line end: "automati-\ncally". The verifier joins these before
# comparing, and the extractive answerer must join them the same way or its sentences would not
# verify: one pattern for both.
LINE_HYPHEN = re.compile(r"(?<=[^\W\d_])-[ \t]*\n\s*(?=[^\W\d_])")

# Lower-case name particles ("van der Berg", "op den Kamp", "ibn Sina"): kept in cited names by
# citations.py, skipped by verify.py when it compares family names.
PARTICLES = frozenset(
    "van von der den de del della dela di da du des dos das la le ten ter te op het zu vom zum "
    "zur am al el bin ibn ben y d l".split()
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
    "st jr sr tab resp ca sect secs chap ch eqn".split()
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
