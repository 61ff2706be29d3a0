"""The rows of the tables in a page's text, as PDF text extraction leaves them (pure).

MuPDF writes a table one cell a line: "Number of jobs / 29,423 / Average job completion time /
634 secs / ...", or with column heads first: "Method / P / R / F1 / SemEAGAT / 80.7 / 73.2 /
76.8 / -BiLSTM / ...". Read as prose, a table is one long run of words and numbers with no
full stop: the checker paired a claim's number with the wrong cell, and the answerer could not
quote a value at all. Here a row is one or two label lines followed by value lines (a number,
perhaps with a unit or a sign, or a dash for an empty cell); three rows in a run make a table.
The value lines' column heads are the lines just before the first row, when there are as many
as a row has values; the caption is a "Table N" line above the heads or just below the last
row. Every scan is one pass over the lines; nothing here is keyed to a particular paper.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, replace

__all__ = ["Table", "TableRow", "row_text", "tables"]

MIN_ROWS = 3  # rows in a run before it counts as a table: two could be prose and a page number
MAX_LABEL_LINES = 2  # "α / (Equation 1) / 1.5": a row's label may take two lines
MAX_LABEL_WORDS = 8  # a longer line is prose
MAX_LABEL_CHARS = 60
MAX_CAPTION_LINES = 3
MAX_CAPTION_CHARS = 160  # a caption's first sentence, cut here
MAX_HEAD_WORDS = 4  # a column head is short; a longer line above the rows is something else
MAX_LINES = 20_000  # a page's text is bounded by the reader; this bounds a pathological one

# A cell holding a value: a number with an optional sign or comparison and up to two unit-like
# words ("634 secs", "<0.0001", "1.18x", "−0.3 mag", "96 %"), or a dash for an empty cell.
_VALUE = re.compile(
    r"[<>≤≥~±+\-−]?\s?\d(?:[\d.,]*\d)?(?:[eE][+\-−]?\d+)?\s?(?:%|x|×)?(?:\s?[^\W\d]{1,8}\.?){0,2}"
    r"|[—–-]+|N/?A|n/?a"
)
# A caption's label, "Table 2." or "Table IV:" (always matched at a line's start)
_CAPTION = re.compile(r"((?:Table|TABLE|Tab\.)\s*[\dIVX]+)\s*[.:]")
_FIGURE = re.compile(r"(?:Figure|FIGURE|Fig\.)\s*[\dIVX]+")
_SECTION = re.compile(r"\d+(?:\.\d+)*\.\s+[A-Z]")
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z])")


@dataclass(frozen=True)
class TableRow:
    """One row: where it stands in the text (its label's first character to its last cell's
    last), the label, the cells, and the table's column heads and caption when found."""

    start: int
    end: int
    label: str
    cells: tuple[str, ...]
    heads: tuple[str, ...] = ()  # one a cell, or none
    caption: str = ""

    @property
    def text(self) -> str:
        """The row as the paper writes it, one space between its lines."""
        return " ".join((self.label, *self.cells))


@dataclass(frozen=True)
class Table:
    start: int  # of the caption when it stands above, else of the heads or first row
    end: int  # of the last row, or of the caption below it
    rows: tuple[TableRow, ...]
    caption: str = ""
    caption_span: tuple[int, int] | None = None
    heads_span: tuple[int, int] | None = None

    @property
    def named(self) -> bool:
        """A caption or column heads say what its numbers are. Rows with neither may be a
        figure's axis ticks, or a table whose caption the chunk cut off: read apart, never
        quoted."""
        return bool(self.caption or self.heads_span)


def row_text(row: TableRow) -> str:
    """The row as an answer quotes it, after what says what its numbers are: "Table 1:
    MapReduce jobs run in August 2004 - Average job completion time 634 secs", "Table 2:
    Ablation study on ACE2005 test set, columns P, R, F1 - -BiLSTM 69.8 70.9 70.3". The
    caption's label ends in a colon and the caption in no full stop, so the whole stays one
    sentence for the checker."""
    label = _CAPTION.match(row.caption)
    lead = f"{label.group(1)}:{row.caption[label.end() :]}" if label else row.caption
    lead = lead.rstrip(" .")
    if row.heads:
        columns = "columns " + ", ".join(row.heads)
        lead = f"{lead}, {columns}" if lead else f"C{columns[1:]}"
    return f"{lead} - {row.text}" if lead else row.text


