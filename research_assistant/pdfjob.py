"""Reading PDFs, in this process or in worker processes.

Workers are plain subprocesses (``python -m research_assistant.pdfjob``) that import only pdf.py
(PyMuPDF). multiprocessing's spawn and forkserver children re-run the caller's ``__main__``,
which for the app or a script means importing the whole retrieval stack in every worker, and
``fork`` is unsafe in the multi-threaded Streamlit server. Protocol: the parent writes one path
per line; the worker answers each with an 8-byte length and a pickled ``PdfInfo | str``.
"""

from __future__ import annotations

import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from research_assistant.errors import PdfError
from research_assistant.models import PdfInfo

Result = PdfInfo | str


def read_or_reason(path: str) -> Result:
    """A PdfInfo, or the readable reason the PDF cannot be used (one bad PDF never stops a run)."""
    from research_assistant.pdf import read_pdf

    try:
        return read_pdf(Path(path))
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


def read_many(
    paths: Sequence[str], workers: int, on_done: Callable[[int, Result], None] | None = None
) -> list[Result]:
    """Read ``paths`` with ``workers`` subprocesses; results in input order. A worker that
    dies makes its current file a readable failure and the others go on in this process."""
    results: list[Result | None] = [None] * len(paths)
    todo: queue.Queue[int] = queue.Queue()
    for i in range(len(paths)):
        todo.put(i)

    package_root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p
    )}  # fmt: skip

    def run_worker() -> None:
        proc = subprocess.Popen(
            [sys.executable, "-m", "research_assistant.pdfjob"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        try:
            while True:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    proc.stdin.write(paths[i].encode("utf-8", "surrogateescape") + b"\n")
                    proc.stdin.flush()
                    size = struct.unpack(">Q", _read_exact(proc.stdout, 8))[0]
                    results[i] = pickle.loads(_read_exact(proc.stdout, size))
                except (OSError, EOFError, pickle.UnpicklingError):
                    results[i] = f"{Path(paths[i]).name}: the PDF reader crashed on this file"
                    return
                finally:
                    if on_done:
                        on_done(i, results[i] or "")
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)

    threads = [threading.Thread(target=run_worker) for _ in range(max(1, workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    while not todo.empty():  # every worker died: finish here
        i = todo.get()
        results[i] = read_or_reason(paths[i])
        if on_done:
            on_done(i, results[i] or "")
    return [
        r if r is not None else f"{Path(p).name}: not read"
        for r, p in zip(results, paths, strict=True)
    ]


def _serve() -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        path = line.rstrip(b"\n").decode("utf-8", "surrogateescape")
        data = pickle.dumps(read_or_reason(path))
        out.write(struct.pack(">Q", len(data)) + data)
        out.flush()


if __name__ == "__main__":
    _serve()
