"""Accuracy of the number reader on pairs of number forms: does the claim's number state the
evidence's value? (the checker's number check, without the rest of the checker).

Run: .venv/bin/python bench/number_forms.py [FILE ...]
     (default: tests/data/heldout/number_pairs_v1.jsonl, written blind, never tuned on)
Each row holds a claim sentence and an evidence sentence with one quantity each and whether
they state the same value. A pair is read as agreeing when the claim has a number and every
number of the claim agrees with a number of the evidence (the evidence read with small number
words, as the checker reads passages). Prints accuracy by form and the disagreeing pairs read
as agreeing (a changed number that would pass); aggregates only, no row is printed.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from research_assistant.agreement import agrees_any  # noqa: E402
from research_assistant.quantities import quantities  # noqa: E402

DEFAULT = ROOT / "tests" / "data" / "heldout" / "number_pairs_v1.jsonl"


def reads_as_agreeing(claim: str, evidence: str) -> bool:
    """Whether the number reader finds the claim's numbers in the evidence."""
    said = quantities(evidence, small_words=True)
    numbers = quantities(claim)
    return bool(numbers) and all(agrees_any(q, said) for q in numbers)


def score(rows: list[dict[str, object]]) -> tuple[Counter[str], Counter[str], int]:
    """(right by form, rows by form, disagreeing pairs read as agreeing)."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    passed = 0
    for row in rows:
        said = reads_as_agreeing(str(row["claim"]), str(row["evidence"]))
        form = str(row["form"])
        total[form] += 1
        right[form] += said == row["agree"]
        passed += said and not row["agree"]
    return right, total, passed


def main(files: list[str]) -> None:
    for name in files or [str(DEFAULT)]:
        rows = [json.loads(line) for line in Path(name).read_text().splitlines() if line.strip()]
        right, total, passed = score(rows)
        print(
            f"{Path(name).name}: {sum(right.values())}/{len(rows)} right, "
            f"{passed} changed numbers read as agreeing"
        )
        for form in sorted(total):
            print(f"  {form:<18} {right[form]}/{total[form]}")


if __name__ == "__main__":
    main(sys.argv[1:])
