"""The library folder: PDF copies, the merged bibliography, the catalog and the search index.

Layout of a library folder::

    catalog.duckdb   papers, files, chunks, ingest runs, verification log (the source of truth)
    pdfs/            copies of the ingested PDFs, named <safe key>-<sha8>.pdf
    index/           BM25 index, one folder per catalog generation, CURRENT names the live one
    library.bib      the merged bibliography, rewritten after every change (for export)

Writes are ordered so that a failure or a crash at any point leaves the previous library
loadable: PDF copies are written first, then the index of the new generation (in its own folder,
not yet used), then one DuckDB transaction commits the catalog, which names that generation: the
commit is the switch. A failure before it (a full disk, say) removes what this change wrote;
after it only tidying is left (CURRENT, old index folders, library.bib, replaced copies). On
open, a missing index of the catalog's generation is rebuilt from the catalog's chunks (no PDF is
parsed again), and PDF copies no catalog row points to (a killed ingest's) are removed.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from research_assistant.bib import parse as bibtex
from research_assistant.bib.edit import Correction, corrected
from research_assistant.bib.write import merged_bib
from research_assistant.check.resolve import Resolver
from research_assistant.check.support import Context
from research_assistant.embed import default_embedder
from research_assistant.errors import LibraryError, ResearchAssistantError
from research_assistant.files import (
    EMPTY_GENERATION,
    TMP_PREFIX,
    disk_full,
    is_disk_full,
    new_generation,
    remove_inside,
    write_atomic,
)
from research_assistant.folder import check_catalog_present, remove_stale_pdfs
from research_assistant.index import SearchIndex
from research_assistant.ingest import plan as ingest
from research_assistant.models import Chunk, IngestReport, Paper
from research_assistant.roles import Actor, require_curator
from research_assistant.store import Store

Progress = Callable[[int, int, str], None]  # (done, total, file name)
CATALOG = "catalog.duckdb"
log = logging.getLogger(__name__)
# One change lock per library folder, shared by every Library object of this process that opens
# it: changes stay serialised, and the sweep at open never removes a copy an ingest is writing.
_ROOT_LOCKS: dict[Path, threading.Lock] = {}
_ROOT_LOCKS_LOCK = threading.Lock()


def _root_lock(root: Path) -> threading.Lock:
    with _ROOT_LOCKS_LOCK:
        return _ROOT_LOCKS.setdefault(root, threading.Lock())


T = TypeVar("T")


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

    def cached(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, made once per state (per catalog generation) and kept under ``name``."""
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]  # type: ignore[no-any-return]

    @property
    def support_context(self) -> Context:
        """How the checker weighs terms in this state (library-wide rarity), the offline
        sentence similarity and word relatedness; built once per generation from the index's
        stored term counts."""
        ctx = self._cache.get("support")
        if ctx is None:
            embedder = default_embedder()
            ctx = self._cache["support"] = self.index.terms.context(
                embedder.similarity, embedder.related
            )
        return ctx


def _change_run(
    user: str | None, action: str, **details: str
) -> tuple[str, datetime, str, dict[str, Any]]:
    """An ingest_runs row for a change made by hand, so that who removed or moved what is kept."""
    now = datetime.now(UTC).replace(tzinfo=None)
    return (uuid.uuid4().hex, now, user or "anonymous", {"action": action, **details})


