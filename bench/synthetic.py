"""A synthetic library of many papers made from the corpus pages, shared by the benchmarks."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from research_assistant.index import chunk_paper
from research_assistant.library import Library
from research_assistant.models import Name, PageText, Paper


def corpus_pages(pdfs: list[Path]) -> list[list[str]]:
    pages = []
    for path in pdfs:
        with pymupdf.open(path) as doc:
            pages.append([page.get_text() for page in doc])
    return pages


def _surname(i: int) -> str:
    """A distinct, letters-only family name per paper ("Okaforbd"): a name with digits is,
    rightly, no citation for the citation finder."""
    stems = ["Smith", "García", "Nguyen", "Müller", "Okafor", "Kowalski", "Tanaka", "Silva"]
    suffix, n = "", i // len(stems)
    while True:
        n, r = divmod(n, 26)
        suffix += "abcdefghijklmnopqrstuvwxyz"[r]
        if n == 0:
            return stems[i % len(stems)] + suffix


def synthetic_library(root: Path, corpus_pages: list[list[str]], n: int) -> Library:
    """n papers whose pages are corpus pages, shuffled between papers, with made-up metadata
    (no PDF is parsed: the chunks go straight into the catalog and the index)."""
    lib = Library.open(root)
    rng = random.Random(7)
    papers: dict[str, Paper] = {}
    chunks = {}
    for i in range(n):
        key = f"synthetic{i:04d}"
        pages = rng.choice(corpus_pages)
        start = rng.randrange(max(1, len(pages) - 4))
        selected = [PageText(j + 1, t) for j, t in enumerate(pages[start : start + 6])]
        cks = chunk_paper(key, f"{i:064d}", selected)
        papers[key] = Paper(
            key=key,
            title=f"Synthetic paper {i}",
            authors=(Name(_surname(i), "A."),),
            year=1990 + i % 35,
            pages=len(selected),
            chunks=len(cks),
        )
        chunks[key] = cks
    lib._commit(papers, chunks, [], {}, None, [], {})
    return lib
