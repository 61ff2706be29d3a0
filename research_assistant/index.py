"""Chunks of a paper, and the search index of a generation.

Chunks never cross a page boundary (``ingest.chunking`` says where they lie). The chunk texts
live in the catalog (DuckDB); the index folder holds, per generation, the BM25 full-text index
(``fulltext``, made incrementally from the previous generation) and the checker's term counts
(``terms.bin``), switched atomically.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import weakref
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from research_assistant.errors import ResearchAssistantError
from research_assistant.files import TMP_PREFIX, check_generation, remove_inside
from research_assistant.fulltext import Fulltext
from research_assistant.ingest.chunking import (  # noqa: F401 - the index's chunking, re-exported
    CHUNK_MAX_CHARS,
    CHUNK_TARGET_CHARS,
    OVERLAP_MAX_CHARS,
    split_page,
)
from research_assistant.models import Chunk, ChunkSpan, PageText, Passage
from research_assistant.termcounts import Counting, TermCounts, with_terms

MAX_TOP_K = 50
_PAPERS_CACHED = 2000  # papers whose chunks a SearchIndex keeps after reading them


def chunk_paper(
    paper_key: str,
    file_sha256: str,
    pages: Iterable[PageText],
    spans: Sequence[ChunkSpan] = (),
) -> list[Chunk]:
    """Chunks of one paper (at ``spans`` when the reader made them, else split here); ids carry
    the file hash so a replaced file gets new ids."""
    prefix = f"{paper_key}@{file_sha256[:8]}"
    text = {p.number: p.text for p in pages}
    where: list[tuple[int, int, int, frozenset[str] | None]]
    where = [(s.page, s.start, s.end, s.terms) for s in spans] or [
        (n, s, e, None) for n, t in text.items() if t.strip() for s, e in split_page(t)
    ]
    out = []
    nth: dict[int, int] = {}
    for page, start, end, known in where:
        i = nth[page] = nth.get(page, -1) + 1
        chunk_text = text[page][start:end]
        out.append(Chunk(f"{prefix}:p{page}:{i}", paper_key, page, start, end, chunk_text, known))
    return out


_NOT_WORDS = re.compile(r"\W+")


def same_text(text: str) -> str:
    """What near-identical chunks share (their words, case-folded): retrieval keeps one of them."""
    return _NOT_WORDS.sub(" ", text).strip().casefold()


def _body(chunk: Chunk, titles: Mapping[str, str]) -> str:
    """The searched text of a chunk: its paper's title, then the chunk."""
    return f"{titles.get(chunk.paper_key, '')}\n\n{chunk.text}"


