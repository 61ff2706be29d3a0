"""The seventh development claim set (tests/data/verification_dev7.jsonl: 40 claims that must
not verify — 17 sibling swaps, 11 contradictions in other words, 7 invented details, 5 flips
without a negation word — and 20 paraphrase controls), and the probe written after the rules
(tests/data/verification_probe7.jsonl: 15 false, 5 true), through check_text on the corpus.

Floors, in-sample for dev7: check/sibling.py and three opposites of lexicon.py were written
after reading it. Measured 34 / 60 with 24 leaks before them (2026-11-23), 42 / 60 with 16
after, every paraphrase control kept (18 / 20, as before). The probe was not read before the
change: 8 / 20 with 12 leaks on c0d0e5d, 9 / 20 with 11 leaks after; 5 / 5 true both times.
Leaks left: invented details, contradictions the lexicon does not hold ("lags behind",
"quite unlike", "cross-platform"), and swaps whose evidence is another passage.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research_assistant import Library

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def outcomes(claims_library: Library) -> dict[str, labelled_set.Outcome]:
    rows = [
        *labelled_set.load_set(DATA / "verification_dev7.jsonl"),
        *labelled_set.load_set(DATA / "verification_probe7.jsonl"),
    ]
    return {o.row["id"]: o for o in labelled_set.run_set(claims_library, rows)}


def _table(outcomes: dict[str, labelled_set.Outcome], prefix: str) -> list[labelled_set.Outcome]:
    return [o for k, o in outcomes.items() if k.startswith(prefix)]


def test_dev7_claims_keep_their_floors(outcomes: dict[str, labelled_set.Outcome]) -> None:
    out = _table(outcomes, "dev7-")
    assert len(out) == 60
    table = labelled_set.accuracy(out)
    assert sum(g for g, _ in table.values()) >= 42  # of 60 (34 before the rules)
    assert len(labelled_set.leaked(out)) <= 16  # (24 before)
    assert table["paraphrase"][0] >= 18  # of 20, as before the rules
    assert table["sibling_swap"][0] >= 10  # of 17 (4 before)


def test_probe7_claims_keep_their_floors(outcomes: dict[str, labelled_set.Outcome]) -> None:
    out = _table(outcomes, "probe7-")
    assert len(out) == 20
    table = labelled_set.accuracy(out)
    assert len(labelled_set.leaked(out)) <= 11  # of 15 (12 on c0d0e5d)
    assert table["paraphrase"][0] == 5


@pytest.mark.parametrize(
    ("row", "status", "said"),
    [
        ("dev7-sibling_swap-08", "uncertain", "says “map” where this says “reduce”"),
        ("dev7-sibling_swap-12", "uncertain", "says “binary” where this says “analog”"),
        ("dev7-sibling_swap-13", "uncertain", "says “monochrome” where this says “rgb”"),
        ("dev7-sibling_swap-14", "uncertain", "says “galactic” where this says “cosmological”"),
        ("dev7-sibling_swap-16", "uncertain", "says “green” where this says “red”"),
        ("dev7-sibling_swap-03", "uncertain", "sets “midi” aside (“instead of …”)"),
        ("probe7-sibling_swap-05", "uncertain", "where this says “gcn”"),
        ("dev7-contradiction-06", "unsupported", "(“well”, not “badly”)"),
        ("dev7-contradiction-09", "unsupported", "(“safe”, not “dangerous”)"),
    ],
)
def test_each_rule_explains_what_it_caught(
    outcomes: dict[str, labelled_set.Outcome], row: str, status: str, said: str
) -> None:
    o = outcomes[row]
    assert o.status == status
    assert o.citation is not None and said in o.citation.reason


@pytest.mark.parametrize(
    "row",
    [
        "dev7-paraphrase-02",  # beside sibling_swap-03 (instead of)
        "dev7-paraphrase-11",  # beside sibling_swap-08 (map / reduce)
        "dev7-paraphrase-16",  # beside sibling_swap-12 (binary / analog)
        "dev7-paraphrase-17",  # beside sibling_swap-13 (monochrome / RGB)
        "dev7-paraphrase-18",  # beside sibling_swap-14 (galactic / cosmological)
        "dev7-paraphrase-19",  # a subject carried over to "they"
        "dev7-paraphrase-20",  # beside sibling_swap-16 (green / red)
    ],
)
def test_the_true_claims_beside_them_stay_verified(
    outcomes: dict[str, labelled_set.Outcome], row: str
) -> None:
    assert outcomes[row].status == "verified"
    assert outcomes[row].correct
