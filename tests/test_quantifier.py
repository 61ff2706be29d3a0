"""quantifier.py: a whole set for a part of it, and vague amounts as ranges."""

from __future__ import annotations

import pytest

from research_assistant.check.quantifier import amounts, contradicted


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("a few iterations", 2, 6),
        ("several thousand iterations", 3_000, 9_999),
        ("hundreds of pages", 200, 999),
        ("thousands of pages", 2_000, 9_999),
        ("a couple of runs", 2, 3),
        ("1,024 pages", 1_024, 1_024),
    ],
)
def test_amounts_as_ranges(text: str, low: float, high: float) -> None:
    (a,) = amounts(text)
    assert (a.low, a.high) == (low, high)
    assert a.head  # what it counts


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        # a whole set for a part, and back
        (
            "we outperform v8 on every one of the 26 benchmarks",
            "we outperform v8 on 9 of 26 benchmarks",
            "quantifier: every vs 9 of 26",
        ),
        (
            "only one of the four modified models performs worse",
            "all of these four modified models perform worse",
            "quantifier: only one of the four vs all",
        ),
        ("all layers are frozen", "only the top layers are frozen", "quantifier: all vs only"),
        # a vague amount far from the passage's
        (
            "the process requires only a few iterations",
            "the process can require several thousand iterations",
            "quantifier: a few vs several thousand",
        ),
        ("it takes a few iterations", "it takes 5000 iterations", "quantifier: a few vs 5000"),
        # agreeing amounts
        ("it takes a few iterations", "it takes 4 iterations", ""),
        ("it takes thousands of iterations", "it takes several thousand iterations", ""),
        # a non-exclusive part is true of a whole set
        ("some of the models perform worse", "all of the models perform worse", ""),
        # all of one thing, a part of another
        ("all layers are frozen", "only the optimiser state is saved", ""),
        # k of N with k = N is the whole set
        ("all benchmarks improve", "26 of 26 benchmarks improve", ""),
        # "not only", "at all": no part, no whole set
        (
            "it improves accuracy on all benchmarks",
            "it not only improves accuracy on benchmarks but also speed",
            "",
        ),
        ("no layer helps at all", "only the top layers help", ""),
        # what a vague amount counts ends at the next function word or number
        ("it trains for several epochs on 1000 images", "we use 1000 images", ""),
        # a number counts the word right after it, or nothing
        ("a few authors replied", "in 2004, the authors replied", ""),
        ("it takes a few iterations", "2000 of the iterations were wasted", ""),
        # a number is the number check's, not this one's
        ("it takes 40 iterations", "it takes 5000 iterations", ""),
        # "every fifth", "every other", "every 10th": a rate, not the whole set
        ("only one in five frames is kept", "only every fifth frame is kept", ""),
        ("some of the lines are read", "every other line is read", ""),
        ("only the 10th epochs are logged", "every 10th epoch is logged", ""),
        ("only the top rows are kept", "every row is kept", "quantifier: only vs every"),
    ],
)
def test_contradicted(claim: str, passage: str, found: str) -> None:
    assert contradicted(claim, passage) == found
