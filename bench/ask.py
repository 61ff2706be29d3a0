"""End-to-end latency of an offline ask (retrieve, answer, verify, log) on the corpus library
and on a synthetic 1,000-paper library. Prints figures measured in one run; asserts nothing.
Target (issue 4): p50 under 150 ms at 1,000 papers. The synthetic library is built as in
bench/ingest.py (its function copied here, with letters-only author names).

    .venv/bin/python bench/ask.py [--papers 1000] [--asks 200] [--corpus ../shared/corpus]

The questions are those of tests/data/questions.jsonl, asked in turn; the synthetic library's
pages are corpus pages, so the same questions find text there too. Stage times come from the
pipeline's progress steps: retrieve (Searching -> Retrieved), answer (Answering -> Checking),
verify + references + log (Checking -> Done; refusals skip it).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402 - the synthetic library is built from raw corpus pages

from research_assistant import store as store_mod  # noqa: E402
from research_assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from research_assistant.evaluate import load_questions  # noqa: E402
from research_assistant.library import Library  # noqa: E402
from research_assistant.pipeline import ask  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import synthetic_library  # noqa: E402

STAGES = {"Searching": "retrieve", "Answering": "answer", "Checking": "verify+log"}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p * len(ordered)) - 1))]


def measure(lib: Library, questions: list[str], asks: int, top_k: int) -> dict[str, list[float]]:
    answerer = ExtractiveAnswerer()
    for q in questions[:5]:  # warm: first-use caches (verify's prepared chunks, BM25 arrays)
        ask(lib, q, answerer=answerer, top_k=top_k, user="bench")
    times: dict[str, list[float]] = defaultdict(list)
    modes: list[str] = []
    for i in range(asks):
        marks: list[tuple[str, float]] = []

        def step(message: str, marks: list[tuple[str, float]] = marks) -> None:
            marks.append((message.split(" ", 1)[0], time.perf_counter()))

        start = time.perf_counter()
        answer = ask(lib, questions[i % len(questions)], answerer=answerer, top_k=top_k,
                     user="bench", on_step=step)  # fmt: skip
        times["total"].append((time.perf_counter() - start) * 1000)
        modes.append(answer.mode)
        for (name, t0), (_, t1) in itertools.pairwise(marks):
            if name in STAGES:
                times[STAGES[name]].append((t1 - t0) * 1000)
    times["answered"] = [float(modes.count("answer"))]
    return times


def report(title: str, times: dict[str, list[float]], asks: int) -> None:
    total = times["total"]
    print(
        f"{title}: {asks} asks ({int(times['answered'][0])} answered), end to end "
        f"p50 {statistics.median(total):.1f} ms, p95 {percentile(total, 0.95):.1f} ms, "
        f"max {max(total):.1f} ms"
    )
    for stage in STAGES.values():
        if times[stage]:
            v = times[stage]
            print(
                f"  {stage:11} p50 {statistics.median(v):6.1f} ms, p95 {percentile(v, 0.95):6.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--asks", type=int, default=200)
    parser.add_argument("--top-k", type=int, default=8)
    args = parser.parse_args()
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs in {args.corpus}: pass --corpus")
    questions = [q.question for q in load_questions(ROOT / "tests" / "data" / "questions.jsonl")]

    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "corpus")
        lib.ingest([*pdfs, args.corpus / "library.bib"])
        n_chunks = len(lib.index)
        times = measure(lib, questions, args.asks, args.top_k)
        report(f"corpus library ({len(lib.papers())} papers, {n_chunks} chunks)", times, args.asks)
        store_mod.close(lib.root / "catalog.duckdb")

        corpus_pages = []
        for path in pdfs:
            with pymupdf.open(path) as doc:
                corpus_pages.append([page.get_text() for page in doc])
        big = synthetic_library(Path(tmp) / "big", corpus_pages, args.papers)
        store_mod.close(big.root / "catalog.duckdb")
        big = Library.open(Path(tmp) / "big")  # loaded from disk, as a server would
        n_chunks = len(big.index)
        times = measure(big, questions, args.asks, args.top_k)
        report(f"synthetic library ({args.papers} papers, {n_chunks} chunks)", times, args.asks)
        store_mod.close(big.root / "catalog.duckdb")


if __name__ == "__main__":
    main()