class SearchIndex:
    """BM25 over all chunks (``fulltext``, which stores them too) and the checker's term
    counts. Immutable: a change derives a new one, so readers never see a half-built index."""

    def __init__(
        self,
        engine: Fulltext,
        generation: str,
        terms: TermCounts,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        self.generation = generation
        self._engine = engine
        self._titles = dict(titles or {})  # the titles indexed with the chunks
        self.terms = terms  # the checker's term counts over all chunks
        self._papers: dict[str, list[Chunk]] = {}  # chunks_of, cached (bounded)

    @classmethod
    def build(
        cls,
        chunks: Sequence[Chunk],
        titles: Mapping[str, str],
        generation: str = "",
        *,
        stage: Path | None = None,
    ) -> SearchIndex:
        """A full build, staged in a new temporary folder inside ``stage`` (the index folder it
        will be written to; default: the system's temporary folder)."""
        if stage is not None:
            stage.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=stage))
        try:
            engine = Fulltext.create(folder)
            counting = Counting()
            pairs = ((c, _body(c, titles)) for c in counting.each(chunks))
            engine.change((), pairs, count=len(chunks))
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        index = cls(engine, generation, counting.counts(), titles)
        if stage is None:  # never left behind in the system's temporary folder
            weakref.finalize(index, shutil.rmtree, folder, True)
        return index

    def derive(
        self,
        folder: Path,
        chunks: Mapping[str, Sequence[Chunk]],
        removed: Iterable[str],
        titles: Mapping[str, str],
        generation: str,
        *,
        root: Path | None = None,
    ) -> SearchIndex:
        """This index with the papers in ``chunks`` replaced, the ``removed`` gone and re-titled
        ones re-indexed (titles are searched), as a new generation staged inside ``folder``.
        Costs the changed papers: made from this generation's folder by hard links (see
        fulltext); a full build when that folder is missing or unusable."""
        gone_keys = set(removed)
        retitled = {k for k, t in self._titles.items() if titles.get(k, t) != t}
        changed = set(chunks) | gone_keys | retitled
        added = {k: list(chunks[k]) if k in chunks else self.chunks_of(k) for k in changed}
        for k in gone_keys:
            added[k] = []
        added = {k: [with_terms(c) for c in cs] for k, cs in added.items()}
        new = [c for cs in added.values() for c in cs]
        counts = self.terms.changed([c for k in changed for c in self.chunks_of(k)], new)
        folder.mkdir(parents=True, exist_ok=True)
        source = folder / check_generation(self.generation, f"The index of {folder}")
        stage = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=folder))
        try:
            engine = None
            if source.is_dir() and not source.is_symlink():
                engine = Fulltext.linked_copy(source, stage)
            if engine is None or len(engine) != len(self):
                remove_inside(stage, root or folder.parent)
                everything = [c for c in self._engine.all_chunks() if c.paper_key not in changed]
                everything += new
                return SearchIndex.build(everything, titles, generation, stage=folder)
            engine.change(changed, ((c, _body(c, titles)) for c in new), count=len(new))
        except BaseException:
            with contextlib.suppress(OSError, ResearchAssistantError):
                remove_inside(stage, root or folder.parent)
            raise
        index = SearchIndex(engine, generation, counts, titles)
        index._papers.update((k, v) for k, v in added.items() if v)
        return index

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
        staged = self._engine.folder
        if staged == target:
            return target  # written already
        in_place = staged.parent == folder and staged.is_dir()
        tmp = staged if in_place else Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=folder))
        try:
            if not in_place:
                for f in staged.iterdir():
                    if f.is_file() and not f.name.endswith(".lock"):
                        shutil.copyfile(f, tmp / f.name)
            self.terms.write(tmp)  # never linked from the last generation: written anew
            if target.exists() or target.is_symlink():
                _remove_generation(target, root)
            tmp.rename(target)
        except BaseException:
            with contextlib.suppress(OSError, ResearchAssistantError):
                remove_inside(tmp, root)
            raise
        if in_place:
            self._engine.folder = target  # the same files, renamed: the next change links them
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
                if old.name.startswith(TMP_PREFIX):
                    continue  # a change being staged (the sweep at open removes leftovers)
                with contextlib.suppress(OSError, ResearchAssistantError):
                    _remove_generation(old, root)

    def discard(self, folder: Path, *, root: Path | None = None) -> None:
        """Remove folder/<generation>/ (a write whose catalog commit failed)."""
        self.discard_generation(folder, self.generation, root=root)

    @staticmethod
    def discard_generation(folder: Path, generation: str, *, root: Path | None = None) -> None:
        target = folder / check_generation(generation, f"The index of {folder}")
        if target.is_dir() and not target.is_symlink():
            with contextlib.suppress(OSError, ResearchAssistantError):
                _remove_generation(target, root or folder.parent)

    @classmethod
    def load(
        cls,
        folder: Path,
        chunks: Sequence[Chunk] | int,
        generation: str,
        titles: Mapping[str, str] | None = None,
    ) -> SearchIndex | None:
        """The persisted index of the catalog's generation, else None (rebuild). ``chunks``:
        the catalog's chunks, or their number (an index holding another number is refused).
        The folder is found by the generation itself (validated first), not by CURRENT: a crash
        between the index write and the catalog commit leaves the old generation's folder."""
        if not generation:
            return None
        where = folder / check_generation(generation, f"The index of {folder}")
        if not where.is_dir() or where.is_symlink():
            return None
        engine = Fulltext.open(where)
        expected = chunks if isinstance(chunks, int) else len(chunks)
        if engine is None or len(engine) != expected:
            return None  # an index of another format (before tantivy) or damaged: rebuild
        terms = TermCounts.read(where)
        if terms is None or terms.n != len(engine):  # lost, or another version's: recount
            terms = TermCounts.of(engine.all_chunks())
        return cls(engine, generation, terms, titles)

    def __len__(self) -> int:
        return len(self._engine)

    def retrieve(self, query: str, top_k: int = 8) -> list[Passage]:
        """The ``top_k`` best chunks by BM25, one of each set of chunks with the same words
        (the best-scoring), so that copies never crowd the top."""
        top_k = min(top_k, MAX_TOP_K)
        if not query.strip() or top_k < 1:
            return []
        limit = top_k * 3
        while True:
            hits = self._engine.search(query, limit)
            passages: list[Passage] = []
            seen: set[str] = set()
            for chunk, score in hits:
                text = same_text(chunk.text)
                if score > 0.0 and text not in seen:
                    seen.add(text)
                    passages.append(Passage(chunk=chunk, score=score))
                    if len(passages) >= top_k:
                        return passages
            if len(hits) < limit or limit >= MAX_TOP_K * 20:
                return passages
            limit *= 4

    def all_chunks(self) -> list[Chunk]:
        """Every chunk, read from the index (slow on a big library: not for serving)."""
        return self._engine.all_chunks()

    def chunks_of(self, paper_key: str) -> list[Chunk]:
        found = self._papers.get(paper_key)
        if found is None:
            found = self._engine.chunks("key", paper_key)
            if len(self._papers) >= _PAPERS_CACHED:
                self._papers.clear()
            self._papers[paper_key] = found  # one assignment: safe across threads
        return found

    def chunk(self, chunk_id: str) -> Chunk | None:
        found = self._engine.chunks("cid", chunk_id)
        return found[0] if found else None


def _remove_generation(path: Path, root: Path) -> None:
    """Delete a generation's folder, renamed first to a staging name: a tantivy thread of an
    index still open on it (a reader's watcher) may create a lock file in it at any moment, which
    would make the removal fail half-way; after the rename its path no longer exists. A staging
    folder left behind is swept at the next open."""
    base = root.resolve()
    where = path.resolve()
    if path.is_dir() and not path.is_symlink() and where != base and where.is_relative_to(base):
        trash = path.with_name(f"{TMP_PREFIX}{os.urandom(8).hex()}")
        path.rename(trash)
        path = trash
    remove_inside(path, root)
