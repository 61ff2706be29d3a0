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
import queue
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
from research_assistant.ingest.chunking import chunk_spans
from research_assistant.models import PdfInfo

Result = PdfInfo | str
# Readers run below normal priority: on a lab's 2-core server the questions the app answers
# meanwhile get the CPU first, and an ingest with nothing else to do loses nothing.
READER_NICENESS = 10


def read_or_reason(path: str) -> Result:
    """A PdfInfo with its chunk spans, or the readable reason the PDF cannot be used (one bad
    PDF never stops a run). Chunking and the chunks' terms are made here, in the reader process:
    the ingest's parent is left with assembling (and a 2-core machine splits the work)."""
    from research_assistant.ingest.pdf import read_pdf  # PyMuPDF loads in the worker only

    try:
        info = read_pdf(Path(path))
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
    """Worker subprocesses, started early (their PyMuPDF import overlaps the caller's hashing)
    and used once by ``read``. Always ``close()`` them (or use ``with``)."""

    def __init__(self, workers: int) -> None:
        package_root = str(Path(__file__).resolve().parents[2])  # the folder holding the package
        self._env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p
        )}  # fmt: skip
        self.procs = [self._start() for _ in range(max(1, workers))]

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

    def close(self) -> None:
        for proc in self.procs:
            if proc.stdin and not proc.stdin.closed:
                proc.stdin.close()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()

    def read(
        self, paths: Sequence[str], on_done: Callable[[int, Result], None] | None = None
    ) -> list[Result]:
        """Results in input order; the largest files go first so no worker ends on a long one.
        A worker that dies makes its current file a readable failure and is replaced."""
        results: list[Result | None] = [None] * len(paths)
        todo: queue.Queue[int] = queue.Queue()
        for i in sorted(range(len(paths)), key=lambda i: -_size(paths[i])):
            todo.put(i)

        def run(slot: int) -> None:
            while True:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                proc = self.procs[slot]
                assert proc.stdin is not None and proc.stdout is not None
                try:
                    path = paths[i].encode("utf-8", "surrogateescape")
                    proc.stdin.write(struct.pack(">Q", len(path)) + path)
                    proc.stdin.flush()
                    size = struct.unpack(">Q", _read_exact(proc.stdout, 8))[0]
                    results[i] = pickle.loads(_read_exact(proc.stdout, size))
                except (OSError, EOFError, pickle.UnpicklingError):
                    # MuPDF crashed on this file: never retry it in this process (it would take
                    # the app down); a fresh worker takes the next files
                    results[i] = (
                        f"{Path(paths[i]).name}: the PDF reader crashed on this file; it may be "
                        "damaged: open and re-save it (print to PDF), then add it again"
                    )
                    proc.kill()
                    self.procs[slot] = self._start()
                finally:
                    if on_done:
                        on_done(i, results[i] or "")

        threads = [threading.Thread(target=run, args=(n,)) for n in range(len(self.procs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return [
            r if r is not None else f"{Path(p).name}: not read"
            for r, p in zip(results, paths, strict=True)
        ]


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


def start_shared(workers: int) -> None:
    """Start the process's shared readers now, for an ingest about to come: their start-up
    (importing PyMuPDF) overlaps the caller's own (the CLI's imports and library opening)."""
    if not _SHARED_LOCK.acquire(blocking=False):
        return
    try:
        _live_shared(workers)
    except OSError:  # no subprocess here: the ingest reads in-process
        pass
    finally:
        _SHARED_LOCK.release()


@atexit.register
def _close_shared() -> None:
    for readers in _SHARED.values():
        readers.close()
    _SHARED.clear()


def _serve() -> None:
    import research_assistant.ingest.pdf  # noqa: F401 - import PyMuPDF now, before the first request

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
