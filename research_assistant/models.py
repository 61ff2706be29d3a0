"""Values that cross module boundaries: frozen dataclasses, JSON only through ``to_dict``."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

# Citation statuses (DESIGN.md "Status values"); a citation carries exactly one.
VERIFIED = "verified"
UNSUPPORTED = "unsupported"
NOT_RETRIEVED = "not_retrieved"
UNKNOWN_SOURCE = "unknown_source"
AMBIGUOUS = "ambiguous"
MALFORMED = "malformed"
STATUSES: tuple[str, ...] = (
    VERIFIED,
    UNSUPPORTED,
    NOT_RETRIEVED,
    UNKNOWN_SOURCE,
    AMBIGUOUS,
    MALFORMED,
)

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

    @property
    def page_count(self) -> int:
        return len(self.pages)


@dataclass(frozen=True)
class Chunk:
    """A span of one page of one paper; offsets are character offsets in that page's text."""

    chunk_id: str
    paper_key: str
    page: int
    start: int
    end: int
    text: str


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
class Mention:
    """One cited work inside a citation marker, as written (citations.py output).

    A bracket naming several works yields one Mention per work, sharing marker/start/end.
    """

    marker: str  # exact text of the bracket or parenthesis
    start: int  # offset of the marker in the text
    end: int
    first_author: str  # as written, e.g. "van der Berg"
    second_author: str = ""  # for "A and B" / "A & B" forms
    et_al: bool = False
    year: str | None = None  # as written, with suffix: "2020a"; None if none usable
    locator: str = ""  # "p. 5", "Fig. 2", ...
    malformed: str = ""  # non-empty: why this is not a usable citation ("no year", "n.d.")

    @property
    def year_number(self) -> int | None:
        digits = (self.year or "")[:4]
        return int(digits) if digits.isdigit() else None

    @property
    def year_suffix(self) -> str:
        return (self.year or "")[4:]


@dataclass(frozen=True)
class Evidence:
    chunk_id: str
    page: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Citation:
    """A mention after resolution and checking: the DESIGN.md citation object."""

    mention: Mention
    status: str
    paper_key: str | None = None
    candidates: tuple[str, ...] = ()  # for ambiguous: the keys it could be
    via: str | None = None
    score: float = 0.0
    claim: str = ""
    evidence: Evidence | None = None
    reason: str = ""  # one line for the user: why this status

    def to_dict(self) -> dict[str, Any]:
        m = self.mention
        return {
            "marker": m.marker,
            "start": m.start,
            "end": m.end,
            "first_author": m.first_author,
            "year": m.year,
            "paper_key": self.paper_key,
            "via": self.via,
            "status": self.status,
            "score": round(self.score, 4),
            "claim": self.claim,
            "evidence": self.evidence.to_dict() if self.evidence else None,
            "locator": m.locator,
            "candidates": list(self.candidates),
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Citation:
        """Rebuild a citation from its JSON (a logged run), e.g. for export."""
        ev = d.get("evidence")
        mention = Mention(
            marker=d["marker"],
            start=d["start"],
            end=d["end"],
            first_author=d.get("first_author") or "",
            year=d.get("year"),
            locator=d.get("locator") or "",
        )
        return cls(
            mention=mention,
            status=d["status"],
            paper_key=d.get("paper_key"),
            candidates=tuple(d.get("candidates") or ()),
            via=d.get("via"),
            score=float(d.get("score") or 0.0),
            claim=d.get("claim") or "",
            evidence=Evidence(ev["chunk_id"], ev["page"], ev["text"]) if ev else None,
            reason=d.get("reason") or "",
        )


@dataclass(frozen=True)
class Reference:
    """One entry of a reference list: a cited library paper, formatted author-year style."""

    key: str
    label: str
    text: str  # plain-text formatted reference (APA-like)
    doi: str = ""
    url: str = ""
    statuses: tuple[str, ...] = ()  # the verdicts of the citations of this work, in order
    pages: tuple[int, ...] = ()  # evidence pages

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["statuses"] = list(self.statuses)
        d["pages"] = list(self.pages)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reference:
        return cls(
            key=d["key"],
            label=d["label"],
            text=d["text"],
            doi=d.get("doi") or "",
            url=d.get("url") or "",
            statuses=tuple(d.get("statuses") or ()),
            pages=tuple(d.get("pages") or ()),
        )


def summarise(citations: tuple[Citation, ...]) -> dict[str, int]:
    counts = {s: 0 for s in STATUSES}
    for c in citations:
        counts[c.status] += 1
    return {s: n for s, n in counts.items() if n}


@dataclass(frozen=True)
class CheckedText:
    """The result of verifying the citations in a text (`verify` JSON)."""

    text: str
    citations: tuple[Citation, ...]
    references: tuple[Reference, ...]
    id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "citations": [c.to_dict() for c in self.citations],
            "references": [r.to_dict() for r in self.references],
            "summary": summarise(self.citations),
        }


@dataclass(frozen=True)
class Answer:
    """The result of `ask` (DESIGN.md ask JSON)."""

    id: str
    question: str
    mode: Literal["answer", "refuse"]
    answer: str
    citations: tuple[Citation, ...] = ()
    references: tuple[Reference, ...] = ()
    retrieved: tuple[Passage, ...] = ()
    backend: str = ""
    model: str = ""
    latency_ms: float = 0.0
    repaired: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "mode": self.mode,
            "answer": self.answer,
            "citations": [c.to_dict() for c in self.citations],
            "references": [r.to_dict() for r in self.references],
            "retrieved": [p.to_dict() for p in self.retrieved],
            "summary": summarise(self.citations),
            "backend": self.backend,
            "model": self.model,
            "repaired": self.repaired,
        }


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


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
        }


__all__ = [
    "AMBIGUOUS",
    "MALFORMED",
    "NOT_RETRIEVED",
    "STATUSES",
    "UNKNOWN_SOURCE",
    "UNSUPPORTED",
    "VERIFIED",
    "Answer",
    "BibProblem",
    "CheckedText",
    "Chunk",
    "Citation",
    "Evidence",
    "IngestReport",
    "Match",
    "Mention",
    "Name",
    "PageText",
    "Paper",
    "Passage",
    "PdfInfo",
    "Reference",
    "Skipped",
    "summarise",
]
