"""Reading PDFs, in this process or in worker processes.

Workers are plain subprocesses (``python -m research_assistant.ingest.readers``) that import
pdf.py (PyMuPDF) and the pure chunking and term code, and run below normal priority.
multiprocessing's spawn and forkserver children re-run the caller's ``__main__``,
which for the app or a script means importing the whole retrieval stack in every worker, and
``fork`` is unsafe in the multi-threaded Streamlit server. Protocol: the parent writes each path
as an 8-byte length and its bytes (a file name may hold a line break); the worker answers each
with an 8-byte length and a pickled ``PdfInfo | str``.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import IO

from research_assistant.errors import PdfError
from research_assistant.models import PdfInfo

Result = PdfInfo | str
# Readers run below normal priority: on a lab's 2-core server the questions the app answers
# meanwhile get the CPU first, and an ingest with nothing else to do loses nothing.
READER_NICENESS = 10
POOL_MIN_FILES = 3  # fewer PDFs are read in-process: worker processes cost more than they save


def read_or_reason(path: str) -> Result:
    """A PdfInfo with its chunk spans, or the readable reason the PDF cannot be used (one bad
    PDF never stops a run). Chunking and the chunks' terms are made here, in the reader process:
    the ingest's parent is left with assembling (and a 2-core machine splits the work)."""
    from research_assistant.ingest.chunking import chunk_spans  # the parent's start-up time
    from research_assistant.ingest.pdf import read_pdf  # PyMuPDF loads in the worker only

    try:
        info = read_pdf(Path(path), hashed=False)  # the ingest hashed it already
        return replace(info, spans=chunk_spans(info.pages))
    except PdfError as e:
        return str(e)
    except Exception as e:  # one bad PDF must not stop the run
        return f"{Path(path).name}: could not be read ({type(e).__name__}: {e})"


def _read_exact(stream: IO[bytes], n: int) -> bytes:
    data = b""
    while len(data) < n:
        part = stream.read(n - len(data))
        if not part:
            raise EOFError("worker ended")
        data += part
    return data


class Readers:
    """Worker subprocesses, started early (their PyMuPDF import overlaps the caller's start-up)
    and used by ``read``. ``prefetch`` sets them reading files before the caller knows which it
    needs (the CLI's ingest while it imports and opens the catalog); ``read`` then keeps what it
    asks for and drops the rest of the queue. Always ``close()`` them (or use ``with``)."""

    def __init__(self, workers: int) -> None:
        package_root = str(Path(__file__).resolve().parents[2])  # the folder holding the package
        self._env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p
        )}  # fmt: skip
        self.procs = [self._start() for _ in range(max(1, workers))]
        self._done = threading.Condition()  # guards everything below
        self._todo: list[str] = []  # paths to read, next first
        self._results: dict[str, Result] = {}
        self._wanted: set[str] | None = None  # None: keep every result (prefetching)
        self._on_result: Callable[[str, Result], None] | None = None
        self._threads: list[threading.Thread | None] = [None] * len(self.procs)
        self._current = [""] * len(self.procs)  # the path each worker is reading

    def _start(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "research_assistant.ingest.readers"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=self._env,
        )  # fmt: skip

    def __enter__(self) -> Readers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, *, wait: bool = True) -> None:
        """Stop the workers: each finishes the file it is reading and exits when its input
        closes; with ``wait``, after it has exited."""
        with self._done:
            self._todo.clear()
            threads = [t for t in self._threads if t is not None]
        for t in threads:
            t.join()  # each finishes the file it is reading
        for proc in self.procs:
            if proc.stdin and not proc.stdin.closed:
                proc.stdin.close()
        for proc in self.procs if wait else ():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()

    def prefetch(self, paths: Sequence[str]) -> None:
        """Start reading ``paths`` now (largest first); a later ``read`` takes the results."""
        with self._done:
            self._queue(paths)

    def read(
        self, paths: Sequence[str], on_done: Callable[[int, Result], None] | None = None
    ) -> list[Result]:
        """Results in input order; the largest files go first so no worker ends on a long one.
        A worker that dies makes its current file a readable failure and is replaced. Files
        prefetched but not asked for are dropped from the queue (one being read is finished)."""
        where: dict[str, list[int]] = {}
        for i, path in enumerate(paths):
            where.setdefault(path, []).append(i)

        def report(path: str, result: Result) -> None:  # called holding self._done
            if on_done is not None:
                for i in where[path]:
                    on_done(i, result)

        with self._done:
            self._wanted = set(where)
            self._todo = [p for p in self._todo if p in where]
            self._results = {p: r for p, r in self._results.items() if p in where}
            for path, result in self._results.items():
                report(path, result)
            self._on_result = report
            self._queue(paths)
            self._done.wait_for(lambda: len(self._results) == len(where))
            results, self._results = self._results, {}
            self._wanted, self._on_result = None, None
        return [results[p] for p in paths]

    def _queue(self, paths: Sequence[str]) -> None:
        """Add the paths not read, queued or being read; start idle workers (holding _done)."""
        busy = set(self._todo) | set(self._results) | self._reading()
        self._todo += [p for p in dict.fromkeys(paths) if p not in busy]
        self._todo.sort(key=lambda p: -_size(p))
        for slot, thread in enumerate(self._threads):
            if self._todo and thread is None:  # a worker sets its slot to None as it stops
                thread = self._threads[slot] = threading.Thread(target=self._work, args=(slot,))
                thread.start()

    def _reading(self) -> set[str]:
        return {p for p in self._current if p}

    def _work(self, slot: int) -> None:
        while True:
            with self._done:
                if not self._todo:
                    self._threads[slot] = None
                    return
                path = self._current[slot] = self._todo.pop(0)
            result = self._read_one(slot, path)
            with self._done:
                self._current[slot] = ""
                if self._wanted is None or path in self._wanted:
                    self._results[path] = result
                    if self._on_result is not None:
                        self._on_result(path, result)
                    self._done.notify_all()

    def _read_one(self, slot: int, path: str) -> Result:
        proc = self.procs[slot]
        assert proc.stdin is not None and proc.stdout is not None
        try:
            name = path.encode("utf-8", "surrogateescape")
            proc.stdin.write(struct.pack(">Q", len(name)) + name)
            proc.stdin.flush()
            size = struct.unpack(">Q", _read_exact(proc.stdout, 8))[0]
            result: Result = pickle.loads(_read_exact(proc.stdout, size))
            return result
        except (OSError, EOFError, pickle.UnpicklingError):
            # MuPDF crashed on this file: never retry it in this process (it would take the app
            # down); a fresh worker takes the next files
            proc.kill()
            self.procs[slot] = self._start()
            return (
                f"{Path(path).name}: the PDF reader crashed on this file; it may be damaged: "
                "open and re-save it (print to PDF), then add it again"
            )


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def read_many(
    paths: Sequence[str], workers: int, on_done: Callable[[int, Result], None] | None = None
) -> list[Result]:
    """Read ``paths`` with ``workers`` subprocesses started for this call."""
    with Readers(workers) as readers:
        return readers.read(paths, on_done)


