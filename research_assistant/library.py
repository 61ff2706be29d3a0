"""The library folder: PDF copies, the merged bibliography, the catalog and the search index.

Layout of a library folder::

    catalog.duckdb   papers, files, chunks, ingest runs, verification log (the source of truth)
    pdfs/            copies of the ingested PDFs, named <safe key>-<sha8>.pdf
    index/           BM25 index, one folder per catalog generation, CURRENT names the live one
    library.bib      the merged bibliography, rewritten after every change (for export)

Writes are ordered so that a crash at any point leaves the previous library loadable: PDF copies
are written first (an orphan copy is harmless), then one DuckDB transaction commits the catalog,
then the index for the new generation is saved. On open, an index whose generation differs from
the catalog's is rebuilt from the catalog's chunks (no PDF is parsed again).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from research_assistant.bib import parse as bibtex
from research_assistant.bib.write import to_bibtex
from research_assistant.check.verify import Resolver
from research_assistant.errors import LibraryError
from research_assistant.files import write_atomic
from research_assistant.index import SearchIndex
from research_assistant.ingest import plan as ingest
from research_assistant.models import Chunk, IngestReport, Paper
from research_assistant.settings import load_settings
from research_assistant.store import Store

Progress = Callable[[int, int, str], None]  # (done, total, file name)


@dataclass(frozen=True)
class LibraryState:
    """What readers see: replaced whole after each change, never mutated."""

    papers: dict[str, Paper]
    index: SearchIndex
    generation: str
    _cache: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def resolver(self) -> Resolver:
        """The resolver of this state's papers, built once per catalog generation."""
        resolver = self._cache.get("resolver")
        if resolver is None:
            resolver = self._cache["resolver"] = Resolver(list(self.papers.values()))
        return resolver


def _change_run(
    user: str | None, action: str, **details: str
) -> tuple[str, datetime, str, dict[str, Any]]:
    """An ingest_runs row for a change made by hand, so that who removed or moved what is kept."""
    now = datetime.now(UTC).replace(tzinfo=None)
    return (uuid.uuid4().hex, now, user or "anonymous", {"action": action, **details})


