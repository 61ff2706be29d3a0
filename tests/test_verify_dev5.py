"""The fifth development claim set (tests/data/verification_dev5.jsonl: 33 content flips that
hold no negation or direction word, and 25 paraphrase controls), through check_text on the
ingested corpus.

Floors, in-sample: the rules of binding.py (roles exchanged between clauses), the ordering
markers of reversal.py, quantifier.py and the exclusive alternatives of lexicon.py were written
after reading these flips. Measured 27 / 58 with 29 leaks before them (2026-11-23), 45 / 58
with 11 leaks after, every paraphrase control kept (23 / 25, as before). The leaks left are
siblings put in place of each other (an entity, a property, an actor or a step of the paper for
another: 02, 03, 11, 13, 20, 22, 32, 33), a step swap (05) and two role swaps where one role moves
without the other (16, 30).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research_assistant import Library

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

DEV5 = Path(__file__).parent / "data" / "verification_dev5.jsonl"


@pytest.fixture(scope="module")
def outcomes(claims_library: Library) -> dict[str, labelled_set.Outcome]:
    rows = labelled_set.load_set(DEV5)
    return {o.row["id"]: o for o in labelled_set.run_set(claims_library, rows)}


def test_dev5_claims_keep_their_floors(outcomes: dict[str, labelled_set.Outcome]) -> None:
    out = list(outcomes.values())
    assert len(out) == 58
    table = labelled_set.accuracy(out)
    for group, (good, n) in table.items():
        print(f"dev5 {group:12} {good}/{n}")
    # measured on the merge with the fourth development set's rules: 46 / 58, 9 leaks
    assert sum(g for g, _ in table.values()) >= 46  # of 58 (27 before the rules)
    assert len(labelled_set.leaked(out)) <= 9  # (29 before the rules)
    assert table["paraphrase"][0] >= 23  # of 25, as before the rules
    assert table["flipped"][0] >= 23  # of 33 (4 before)


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("dev5-flipped-01", "pairs them the other way round"),  # binding.py
        ("dev5-flipped-19", "“english” into “italian”"),  # an ordering marker
        ("dev5-flipped-23", "instead of"),
        ("dev5-flipped-31", "says “9 of 26”, not “every”"),  # quantifier.py
        ("dev5-flipped-28", "says “several thousand”, not “a few”"),
        ("dev5-flipped-12", "(“disabled”, not “enabled”)"),  # an opposite by form
        ("dev5-flipped-10", "not “remote”"),  # an exclusive alternative
        ("dev5-flipped-17", "(“fine”, not “coarse”)"),
    ],
)
def test_each_rule_explains_what_it_caught(
    outcomes: dict[str, labelled_set.Outcome], row: str, said: str
) -> None:
    o = outcomes[row]
    assert o.status == "unsupported"
    assert o.citation is not None and said in o.citation.reason