_SHARED: dict[int, Readers] = {}
_SHARED_LOCK = threading.Lock()


@contextmanager
def shared_readers(workers: int) -> Iterator[Readers]:
    """The process's long-lived readers (a running app reuses them from ingest to ingest, so
    their start-up is paid once); a second concurrent caller gets readers of its own."""
    if not _SHARED_LOCK.acquire(blocking=False):
        with Readers(workers) as own:
            yield own
        return
    try:
        yield _live_shared(workers)
    finally:
        _SHARED_LOCK.release()


def _live_shared(workers: int) -> Readers:
    """The shared readers, started (again, if one died); call holding ``_SHARED_LOCK``."""
    readers = _SHARED.get(workers)
    if readers is None or any(p.poll() is not None for p in readers.procs):
        readers = _SHARED[workers] = Readers(workers)
    return readers


def start_shared(workers: int, prefetch: Sequence[str] = ()) -> None:
    """Start the process's shared readers now, for an ingest about to come: their start-up
    (importing PyMuPDF) overlaps the caller's own (the CLI's imports and library opening), and
    so does reading the ``prefetch`` paths (the ingest takes what it needs of them)."""
    if not _SHARED_LOCK.acquire(blocking=False):
        return
    try:
        _live_shared(workers).prefetch(prefetch)
    except OSError:  # no subprocess here: the ingest reads in-process
        pass
    finally:
        _SHARED_LOCK.release()


@atexit.register
def _close_shared() -> None:
    for readers in _SHARED.values():  # the process is ending: the workers end on their own
        readers.close(wait=False)
    _SHARED.clear()


def _serve() -> None:
    import research_assistant.ingest.chunking  # imported now, before the first request
    import research_assistant.ingest.pdf  # noqa: F401 - PyMuPDF too

    with contextlib.suppress(OSError):  # a host that forbids it reads at normal priority
        os.nice(READER_NICENESS)

    out, requests = sys.stdout.buffer, sys.stdin.buffer
    while True:
        try:
            size = struct.unpack(">Q", _read_exact(requests, 8))[0]
            path = _read_exact(requests, size).decode("utf-8", "surrogateescape")
        except EOFError:  # the parent closed the pipe: done
            return
        data = pickle.dumps(read_or_reason(path))
        out.write(struct.pack(">Q", len(data)) + data)
        out.flush()


if __name__ == "__main__":
    _serve()
