"""lexicon.py: which words state a direction, and which state the opposite one."""

from __future__ import annotations

import pytest

from research_assistant.check.lexicon import (
    direction_stems,
    finding_stems,
    opposites_of,
    word_opposites,
)
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


@pytest.mark.parametrize(
    ("word", "opposite"),
    [
        ("coarse", "fine"),
        ("remote", "local"),
        ("first", "second"),
        ("first", "last"),
        ("second", "third"),
        ("input", "output"),
        ("training", "test"),
        ("prefix", "suffix"),
        ("left", "right"),
        ("generative", "discriminative"),
        ("precision", "recall"),
    ],
)
def test_exclusive_alternatives_are_broad_opposites(word: str, opposite: str) -> None:
    """They contradict only where closely attached, and stay words a direction is about."""
    for a, b in ((word, opposite), (opposite, word)):
        curated, broad = opposites_of(stem(a))
        assert stem(b) in broad and stem(b) not in curated
    assert stem(word) not in direction_stems()


def test_enabled_and_disabled_by_form() -> None:
    assert "disabled" in word_opposites("enabled")
    assert "enabled" in word_opposites("disabled")