class Library:
    """One library folder. Reads are safe from many threads; changes are serialised."""

    def __init__(self, root: Path, store: Store) -> None:
        self.root = root
        self.store = store
        self.pdf_dir = root / "pdfs"
        self.index_dir = root / "index"
        self._change_lock = threading.Lock()
        self._state = self._load_state()

    @classmethod
    def open(cls, path: Path | str | None = None) -> Library:
        if path is None:
            path = load_settings().resolved_library()
        root = Path(path).expanduser().resolve()
        if root.exists() and not root.is_dir():
            raise LibraryError(f"{root} is a file, not a library folder: choose a folder.")
        try:
            (root / "pdfs").mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LibraryError(f"Cannot create the library folder {root}: {e}") from e
        return cls(root, Store.open(root / "catalog.duckdb"))

    # ---- reading -------------------------------------------------------------------------
    @property
    def state(self) -> LibraryState:
        return self._state

    @property
    def index(self) -> SearchIndex:
        return self._state.index

    def papers(self) -> list[Paper]:
        return sorted(self._state.papers.values(), key=lambda p: (p.label.casefold(), p.key))

    def paper(self, key: str) -> Paper | None:
        return self._state.papers.get(key)

    def chunks_of(self, key: str) -> list[Chunk]:
        return self._state.index.chunks_of(key)

    def pdf_path(self, key: str) -> Path | None:
        paper = self.paper(key)
        if paper is None or not paper.pdf:
            return None
        path = (self.pdf_dir / paper.pdf).resolve()
        if path.parent != self.pdf_dir.resolve() or not path.is_file():
            return None
        return path

    def _load_state(self) -> LibraryState:
        papers = {p.key: p for p in self.store.papers()}
        generation = self.store.meta("generation")
        chunks = self.store.chunks()
        index = SearchIndex.load(self.index_dir, chunks, generation)
        if index is None:  # first open, or a crash between the catalog commit and the index save
            titles = {k: p.title for k, p in papers.items()}
            index = SearchIndex.build(chunks, titles, generation or "empty")
            index.save(self.index_dir)
        return LibraryState(papers, index, generation)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No change can start while this is held (backups); readers go on."""
        with self._change_lock:
            yield

    # ---- changing ------------------------------------------------------------------------
    def ingest(
        self,
        paths: Sequence[Path | str],
        *,
        progress: Progress | None = None,
        user: str | None = None,
        workers: int = 2,
        max_bytes: int | None = None,
    ) -> IngestReport:
        """Add PDFs, .bib files or folders. Bad files are skipped with a reason.

        ``progress(done, total, name)`` is called as each PDF is read, possibly from a reader
        thread: a UI should hand it over to its own thread (the Library page uses a queue).
        Ingests are serialised; asking goes on meanwhile and sees the new state when it lands.
        """
        with self._change_lock:
            started = datetime.now(UTC).replace(tzinfo=None)
            plan = ingest.plan(
                [Path(p) for p in paths],
                existing=self._state.papers,
                known_shas=self.store.paper_shas(),
                pdf_dir=self.pdf_dir,
                progress=progress,
                workers=workers,
                max_bytes=max_bytes or ingest.MAX_FILE_BYTES,
            )
            if not plan.changed:
                return plan.report
            run = (uuid.uuid4().hex, started, user or "anonymous", plan.report.to_dict())
            self._commit(
                plan.papers, plan.chunks, plan.removed, plan.pdf_bytes, run, plan.files, plan.shas
            )
            return plan.report

    def remove(self, key: str, user: str | None = None) -> None:
        with self._change_lock:
            if key not in self._state.papers:
                raise LibraryError(f"No paper with key {key!r} in the library.")
            papers = {k: p for k, p in self._state.papers.items() if k != key}
            self._commit(papers, {}, [key], {}, _change_run(user, "remove", key=key), [])

    def assign_pdf(self, from_key: str, to_key: str, user: str | None = None) -> None:
        """Fix a wrong match: move the PDF of ``from_key`` to the entry ``to_key``."""
        with self._change_lock:
            papers = dict(self._state.papers)
            src, dst = papers.get(from_key), papers.get(to_key)
            if src is None or dst is None:
                raise LibraryError(f"Unknown paper key: {from_key if src is None else to_key!r}.")
            if not src.pdf:
                raise LibraryError(f"{src.label} has no PDF to move.")
            sha = self.store.paper_shas().get(from_key, "")
            old_chunks = self.chunks_of(from_key)
            new_chunks = [
                replace(c, chunk_id=c.chunk_id.replace(from_key, to_key, 1), paper_key=to_key)
                for c in old_chunks
            ]
            papers[to_key] = replace(dst, pdf=src.pdf, pages=src.pages, chunks=len(new_chunks))
            removed = []
            if src.metadata == "inferred":
                del papers[from_key]
                removed.append(from_key)
            else:
                papers[from_key] = replace(src, pdf=None, pages=0, chunks=0)
            chunks = {to_key: new_chunks, from_key: []}
            run = _change_run(user, "assign_pdf", from_key=from_key, to_key=to_key)
            self._commit(papers, chunks, removed, {}, run, [], shas={to_key: sha})

    def _commit(
        self,
        papers: dict[str, Paper],
        chunks: Mapping[str, Sequence[Chunk]],
        removed: Iterable[str],
        pdf_bytes: dict[str, bytes],
        run: tuple[str, datetime, str, dict[str, Any]] | None,
        files: Sequence[tuple[str, str, str, int, int]],
        shas: dict[str, str] | None = None,
    ) -> None:
        removed = list(removed)
        labelled = {p.key: p for p in bibtex.assign_labels(papers.values())}
        for name, data in pdf_bytes.items():  # 1. PDF copies (orphans are harmless)
            write_atomic(self.pdf_dir / name, data)
        known = self.store.paper_shas()
        known.update(shas or {})
        generation = self.store.apply_changes(  # 2. the catalog, in one transaction
            papers=[(p, known.get(p.key, "")) for p in labelled.values()],
            chunks=dict(chunks),
            removed=removed,
            files=files,
            run=run,
        )
        # 3. the index of the new generation, swapped in whole
        changed = set(chunks) | set(removed)
        all_chunks = [c for c in self._state.index.all_chunks() if c.paper_key not in changed]
        for items in chunks.values():
            all_chunks.extend(items)
        titles = {k: p.title for k, p in labelled.items()}
        index = SearchIndex.build(all_chunks, titles, generation)
        index.save(self.index_dir)
        self._state = LibraryState(labelled, index, generation)
        self._write_bib(labelled.values())
        self._remove_orphan_pdfs(labelled.values())

    def _write_bib(self, papers: Iterable[Paper]) -> None:
        text = to_bibtex(sorted(papers, key=lambda p: p.key))
        write_atomic(self.root / "library.bib", text.encode("utf-8"))

    def _remove_orphan_pdfs(self, papers: Iterable[Paper]) -> None:
        used = {p.pdf for p in papers if p.pdf}
        for f in self.pdf_dir.glob("*.pdf"):
            if f.name not in used:
                f.unlink(missing_ok=True)
