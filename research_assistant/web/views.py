"""What the pages show, computed without Streamlit: history, chart rows, export files, and the
background ingest job. ui.py draws these; keeping them here keeps ui.py about widgets only."""

from __future__ import annotations

import queue
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from research_assistant.library import Library
from research_assistant.models import IngestReport
from research_assistant.pipeline import export
from research_assistant.results import STATUSES
from research_assistant.store import Store

HISTORY_TURNS = 10  # answers shown on the Ask page; older ones stay in Export and Audit


def history(store: Store, user: str, limit: int = HISTORY_TURNS) -> list[dict[str, Any]]:
    """The user's latest answers, oldest first, as logged (so they survive reloads)."""
    runs = [h for h in store.history(user, limit=limit * 5) if h["source"] == "ask"][:limit]
    out = []
    for h in reversed(runs):
        run = store.run(h["id"])
        if run is not None:
            out.append({**run, "id": h["id"]})
    return out


def paper_name(lib: Library) -> Any:
    """A format_func for selectboxes of paper keys."""

    def name(key: str) -> str:
        p = lib.paper(key)
        return f"{p.label} — {p.title[:80]}" if p else key

    return name


def status_table(rows: Sequence[tuple[Any, str, int]], index_name: str) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[index_name, "status", "n"])
    table = frame.pivot_table(index=index_name, columns="status", values="n", aggfunc="sum")
    present = [s for s in STATUSES if s in table.columns]
    return table.reindex(columns=present).fillna(0).astype(int)


def paper_status_rows(
    lib: Library, top: int = 15, user: str | None = None
) -> list[tuple[str, str, int]]:
    rows = lib.store.counts_by_paper(user=user)
    keys = list(dict.fromkeys(k for k, _, _ in rows))[:top]
    label = {k: (p.label if (p := lib.paper(k)) else k) or "(not in the library)" for k in keys}
    return [(label[k], s, n) for k, s, n in rows if k in label]


def backend_status_rows(store: Store, user: str | None = None) -> list[tuple[str, str, int]]:
    return [(f"{b or 'check text'} · {m}" if m else (b or "check text"), s, n)
            for b, m, s, n in store.counts_by_backend(user=user)]  # fmt: skip


@dataclass(frozen=True)
class ExportFile:
    label: str
    data: str
    file_name: str
    mime: str


def export_files(lib: Library, run_id: str) -> list[ExportFile]:
    kinds = (("Markdown", "md", "text/markdown"), ("HTML", "html", "text/html"),
             ("BibTeX of the cited works", "bib", "application/x-bibtex"))  # fmt: skip
    return [ExportFile(label, export(lib, run_id, fmt), f"citable-{run_id}.{fmt}", mime)
            for label, fmt, mime in kinds]  # fmt: skip


_INGESTS: list[str] = []  # who has an ingest queued or running in this process, oldest first
_INGESTS_LOCK = threading.Lock()


class IngestJob:
    """``Library.ingest`` in a worker thread, which owns (and finally deletes) the staging
    folder: if the curator leaves the page, the ingest still finishes with every file (it is
    atomic, never half-done). Other sessions keep asking meanwhile: reads take no lock. The
    progress callback comes from PDF reader threads and only the script thread may touch
    widgets, so events travel through ``events``: ("file", (done, total, name)), then
    ("done", report) or ("error", exception)."""

    def __init__(
        self, lib: Library, staging: Path, paths: Sequence[Path], user: str, max_bytes: int
    ) -> None:
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        with _INGESTS_LOCK:
            self.ahead = len(_INGESTS)  # ingests queued before this one
            _INGESTS.append(user)

        def work() -> None:
            try:
                progress = lambda d, t, n: self.events.put(("file", (d, t, n)))  # noqa: E731
                try:
                    report = lib.ingest(paths, progress=progress, user=user, max_bytes=max_bytes)
                finally:  # before the result is posted: the next ingest may start at once
                    shutil.rmtree(staging, ignore_errors=True)
                    with _INGESTS_LOCK:
                        _INGESTS.remove(user)
                self.events.put(("done", report))
            except BaseException as e:  # shown (or re-raised) by the script thread
                self.events.put(("error", e))

        threading.Thread(target=work, name="ingest", daemon=True).start()

    def wait(self, on_file: Any) -> IngestReport:
        while True:
            kind, item = self.events.get()
            if kind == "file":
                on_file(*item)
            elif kind == "error":
                raise item
            else:
                return item  # type: ignore[no-any-return]
