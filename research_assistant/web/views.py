"""What the pages show, computed without Streamlit: history, chart rows, export files. ui.py
draws these; keeping them here keeps ui.py about widgets only (background jobs: jobs.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from research_assistant.answer.base import Turn
from research_assistant.answer.registry import ANSWERERS
from research_assistant.check import judging
from research_assistant.conversations import Conversation
from research_assistant.demo import DEMO_VENUE
from research_assistant.library import Library
from research_assistant.models import IngestReport
from research_assistant.pipeline import export, export_bytes
from research_assistant.report.exports import EXPORTERS, Document, conversation_text
from research_assistant.report.references import build_references
from research_assistant.results import STATUSES, VERIFIED, Citation
from research_assistant.store import Store
from research_assistant.web.render import (
    ALREADY,
    STATUS_COLOURS,
    TROUBLE,
    UNCHANGED,
    md,
    status_label,
)

# The sidebar menu (the automatic one is off in .streamlit/config.toml: it would call the entry
# script "app"), relative to app.py. Members see every page: Library read-only, their own Audit.
PAGES = (("app.py", "Ask", "💬"), ("pages/1_Library.py", "Library", "📚"),
         ("pages/2_Audit.py", "Audit", "📊"), ("pages/3_Export.py", "Export", "📤"),
         ("pages/4_Check_text.py", "Check text", "🔎"))  # fmt: skip
DEMO_NOTE = ("**Demo content**: these papers were written for Citable (fictional authors, real "
             "science). Add your own PDFs and BibTeX on the Library page.")  # fmt: skip


# ---- conversations (the Ask page) ----------------------------------------------------------------
NEW = ""  # the session's choice "New conversation": none open until the first question
TURNS_PER_PAGE = 10  # turns of a conversation shown at once; "Show earlier turns" adds a page
HIGHLIGHT = "#ffd400"  # the evidence highlight in the PDF viewer (the page image's yellow)


def pick_conversation(
    store: Store, user: str, chosen: str | None
) -> tuple[Conversation | None, list[Conversation]]:
    """The conversation to show and the user's list: the session's choice if it is still the
    user's; None after "New conversation"; otherwise (a new session, a reload) the latest."""
    listed = store.conversations(user)
    if chosen == NEW:
        return None, listed
    found = next((c for c in listed if c.id == chosen), None)
    return found or (listed[0] if listed else None), listed


def page_of_turns(turns: Sequence[Any], pages: int) -> tuple[list[Any], int]:
    """The last ``pages`` pages of ``turns`` and how many earlier ones are not shown."""
    keep = max(1, pages) * TURNS_PER_PAGE
    hidden = max(0, len(turns) - keep)
    return list(turns[hidden:]), hidden


def history_of(turns: Sequence[Mapping[str, Any]]) -> tuple[Turn, ...]:
    """The earlier turns as the answerer sees them (``AnswerRequest.history``), oldest first."""
    return tuple(Turn(str(t.get("question", "")), str(t.get("answer", ""))) for t in turns)


def highlight_annotations(page: int, rects: Sequence[Sequence[float]]) -> list[dict[str, Any]]:
    """``streamlit_pdf_viewer`` annotations (PDF points from the top left) of the quote's
    rectangles on ``page``: the component's own argument format, so a list of dicts."""
    return [
        {"page": page, "x": r[0], "y": r[1], "width": r[2] - r[0], "height": r[3] - r[1],
         "color": HIGHLIGHT, "border": "solid"}
        for r in rects
    ]  # fmt: skip


def ingest_summary(
    report: IngestReport | None, rows: Sequence[Mapping[str, str]]
) -> tuple[str, bool]:
    """One line for an ingest, counted from the rows of ``render.ingest_rows`` (so the line and
    the table agree), and whether it is calm (nothing refused, skipped or wrong)."""
    counts = Counter(r["result"] for r in rows)
    changed = [f"{len(keys)} {what}" for what, keys in
               (("added", report.added if report else ()),
                ("updated", report.updated if report else ())) if keys]  # fmt: skip
    plural = {UNCHANGED: "BibTeX entries unchanged", "BibTeX problem": "BibTeX problems"}
    notes = [f"{n} {plural.get(r, r) if n > 1 else r}" for r in (ALREADY, UNCHANGED, *TROUBLE)
             if (n := counts[r])]  # fmt: skip
    if not changed:
        notes.append("nothing changed")
    return ", ".join(changed + notes), not any(counts[r] for r in TROUBLE)


def is_demo(lib: Library) -> bool:
    return any(p.venue == DEMO_VENUE for p in lib.papers())


