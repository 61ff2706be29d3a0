"""What a weak model's habits cost (issue 16): the offline answerer's answers to the answerable
questions of tests/data/questions.jsonl, rewritten the way small models write them, served by the
fake OpenAI-compatible server (tests/fake_openai.py) to the real openai client, through
pipeline.ask on the corpus library. Prints how many answers and verified citations survive each
habit; asserts nothing. No model runs: this measures Citable's handling, not a model.

    .venv/bin/python bench/weak_models.py [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from research_assistant import store as store_mod  # noqa: E402
from research_assistant.answer.base import SourcePassage  # noqa: E402
from research_assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from research_assistant.answer.openai import OpenAIAnswerer  # noqa: E402
from research_assistant.evaluate import load_questions  # noqa: E402
from research_assistant.library import Library  # noqa: E402
from research_assistant.pipeline import _request, ask  # noqa: E402
from tests.fake_openai import FakeOpenAI, reply  # noqa: E402

_MARKER = re.compile(r"\[([^\[\]]+)\]")


def numeric(text: str, passages: Sequence[SourcePassage]) -> str:
    """Each [Label] as [n], the number of the first passage of that paper in the prompt."""
    first: dict[str, int] = {}
    for i, p in enumerate(passages, 1):
        first.setdefault(p.label, i)
    return _MARKER.sub(lambda m: f"[{first[m[1]]}]" if m[1] in first else m[0], text)


def fenced_json(text: str, passages: Sequence[SourcePassage]) -> str:
    return "```json\n" + json.dumps({"answer": numeric(text, passages)}) + "\n```"


def uncited(text: str, passages: Sequence[SourcePassage]) -> str:
    return re.sub(r" \[[^\[\]]+\]", "", text)


STYLES: dict[str, Callable[[str, Sequence[SourcePassage]], str]] = {
    "labels, as told": lambda text, _: text,
    "numeric markers [n]": numeric,
    "JSON in a code fence, [n]": fenced_json,
    "no citations": uncited,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    logging.getLogger("httpx2").setLevel(logging.WARNING)
    questions = [q for q in load_questions(ROOT / "tests/data/questions.jsonl") if q.answerable]
    totals = {name: [0, 0, 0, 0] for name in STYLES}  # asked, answered, citations, verified
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI() as server:
        lib = Library.open(Path(tmp) / "lib")
        lib.ingest([*sorted(args.corpus.glob("*.pdf")), args.corpus / "library.bib"])
        answerer = OpenAIAnswerer(base_url=server.base_url, model="fake", max_retries=0)
        started = time.perf_counter()
        for q in questions:
            request = _request(lib.state, q.question, lib.state.index.retrieve(q.question, 8))
            draft = ExtractiveAnswerer().answer(request)
            if draft.refused:
                continue
            for name, style in STYLES.items():
                text = style(draft.text, request.passages)
                server.replies.clear()
                server.enqueue(reply(text), reply(text))  # the answer, then a repair or re-ask
                answer = ask(lib, q.question, answerer=answerer, top_k=8)
                row = totals[name]
                row[0] += 1
                row[1] += answer.mode == "answer"
                row[2] += len(answer.citations)
                row[3] += sum(c.status == "verified" for c in answer.citations)
        seconds = time.perf_counter() - started
        store_mod.close(lib.root / "catalog.duckdb")
    asked = totals["labels, as told"][0]
    print(f"{len(questions)} answerable questions, {asked} answered offline; {seconds:.0f} s")
    print(f"{'style':28} {'answered':>9} {'citations':>10} {'verified':>9}")
    for name, (n, answered, cites, verified) in totals.items():
        print(f"{name:28} {answered:>4} / {n:<3} {cites:>10} {verified:>9}")


if __name__ == "__main__":
    main()
