"""Where the sentences of a chunk begin and end, as the support scorer reads them (pure).

The shared splitter (``text.sentence_spans``) splits at a full stop before a space; PDF text
also glues a heading line to the sentence after it, and a footnote mark kept as an exponent
("made.^17 Next") to the full stop before the next sentence: both are split here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from research_assistant import text as _text
from research_assistant.tables import TableRow, tables
from research_assistant.terms import terms

__all__ = [
    "ROW_NAMED",
    "RowPlace",
    "Rows",
    "named_cells",
    "sentence_spans",
    "split",
    "unnamed_rows",
]


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence in ``text``, headings and footnoted ends split off; in a
    table, each row, its caption and its column heads one sentence each (``tables``)."""
    yield from split(text)[0]


@dataclass(frozen=True)
class RowPlace:
    """A table row among a chunk's sentences: its caption's and heads' sentence indices, its
    label and its cells."""

    named: tuple[int, ...]
    label: str
    cells: tuple[str, ...]
    heads: tuple[str, ...] = ()  # one a cell, when the table's heads were bound

    @property
    def reading(self) -> str:
        """The row as its numbers are read: "total step: 250" (a bare "step 250" is a name)."""
        return f"{self.label}: {' '.join(self.cells)}"


Rows = dict[int, RowPlace]
# A claim names a table row when it uses half of the terms of its label ("Output data written"
# for "... wrote 758 TB of output data"): the row's value is what the label says it is, and a
# claim about another row ("Intermediate data produced 758 TB") is not supported by its cell.
ROW_NAMED = 0.5


def unnamed_rows(rows: Rows, claim: frozenset[str]) -> list[int]:
    """The table rows (sentence indices) whose label the claim's terms do not name."""
    out = []
    for j, row in rows.items():
        have = _label_terms(row.label)
        if have and len(have & claim) < ROW_NAMED * len(have):
            out.append(j)
    return out


def named_cells(row: RowPlace, claim: frozenset[str]) -> str | None:
    """The row read for a claim that names some of its columns ("a precision of 0.69" names
    "Precision" of "Precision / Recall / F1"): those columns' cells only, as ``reading`` reads
    them; None when the claim names no column (or every one) or the heads are not known."""
    if not row.heads:
        return None
    named = [i for i, h in enumerate(row.heads) if _named_head(h, claim)]
    if not named or len(named) == len(row.heads):
        return None
    return f"{row.label}: {' '.join(row.cells[i] for i in named)}"


def _named_head(head: str, claim: frozenset[str]) -> bool:
    have = _label_terms(_HEAD_WORDS.get(head.casefold().strip(" ."), head))
    return bool(have) and have <= claim


# Column heads that tables abbreviate: what a claim writes for them.
_HEAD_WORDS = {
    "p": "precision",
    "prec": "precision",
    "r": "recall",
    "rec": "recall",
    "acc": "accuracy",
    "f": "F1",
    "f1": "F1",
    "f-score": "F1",
    "f-measure": "F1",
}


@functools.lru_cache(maxsize=4096)
def _label_terms(label: str) -> frozenset[str]:
    return terms(label)


def split(text: str) -> tuple[list[tuple[int, int]], Rows]:
    """The sentence spans (``sentence_spans``) and, for each table row among them (by index),
    the indices of its table's caption and column heads (what says what its numbers are) and
    the row's label."""
    found = tables(text) if "\n" in text else []
    if not found:
        return list(_prose(text)), {}
    spans: list[tuple[int, int]] = []
    rows: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
    table_rows: dict[tuple[int, int], TableRow] = {}
    for t in found:
        named = tuple(x for x in (t.caption_span, t.heads_span) if x is not None)
        for r in t.rows:
            rows[(r.start, r.end)] = named
            table_rows[(r.start, r.end)] = r
    pos = 0
    for start, end in sorted({*rows, *(x for named in rows.values() for x in named)}):
        if start < pos:
            continue  # a caption two tables share: once
        spans.extend(_prose(text, pos, start))
        spans.append((start, end))
        pos = end
    spans.extend(_prose(text, pos, len(text)))
    at = {span: i for i, span in enumerate(spans)}
    context = {
        at[row]: RowPlace(
            tuple(at[x] for x in named if x in at),
            table_rows[row].label,
            table_rows[row].cells,
            table_rows[row].heads,
        )
        for row, named in rows.items()
        if row in at
    }
    return spans, context


def _prose(text: str, lo: int = 0, hi: int | None = None) -> Iterator[tuple[int, int]]:
    piece = text if lo == 0 and hi is None else text[lo:hi]
    if not piece.strip():
        return
    for s, e in _text.sentence_spans(piece):
        for a, b in _footnoted(piece, s, e):
            for x, y in _headed(piece, a, b):
                yield lo + x, lo + y


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
