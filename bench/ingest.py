"""Ingest speed against raw PyMuPDF extraction, library load time, and retrieval latency at
1,000 papers. Prints figures measured in one run; asserts nothing.

    .venv/bin/python bench/ingest.py [--papers 1000] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402 - the bench measures raw extraction with the library itself

from research_assistant import store as store_mod  # noqa: E402
from research_assistant.library import Library  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import corpus_pages, synthetic_library  # noqa: E402


def raw_extraction(pdfs: list[Path]) -> tuple[int, float]:
    start = time.perf_counter()
    pages = 0
    for path in pdfs:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()
                pages += 1
    return pages, time.perf_counter() - start


def our_ingest(pdfs: list[Path], bib: Path, workers: int) -> tuple[int, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib")
        start = time.perf_counter()
        report = lib.ingest([*pdfs, bib], workers=workers)
        first = time.perf_counter() - start
        start = time.perf_counter()
        again = lib.ingest([*pdfs, bib], workers=workers)
        second = time.perf_counter() - start
        assert not again.added and not again.updated, "a second ingest must be a no-op"
        pages = sum(p.pages for p in lib.papers())
        store_mod.close(lib.root / "catalog.duckdb")
    assert report.added, "the corpus must ingest"
    return pages, first, second


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs in {args.corpus}: pass --corpus")

    raw_extraction(pdfs)  # warm the file cache
    pages, raw_s = raw_extraction(pdfs)
    raw_rate = pages / raw_s
    print(
        f"raw PyMuPDF text extraction, 1 core: {pages} pages in {raw_s:.2f} s = {raw_rate:.0f} pages/s"
    )
    # The app and the CLI have the stack imported before an ingest starts: warm it the same way
    # (pandas for the bulk insert, the BM25 tokenizer, the worker start-up path).
    with tempfile.TemporaryDirectory() as tmp:
        warm = Library.open(Path(tmp) / "warm")
        warm.ingest(pdfs[:3], workers=2)
        store_mod.close(warm.root / "catalog.duckdb")
    for workers in (1, 2):
        ing_pages, first, second = our_ingest(pdfs, args.corpus / "library.bib", workers)
        rate = ing_pages / first
        print(
            f"our ingest, {workers} worker(s): {ing_pages} pages in {first:.2f} s = {rate:.0f} pages/s"
            f" (ratio to raw {rate / raw_rate:.2f}); second ingest of the same files {second:.3f} s"
        )

    pages_of_corpus = corpus_pages(pdfs)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        lib = synthetic_library(Path(tmp) / "big", pages_of_corpus, args.papers)
        build_s = time.perf_counter() - start
        n_chunks = len(lib.index)
        store_mod.close(lib.root / "catalog.duckdb")
        start = time.perf_counter()
        lib = Library.open(Path(tmp) / "big")
        load_s = time.perf_counter() - start
        rng = random.Random(11)
        words = [w for pages in pages_of_corpus for w in " ".join(pages[:2]).split() if len(w) > 5]
        latencies = []
        for _ in range(args.queries):
            query = " ".join(rng.sample(words, 4))
            t = time.perf_counter()
            lib.index.retrieve(query, 8)
            latencies.append((time.perf_counter() - t) * 1000)
        latencies.sort()
        p50 = statistics.median(latencies)
        p95 = latencies[int(0.95 * len(latencies)) - 1]
        print(
            f"synthetic library: {args.papers} papers, {n_chunks} chunks, built in {build_s:.1f} s"
        )
        print(f"load of an existing library ({args.papers} papers): {load_s:.2f} s")
        print(f"retrieval top-8 over {n_chunks} chunks: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
        store_mod.close(lib.root / "catalog.duckdb")


if __name__ == "__main__":
    main()
