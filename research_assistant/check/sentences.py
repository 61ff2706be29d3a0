"""Where the sentences of a chunk begin and end, as the support scorer reads them (pure).

The shared splitter (``text.sentence_spans``) splits at a full stop before a space; PDF text
also glues a heading line to the sentence after it, and a footnote mark kept as an exponent
("made.^17 Next") to the full stop before the next sentence: both are split here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from research_assistant import text as _text

__all__ = ["sentence_spans"]


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence in ``text``, headings and footnoted ends split off."""
    for s, e in _text.sentence_spans(text):
        for a, b in _footnoted(text, s, e):
            yield from _headed(text, a, b)


# A line of a few words without closing punctuation, before a capitalised line: a heading or a
# title ("Abstract", "4.8 Status Information"), which PDF text glues to the sentence after it.
_HEADING_LINE = re.compile(r"\n(?=[A-Z])")
_HEADING_WORDS = 4


# A sentence end followed by a footnote mark the reader kept as an exponent ("made.^17 Next"):
# the shared splitter sees no space after the full stop, and glued the next sentence on.
_FOOTNOTE_END = re.compile(r"[.!?]\^[\d,–-]+\s+(?=[A-Z])")


def _footnoted(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The span of one sentence, split after each footnote mark that ends a sentence in it."""
    if text.find("^", start, end) < 0:
        return [(start, end)]
    out, lo = [], start
    for m in _FOOTNOTE_END.finditer(text, start, end):
        out.append((lo, m.start() + len(m.group().rstrip())))
        lo = m.end()
    out.append((lo, end))
    return out


def _headed(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The span of one sentence, split after each heading line glued to it."""
    if text.find("\n", start, end) < 0:
        return [(start, end)]
    out, lo = [], start
    for m in _HEADING_LINE.finditer(text, start, end):
        line = text[text.rfind("\n", lo, m.start()) + 1 : m.start()].strip()
        if line and len(line.split()) <= _HEADING_WORDS and line[-1] not in ".,;:-–(":
            out.append((lo, m.start()))
            lo = m.end()
    out.append((lo, end))
    return [(a, b) for a, b in out if text[a:b].strip()]
