"""What checking produces: citation statuses, mentions, verdicts, references, answers.

Frozen dataclasses; JSON only through ``to_dict`` (the DESIGN.md citation, verify and ask
objects).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from research_assistant.models import Passage

# Citation statuses (DESIGN.md "Status values"); a citation carries exactly one.
VERIFIED = "verified"
UNSUPPORTED = "unsupported"
NOT_RETRIEVED = "not_retrieved"
UNKNOWN_SOURCE = "unknown_source"
AMBIGUOUS = "ambiguous"
MALFORMED = "malformed"
# The honest middle: the checker cannot settle the claim; never counted as verified.
PARTIAL = "partial"  # one part of the claim is supported, another is not
UNCERTAIN = "uncertain"  # support near the threshold: a reader should check the evidence
# A manuscript check: the manuscript's own reference list names the work, and the library has
# no copy of it (the reviewer may fetch it); distinct from unknown_source, a work named nowhere.
NOT_IN_LIBRARY = "not_in_library"
STATUSES: tuple[str, ...] = (
    VERIFIED,
    PARTIAL,
    UNCERTAIN,
    UNSUPPORTED,
    NOT_RETRIEVED,
    UNKNOWN_SOURCE,
    NOT_IN_LIBRARY,
    AMBIGUOUS,
    MALFORMED,
)


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
    judge: str = ""  # the model judge's opinion, when one was asked, and what it changed
    # the kind of contradiction the checker found in the paper ("number", "negation",
    # "direction", "reversal", "binding", "quantifier", "name"); "" when it found none (an
    # unsupported claim with no conflict is one the paper was not found to state)
    conflict: str = ""

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
            "judge": self.judge,
            "conflict": self.conflict,
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
            judge=d.get("judge") or "",
            conflict=d.get("conflict") or "",
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
class Closest:
    """A paper that came closest to a refused question: shown as "not an answer"."""

    paper_key: str
    label: str
    title: str
    page: int
    chunk_id: str
    text: str  # the passage's sentence nearest the question

    def to_dict(self) -> dict[str, Any]:
        return {
            "paper_key": self.paper_key,
            "label": self.label,
            "title": self.title,
            "page": self.page,
            "chunk_id": self.chunk_id,
            "text": self.text,
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
    # The catalog generation of the one library state the answer was built from: retrieval,
    # labels, checking and references all read that state, never a mix of two.
    generation: str = ""
    # The share of the answer's sentences that carry a citation (check/coverage.py); None for
    # a refusal. And what the answerer fixed in the model's output (Draft.notes), for the log.
    coverage: float | None = None
    notes: tuple[str, ...] = ()
    # A refusal: the papers that came closest, each with its nearest passage (not an answer).
    closest: tuple[Closest, ...] = ()

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
            "generation": self.generation,
            "coverage": None if self.coverage is None else round(self.coverage, 4),
            "notes": list(self.notes),
            "closest": [c.to_dict() for c in self.closest],
        }


__all__ = [
    "AMBIGUOUS",
    "MALFORMED",
    "NOT_IN_LIBRARY",
    "NOT_RETRIEVED",
    "PARTIAL",
    "STATUSES",
    "UNCERTAIN",
    "UNKNOWN_SOURCE",
    "UNSUPPORTED",
    "VERIFIED",
    "Answer",
    "CheckedText",
    "Citation",
    "Closest",
    "Evidence",
    "Mention",
    "Reference",
    "summarise",
]
