"""text.py: folding, line-end hyphens, particles, numbers and sentence spans."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_assistant import text
from research_assistant.text import LINE_HYPHEN, PARTICLES, fold, numbers, sentences


def reference_fold(s: str) -> str:
    """The straightforward form that fold() replaces for speed (translate tables, per-character
    combining test): both must agree."""
    s = text.normalize_space(s).translate(text._SPECIAL)
    decomposed = unicodedata.normalize("NFKD", s)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        (
            "Plain ASCII, with  double spaces and `quotes`.",
            "plain ascii, with double spaces and 'quotes'.",
        ),
        ("García-López, Schrödinger, Łukasiewicz", "garcia-lopez, schrodinger, lukasiewicz"),
        ("Ørsted, Æsir, straße", "orsted, aesir, strasse"),
        ("O\u2019Neil \u2013 the ﬁrst\u00a0test", "o'neil - the first test"),
        ("中文 текст Ελληνικά", "中文 текст ελληνικα"),
    ],
)
def test_fold(raw: str, folded: str) -> None:
    assert fold(raw) == folded == reference_fold(raw)


@given(st.text(max_size=200))
def test_fold_agrees_with_the_reference_on_any_text(s: str) -> None:
    assert fold(s) == reference_fold(s)


def test_line_end_hyphens_are_found_but_not_compounds_or_minus() -> None:
    assert LINE_HYPHEN.sub("", "automati-\ncally and par-  \n  allelize") == (
        "automatically and parallelize"
    )
    assert (
        LINE_HYPHEN.sub("", "state-of-the-art, 10-\n20 and x - y")
        == "state-of-the-art, 10-\n20 and x - y"
    )


def test_particles_are_lower_case_name_parts() -> None:
    assert {"van", "von", "de", "der", "op", "ibn"} <= PARTICLES
    assert all(p == p.lower() for p in PARTICLES)


@pytest.mark.parametrize(
    ("raw", "found"),
    [("1.71 and 1,000", ["1.71", "1000"]), ("\u22122.5 and 3,5", ["-2.5", "3.5"]), ("v1.2x", [])],
)
def test_numbers(raw: str, found: list[str]) -> None:
    assert numbers(raw) == found


def test_sentences_keep_abbreviations_inside() -> None:
    got = sentences("As shown (Fig. 2) by Smith et al. it rises. See Sect. 4 now. Done? Yes.")
    assert got == [
        "As shown (Fig. 2) by Smith et al. it rises.",
        "See Sect. 4 now.",
        "Done?",
        "Yes.",
    ]
