"""What a model judge can change on the labelled claim sets (issue 11's second opinion).

With no model: an **oracle** judge that rules from each claim's label (supports, quoting the
row's labelled evidence sentence; contradicts a claim labelled unsupported; finds not enough
otherwise) shows the ceiling the combining rules (``check/judging.py``) leave a perfect model:
what it is never sent (a contradiction found offline), what it cannot lift (its quote is not
found in the passages sent, or lacks the claim's numbers), what ends on another page. With
``--backend anthropic`` (or ``openai``: a lab's own model server, settings as for ``ask``) the
configured model judges instead: its real figures, one call per claim. Asserts nothing.

    .venv/bin/python bench/judge.py [--backend B] [--sets development|heldout|all]

Prints per set: right / rows and leaks (should not verify, verified) offline, with the judge on
the unsettled citations, and with it on every citation; then why the rows still wrong under the
judge on every citation are wrong.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "data")]

import labelled_set  # noqa: E402

from research_assistant import Library, ResearchAssistantError, check_text  # noqa: E402
from research_assistant.answer.base import Judge, JudgeItem, Ruling  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
# the development claims, and the held-out sets v1-v5 retired to development (in-sample)
DEVELOPMENT = [*sorted(labelled_set.DATA.glob("verification*.jsonl")), *labelled_set.RETIRED]
HELDOUT = sorted(  # claims_v6 ... claims_v12 in their order
    set((labelled_set.DATA / "heldout").glob("claims*.jsonl")) - set(labelled_set.RETIRED),
    key=lambda p: int(p.stem.partition("_v")[2] or 1),
)


class Oracle:
    """A judge that knows the row's label: the best any model could do under the rules."""

    backend, model = "oracle", "oracle"

    def __init__(self) -> None:
        self.row: dict = {}
        self.sent = 0

    def judge(self, items: Sequence[JudgeItem]) -> tuple[Ruling, ...]:
        self.sent += len(items)
        accept = self.row.get("accept") or [self.row["expected"]]
        if "verified" in accept:
            verdict, quote = "supports", str(self.row.get("evidence") or "")
        elif self.row["expected"] == "unsupported":
            verdict, quote = "contradicts", ""
        else:
            verdict, quote = "not_enough", ""
        return tuple(Ruling(i.id, verdict, quote, "from the label") for i in items)


def outcome(lib: Library, row: dict, judge: Judge | None, every: bool) -> labelled_set.Outcome:
    if isinstance(judge, Oracle):
        judge.row = row
    checked = check_text(lib, row["text"], judge=judge, judge_every=every)
    return labelled_set.Outcome(row, checked.citations)


def why_wrong(o: labelled_set.Outcome) -> str:
    """Why a row is still wrong with the judge on every citation."""
    c = o.citation
    if c is None:
        return "no citation found"
    if o.row["expected"] != "verified":
        return f"{c.status} (judge: {c.judge.split(' (')[-1] or 'not sent'})"
    if c.status == "unsupported" and c.conflict:
        return f"never sent: offline {c.conflict} contradiction"
    if "not lifted" in c.judge:
        return c.judge[c.judge.index("not lifted") :].rstrip(")")
    if c.status == "verified":
        return "verified on another page"
    return f"{c.status}, judge: {c.judge or 'not sent'}"


def figures(outcomes: Sequence[labelled_set.Outcome]) -> str:
    right = sum(o.correct for o in outcomes)
    leaks = len(labelled_set.leaked(outcomes))
    para = [o for o in outcomes if o.row["group"] == "paraphrase"]
    said = f", paraphrases {sum(o.correct for o in para)}/{len(para)}" if para else ""
    return f"{right}/{len(outcomes)} right, {leaks} leaks{said}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", help="a configured model backend instead of the oracle")
    parser.add_argument("--sets", choices=("development", "heldout", "all"), default="all")
    args = parser.parse_args()
    judge: Judge = Oracle()
    if args.backend:
        from research_assistant.pipeline import get_judge

        try:
            configured = get_judge(args.backend)
        except ResearchAssistantError as exc:
            sys.exit(str(exc))
        if configured is None:
            sys.exit(f"{args.backend} cannot judge: configure a model backend (README, Settings)")
        judge = configured
    paths = {"development": DEVELOPMENT, "heldout": HELDOUT, "all": DEVELOPMENT + HELDOUT}
    with tempfile.TemporaryDirectory() as tmp:
        lib = labelled_set.build_library(CORPUS, Path(tmp) / "library")
        reasons: Counter[str] = Counter()
        for path in paths[args.sets]:
            rows = labelled_set.load_set(path)
            offline = [outcome(lib, r, None, False) for r in rows]
            unsettled = [outcome(lib, r, judge, False) for r in rows]
            every = [outcome(lib, r, judge, True) for r in rows]
            print(f"{path.relative_to(ROOT)} ({judge.model} judge)")
            print(f"  offline:               {figures(offline)}")
            print(f"  judge on the unsettled: {figures(unsettled)}")
            print(f"  judge on every one:     {figures(every)}")
            reasons.update(why_wrong(o) for o in every if not o.correct)
        if isinstance(judge, Oracle):
            print(f"claims sent to the oracle: {judge.sent}")
        print("still wrong with the judge on every citation, by reason:")
        for why, n in reasons.most_common():
            print(f"  {n:4}  {why}")


if __name__ == "__main__":
    main()
