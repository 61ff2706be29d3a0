"""The only llama_index import: page-aware chunking and the BM25 retrieval index.

Chunks never cross a page boundary: each page is split on sentence boundaries into pieces of
about ``CHUNK_TARGET_CHARS``, with one sentence of overlap, so every chunk has one page and exact
character offsets into that page's text. The chunk texts live in the catalog (DuckDB); the index
folder holds only the BM25 model, one folder per generation, switched atomically.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, MetadataMode, QueryBundle, TextNode
from llama_index.retrievers.bm25 import BM25Retriever

from research_assistant.errors import ResearchAssistantError, SearchIndexError
from research_assistant.files import TMP_PREFIX, check_generation, remove_inside
from research_assistant.models import Chunk, PageText, Passage
from research_assistant.text import sentence_spans

# Chunk size: about 200 tokens. Smaller chunks make the evidence quote shown to the user short
# and the BM25 ranking sharp; larger ones give the answerer more context. 1,000 characters keeps
# a typical paragraph whole on the corpus papers (measured: median paragraph 700-900 chars).
CHUNK_TARGET_CHARS = 1000
CHUNK_MAX_CHARS = 1600
OVERLAP_MAX_CHARS = 300  # the last sentence is repeated in the next chunk when shorter than this
MAX_TOP_K = 50
# Metadata that must not count toward the BM25 text (SEE: "Metadata length is longer than chunk
# size" in LlamaIndex): only the title is searchable beside the chunk text.
_EXCLUDED = ["paper_key", "page", "start", "end", "label", "year", "authors"]

logging.getLogger("llama_index.retrievers.bm25.base").setLevel(logging.ERROR)
logging.getLogger("bm25s").setLevel(logging.ERROR)


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


class PageChunker(NodeParser):
    """A LlamaIndex node parser: one Document per page in, page-bound chunk nodes out."""

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        out: list[BaseNode] = []
        for doc in nodes:
            text = doc.get_content(metadata_mode=MetadataMode.NONE)
            meta = dict(doc.metadata)
            spans = meta.get("spans") or split_page(text)
            for i, (start, end) in enumerate(spans):
                node_id = f"{meta['chunk_prefix']}:p{meta['page']}:{i}"
                out.append(
                    TextNode(
                        id_=node_id,
                        text=text[start:end],
                        start_char_idx=start,
                        end_char_idx=end,
                        metadata={"paper_key": meta["paper_key"], "page": meta["page"]},
                    )
                )
        return out


_CHUNKER = PageChunker(include_metadata=False, include_prev_next_rel=False)


def page_spans(pages: Iterable[PageText]) -> dict[int, list[tuple[int, int]]]:
    """split_page of every page, by page number: computed ahead while other PDFs are read."""
    return {p.number: split_page(p.text) for p in pages if p.text.strip()}


def chunk_paper(
    paper_key: str,
    file_sha256: str,
    pages: Iterable[PageText],
    spans: Mapping[int, list[tuple[int, int]]] | None = None,
) -> list[Chunk]:
    """Chunks of one paper; ids carry the file hash so a replaced file gets new ids."""
    prefix = f"{paper_key}@{file_sha256[:8]}"
    docs = [
        Document(
            text=p.text,
            metadata={
                "paper_key": paper_key,
                "page": p.number,
                "chunk_prefix": prefix,
                "spans": (spans or {}).get(p.number),
            },
        )
        for p in pages
        if p.text.strip()
    ]
    nodes = [n for n in _CHUNKER._parse_nodes(docs) if isinstance(n, TextNode)]
    return [
        Chunk(
            chunk_id=n.node_id,
            paper_key=paper_key,
            page=int(n.metadata["page"]),
            start=int(n.start_char_idx or 0),
            end=int(n.end_char_idx or 0),
            text=n.get_content(metadata_mode=MetadataMode.NONE),
        )
        for n in nodes
    ]


class SearchIndex:
    """BM25 over all chunks, plus the chunk table in memory. Immutable once built: a change
    builds a new one that replaces it, so readers never see a half-built index."""

    def __init__(
        self, chunks: Sequence[Chunk], retriever: BM25Retriever | None, generation: str = ""
    ) -> None:
        self.generation = generation
        self._retriever = retriever
        self._chunks = {c.chunk_id: c for c in chunks}
        self._by_paper: dict[str, list[Chunk]] = {}
        for c in chunks:
            self._by_paper.setdefault(c.paper_key, []).append(c)

    @classmethod
    def build(
        cls, chunks: Sequence[Chunk], titles: Mapping[str, str], generation: str = ""
    ) -> SearchIndex:
        if not chunks:
            return cls([], None, generation)
        nodes = [
            TextNode(
                id_=c.chunk_id,
                text=c.text,
                metadata={"title": titles.get(c.paper_key, "")},
                excluded_embed_metadata_keys=_EXCLUDED,
                excluded_llm_metadata_keys=_EXCLUDED,
            )
            for c in chunks
        ]
        try:
            retriever = BM25Retriever.from_defaults(
                nodes=nodes, similarity_top_k=min(MAX_TOP_K, len(nodes))
            )
        except (ValueError, RuntimeError) as e:
            raise SearchIndexError(f"Could not build the search index: {e}") from e
        return cls(chunks, retriever, generation)

    def save(self, folder: Path, *, root: Path | None = None) -> None:
        """Persist to folder/<generation>/ and switch folder/CURRENT to it."""
        self.write(folder, root=root)
        self.activate(folder, root=root)

    def write(self, folder: Path, *, root: Path | None = None) -> Path:
        """Persist to folder/<generation>/ without making it current: the library writes it
        before the catalog commit that names this generation. Nothing is deleted outside
        ``root`` (the library folder; default: the parent of ``folder``)."""
        root = root or folder.parent
        generation = check_generation(self.generation, f"The index of {folder}")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / generation
        tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=folder))
        try:
            if self._retriever is not None:
                self._retriever.persist(str(tmp), show_progress=False)
            else:
                (tmp / "EMPTY").write_text("no chunks\n")
            if target.exists() or target.is_symlink():
                remove_inside(target, root)
            tmp.rename(target)
        except BaseException:
            with contextlib.suppress(OSError, ResearchAssistantError):
                remove_inside(tmp, root)
            raise
        return target

    def activate(self, folder: Path, *, root: Path | None = None) -> None:
        """Point folder/CURRENT at this generation and remove the other generations' folders
        (only real folders inside ``root``; a planted link is left alone)."""
        root = root or folder.parent
        generation = check_generation(self.generation, f"The index of {folder}")
        pointer = folder / ".CURRENT.tmp"
        pointer.unlink(missing_ok=True)  # never write through a link left in its place
        pointer.write_text(generation)
        os.replace(pointer, folder / "CURRENT")
        for old in folder.iterdir():
            if old.name != generation and old.is_dir() and not old.is_symlink():
                with contextlib.suppress(OSError, ResearchAssistantError):
                    remove_inside(old, root)

    def discard(self, folder: Path, *, root: Path | None = None) -> None:
        """Remove folder/<generation>/ (a write whose catalog commit failed)."""
        target = folder / check_generation(self.generation, f"The index of {folder}")
        if target.is_dir() and not target.is_symlink():
            with contextlib.suppress(OSError, ResearchAssistantError):
                remove_inside(target, root or folder.parent)

    @classmethod
    def load(cls, folder: Path, chunks: Sequence[Chunk], generation: str) -> SearchIndex | None:
        """The persisted index of the catalog's generation, else None (rebuild). The folder is
        found by the generation itself (validated first), not by CURRENT: a crash between the
        index write and the catalog commit leaves the old generation's folder in place."""
        if not generation:
            return None
        where = folder / check_generation(generation, f"The index of {folder}")
        if not where.is_dir() or where.is_symlink():
            return None
        if (where / "EMPTY").exists():
            return cls([], None, generation) if not chunks else None
        try:
            retriever = BM25Retriever.from_persist_dir(str(where))
        except Exception:
            return None
        retriever.similarity_top_k = min(MAX_TOP_K, max(1, len(chunks)))
        return cls(chunks, retriever, generation)

    def __len__(self) -> int:
        return len(self._chunks)

    def retrieve(self, query: str, top_k: int = 8) -> list[Passage]:
        if self._retriever is None or not query.strip():
            return []
        results = self._retriever.retrieve(QueryBundle(query_str=query))
        passages = []
        for r in results:
            chunk = self._chunks.get(r.node.node_id)
            if chunk is not None and (r.score or 0.0) > 0.0:
                passages.append(Passage(chunk=chunk, score=float(r.score or 0.0)))
            if len(passages) >= top_k:
                break
        return passages

    def all_chunks(self) -> list[Chunk]:
        return list(self._chunks.values())

    def chunks_of(self, paper_key: str) -> list[Chunk]:
        return self._by_paper.get(paper_key, [])

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def paper_keys(self) -> set[str]:
        return set(self._by_paper)
