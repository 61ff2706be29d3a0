"""polarity.py: the contradictions a similarity score cannot see."""

from __future__ import annotations

import pytest

from research_assistant.check.polarity import conflict_of, names_in
from research_assistant.text import fold


@pytest.mark.parametrize(
    ("claim", "passage", "kind"),
    [
        ("Backup tasks increase the run time.", "Backup tasks decrease the run time.", "direction"),
        ("The network performs poorly.", "The network performs well.", "direction"),
        ("cbow vectors outperform count", "cbow vectors underperform count", "direction"),
        ("The effect is significant.", "The effect is not significant.", "negation"),
        ("The effect is not significant.", "The effect is significant.", "negation"),
        ("Metabolites rose under stress.", "Metabolites fell under stress.", "direction"),
        ("Backup tasks shorten the sort.", "Backup tasks shorten the sort.", ""),
        ("The sort takes longer without backups.", "The sort takes longer when disabled.", ""),
    ],
)
def test_conflicts(claim: str, passage: str, kind: str) -> None:
    assert conflict_of(fold(claim), fold(passage)).split(":")[0] == kind


def test_names_skip_sentence_openers_and_keep_systems() -> None:
    assert names_in("The MapReduce library runs on GFS at Google.") == (
        "MapReduce",
        "GFS",
        "Google",
    )
    assert names_in("However, results hold.") == ()
