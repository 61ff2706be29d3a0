"""The eighth development claim set (tests/data/verification_dev8.jsonl, 40 claims: numbers in
other notations and in words, 26 true and 14 false, written by a helper session before the
number reader's changes of the fifth session) through the real corpus library. In-sample: the
reader was changed on it (32/40 with 1 leak before, 40/40 after); a floor, not a target."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set


def test_numbers_in_other_notations_and_words(claims_library: Any) -> None:
    rows = labelled_set.load_set(labelled_set.DATA / "verification_dev8.jsonl")
    out = labelled_set.run_set(claims_library, rows)
    table = labelled_set.accuracy(out)
    good = sum(g for g, _ in table.values())
    assert good >= 38 and labelled_set.leaked(out) == []
    for group in ("number_notation (false)", "number_words (false)"):
        assert table[group][0] == table[group][1], group
