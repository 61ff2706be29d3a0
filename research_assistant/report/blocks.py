"""Pure: a small, neutral document structure that any writer can render: headings, paragraphs
of runs (plain, bold, italic, coloured) and tables. ``research_assistant.word.write_docx``
renders it as a Word document; build one with these values, never with a writer's own types.

    doc = (
        Heading("Checked citations", level=1),
        Paragraph((Run("2 verified", colour="#1a7f37", bold=True), Run(" · 1 unsupported"))),
        Table(header=("Marker", "Verdict"), rows=((Run("[1]"), Run("verified")),)),
    )
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Block", "Heading", "Paragraph", "Run", "Table"]


@dataclass(frozen=True)
class Run:
    """A piece of text in one style. ``colour`` is "#rrggbb" or "" for the default."""

    text: str
    bold: bool = False
    italic: bool = False
    colour: str = ""
    background: str = ""  # "#rrggbb" shading behind the text (a table cell's, in tables)


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 1  # 0 is the document title, 1..4 section levels


@dataclass(frozen=True)
class Paragraph:
    runs: tuple[Run, ...]
    quote: bool = False  # set as a block quote (evidence)


@dataclass(frozen=True)
class Table:
    """A grid with a bold header row; each cell is one Run."""

    header: tuple[str, ...]
    rows: tuple[tuple[Run, ...], ...]


Block = Heading | Paragraph | Table