def _lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end, stripped text) of each non-empty line."""
    out = []
    pos = 0
    for raw in text.split("\n", MAX_LINES)[:MAX_LINES]:
        stripped = raw.strip()
        if stripped:
            lead = len(raw) - len(raw.lstrip())
            out.append((pos + lead, pos + lead + len(stripped), stripped))
        pos += len(raw) + 1
    return out


def _is_value(line: str) -> bool:
    return len(line) <= 24 and _VALUE.fullmatch(line) is not None


def _is_label(line: str) -> bool:
    if len(line) > MAX_LABEL_CHARS or len(line.split()) > MAX_LABEL_WORDS:
        return False
    if _CAPTION.match(line) or line.endswith((",", ";")):
        return False  # a caption, or a line of prose or of a reference-list entry
    if line.endswith((".", ":")) and len(line.split()) > 2:
        return False
    return any(c.isalpha() for c in line)


def _contents(table: Table) -> bool:
    """A table of contents, no table of values: most labels open with a section number ("2. The
    Buchert scheme")."""
    return sum(bool(_SECTION.match(r.label)) for r in table.rows) * 2 > len(table.rows)


def _is_head(line: str) -> bool:
    return len(line.split()) <= MAX_HEAD_WORDS and _FIGURE.match(line) is None


def _first_sentence(text: str) -> str:
    """A caption as an answer shows it: its first sentence, at most ``MAX_CAPTION_CHARS``."""
    label = _CAPTION.match(text)
    end = _SENTENCE_END.search(text, label.end() if label else 0)
    text = text[: end.start() + 1] if end else text
    return text if len(text) <= MAX_CAPTION_CHARS else text[:MAX_CAPTION_CHARS].rsplit(" ", 1)[0]


def tables(text: str) -> list[Table]:
    """The tables of ``text``, in order, each with at least ``MIN_ROWS`` rows."""
    lines = _lines(text)
    kinds = ["v" if _is_value(t) else "l" if _is_label(t) else "p" for _, _, t in lines]
    # the runs of value lines, each with the run of label lines just before it
    blocks: list[tuple[int, int, int]] = []  # (first label line, first value line, end)
    i = 0
    while i < len(lines):
        if kinds[i] != "v":
            i += 1
            continue
        k = i
        while k < len(lines) and kinds[k] == "v":
            k += 1
        a = i
        while a > 0 and kinds[a - 1] == "l":
            a -= 1
        blocks.append((a, i, k))
        i = k
    runs: list[list[tuple[int, int, int]]] = []
    run: list[tuple[int, int, int]] = []
    for a, b, c in blocks:
        follows = bool(run) and run[-1][2] == a and 0 < b - a <= MAX_LABEL_LINES
        if not follows:
            if len(run) >= MIN_ROWS:
                runs.append(run)
            run = [] if b == a else [(a, b, c)]
        else:
            run.append((a, b, c))
    if len(run) >= MIN_ROWS:
        runs.append(run)
    found = _captions_below(lines, [_table(lines, kinds, r) for r in runs])
    return [t for t in found if not _contents(t)]


def _table(
    lines: list[tuple[int, int, str]], kinds: list[str], run: list[tuple[int, int, int]]
) -> Table:
    """One run of rows as a table: the first row's label as long as the others', the column
    heads and a caption above."""
    width = Counter(c - b for _, b, c in run).most_common(1)[0][0]
    label_lines = Counter(b - a for a, b, _ in run[1:]).most_common(1)[0][0]
    a0, b0, c0 = run[0]
    first = max(a0, b0 - label_lines)
    run = [(first, b0, c0), *run[1:]]
    heads: tuple[str, ...] = ()
    heads_span = None
    above = first - width
    if 0 <= above - a0 <= 1 and all(_is_head(lines[h][2]) for h in range(above, first)):
        # as many short label lines above the first row as a row has values, and at most the
        # first column's head above them ("Method / P / R / F1"): heads of two lines each
        # ("Estimated QA / Performance") cannot be told apart from the cells they name
        heads = tuple(lines[h][2] for h in range(above, first))
        heads_span = (lines[above][0], lines[first - 1][1])
    caption, caption_span = _caption_above(lines, a0)  # above the heads and any label line
    rows = tuple(
        TableRow(
            start=lines[a][0],
            end=lines[c - 1][1],
            label=" ".join(lines[x][2] for x in range(a, b)),
            cells=tuple(lines[x][2] for x in range(b, c)),
            heads=heads if c - b == width else (),
            caption=caption,
        )
        for a, b, c in run
    )
    start = caption_span[0] if caption_span else heads_span[0] if heads_span else rows[0].start
    return Table(start, rows[-1].end, rows, caption, caption_span, heads_span)


def _joined(lines: list[tuple[int, int, str]]) -> str:
    """A caption's lines as one line; a word broken at a line end ("re- / trieving") joined."""
    out = ""
    for _, _, line in lines:
        if out.endswith("-") and line[:1].islower():
            out = out[:-1] + line
        else:
            out = f"{out} {line}" if out else line
    return out


def _caption_at(lines: list[tuple[int, int, str]], at: int) -> int:
    """The last line of the caption that starts at line ``at``: it goes on while a line ends
    without a full stop and the next starts in lower case ("... in metabolite / concentration
    in heat stressed plants ...")."""
    stop = at
    last = min(at + MAX_CAPTION_LINES, len(lines)) - 1
    while stop < last and not lines[stop][2].endswith(".") and lines[stop + 1][2][:1].islower():
        stop += 1
    return stop


def _caption_above(
    lines: list[tuple[int, int, str]], top: int
) -> tuple[str, tuple[int, int] | None]:
    """A "Table N" caption that ends just above line ``top``, or one line higher (above a
    first column's head that the binding did not take: "Compounds / Fold change / P-value")."""
    for at in range(top - 1, max(-1, top - 2 - MAX_CAPTION_LINES), -1):
        if _CAPTION.match(lines[at][2]):
            stop = _caption_at(lines, at)
            if stop < top - 2:
                return "", None
            words = _joined(lines[at : stop + 1])
            return _first_sentence(words), (lines[at][0], lines[stop][1])
    return "", None


def _captions_below(lines: list[tuple[int, int, str]], found: list[Table]) -> list[Table]:
    """A table with no caption above takes a "Table N" caption just below its last row, unless
    that caption stands just above the next table (IEEE sets captions above, ACM below)."""
    taken = {t.caption_span[0] for t in found if t.caption_span}
    starts = [s for s, _, _ in lines]
    out = []
    for t in found:
        below = bisect.bisect_right(starts, t.end)
        free = below < len(lines) and lines[below][0] not in taken
        if t.caption or not free or not _CAPTION.match(lines[below][2]):
            out.append(t)
            continue
        stop = _caption_at(lines, below)
        caption = _first_sentence(_joined(lines[below : stop + 1]))
        rows = tuple(replace(r, caption=caption) for r in t.rows)
        span = (lines[below][0], lines[stop][1])
        out.append(Table(t.start, span[1], rows, caption, span, t.heads_span))
    return out
