r"""The only tantivy import: the on-disk BM25 full-text index of one index generation.

Each generation of the library's index is one tantivy index in its own folder. A change makes
the next generation from the current one without rewriting it: the files of the current folder
are hard-linked into a new folder (tantivy never changes a segment file once written, and
replaces meta.json by renaming), the changed papers' documents are deleted and added there, and
tantivy commits. The cost is that of the changed papers, plus a merge of small segments now and
then (done by tantivy's own threads, outside the GIL). The current folder is never written to,
so a crash at any point leaves it readable.

Text is analysed like the BM25 it replaces (LlamaIndex's, via bm25s): words of two or more
characters, lower-cased, English stop words removed, Snowball English stems. Words are runs of
letters and digits (tantivy's simple tokenizer; a one-character word is dropped by a stop list
of single letters and digits). Its regex tokenizer (``\w\w+``) gave nearly the same words at
three times the cost, most of a first ingest's indexing time (bench/ingest.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import tantivy

from research_assistant.errors import SearchIndexError
from research_assistant.models import Chunk

_ANALYZER_NAME = "ra_en"
# One-character words are not indexed: ASCII letters and digits, Greek letters and the
# mathematical alphanumerics PDFs set formulas in ("𝑝", "𝛽"), all lower-cased first.
_SINGLES = [
    chr(c)
    for block in ((0x30, 0x3A), (0x61, 0x7B), (0x3B1, 0x3CA), (0x1D400, 0x1D800))
    for c in range(*block)
]
_ANALYZER = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.lowercase())
    .filter(tantivy.Filter.custom_stopword(_SINGLES))
    .filter(tantivy.Filter.stopword("english"))
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)
MAX_QUERY_TERMS = 64  # a pasted paragraph is searched by its first 64 distinct terms
TIE_MARGIN = 4  # hits fetched past the limit to see whether the last one ties
_WRITER_HEAP = 32_000_000  # bytes buffered before tantivy writes a segment (min 15 MB a thread)
_MANY_DOCS = 2000  # chunks added at once (about 70 papers) that earn a second indexing thread
_FORMAT = "citable-fulltext 3\n"  # in FORMAT: another schema (or none) is rebuilt, not read
# termcounts' files (TERMS_FILE, and the older JSON): ours in a generation folder, never linked
_OWN_FILES = ("terms.bin", "terms.json")


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("cid", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("key", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("body", tokenizer_name=_ANALYZER_NAME, index_option="freq")
    for number in ("page", "start", "end"):
        builder.add_unsigned_field(number, stored=True)
    builder.add_bytes_field("text", stored=True)  # the chunk's text, UTF-8, not searched
    # the checker's terms of the text, one per line (``Chunk.terms``), not searched
    builder.add_bytes_field("terms", stored=True)
    return builder.build()


_SCHEMA = _schema()


def analyze(text: str) -> list[str]:
    """The index terms of ``text`` (stems, stop words removed), in order."""
    return list(_ANALYZER.analyze(text))


class Fulltext:
    """One tantivy index folder and a searcher fixed at its last commit (a snapshot: searches
    from many threads are safe and never see a later change). Each document is one chunk, with
    its fields stored, so that a search returns chunks without reading the catalog."""

    def __init__(self, folder: Path, index: tantivy.Index) -> None:
        self.folder = folder
        self._index = index
        index.register_tokenizer(_ANALYZER_NAME, _ANALYZER)
        index.config_reader(reload_policy="manual")
        self._searcher = index.searcher()

    @classmethod
    def create(cls, folder: Path) -> Fulltext:
        """A new empty index in the (existing, empty) folder."""
        try:
            (folder / "FORMAT").write_text(_FORMAT)
            return cls(folder, tantivy.Index(_SCHEMA, path=str(folder), reuse=False))
        except (ValueError, OSError) as e:
            raise SearchIndexError(f"Could not create the search index in {folder}: {e}") from e

    @classmethod
    def open(cls, folder: Path) -> Fulltext | None:
        """The index in ``folder``; None when there is none or it cannot be read."""
        try:
            if (folder / "FORMAT").read_text() != _FORMAT or not tantivy.Index.exists(str(folder)):
                return None
            return cls(folder, tantivy.Index.open(str(folder)))
        except (ValueError, OSError):
            return None

    @classmethod
    def linked_copy(cls, source: Path, folder: Path) -> Fulltext | None:
        """A copy of the index in ``source`` made of hard links in the (empty) ``folder``;
        None when it cannot be made (no such index, a file system without hard links)."""
        try:
            for f in source.iterdir():
                linkable = f.is_file() and not f.is_symlink() and f.name not in _OWN_FILES
                if linkable and not f.name.endswith(".lock"):
                    os.link(f, folder / f.name)
        except OSError:
            return None
        return cls.open(folder)

    def change(
        self, removed: Iterable[str], added: Iterable[tuple[Chunk, str]], count: int = 0
    ) -> None:
        """Delete the chunks of the ``removed`` paper keys, add (chunk, searched text) pairs,
        commit, and move the searcher to the commit. A large addition (``count`` pairs: a first
        ingest) is indexed by two of tantivy's threads (outside the GIL; half the time on two
        cores), a small one by one, so the asks a lab's app serves meanwhile keep a core."""
        threads = 2 if count >= _MANY_DOCS else 1
        try:
            writer = self._index.writer(heap_size=_WRITER_HEAP, num_threads=threads)
            try:
                for key in removed:
                    writer.delete_documents_by_term("key", key)
                for c, body in added:
                    doc = tantivy.Document(cid=c.chunk_id, key=c.paper_key, body=body)
                    for name, value in (("page", c.page), ("start", c.start), ("end", c.end)):
                        doc.add_unsigned(name, max(0, value))
                    doc.add_bytes("text", c.text.encode("utf-8", "surrogatepass"))
                    joined = "\n".join(c.terms or ())
                    if c.terms is not None and joined.count("\n") == max(0, len(c.terms) - 1):
                        doc.add_bytes("terms", joined.encode("utf-8", "surrogatepass"))
                    writer.add_document(doc)
                writer.commit()
                writer.wait_merging_threads()
            except BaseException:
                writer.rollback()
                raise
            finally:
                del writer  # releases the writer lock of the folder
            self._index.reload()
        except (ValueError, OSError) as e:
            raise SearchIndexError(f"Could not update the search index: {e}") from e
        self._searcher = self._index.searcher()

    def __len__(self) -> int:
        return int(self._searcher.num_docs)

    def search(self, query: str, limit: int) -> list[tuple[Chunk, float]]:
        """(chunk, BM25 score) of the best ``limit`` chunks for the words of ``query``."""
        seen: dict[str, None] = {}
        for term in _ANALYZER.analyze(query):
            seen.setdefault(term)
            if len(seen) >= MAX_QUERY_TERMS:
                break
        if not seen or limit < 1:
            return []
        clauses = [
            (tantivy.Occur.Should, tantivy.Query.term_query(_SCHEMA, "body", t)) for t in seen
        ]
        searcher, boolean = self._searcher, tantivy.Query.boolean_query(clauses)
        # Equal scores are common (field lengths are quantised) and tantivy orders them by
        # document address, which depends on how indexing threads and merges laid out the
        # segments: fetch past the limit while the last hit ties the limit's, then order ties
        # by chunk id, so the same library gives the same top k however it was built.
        want = limit + TIE_MARGIN
        while True:
            hits = searcher.search(boolean, want, count=False).hits
            if len(hits) < want or hits[-1][0] < hits[limit - 1][0]:
                break
            want *= 2
        found = [(_chunk(searcher.doc(addr)), float(score)) for score, addr in hits]
        found.sort(key=lambda hit: (-hit[1], hit[0].chunk_id))
        return found[:limit]

    def chunks(self, field: str, value: str) -> list[Chunk]:
        """The chunks whose ``field`` ("cid" or "key") is ``value``, in page order."""
        searcher = self._searcher
        query = tantivy.Query.term_query(_SCHEMA, field, value)
        hits = searcher.search(query, max(1, searcher.num_docs), count=False).hits
        return sorted((_chunk(searcher.doc(addr)) for _, addr in hits), key=_in_order)

    def all_chunks(self) -> list[Chunk]:
        """Every chunk (reads the whole index: for rebuilds and tests, not for serving)."""
        searcher = self._searcher
        hits = searcher.search(tantivy.Query.all_query(), max(1, searcher.num_docs), count=False)
        # without their terms: a whole library's term sets would take gigabytes at once
        found = (_chunk(searcher.doc(addr), with_terms=False) for _, addr in hits.hits)
        return sorted(found, key=_in_order)


def _in_order(c: Chunk) -> tuple[str, int, int]:
    return (c.paper_key, c.page, c.start)


def _chunk(doc: tantivy.Document, *, with_terms: bool = True) -> Chunk:
    text, known = doc.get_first("text"), doc.get_first("terms") if with_terms else None
    return Chunk(
        chunk_id=str(doc.get_first("cid")),
        paper_key=str(doc.get_first("key")),
        page=int(doc.get_first("page") or 0),
        start=int(doc.get_first("start") or 0),
        end=int(doc.get_first("end") or 0),
        text=bytes(text).decode("utf-8", "surrogatepass") if text is not None else "",
        terms=_terms(known),
    )


def _terms(stored: object) -> frozenset[str] | None:
    """The stored terms of a chunk; None when the chunk was indexed without them."""
    if stored is None:
        return None
    joined = bytes(stored).decode("utf-8", "surrogatepass")  # type: ignore[call-overload]
    return frozenset(joined.split("\n")) if joined else frozenset()