def backend_index(name: str) -> int:
    """Where ``name`` (the default backend) is among the registry's backends; else the first."""
    names = list(ANSWERERS)
    return names.index(name) if name in names else 0


def backend_option(name: str, model: str) -> str:
    """How the selector lists a backend: with its model when it is set up."""
    b = ANSWERERS[name]
    if not b.needs:
        return b.description
    if not b.is_configured():
        return f"{b.description} (not set up)"
    return f"{b.description} · {model or 'no model set'}"


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
    if chosen.needs and not model:
        return True, f"{chosen.description} needs a model: set RA_MODEL and restart."
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
    coverage = run.get("coverage")
    cited = f" · {coverage:.0%} of sentences cited" if isinstance(coverage, int | float) else ""
    fixes = len(run.get("notes") or ())
    fixed = f" · {fixes} fix{'es' if fixes > 1 else ''} to the model's output" if fixes else ""
    return (
        f"{md(who)}{model}{cited}{fixed} · id `{run.get('id', '')}` (Export page, or `export ID`)"
    )


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
) -> tuple[pd.DataFrame, list[Any]]:
    """``status_table`` with verdict labels as columns, and each column's colour (hex strings,
    typed as the chart widget's invariant colour list takes them)."""
    table = status_table(rows, index_name)
    colours: list[Any] = [STATUS_COLOURS[s][0] for s in table.columns]
    table.columns = pd.Index([status_label(s) for s in table.columns])
    return table, colours


def auto_bucket(store: Store, user: str | None = None) -> str:
    """A time bin that gives a readable chart: hours within two days of logging, days within
    two months, weeks within two years, months after that."""
    span = store.log_span(user)
    days = (span[1] - span[0]).total_seconds() / 86400 if span else 0.0
    return "hour" if days < 2 else "day" if days < 62 else "week" if days < 730 else "month"


def paper_health(lib: Library, user: str | None = None) -> list[dict[str, Any]]:
    """Per-paper citation health, most cited first, with the paper's full label and title."""
    totals: dict[str, Counter[str]] = {}
    for key, status, n in lib.store.counts_by_paper(user=user):
        totals.setdefault(key, Counter())[status] += n
    rows = []
    for key, counts in totals.items():
        paper = lib.paper(key) if key else None
        total, verified = sum(counts.values()), counts.get(VERIFIED, 0)
        rows.append({"paper": paper.label if paper else (key or "(not in the library)"),
                     "title": paper.title if paper else "", "citations": total,
                     "verified": verified, "flagged": total - verified,
                     "verified share": verified / total if total else 0.0})  # fmt: skip
    return rows


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
    data: str | bytes  # bytes for a binary format (Word)
    file_name: str
    mime: str


def judge_summary(store: Store, user: str | None = None) -> dict[str, int]:
    """How many logged citations the model judge read, by what it did (judging.ACTIONS): how
    often a second opinion overturned the offline checker on this lab's own texts."""
    out = dict.fromkeys(judging.ACTIONS, 0)
    for said, _status, n in store.judge_opinions(user=user):
        out[judging.action_of(said)] += n
    return out if any(out.values()) else {}


def export_files(lib: Library, run_id: str) -> list[ExportFile]:
    """One download per format of ``report.exports.EXPORTERS``."""
    return [ExportFile(e.label, export_bytes(lib, run_id, name) if e.binary else
                       export(lib, run_id, name), f"citable-{run_id}.{e.suffix}", e.mime)
            for name, e in EXPORTERS.items()]  # fmt: skip


def conversation_files(lib: Library, conversation: Conversation) -> list[ExportFile]:
    """A whole conversation, every question before its checked answer, in every format of
    ``report.exports.EXPORTERS`` (the references and appendix cover all its answers)."""
    turns = lib.store.conversation_turns(conversation.id, conversation.user)
    text, citations = conversation_text([
        (t.get("question", ""), t.get("answer", ""),
         [Citation.from_dict(c) for c in t.get("citations", [])])
        for t in turns
    ])  # fmt: skip
    refs = build_references(citations, lib.state.papers)
    cited = [p for r in refs if (p := lib.paper(r.key)) is not None]
    doc = Document(conversation.title, text, citations, refs, cited)
    name = f"citable-conversation-{conversation.id}"
    return [ExportFile(e.label, data if e.binary else data.decode("utf-8"), f"{name}.{e.suffix}",
                       e.mime) for e in EXPORTERS.values() if (data := e.render(doc))]  # fmt: skip
