"""What the pages show, computed without Streamlit: history, chart rows, export files. ui.py
draws these; keeping them here keeps ui.py about widgets only (background jobs: jobs.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from research_assistant.answer.registry import ANSWERERS
from research_assistant.demo import DEMO_VENUE
from research_assistant.library import Library
from research_assistant.pipeline import export
from research_assistant.report.exports import EXPORTERS
from research_assistant.results import STATUSES
from research_assistant.store import Store
from research_assistant.web.render import STATUS_COLOURS, md, status_label

# The sidebar menu (the automatic one is off in .streamlit/config.toml: it would call the entry
# script "app"), relative to app.py. Members see every page: Library read-only, their own Audit.
PAGES = (("app.py", "Ask", "💬"), ("pages/1_Library.py", "Library", "📚"),
         ("pages/2_Audit.py", "Audit", "📊"), ("pages/3_Export.py", "Export", "📤"),
         ("pages/4_Check_text.py", "Check text", "🔎"))  # fmt: skip
HISTORY_TURNS = 10  # answers shown on the Ask page; older ones stay in Export and Audit
DEMO_NOTE = ("**Demo content**: these papers were written for Citable (fictional authors, real "
             "science). Add your own PDFs and BibTeX on the Library page.")  # fmt: skip


def history(store: Store, user: str, limit: int = HISTORY_TURNS) -> list[dict[str, Any]]:
    """The user's latest answers, oldest first, as logged (so they survive reloads)."""
    runs = [h for h in store.history(user, limit=limit * 5) if h["source"] == "ask"][:limit]
    out = []
    for h in reversed(runs):
        run = store.run(h["id"])
        if run is not None:
            out.append({**run, "id": h["id"]})
    return out


def is_demo(lib: Library) -> bool:
    return any(p.venue == DEMO_VENUE for p in lib.papers())


def backend_index(name: str) -> int:
    """Where ``name`` (the default backend) is among the registry's backends; else the first."""
    names = list(ANSWERERS)
    return names.index(name) if name in names else 0


def backend_note(name: str, model: str, override: Any = None) -> tuple[bool, str]:
    """What the Ask sidebar says under the backend selector: (is it a warning, the text)."""
    chosen = ANSWERERS[name]
    if override is not None:  # the testing seam: a scripted answerer
        return False, f"Scripted answerer in use: {md(override.backend)} ({md(override.model)})"
    if not chosen.is_configured():
        return (
            True,
            f"{chosen.description} needs {chosen.needs}: set it and restart, or answer offline.",
        )
    if chosen.needs:
        return False, f"{chosen.description}, model `{model}`"  # a setting, in a code span
    hints = [
        f"set {b.needs} to use {b.description}" for b in ANSWERERS.values() if not b.is_configured()
    ]
    return False, " — ".join(
        [chosen.description, "; ".join(hints)] if hints else [chosen.description]
    )


def run_caption(run: Mapping[str, Any]) -> str:
    """The caption under a logged answer: who answered, with which model, and its id."""
    backend = run.get("backend") or ""
    who = ANSWERERS[backend].description if backend in ANSWERERS else backend
    model = f" ({md(run['model'])})" if run.get("model") else ""
    return f"{md(who)}{model} · id `{run.get('id', '')}` (Export page, or `export ID`)"


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


def status_chart_data(
    rows: Sequence[tuple[Any, str, int]], index_name: str
) -> tuple[pd.DataFrame, list[str]]:
    """``status_table`` with verdict labels as columns, and each column's colour."""
    table = status_table(rows, index_name)
    colours = [STATUS_COLOURS[s][0] for s in table.columns]
    table.columns = pd.Index([status_label(s) for s in table.columns])
    return table, colours


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
    """One download per format of ``report.exports.EXPORTERS``."""
    return [ExportFile(e.label, export(lib, run_id, name), f"citable-{run_id}.{e.suffix}", e.mime)
            for name, e in EXPORTERS.items()]  # fmt: skip
