"""Which sentences of an extractive draft a repair round replaces (pure): the units the
checker's notes name, and the labels a failing status condemns outright."""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz

from research_assistant.answer.base import CitedSpan, RepairNote
from research_assistant.answer.sentences import strip_citations
from research_assistant.text import fold

__all__ = ["failing_units", "label_level"]


def _claim_matches(claim: str, unit: CitedSpan) -> bool:
    claim = fold(strip_citations(claim.replace(f"[{unit.label}]", "")))
    text = fold(unit.cited_text)
    return bool(claim) and (claim in text or text in claim or fuzz.ratio(claim, text) >= 80)


def failing_units(units: Sequence[CitedSpan], notes: Sequence[RepairNote]) -> set[int]:
    """Indexes of the units a note names: same marker and claim; by marker alone if no claim
    matches (the checker may have cut the sentence differently)."""
    dropped: set[int] = set()
    for note in notes:
        same_marker = [i for i, u in enumerate(units) if note.marker.strip() == f"[{u.label}]"]
        by_claim = [i for i in same_marker if _claim_matches(note.claim, units[i])]
        dropped.update(by_claim or same_marker)
    return dropped


# Statuses that condemn a label, not a sentence: citing the paper again would fail again.
_LABEL_LEVEL = {"not_retrieved", "unknown_source", "ambiguous", "malformed"}


def label_level(unit: CitedSpan, notes: Sequence[RepairNote]) -> bool:
    return any(n.status in _LABEL_LEVEL and n.marker.strip() == f"[{unit.label}]" for n in notes)
