"""A lab library of thousands of papers: build, open, add one PDF, remove one, ask latency alone
and while a 50-PDF ingest runs, memory. Prints figures measured in one run; asserts nothing.

    .venv/bin/python bench/scale.py [--sizes 1000,5000,10000] [--asks 100] [--ingest 50]

One library folder grows from size to size (``build`` is the time to grow it to that size from
the previous one, in one change, and the total from empty). At each size: ``open`` is
``Library.open`` in a fresh process that has the stack imported (as the app at start-up), then
its first question end to end, and that process's RSS; then, in a process that opened the
library and ran ``jobs.warm_and_settle`` (as the app at start-up), ``add one PDF`` ingests a corpus PDF
(then ``remove one`` removes it); asks are offline end to end (retrieve, answer, verify, log),
first alone (``--asks`` asks cycling over tests/data/questions.jsonl's questions, most of them
asked before, as a lab asks again), then the other development questions, each asked once (no
cache holds their passages), then while another thread ingests ``--ingest`` generated PDFs (read
by the reader processes, as the app's Library page does).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402 - the bench writes the PDFs of the concurrent ingest

from research_assistant import store as store_mod  # noqa: E402
from research_assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from research_assistant.evaluate import load_questions  # noqa: E402
from research_assistant.library import Library  # noqa: E402
from research_assistant.pipeline import ask  # noqa: E402
from research_assistant.web import jobs  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import corpus_pages, synthetic_papers  # noqa: E402

OPEN_CHILD = """
import json, sys, time
t0 = time.perf_counter()
from research_assistant.answer.extractive import ExtractiveAnswerer
from research_assistant.library import Library
from research_assistant.pipeline import ask
t1 = time.perf_counter()
lib = Library.open(sys.argv[1])
t2 = time.perf_counter()
ask(lib, sys.argv[2], answerer=ExtractiveAnswerer(), user="bench")
t3 = time.perf_counter()
status = open("/proc/self/status").read()  # VmHWM: peak since exec (ru_maxrss keeps the parent's)
rss, peak = (int(status.split(k)[1].split()[0]) // 1024 for k in ("VmRSS:", "VmHWM:"))
print(json.dumps({"import": t1 - t0, "open": t2 - t1, "first": t3 - t2, "rss": rss, "peak": peak}))
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p * len(ordered)) - 1))]


def write_pdfs(folder: Path, pages: list[list[str]], n: int) -> list[Path]:
    """n PDFs of synthetic papers (text past the library's papers: new to it)."""
    papers, chunks = synthetic_papers(pages, n, start=900_000, seed=11)
    out = []
    for key, paper in papers.items():
        doc = pymupdf.open()
        texts: dict[int, list[str]] = {}
        for c in chunks[key]:
            texts.setdefault(c.page, []).append(c.text)
        for number, parts in sorted(texts.items()):
            page = doc.new_page()
            head = f"{paper.title}\n{paper.authors[0].family}\n\n" if number == 1 else ""
            page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), head + " ".join(parts), fontsize=8)
        path = folder / f"{key}.pdf"
        doc.save(path)
        doc.close()
        out.append(path)
    return out


def asks(lib: Library, questions: list[str], n: int, answerer: ExtractiveAnswerer) -> list[float]:
    times = []
    for i in range(n):
        start = time.perf_counter()
        ask(lib, questions[i % len(questions)], answerer=answerer, user="bench")
        times.append((time.perf_counter() - start) * 1000)
    return times


def asks_during_ingest(
    lib: Library, questions: list[str], pdfs: list[Path], answerer: ExtractiveAnswerer
) -> tuple[list[float], float]:
    done = threading.Event()
    spent: list[float] = []

    def ingest() -> None:
        start = time.perf_counter()
        try:
            lib.ingest(pdfs, workers=2)
        finally:
            spent.append(time.perf_counter() - start)
            done.set()

    thread = threading.Thread(target=ingest)
    thread.start()
    times: list[float] = []
    i = 0
    while not done.is_set():
        start = time.perf_counter()
        ask(lib, questions[i % len(questions)], answerer=answerer, user="bench")
        times.append((time.perf_counter() - start) * 1000)
        i += 1
    thread.join()
    return times, spent[0]


def fmt(times: list[float]) -> str:
    return f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--asks", type=int, default=100)
    parser.add_argument("--ingest", type=int, default=50, help="PDFs ingested during asks")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs in {args.corpus}: pass --corpus")
    questions = [q.question for q in load_questions(ROOT / "tests" / "data" / "questions.jsonl")]
    data = ROOT / "tests" / "data"
    fresh = [  # development questions not in questions.jsonl: each asked once, so cold
        q.question
        for name in ("questions_more.jsonl", "questions_dev3.jsonl", "questions_dev4.jsonl")
        for q in load_questions(data / name)
    ]
    pages = corpus_pages(pdfs)
    answerer = ExtractiveAnswerer()
    one_pdf = args.corpus / "map-reduce.pdf"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "lib"
        batch = write_pdfs(Path(tmp), pages, args.ingest) if args.ingest else []
        have, total_build = 0, 0.0
        for size in sizes:
            papers, chunks = synthetic_papers(pages, size - have, start=have)
            lib = Library.open(root)
            start = time.perf_counter()
            lib._commit({**lib.state.papers, **papers}, chunks, [], {}, None, [], {})
            build = time.perf_counter() - start
            total_build += build
            have = size
            n_chunks = len(lib.index)
            store_mod.close(root / "catalog.duckdb")
            child = subprocess.run(
                [sys.executable, "-c", OPEN_CHILD, str(root), questions[0]],
                capture_output=True, text=True, cwd=ROOT, check=True,
            )  # fmt: skip
            opened = json.loads(child.stdout.splitlines()[-1])
            lib = Library.open(root)
            jobs.warm_and_settle(lib)  # as the app does at start-up, in its warm-up thread
            asks(lib, questions, 5, answerer)  # warm: the checker's term weights, caches
            start = time.perf_counter()
            report = lib.ingest([one_pdf])
            add = time.perf_counter() - start
            key = (report.added or report.updated or [""])[0]
            start = time.perf_counter()
            if key:
                lib.remove(key)
            remove = time.perf_counter() - start
            alone = asks(lib, questions, args.asks, answerer)
            new = asks(lib, fresh, len(fresh), answerer)
            print(f"{size} papers, {n_chunks} chunks:")
            print(f"  build: +{build:.1f} s to grow to this size ({total_build:.1f} s from empty)")
            print(
                f"  open (fresh process, stack imported in {opened['import']:.1f} s): "
                f"{opened['open']:.2f} s; first question {opened['first']:.2f} s; "
                f"RSS {opened['rss']} MiB (peak {opened['peak']} MiB)"
            )
            print(f"  add one PDF ({one_pdf.name}): {add:.2f} s; remove it: {remove:.2f} s")
            print(f"  ask, alone ({len(alone)} asks): {fmt(alone)}")
            print(f"  ask, alone, questions never asked before ({len(new)}): {fmt(new)}")
            if batch:
                during, spent = asks_during_ingest(lib, questions, batch, answerer)
                print(
                    f"  ask while {len(batch)} PDFs are ingested ({spent:.1f} s, "
                    f"{len(during)} asks): {fmt(during)}"
                )
                kept = {k: p for k, p in lib.state.papers.items() if k.startswith("synthetic")}
                gone = sorted(set(lib.state.papers) - set(kept))  # back to the synthetic papers
                lib._commit(kept, {}, gone, {}, None, [])
            sys.stdout.flush()
            store_mod.close(root / "catalog.duckdb")


if __name__ == "__main__":
    main()
