"""Page-aware chunking: where a page's text is cut into chunks, and the checker's terms of each.

Chunks never cross a page boundary: each page is split on sentence boundaries into pieces of
about ``CHUNK_TARGET_CHARS``, with one sentence of overlap, so every chunk has one page and exact
character offsets into that page's text. Pure (no PyMuPDF, no index): the reader processes run
it beside the extraction, so the parent process of an ingest only assembles chunks.
"""

from __future__ import annotations

from collections.abc import Iterable

from research_assistant.models import ChunkSpan, PageText
from research_assistant.terms import terms
from research_assistant.text import sentence_spans

# Chunk size: about 200 tokens. Smaller chunks make the evidence quote shown to the user short
# and the BM25 ranking sharp; larger ones give the answerer more context. 1,000 characters keeps
# a typical paragraph whole on the corpus papers (measured: median paragraph 700-900 chars).
CHUNK_TARGET_CHARS = 1000
CHUNK_MAX_CHARS = 1600
OVERLAP_MAX_CHARS = 300  # the last sentence is repeated in the next chunk when shorter than this


def split_page(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the chunks of one page's text."""
    spans: list[tuple[int, int]] = []
    for s, e in sentence_spans(text):
        # a "sentence" longer than the maximum (tables, equations) is cut at whitespace
        while e - s > CHUNK_MAX_CHARS:
            cut = text.rfind(" ", s, s + CHUNK_TARGET_CHARS)
            cut = cut if cut > s else s + CHUNK_TARGET_CHARS
            spans.append((s, cut))
            s = cut
            while s < e and text[s].isspace():
                s += 1
        if e > s:
            spans.append((s, e))
    chunks: list[tuple[int, int]] = []
    i = 0
    while i < len(spans):
        start, end = spans[i]
        j = i + 1
        while j < len(spans) and spans[j][1] - start <= CHUNK_TARGET_CHARS:
            end = spans[j][1]
            j += 1
        chunks.append((start, end))
        if j >= len(spans):
            break
        last = spans[j - 1]
        overlap = j - 1 > i and last[1] - last[0] <= OVERLAP_MAX_CHARS
        i = j - 1 if overlap else j
    return chunks


def chunk_spans(pages: Iterable[PageText]) -> tuple[ChunkSpan, ...]:
    """Every chunk of ``pages`` in order, with the checker's terms of its text (what the
    library-wide term counts are made of: an ingest counts these instead of the texts again).
    The terms are ``terms.terms`` of the text, as ``check.passages.chunk_terms`` makes them for
    a chunk it has not cached; called directly, the reader processes need not import the
    checker (a tenth of a second of each reader's start)."""
    return tuple(
        ChunkSpan(p.number, s, e, terms(p.text[s:e]))
        for p in pages
        if p.text.strip()
        for s, e in split_page(p.text)
    )
