"""A synthetic library of many papers made from the corpus text, shared by the benchmarks.

Each synthetic paper is made of corpus sentences dealt from a shuffled deck (every sentence is
used once before any is used again), so papers differ from each other as real papers do: no
page is repeated, term rarity and BM25 scores behave as on varied text; each page also names a
few made-up terms of its own, so the vocabulary grows with the library as a real one does.
Titles are drawn from corpus words (distinct), authors and years vary. Seeded: the same n gives
the same library.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pymupdf

from research_assistant.index import chunk_paper
from research_assistant.library import Library
from research_assistant.models import Chunk, Name, PageText, Paper
from research_assistant.text import sentence_spans

PAGES_PER_PAPER = 6
PAGE_CHARS = 3400  # about a corpus page of text: ~29 chunks a paper, as the corpus has
_WORD = re.compile(r"[A-Za-z]{5,14}")
# Real libraries' vocabularies grow with every paper (Heaps' law: names of methods, genes,
# datasets): a few made-up words per page give 10,000 papers a vocabulary of that size, so
# the term counts stored at each change cost what they would.
NEW_TERMS_PER_PAGE = 3
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def corpus_pages(pdfs: list[Path]) -> list[list[str]]:
    pages = []
    for path in pdfs:
        with pymupdf.open(path) as doc:
            pages.append([page.get_text() for page in doc])
    return pages


def corpus_sentences(pages: list[list[str]]) -> list[str]:
    """The sentences of the corpus pages (one line each), of 5 words to 600 characters."""
    out = []
    for paper in pages:
        for text in paper:
            for s, e in sentence_spans(text):
                sentence = " ".join(text[s:e].split())
                if len(sentence.split()) >= 5 and len(sentence) <= 600:
                    out.append(sentence)
    return out


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


def _made_up_term(rng: random.Random) -> str:
    """A word no other paper uses, like a real paper's method, gene or dataset names."""
    return "".join(rng.choice(_SYLLABLES) for _ in range(4)).capitalize()


def _deck(sentences: list[str], rng: random.Random) -> Iterator[str]:
    """The sentences in a new shuffled order each round, forever."""
    while True:
        order = sentences[:]
        rng.shuffle(order)
        yield from order


def synthetic_papers(
    corpus_pages: list[list[str]], n: int, *, start: int = 0, seed: int = 7
) -> tuple[dict[str, Paper], dict[str, list[Chunk]]]:
    """Papers ``start`` .. ``start + n - 1`` and their chunks (no PDF: made-up metadata)."""
    rng = random.Random(seed)
    sentences = corpus_sentences(corpus_pages)
    words = sorted({w.lower() for s in sentences for w in _WORD.findall(s)})
    deck = _deck(sentences, rng)
    for _ in range(start * PAGES_PER_PAPER * PAGE_CHARS // 150):  # skip what 0..start used
        next(deck)
    papers: dict[str, Paper] = {}
    chunks: dict[str, list[Chunk]] = {}
    for i in range(start, start + n):
        key = f"synthetic{i:05d}"
        pages = []
        own = random.Random(f"{seed}:terms:{i}")
        for number in range(1, PAGES_PER_PAPER + 1):
            text: list[str] = []
            while sum(len(s) + 1 for s in text) < PAGE_CHARS:
                text.append(next(deck))
            for k in own.sample(range(len(text)), min(NEW_TERMS_PER_PAGE, len(text))):
                body, end = (text[k][:-1], text[k][-1]) if text[k][-1] in ".?!" else (text[k], ".")
                text[k] = f"{body} ({_made_up_term(own)}){end}"  # a name of its own
            pages.append(PageText(number, " ".join(text)))
        title_rng = random.Random(f"{seed}:{i}")
        title = " ".join(title_rng.sample(words, 6)).capitalize() + f" ({_surname(i)} study)"
        cks = chunk_paper(key, f"{i:064d}", pages)
        papers[key] = Paper(
            key=key,
            title=title,
            authors=(Name(_surname(i), "A."), Name(_surname(i + 7919), "B.")),
            year=1990 + (i * 7) % 35,
            pages=len(pages),
            chunks=len(cks),
        )
        chunks[key] = cks
    return papers, chunks


def synthetic_library(root: Path, corpus_pages: list[list[str]], n: int) -> Library:
    """A library of n synthetic papers (the chunks go straight into the catalog and the index,
    in one change)."""
    lib = Library.open(root)
    papers, chunks = synthetic_papers(corpus_pages, n)
    lib._commit(papers, chunks, [], {}, None, [], {})
    return lib