class Library:
    """One library folder. Reads are safe from many threads; changes are serialised.

    Every change takes the acting ``user``: a ``roles.User`` who is a member is refused
    (``PermissionDeniedError``) before anything is written; a plain id is recorded (see roles).
    """

    def __init__(self, root: Path, store: Store) -> None:
        self.root = root
        self.store = store
        self.pdf_dir = root / "pdfs"
        self.index_dir = root / "index"
        self._change_lock = _root_lock(root)
        self._state = self._load_state()
        self._sweep()

    @classmethod
    def open(cls, path: Path | str | None = None) -> Library:
        if path is None:
            from research_assistant.settings import load_settings  # start-up time: pydantic

            path = load_settings().resolved_library()
        elif isinstance(path, str) and not path.strip():
            raise LibraryError(
                "The library folder is an empty path (''): name a folder, e.g. --library "
                "~/papers, or leave it out to use RA_LIBRARY_DIR or ./library."
            )
        root = Path(path).expanduser().resolve()
        if root.exists() and not root.is_dir():
            raise LibraryError(f"{root} is a file, not a library folder: choose a folder.")
        check_catalog_present(root, CATALOG)
        try:
            (root / "pdfs").mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LibraryError(f"Cannot create the library folder {root}: {e.strerror}") from e
        return cls(root, Store.open(root / CATALOG))

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

    def known_pdfs(self) -> dict[str, str]:
        """The SHA-256 of every PDF in the library -> its paper's label (uploads refuse copies)."""
        shas = self.store.paper_shas().items()
        return {sha: (p.label if (p := self.paper(k)) else k) for k, sha in shas if sha}

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
        generation = self.store.generation()  # validated: it names a folder under index/
        titles = {k: p.title for k, p in papers.items()}
        gen = generation or EMPTY_GENERATION  # the chunks stay on disk, in the index:
        index = SearchIndex.load(self.index_dir, self.store.chunk_count(), gen, titles)
        if index is None:  # first open, an index folder lost or damaged, or of another format
            if generation:  # an upgrade's new index format takes minutes at 10,000 papers
                log.warning("Rebuilding the search index of %s from its catalog", self.root)
            stage = self.index_dir if self.index_dir.is_dir() else None  # else the system's
            index = SearchIndex.build(self.store.chunks(), titles, gen, stage=stage)
            try:
                index.save(self.index_dir, root=self.root)
            except OSError as e:  # a full disk must not stop reading: keep it in memory
                log.warning("The rebuilt index of %s is not saved (%s)", self.root, e.strerror)
        return LibraryState(papers, index, generation)

    def _sweep(self) -> None:
        """Remove PDF copies no catalog row points to and temporary files a killed change left,
        inside pdfs/ and index/ only. Skipped while a change of this process is under way."""
        if not self._change_lock.acquire(blocking=False):
            return
        try:
            self._remove_orphan_pdfs(self._state.papers.values())
            for stale in self.index_dir.glob(f"{TMP_PREFIX}*") if self.index_dir.is_dir() else ():
                with contextlib.suppress(OSError, ResearchAssistantError):
                    remove_inside(stale, self.root)
        finally:
            self._change_lock.release()

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
        user: Actor = None,
        workers: int = 2,
        max_bytes: int | None = None,
    ) -> IngestReport:
        """Add PDFs, .bib files or folders. Bad files are skipped with a reason.

        ``progress(done, total, name)`` is called as each PDF is read, possibly from a reader
        thread: a UI should hand it over to its own thread (the Library page uses a queue).
        Ingests are serialised; asking goes on meanwhile and sees the new state when it lands.
        """
        user_id = require_curator(user, "Adding papers")
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
            run = (uuid.uuid4().hex, started, user_id or "anonymous", plan.report.to_dict())
            self._commit(plan.papers, plan.chunks, plan.removed, plan.pdf_bytes, run, plan.files,
                         plan.shas)  # fmt: skip
            return plan.report

    def remove(self, key: str, user: Actor = None) -> None:
        user_id = require_curator(user, "Removing a paper")
        with self._change_lock:
            if key not in self._state.papers:
                raise LibraryError(f"No paper with key {key!r} in the library.")
            papers = {k: p for k, p in self._state.papers.items() if k != key}
            self._commit(papers, {}, [key], {}, _change_run(user_id, "remove", key=key), [])

    def assign_pdf(self, from_key: str, to_key: str, user: Actor = None) -> None:
        """Fix a wrong match: move the PDF of ``from_key`` to the entry ``to_key``."""
        user_id = require_curator(user, "Fixing a match")
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
            run = _change_run(user_id, "assign_pdf", from_key=from_key, to_key=to_key)
            self._commit(papers, chunks, removed, {}, run, [], shas={to_key: sha})

    def correct_metadata(self, key: str, fix: Correction, user: Actor = None) -> Paper:
        """A curator's correction (``bib.edit``): catalog and library.bib, logged with the user."""
        user_id = require_curator(user, "Correcting a paper's metadata")
        with self._change_lock:
            papers = dict(self._state.papers)
            if key not in papers:
                raise LibraryError(f"No paper with key {key!r} in the library.")
            papers[key] = corrected(papers[key], fix)
            details = {"title": fix.title, "authors": fix.authors, "year": fix.year,
                       "venue": fix.venue, "doi": fix.doi}  # fmt: skip
            run = _change_run(user_id, "correct_metadata", key=key, **details)
            self._commit(papers, {}, [], {}, run, [])
            return self._state.papers[key]

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
        generation = new_generation()
        titles = {k: p.title for k, p in labelled.items()}
        written: list[Path] = []
        # 0. the new index, staged beside the current one (costs the changed papers), made by
        # a thread while this one writes the catalog rows (tantivy indexes outside the GIL);
        # 1. the PDF copies, written and synced by another (I/O, outside the GIL too); leaving
        # the block waits for both, so nothing is undone under their feet
        try:
            with ThreadPoolExecutor(2, thread_name_prefix="commit") as pool:
                staged = pool.submit(
                    self._state.index.derive,
                    *(self.index_dir, chunks, removed, titles, generation),
                )
                copies = pool.submit(self._write_pdfs, pdf_bytes, written)
                known = self.store.paper_shas()
                known.update(shas or {})
                old = self._state.papers  # 3. the catalog, in one transaction: the switch,
                changed = [  # committed once 2. the new index is written (not used yet)
                    p for p in labelled.values() if (o := old.get(p.key)) is not p and o != p
                ]
                self.store.apply_changes(
                    papers=[(p, known.get(p.key, "")) for p in changed],
                    chunks=dict(chunks),
                    removed=removed,
                    files=files,
                    run=run,
                    generation=generation,
                    before_commit=lambda: (
                        copies.result(),
                        staged.result().write(self.index_dir, root=self.root),
                    ),
                )
        except BaseException as e:
            self._undo(generation, written)
            if is_disk_full(e):
                raise LibraryError(
                    f"Nothing was changed: {disk_full(self.root)}. The library is as it was "
                    "before; free some space on that disk, then try again."
                ) from e
            raise
        index = staged.result()
        self._state = LibraryState(labelled, index, generation)
        self._tidy(index, list(labelled.values()))

    def _write_pdfs(self, pdf_bytes: Mapping[str, bytes], written: list[Path]) -> None:
        """Write the PDF copies of a change; ``written`` gets the paths that did not exist."""
        for name, data in pdf_bytes.items():
            path = self.pdf_dir / name
            if not path.exists():
                written.append(path)
            write_atomic(path, data)

    def _tidy(self, index: SearchIndex, papers: list[Paper]) -> None:
        """4. After the commit: the new state is complete on disk, so a failure here (a full
        disk) loses nothing; it is logged and done again by the next change."""
        steps: tuple[tuple[str, Callable[[], None]], ...] = (
            ("switching index/CURRENT", lambda: index.activate(self.index_dir, root=self.root)),
            ("writing library.bib", lambda: self._write_bib(papers)),
            ("removing replaced PDF copies", lambda: self._remove_orphan_pdfs(papers)),
        )
        for what, step in steps:
            try:
                step()
            except (OSError, ResearchAssistantError) as e:
                log.warning("%s: %s failed after the change was saved: %s", self.root, what, e)

    def _undo(self, generation: str, written: Sequence[Path]) -> None:
        """Remove what a change wrote before its catalog commit failed (unless it did land)."""
        with contextlib.suppress(Exception):
            if self.store.meta("generation") == generation:
                return  # the commit landed before the failure: everything written is in use
        SearchIndex.discard_generation(self.index_dir, generation, root=self.root)
        for path in written:
            with contextlib.suppress(OSError, ResearchAssistantError):
                remove_inside(path, self.root)

    def _write_bib(self, papers: Iterable[Paper]) -> None:
        write_atomic(self.root / "library.bib", merged_bib(papers).encode("utf-8"))

    def _remove_orphan_pdfs(self, papers: Iterable[Paper]) -> None:
        remove_stale_pdfs(self.pdf_dir, {p.pdf for p in papers if p.pdf}, self.root)
