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


def test_numbers_probe_written_after_the_first_changes(claims_library: Any) -> None:
    """tests/data/verification_probe8.jsonl: 20 claims written by another helper session after
    the number reader's first changes: 12/20 with 1 leak before them, 15/20 with 1 leak after
    (fresh); 18/20 with 0 leaks after a part of one unit ('half an hour', 'a quarter of an
    hour') and 'one twentieth' were read, which the probe showed (in-sample from then on)."""
    rows = labelled_set.load_set(labelled_set.DATA / "verification_probe8.jsonl")
    out = labelled_set.run_set(claims_library, rows)
    good = sum(g for g, _ in labelled_set.accuracy(out).values())
    assert good >= 17 and labelled_set.leaked(out) == []
