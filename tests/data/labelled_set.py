"""The labelled claim sets and the corpus library they are checked against, through the path
users run: the real ingest (PDF reading, matching, chunking, index) and ``check_text``.

Shared by tests/test_verify.py and bench/verify.py so both score the same thing.

- ``verification.jsonl`` is the development set: thresholds were chosen on it (in-sample).
- ``heldout/claims.jsonl`` was written before any tuning by a helper session that saw neither
  the checker nor its scores; it is never used to choose anything.

The library is ../shared/corpus (18 PDFs and library.bib) plus ``verification_extra.bib``: two
synthetic entries without a PDF that make "Thoma, 2018" and "Dean, 2004" ambiguous.

Rows may carry "also_pages" (the same sentence printed on several pages), "via" (the expected
second-hand citing paper) and "accept" (every status that counts as right).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_assistant import Library, check_text
from research_assistant.answer.sentences import dehyphenate
from research_assistant.results import Citation
from research_assistant.text import fold, normalize_space

DATA = Path(__file__).resolve().parent
DEVELOPMENT = DATA / "verification.jsonl"
HELDOUT = DATA / "heldout" / "claims.jsonl"
HELDOUT_V2 = DATA / "heldout" / "claims_v2.jsonl"  # the second held-out set (heldout/V2.md)
HELDOUT_V3 = DATA / "heldout" / "claims_v3.jsonl"  # the third held-out set (heldout/V3.md)
HELDOUT_V4 = DATA / "heldout" / "claims_v4.jsonl"  # the fourth held-out set (heldout/V4.md)
HELDOUT_V5 = DATA / "heldout" / "claims_v5.jsonl"  # the fifth held-out set (heldout/V5.md)
HELDOUT_V6 = DATA / "heldout" / "claims_v6.jsonl"  # the sixth held-out set (heldout/V6.md)
HELDOUT_V7 = DATA / "heldout" / "claims_v7.jsonl"  # the seventh held-out set (heldout/V7.md)
HELDOUT_V8 = DATA / "heldout" / "claims_v8.jsonl"  # the eighth (heldout/CLAIMS_V8.md)
HELDOUT_V9 = DATA / "heldout" / "claims_v9.jsonl"  # the ninth (heldout/CLAIMS_V9.md)
HELDOUT_V10 = DATA / "heldout" / "claims_v10.jsonl"  # the tenth (heldout/CLAIMS_V10.md)
HELDOUT_V11 = DATA / "heldout" / "claims_v11.jsonl"  # the eleventh (heldout/CLAIMS_V11.md)
HELDOUT_V12 = DATA / "heldout" / "claims_v12.jsonl"  # the twelfth (heldout/CLAIMS_V12.md)
HELDOUT_V13 = DATA / "heldout" / "claims_v13.jsonl"  # the fourteenth session's (CLAIMS_V13.md)
HELDOUT_V14 = DATA / "heldout" / "claims_v14.jsonl"  # the fifteenth session's (CLAIMS_V14.md)
HELDOUT_V15 = DATA / "heldout" / "claims_v15.jsonl"  # its second (CLAIMS_V15.md)
# The first five held-out claim sets, retired to development in the twelfth session (read and
# tuned on from then; heldout/README.md): their figures are in-sample from that session on.
RETIRED = (HELDOUT, HELDOUT_V2, HELDOUT_V3, HELDOUT_V4, HELDOUT_V5)
EXTRA_BIB = DATA / "verification_extra.bib"


def build_library(corpus: Path, folder: Path) -> Library:
    """The corpus library, ingested the way a user ingests it."""
    lib = Library.open(folder)
    lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "library.bib", EXTRA_BIB])
    return lib


def load_set(path: Path = DEVELOPMENT) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@dataclass(frozen=True)
class Outcome:
    row: dict
    citations: tuple[Citation, ...]

    @property
    def citation(self) -> Citation | None:
        """The citation of the row's claim: the last one (narrative forms cite at the start of
        the sentence, bracketed ones at the end, and each row cites one work)."""
        return self.citations[-1] if self.citations else None

    @property
    def status(self) -> str:
        return self.citation.status if self.citation else "none found"

    @property
    def correct(self) -> bool:
        c = self.citation
        accept = self.row.get("accept") or [self.row["expected"]]
        ok = c is not None and c.status in accept
        if ok and c is not None and self.row["expected"] == "verified" and self.row.get("page"):
            pages = {self.row["page"], *self.row.get("also_pages", ())}
            ok = c.evidence is not None and c.evidence.page in pages
        if ok and c is not None and "via" in self.row:
            ok = c.via == self.row["via"]
        return ok


def run_set(lib: Library, rows: Sequence[dict]) -> list[Outcome]:
    return [Outcome(row, check_text(lib, row["text"]).citations) for row in rows]


def group_of(row: dict) -> str:
    """The group, with true and false number claims apart (they expect different verdicts)."""
    if "truth" in row:
        return f"{row['group']} ({'true' if row['truth'] else 'false'})"
    return str(row["group"])


def accuracy(outcomes: Sequence[Outcome]) -> dict[str, tuple[int, int]]:
    """group -> (correct, total)."""
    total = Counter(group_of(o.row) for o in outcomes)
    good = Counter(group_of(o.row) for o in outcomes if o.correct)
    return {g: (good[g], n) for g, n in sorted(total.items())}


def leaked(outcomes: Sequence[Outcome]) -> list[str]:
    """Rows that must not verify but did: the failure a green chip must never hide."""
    return [
        o.row["id"] for o in outcomes if o.row["expected"] != "verified" and o.status == "verified"
    ]


def scored_table(
    lib: Library, path: Path, name: str
) -> tuple[list[Outcome], dict[str, tuple[int, int]]]:
    """The outcomes of a claim set and its per-group table, printed (a test's -s output)."""
    outcomes = run_set(lib, load_set(path))
    table = accuracy(outcomes)
    for group, (good, n) in table.items():
        print(f"{name} {group:32} {good}/{n}")
    return outcomes, table


def hints_missing(lib: Library, questions: Sequence[Any]) -> list[str]:
    """The ids of questions whose answer hint is in no chunk of their answer papers (as the
    evaluation reads chunks: line-end hyphens joined, spaces and case folded)."""
    missing = []
    for q in questions:
        if q.answer_hint:
            texts = [
                fold(normalize_space(dehyphenate(c.text)))
                for k in q.answer_paper_keys
                for c in lib.chunks_of(k)
            ]
            if not any(fold(q.answer_hint) in t for t in texts):
                missing.append(q.id)
    return missing
