"""Ingest speed against raw PyMuPDF extraction, library load time, and retrieval latency at
1,000 papers. Prints figures measured in one run; asserts nothing.

    .venv/bin/python bench/ingest.py [--papers 1000] [--corpus ../shared/corpus] [--repeat 1]
                                     [--copies 5]

The whole-process line compares two fresh processes on --copies copies of the corpus PDFs (each
copy a distinct file): one that imports PyMuPDF and extracts every page's text, and the CLI
(``python -m research_assistant ingest``, start-up included) ingesting the same files with
library.bib; best of --repeat. The package's bytecode is compiled first, as an installed
package's is (PyMuPDF's, which the raw process imports, was compiled by pip).

--repeat N times raw extraction and each ingest N times, prints each run's ratio and their median, and keeps the fastest (on a busy machine
the ratio moves by a tenth between runs). The page-text line is the cost of marking raised
exponents and footnote markers ("10^6.6", "word^1") in CPU time, apart from everything else.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402 - the bench measures raw extraction with the library itself

from research_assistant import store as store_mod  # noqa: E402
from research_assistant.ingest import pdf as pdf_mod  # noqa: E402
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


def page_text_cost(pdfs: list[Path], repeat: int) -> tuple[int, float, float, int, int]:
    """Pages; CPU seconds for their plain text (what read_pdf started from) and for the page text
    read_pdf stores, each page read both ways in turn (first one way, then the other), best of
    ``repeat``; pages with a raised run marked; "^" marks written."""
    docs = [pymupdf.open(path) for path in pdfs]
    pages = [doc[i] for doc in docs for i in range(doc.page_count)]
    plain_s = marked_s = float("inf")
    for _ in range(repeat):
        plain: list[str] = []
        marked: list[str] = []
        spent = [0.0, 0.0]
        for i, page in enumerate(pages):
            ways = [
                (0, plain, lambda p: p.get_text(flags=pdf_mod._TEXT_FLAGS)),
                (
                    1,
                    marked,
                    lambda p: pdf_mod._page_text(p.get_textpage(flags=pdf_mod._TEXT_FLAGS)),
                ),
            ]
            for way, out, read in ways if i % 2 else ways[::-1]:  # the second read is warmer
                start = time.process_time()
                out.append(read(page))
                spent[way] += time.process_time() - start
        plain_s, marked_s = min(plain_s, spent[0]), min(marked_s, spent[1])
    for doc in docs:
        doc.close()
    changed = sum(
        int(a != b.translate(pdf_mod._SAFE_FIXES)) for a, b in zip(marked, plain, strict=True)
    )
    marks = sum(len(a) - len(b) for a, b in zip(marked, plain, strict=True))
    return len(pages), plain_s, marked_s, changed, marks


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


RAW_PROCESS = """
import sys, pymupdf
n = 0
for path in sys.argv[1:]:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
            n += 1
print(n)
"""


def whole_process(pdfs: list[Path], bib: Path, copies: int) -> tuple[int, float, float]:
    """Pages; seconds of a fresh process extracting their raw text; seconds of a fresh CLI
    process ingesting them (with ``bib``) into a new library."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "pdfs"
        folder.mkdir()
        files = []
        for k in range(copies):
            for pdf in pdfs:  # bytes after %%EOF: the same pages, another file (another hash)
                files.append(folder / f"{k}-{pdf.name}")
                files[-1].write_bytes(pdf.read_bytes() + f"\n% copy {k}\n".encode())
        shutil.copy(bib, folder / bib.name)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", RAW_PROCESS, *map(str, files)],
                             capture_output=True, text=True, check=True)  # fmt: skip
        raw_s = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "research_assistant", "--library", str(Path(tmp) / "lib"),
             "ingest", str(folder)], capture_output=True, check=True, cwd=ROOT,
        )  # fmt: skip
        ingest_s = time.perf_counter() - start
    return int(out.stdout.split()[-1]), raw_s, ingest_s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--copies", type=int, default=5)
    args = parser.parse_args()
    pdfs = sorted(args.corpus.glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs in {args.corpus}: pass --corpus")

    raw_extraction(pdfs)  # warm the file cache
    # The raw process imports PyMuPDF's compiled bytecode (pip wrote it at install); Python
    # writes the package's own on its first import, unless PYTHONDONTWRITEBYTECODE is set
    # (as in some sandboxes: then every process compiled the package, 0.1 s of CPU each).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "research_assistant")],
                   check=True, capture_output=True)  # fmt: skip
    if args.copies:
        bib = args.corpus / "library.bib"
        runs = [whole_process(pdfs, bib, args.copies) for _ in range(args.repeat)]
        n, raw_s, ingest_s = min(runs, key=lambda r: r[2])
        print(
            f"whole process, {args.copies} copies of the corpus ({n} pages): raw extraction "
            f"{raw_s:.2f} s, CLI ingest {ingest_s:.2f} s: ratio {raw_s / ingest_s:.2f}"
        )
        if len(runs) > 1:  # each run measures raw, then ingest, back to back
            ratios = sorted(r[1] / r[2] for r in runs)
            print(
                f"  ratio of each of the {len(runs)} runs: "
                + ", ".join(f"{x:.2f}" for x in ratios)
                + f" (median {statistics.median(ratios):.2f})"
            )
    pages, raw_s = min((raw_extraction(pdfs) for _ in range(args.repeat)), key=lambda r: r[1])
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
    n, plain_s, marked_s, changed, marks = page_text_cost(pdfs, max(args.repeat, 5))
    print(
        f"page text, 1 core CPU: plain {plain_s / n * 1000:.2f} ms/page, with raised runs marked"
        f" {marked_s / n * 1000:.2f} ms/page (+{(marked_s / plain_s - 1) * 100:.1f}%);"
        f" {changed} of {n} pages have {marks} marks"
    )
    for workers in (1, 2):
        ing_pages, first, second = min(
            (our_ingest(pdfs, args.corpus / "library.bib", workers) for _ in range(args.repeat)),
            key=lambda r: r[1],
        )
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
