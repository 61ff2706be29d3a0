"""The only llama_index import: a paper's pages as LlamaIndex nodes, chunked as the library
chunks them (``index.split_page``: same ids, offsets and texts as ``index.chunk_paper``).

For LlamaIndex retrievers and query engines over a library's chunks. Nothing on the app's or the
CLI's path imports this module: retrieval is ``fulltext`` (tantivy), and importing LlamaIndex
takes seconds, which an ingest used to pay at every start (issue 14).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, MetadataMode, TextNode

from research_assistant.index import split_page
from research_assistant.models import PageText

__all__ = ["PageChunker", "page_nodes"]


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


def page_nodes(paper_key: str, file_sha256: str, pages: Sequence[PageText]) -> list[TextNode]:
    """The chunk nodes of one paper's pages (empty pages have none)."""
    docs = [
        Document(
            text=p.text,
            metadata={
                "paper_key": paper_key,
                "page": p.number,
                "chunk_prefix": f"{paper_key}@{file_sha256[:8]}",
            },
        )
        for p in pages
        if p.text.strip()
    ]
    chunker = PageChunker(include_metadata=False, include_prev_next_rel=False)
    return [n for n in chunker._parse_nodes(docs) if isinstance(n, TextNode)]
