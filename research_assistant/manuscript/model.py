"""The values of a manuscript check: reference entries, their library matches, the checked
manuscript. Frozen dataclasses; JSON only through ``to_dict`` (the check-manuscript JSON)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from research_assistant.results import Citation, summarise

__all__ = [
    "CheckedManuscript",
    "KeyCite",
    "Manuscript",
    "ManuscriptCitation",
    "RefEntry",
    "RefMatch",
]


@dataclass(frozen=True)
class RefEntry:
    """One entry of the manuscript's reference list (or of its .bib), as parsed."""

    text: str  # the entry as printed (or formatted from the .bib), whitespace collapsed
    number: int | None = None  # "[12]" / "12." numbering; None in author-year lists
    first_author: str = ""  # family name as printed
    authors: tuple[str, ...] = ()  # the names as printed
    year: str = ""  # with any a/b suffix
    title: str = ""
    venue: str = ""
    doi: str = ""
    arxiv_id: str = ""
    key: str = ""  # the .bib key (LaTeX and pandoc manuscripts)


@dataclass(frozen=True)
class RefMatch:
    """How a reference entry was matched to a library paper (``key`` None: not in the library)."""

    key: str | None
    method: str  # "doi" | "arxiv" | "title" | "author_year" | "none"
    score: float = 0.0


@dataclass(frozen=True)
class KeyCite:
    """A citation by key in the reading text (\\cite{a,b}, [@a; @b]): its marker and keys."""

    start: int
    end: int
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Manuscript:
    """A manuscript as read: the plain text the checker reads, and what it refers to."""

    name: str  # file name, for messages and the log
    sha256: str
    kind: str  # "pdf" | "docx" | "tex" | "md" | "txt"
    text: str
    body_end: int  # where the reference list starts in ``text`` (len(text) if none)
    references: tuple[RefEntry, ...] = ()
    key_cites: tuple[KeyCite, ...] = ()
    page_starts: tuple[int, ...] = ()  # PDF: offset in ``text`` where each page starts
    notes: tuple[str, ...] = ()  # what the reviewer should know (no reference list found, ...)

    def page_at(self, offset: int) -> int | None:
        if not self.page_starts:
            return None
        page = 1
        for i, start in enumerate(self.page_starts, 1):
            if start > offset:
                break
            page = i
        return page


@dataclass(frozen=True)
class ManuscriptCitation:
    citation: Citation
    reference: int | None = None  # index into CheckedManuscript.references
    page: int | None = None  # page of the manuscript (PDF)


@dataclass(frozen=True)
class CheckedManuscript:
    id: str
    name: str
    sha256: str
    kind: str
    text: str
    citations: tuple[ManuscriptCitation, ...]
    references: tuple[RefEntry, ...]
    matches: tuple[RefMatch, ...]  # one per reference, same order
    notes: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)  # library key -> label, for reports

    def summary(self) -> dict[str, int]:
        return summarise(tuple(c.citation for c in self.citations))

    def missing(self) -> list[int]:
        """Indices of the references the library has no copy of."""
        return [i for i, m in enumerate(self.matches) if m.key is None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "file": self.name,
            "sha256": self.sha256,
            "kind": self.kind,
            "citations": [
                {**c.citation.to_dict(), "reference": c.reference, "page": c.page}
                for c in self.citations
            ],
            "references": [
                {
                    "text": r.text,
                    "key": m.key,
                    "method": m.method,
                    "score": round(m.score, 4),
                    "number": r.number,
                    "bib_key": r.key or None,
                    "first_author": r.first_author,
                    "year": r.year or None,
                    "title": r.title,
                    "venue": r.venue,
                    "doi": r.doi or None,
                    "arxiv_id": r.arxiv_id or None,
                }
                for r, m in zip(self.references, self.matches, strict=True)
            ],
            "summary": self.summary(),
            "notes": list(self.notes),
        }
