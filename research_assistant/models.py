"""The library's values: papers, names, PDF text, chunks, passages and ingest reports.

Frozen dataclasses; JSON only through ``to_dict``. What checking produces is in ``results``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

MetadataSource = Literal["bibtex", "inferred"]


@dataclass(frozen=True)
class Name:
    """One author, split the BibTeX way. ``corporate`` names ({World Health Organization})
    keep the whole name in ``family`` and are never split or abbreviated."""

    family: str
    given: str = ""
    von: str = ""
    jr: str = ""
    corporate: bool = False

    @property
    def cited(self) -> str:
        """The name as it appears in an author-year citation: particles + family."""
        return f"{self.von} {self.family}".strip() if self.von else self.family

    @property
    def display(self) -> str:
        if self.corporate:
            return self.family
        parts = [self.given, self.von, self.family]
        name = " ".join(p for p in parts if p)
        return f"{name}, {self.jr}" if self.jr else name


@dataclass(frozen=True)
class Paper:
    """A work in the library, identified by its BibTeX key (or a generated key)."""

    key: str
    title: str
    authors: tuple[Name, ...] = ()
    year: int | None = None
    label: str = ""  # unique author-year label, e.g. "Smith et al., 2020a"
    entry_type: str = "article"
    venue: str = ""
    doi: str = ""
    arxiv_id: str = ""
    url: str = ""
    files: tuple[str, ...] = ()  # paths from the BibTeX `file` field, raw (never LaTeX-decoded)
    fields: tuple[tuple[str, str], ...] = ()  # the entry's decoded fields, for export
    others: bool = False  # the author list ended with "and others"
    metadata: MetadataSource = "bibtex"
    pdf: str | None = None  # file name of the PDF copy inside the library, if any
    pages: int = 0
    chunks: int = 0
    source: str = ""  # where the entry came from: "file.bib:line"

    @property
    def first_author(self) -> str:
        return self.authors[0].cited if self.authors else ""

    def to_dict(self) -> dict[str, Any]:
        """The `papers --json` row (DESIGN.md)."""
        return {
            "key": self.key,
            "label": self.label,
            "title": self.title,
            "authors": [a.display for a in self.authors],
            "year": self.year,
            "pdf": self.pdf,
            "pages": self.pages,
            "chunks": self.chunks,
            "metadata": self.metadata,
        }


@dataclass(frozen=True)
class BibProblem:
    """A BibTeX block that was skipped or repaired; reported, never raised."""

    source: str  # file name
    line: int  # 1-based line of the block start, 0 if unknown
    key: str  # the entry key if known, else ""
    message: str


@dataclass(frozen=True)
class PageText:
    number: int  # 1-based page number
    text: str


@dataclass(frozen=True)
class ChunkSpan:
    """Where one chunk of a page lies, and the checker's terms of its text (``ingest.chunking``:
    made by the reader process, so the ingest's parent only assembles chunks)."""

    page: int
    start: int
    end: int
    terms: frozenset[str]


@dataclass(frozen=True)
class PdfInfo:
    """What pdf.py reads from one PDF file."""

    path: str
    sha256: str
    pages: tuple[PageText, ...]
    doi: str = ""
    arxiv_id: str = ""
    title: str = ""  # sniffed from the first page (largest font), else metadata title
    metadata_title: str = ""
    metadata_author: str = ""
    first_page_text: str = ""
    notes: tuple[str, ...] = ()  # readable but worth telling: "encrypted (no password needed)"
    spans: tuple[ChunkSpan, ...] = ()  # the pages' chunks; empty: not chunked yet

    @property
    def page_count(self) -> int:
        return len(self.pages)


@dataclass(frozen=True)
class Chunk:
    """A span of one page of one paper; offsets are character offsets in that page's text.
    ``terms``: the checker's terms of ``text`` when known (made by the reader at ingest and
    stored with the chunk in the index), so a question about a paper not read since the app
    started does not tokenise its chunks again; None: computed when needed. Not compared."""

    chunk_id: str
    paper_key: str
    page: int
    start: int
    end: int
    text: str
    terms: frozenset[str] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Passage:
    """A chunk retrieved for a query, with its retrieval score."""

    chunk: Chunk
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk.chunk_id,
            "paper_key": self.chunk.paper_key,
            "page": self.chunk.page,
            "score": round(self.score, 4),
        }


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


@dataclass(frozen=True)
class PdfNote:
    """A PDF that was added but is worth a word: pages damaged, mostly scans, encrypted."""

    path: str
    note: str


@dataclass(frozen=True)
class Match:
    """How one PDF was paired with a bibliography entry."""

    pdf: str  # path of the PDF as given
    key: str | None  # None: unmatched
    method: str  # "file" | "doi" | "arxiv" | "title" | "none"
    score: float = 0.0


@dataclass(frozen=True)
class IngestReport:
    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    unmatched_pdfs: tuple[str, ...] = ()  # PDFs indexed with inferred metadata
    entries_without_pdf: tuple[str, ...] = ()
    matches: tuple[Match, ...] = ()
    problems: tuple[BibProblem, ...] = ()
    entries: int = 0  # BibTeX entries read in this run
    notes: tuple[PdfNote, ...] = ()  # PdfInfo.notes of the PDFs read in this run

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": list(self.added),
            "updated": list(self.updated),
            "unchanged": list(self.unchanged),
            "skipped": [asdict(s) for s in self.skipped],
            "unmatched_pdfs": list(self.unmatched_pdfs),
            "entries_without_pdf": list(self.entries_without_pdf),
            "matches": [asdict(m) for m in self.matches],
            "problems": [asdict(p) for p in self.problems],
            "entries": self.entries,
            "notes": [asdict(n) for n in self.notes],
        }


__all__ = [
    "BibProblem",
    "Chunk",
    "ChunkSpan",
    "IngestReport",
    "Match",
    "Name",
    "PageText",
    "Paper",
    "Passage",
    "PdfInfo",
    "PdfNote",
    "Skipped",
]
