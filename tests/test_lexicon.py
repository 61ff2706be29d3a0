"""lexicon.py: which words state a direction, and which state the opposite one."""

from __future__ import annotations

import pytest

from research_assistant.check.lexicon import finding_stems, opposites_of, word_opposites
from research_assistant.terms import stem


@pytest.mark.parametrize(
    ("word", "opposite", "curated"),
    [
        ("increase", "decrease", True),
        ("outperform", "underperform", True),
        ("sooner", "longer", True),
        ("grow", "diminish", False),  # poles of the amount scale
        ("worse", "improve", False),
        ("late", "earlier", False),  # comparative made by rule
        ("earliest", "late", False),
        ("deeper", "shallow", False),
        ("bigger", "smallest", False),
        ("increase", "reduction", False),  # nouns of a change
        ("improve", "deterioration", False),
    ],
)
def test_opposites(word: str, opposite: str, curated: bool) -> None:
    tight, broad = opposites_of(stem(word))
    assert stem(opposite) in (tight if curated else broad)


@pytest.mark.parametrize(
    ("word", "opposite"),
    [
        ("stable", "unstable"),
        ("unstable", "stable"),
        ("relevant", "irrelevant"),
        ("relativistic", "nonrelativistic"),
        ("overestimate", "underestimate"),
        ("upstream", "downstream"),
        ("useful", "useless"),
        ("significantly", "insignificantly"),
    ],
)
def test_opposites_by_form(word: str, opposite: str) -> None:
    assert opposite in word_opposites(word)


@pytest.mark.parametrize("word", ["inform", "discover", "improve", "unlike"])
def test_words_that_only_look_negated(word: str) -> None:
    """ "in-" and "dis-" negate adjectives only; a base under five letters is no word's
    opposite."""
    assert not {"form", "cover", "prove", "like"} & word_opposites(word)


def test_plain_adjectives_are_not_findings() -> None:
    assert stem("increases") in finding_stems() and stem("high") not in finding_stems()
    assert stem("earlier") not in finding_stems()  # "some earlier estimates" states nothing
