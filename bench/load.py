"""N concurrent simulated sessions against one process: threads calling the same functions the
pages call (ask with the offline answerer, and check_text), on one shared Library.

    .venv/bin/python bench/load.py [--requests 48] [--sessions 1 4 16] [--corpus ../shared/corpus]

Prints throughput, p50/p95 latency and the share of failed requests per N; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from research_assistant import demo  # noqa: E402
from research_assistant.library import Library  # noqa: E402
from research_assistant.pipeline import ask, check_text  # noqa: E402

QUESTIONS = [
    "What fractal dimension do DLA clusters have in 2D?",
    "How does MapReduce handle the failure of a worker?",
    "What is the site percolation threshold of the square lattice?",
    "How many languages does the WiLI benchmark cover?",
    "How was heat stress applied to the wheat plants?",
    "What is smooth sensitivity?",
]
CHECK = "MapReduce re-executes the tasks of failed workers [Dean and Ghemawat, 2004]."


def run(lib: Library, sessions: int, total: int) -> tuple[float, list[float], int]:
    latencies: list[float] = []
    failures = 0
    lock = threading.Lock()
    counter = iter(range(total))

    def session(n: int) -> None:
        nonlocal failures
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            t = time.perf_counter()
            try:
                if i % 4 == 3:
                    check_text(lib, CHECK, user=f"user{n}")
                else:
                    ask(lib, QUESTIONS[i % len(QUESTIONS)], backend="extractive", user=f"user{n}")
                ok = True
            except Exception:
                ok = False
            with lock:
                latencies.append((time.perf_counter() - t) * 1000)
                failures += not ok

    start = time.perf_counter()
    threads = [threading.Thread(target=session, args=(n,)) for n in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, sorted(latencies), failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--requests", type=int, default=48)
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 4, 16])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib")
        paths = demo.build_demo(Path(tmp) / "demo")
        if (args.corpus / "library.bib").is_file():
            paths += [*sorted(args.corpus.glob("*.pdf")), args.corpus / "library.bib"]
        lib.ingest(paths)
        print(f"library: {len(lib.papers())} papers, {len(lib.index)} chunks; 2 cores")
        ask(lib, QUESTIONS[0], backend="extractive")  # warm caches
        for n in args.sessions:
            before = lib.store.count("runs")
            wall, lat, failed = run(lib, n, args.requests)
            logged = lib.store.count("runs") - before
            p50 = statistics.median(lat)
            p95 = lat[max(0, int(0.95 * len(lat)) - 1)]
            print(
                f"N={n:2d}: {args.requests} requests in {wall:.2f} s = {args.requests / wall:.1f} req/s;"
                f" latency p50 {p50:.0f} ms, p95 {p95:.0f} ms; failed {failed / args.requests:.0%};"
                f" logged {logged}/{args.requests}"
            )


if __name__ == "__main__":
    main()
