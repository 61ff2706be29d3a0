"""Streamlit helpers for app.py and pages/: the only module of the package importing streamlit.

What lives here: the cached resources (one ``Library`` per library folder and one answerer per
backend, shared by every session of the process: Library reads are thread-safe and an ingest
swaps its state in place, so every page sees a change without a restart), the page preamble,
and the widgets every page shares (citation chips, evidence dialog, sidebar, upload handling).
Markup comes from ``render`` (pure, escaped, unit-tested).

Testing seam: put any object with the ``Answerer`` interface (``backend``, ``model``,
``answer``, ``repair``) in ``st.session_state[ANSWERER_KEY]`` and the Ask page uses it instead
of the configured backend (``AppTest``: ``at.session_state[ui.ANSWERER_KEY] = FakeAnswerer()``).

Logins (issue 6) hook in at ``start_page`` (the gate, before any library content) and
``current_user`` (the name every log row records).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import queue
import re
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from research_assistant import render
from research_assistant.errors import LLMError, ResearchAssistantError, UploadError
from research_assistant.library import Library
from research_assistant.models import STATUSES, Answer, Citation, IngestReport, Reference
from research_assistant.settings import load_settings
from research_assistant.store import Store

ANSWERER_KEY = "ra_answerer"  # session_state: an Answerer replacing the configured backend
LOCAL_USER = "local"  # who asks when nobody is logged in (history and log rows use it)
HISTORY_TURNS = 10  # answers shown on the Ask page; older ones stay in Export and Audit
BACKEND_NAMES = {"extractive": "Offline extractive answerer", "anthropic": "Claude (Anthropic)"}
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:])")


# ---- resources and page preamble ---------------------------------------------------------------
@st.cache_resource(show_spinner=False)
def _open_library(path: str) -> Library:
    lib = Library.open(path)
    threading.Thread(target=_warm, args=(lib,), name="warm", daemon=True).start()
    return lib


def _warm(lib: Library) -> None:
    """Fill the verifier's caches so the first question is as fast as the next ones."""
    from research_assistant.pipeline import warm

    with contextlib.suppress(Exception):  # an optimisation only: ask() fills them anyway
        warm(lib)


@st.cache_resource(show_spinner=False)
def _answerer(backend: str) -> Any:
    from research_assistant.pipeline import get_answerer

    return get_answerer(backend)  # raises LLMError (not cached) when Claude has no key


def library() -> Library:
    try:
        return _open_library(str(load_settings().resolved_library()))
    except ResearchAssistantError as e:
        show_error(e)
        st.stop()
        raise  # unreachable: st.stop raises


# The sidebar menu (the automatic one is off in .streamlit/config.toml: it would call the
# entry script "app"). Paths are relative to app.py; issue 6 filters this list by role.
PAGES = (
    ("app.py", "Ask", "💬"),
    ("pages/1_Library.py", "Library", "📚"),
    ("pages/2_Audit.py", "Audit", "📊"),
    ("pages/3_Export.py", "Export", "📤"),
    ("pages/4_Check_text.py", "Check text", "🔎"),
)


def start_page(title: str, icon: str) -> Library:
    """Every page starts here: page config, (later: the login gate), menu, library, sidebar."""
    st.set_page_config(page_title=f"{title} · Citable", page_icon=icon, layout="wide")
    with st.sidebar:
        st.markdown("### 📚 Citable")
        for path, label, page_icon in PAGES:
            st.page_link(path, label=label, icon=page_icon)
        st.divider()
    lib = library()
    library_sidebar(lib)
    return lib


def current_user() -> str:
    """The logged-in user's e-mail (st.login, issue 6), else ``LOCAL_USER``."""
    try:
        if st.user.is_logged_in:
            return str(st.user.get("email") or st.user.get("sub") or LOCAL_USER)
    except (AttributeError, KeyError):  # no [auth] section configured
        pass
    return LOCAL_USER


def show_error(e: BaseException, file: str = "") -> None:
    prefix = f"{file}: " if file else ""
    hint = " This is temporary: try again in a minute." if getattr(e, "retryable", False) else ""
    st.error(f"{prefix}{e}{hint}", icon="⚠️")


def md(text: object, lines: bool = False) -> str:
    """Text from a PDF, BibTeX or a model, made inert for widget labels and captions: every
    Markdown character (also Streamlit's ``:color[...]`` and ``$`` maths) is backslashed.
    ``lines`` keeps line breaks (tooltips); otherwise whitespace runs become one space."""
    if lines:
        return "  \n".join(md(line) for line in str(text).splitlines())
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def html(fragment: str) -> None:
    """Show markup built by ``render`` (which escapes every untrusted string)."""
    st.markdown(fragment, unsafe_allow_html=True)


def is_demo(lib: Library) -> bool:
    from research_assistant.demo import DEMO_VENUE

    return any(p.venue == DEMO_VENUE for p in lib.papers())


def library_sidebar(lib: Library) -> None:
    papers = lib.papers()
    with st.sidebar:
        with_pdf = sum(1 for p in papers if p.pdf)
        st.caption(f"Library: {len(papers)} papers, {with_pdf} with a PDF")
        if is_demo(lib):
            st.info(
                "**Demo content**: these papers were written for Citable (fictional authors, "
                "real science). Add your own PDFs and BibTeX on the Library page.",
                icon="🧪",
            )


def legend_sidebar() -> None:
    with st.sidebar:
        st.caption("What the marks mean (hover for details)")
        html(render.legend_html())


@dataclass(frozen=True)
class AskSettings:
    backend: str
    top_k: int


def ask_sidebar() -> AskSettings:
    s = load_settings()
    options = list(BACKEND_NAMES)
    default = s.default_backend()
    with st.sidebar:
        st.subheader("Answering")
        backend = st.selectbox(
            "Backend",
            options,
            index=options.index(default) if default in options else 0,
            format_func=BACKEND_NAMES.__getitem__,
            key="ra_backend",
        )
        override = st.session_state.get(ANSWERER_KEY)
        if override is not None:
            st.caption(f"Scripted answerer in use: {md(override.backend)} ({md(override.model)})")
        elif backend == "anthropic" and not os.environ.get("ANTHROPIC_API_KEY", "").strip():
            st.warning("Claude needs ANTHROPIC_API_KEY: set it and restart, or answer offline.")
        elif backend == "anthropic":
            st.caption(f"Claude, model `{s.model}`")
        else:
            st.caption("Offline extractive answerer — set ANTHROPIC_API_KEY to use Claude.")
        top_k = st.slider("Passages retrieved (top-k)", 1, 30, s.top_k, key="ra_top_k")
    legend_sidebar()
    return AskSettings(backend=str(backend), top_k=int(top_k))


# ---- asking ------------------------------------------------------------------------------------
def _current_answerer(backend: str) -> Any:
    override = st.session_state.get(ANSWERER_KEY)
    return override if override is not None else _answerer(backend)


def ask_streamed(lib: Library, question: str, opts: AskSettings, user: str) -> Answer | None:
    """Run ``pipeline.ask`` in a worker thread; stream its text and steps into this script run.

    Streamlit calls are only made from the script thread: the worker pushes ``on_text`` and
    ``on_step`` events into a queue that a generator (consumed by ``st.write_stream``) drains.
    """
    from research_assistant.pipeline import ask

    status = st.status("Searching the library…", expanded=False)
    try:
        answerer = _current_answerer(opts.backend)
    except LLMError as e:
        status.update(label="Cannot answer", state="error")
        show_error(e)
        return None
    events: queue.Queue[tuple[str, Any]] = queue.Queue()

    def work() -> None:
        try:
            answer = ask(
                lib, question, opts.backend, user, answerer=answerer, top_k=opts.top_k,
                on_text=lambda t: events.put(("text", t)),
                on_step=lambda s: events.put(("step", s)),
            )  # fmt: skip
            events.put(("done", answer))
        except BaseException as e:  # handed to the script thread, which shows or re-raises it
            events.put(("error", e))

    outcome: dict[str, Any] = {}

    def chunks() -> Iterator[str]:
        while True:
            kind, item = events.get()
            if kind == "text":
                yield item
            elif kind == "step":
                status.update(label=f"{item}…")
                status.write(item)
            else:
                outcome[kind] = item
                return

    threading.Thread(target=work, name="ask", daemon=True).start()
    body = st.empty()
    with body.container():
        st.write_stream(chunks())
    if "error" in outcome:
        status.update(label="Failed", state="error")
        body.empty()
        if isinstance(outcome["error"], ResearchAssistantError):
            show_error(outcome["error"])
            return None
        raise outcome["error"]
    answer: Answer = outcome["done"]
    summary = render.summary_text(answer.citations) or "no citations"
    status.update(label=f"Checked: {summary}", state="complete")
    with body.container():
        show_checked(lib, answer.answer, answer.citations, answer.references, key=answer.id)
        st.caption(_run_caption(answer.to_dict()))
    return answer


def history(store: Store, user: str, limit: int = HISTORY_TURNS) -> list[dict[str, Any]]:
    """The user's latest answers, oldest first, as logged (so they survive reloads)."""
    runs = [h for h in store.history(user, limit=limit * 5) if h["source"] == "ask"][:limit]
    out = []
    for h in reversed(runs):
        run = store.run(h["id"])
        if run is not None:
            out.append({**run, "id": h["id"]})
    return out


def _run_caption(run: Mapping[str, Any]) -> str:
    who = BACKEND_NAMES.get(run.get("backend") or "", run.get("backend") or "")
    model = f" ({md(run['model'])})" if run.get("model") else ""
    return f"{md(who)}{model} · id `{run.get('id', '')}` (Export page, or `export ID`)"


def show_turn(lib: Library, run: Mapping[str, Any]) -> None:
    """One logged question and its checked answer, as chat messages."""
    with st.chat_message("user"):
        st.markdown(md(run.get("question", "")))
    with st.chat_message("assistant"):
        citations = [Citation.from_dict(c) for c in run.get("citations", [])]
        refs = [Reference.from_dict(r) for r in run.get("references", [])]
        show_checked(lib, run.get("answer", ""), citations, refs, key=str(run.get("id", "")))
        st.caption(_run_caption(run))


# ---- citations and their evidence --------------------------------------------------------------
def show_checked(
    lib: Library,
    text: str,
    citations: Sequence[Citation],
    refs: Sequence[Reference],
    key: str,
) -> None:
    """Text with verdict chips (hover: title, page, quote), evidence buttons, references."""
    papers = lib.state.papers
    html(render.answer_html(text, citations, papers, numbered=True))
    if citations:
        st.caption(f"{render.summary_text(citations)} — click a citation to see its evidence")
        clicked = None
        with st.container(horizontal=True, gap="small"):
            for i, c in enumerate(citations):
                paper = papers.get(c.paper_key) if c.paper_key else None
                page = f" p. {c.evidence.page}" if c.evidence else ""
                label = f"{i + 1} {render.status_symbol(c.status)} {md(c.mention.marker)}{page}"
                help_ = md(render.tooltip(c, paper), lines=True)
                if st.button(label, key=f"ev-{key}-{i}", help=help_, type="secondary"):
                    clicked = c
        if clicked is not None:
            evidence_dialog(lib, clicked)
    if refs:
        html(render.references_html(refs))


@st.cache_data(max_entries=64, show_spinner=False)
def _page_png(path: str, mtime: float, page: int, quote: str) -> bytes:
    from research_assistant import pdf

    return pdf.page_png(Path(path), page, quote)


def show_evidence(lib: Library, c: Citation) -> None:
    """The verdict, claim and evidence quote beside the PDF page with the quote highlighted."""
    paper = lib.paper(c.paper_key) if c.paper_key else None
    path = lib.pdf_path(paper.key) if paper else None
    text, page = st.columns([2, 3]) if path and c.evidence else (st.container(), None)
    with text:
        name = ""
        if paper is not None:
            name = f"<strong>{render.esc(paper.title)}</strong> ({render.esc(paper.label)})"
        html(f"<div>{render.citation_chip(c, paper)}<br>{name}</div>")
        if c.reason:
            st.caption(md(c.reason))
        if c.candidates:
            labels = [(p.label if (p := lib.paper(k)) else k) for k in c.candidates]
            st.caption("Could be: " + md("; ".join(labels)))
        if c.via:
            via = lib.paper(c.via)
            st.caption(f"Second-hand: cited near the evidence in {md(via.label if via else c.via)}")
        if c.claim:
            st.markdown("**Claim**")
            html(render.quote_html(c.claim))
        if c.evidence is None:
            st.info("No passage of the library supports this citation.")
            return
        st.markdown(f"**Evidence, page {c.evidence.page}**")
        html(render.quote_html(c.evidence.text))
        if path is None:
            st.caption("The PDF of this paper is not in the library.")
            return
        st.download_button(
            "Download the PDF", path.read_bytes(), file_name=path.name, mime="application/pdf",
            on_click="ignore", icon="📄",
        )  # fmt: skip
    assert page is not None
    with page:
        try:
            png = _page_png(str(path), path.stat().st_mtime, c.evidence.page, c.evidence.text)
        except ResearchAssistantError as e:
            show_error(e, file=path.name)
        else:
            st.image(png, caption=f"Page {c.evidence.page}: the evidence is highlighted")


@st.dialog("Evidence", width="large")
def evidence_dialog(lib: Library, c: Citation) -> None:
    show_evidence(lib, c)


# ---- library: uploads and the paper table -------------------------------------------------------
_UNSAFE_NAME = re.compile(r"[^\w.()+ -]+")
KINDS = {".pdf": "PDF", ".bib": "BibTeX"}


def safe_upload_name(name: str) -> str:
    """The last path component only, with no characters a file system or shell treats apart."""
    base = Path(name.replace("\\", "/")).name
    base = _UNSAFE_NAME.sub("_", base).strip(" .")
    return base[:120] or "upload"


def check_upload(name: str, data: bytes, max_bytes: int) -> str:
    """Refuse what cannot be a PDF or a .bib, judged by content; returns the safe name."""
    safe = safe_upload_name(name)
    suffix = Path(safe).suffix.lower()
    if suffix not in KINDS:
        raise UploadError(f"{safe}: only PDF and .bib files can be added. Choose those files.")
    if not data:
        raise UploadError(f"{safe} is empty (0 bytes): export or download it again.")
    if len(data) > max_bytes:
        raise UploadError(
            f"{safe} is {len(data) / 2**20:.0f} MiB, over the {max_bytes // 2**20} MiB limit "
            "(RA_MAX_UPLOAD_MB): split it or raise the limit."
        )
    if suffix == ".pdf" and b"%PDF-" not in data[:1024]:  # the PDF spec allows junk before it
        raise UploadError(
            f"{safe} is not a PDF (it does not start with %PDF-): upload the paper's PDF file "
            "itself, not a web page or an image."
        )
    if suffix == ".bib":
        if b"\x00" in data[:4096]:
            raise UploadError(f"{safe} is a binary file, not BibTeX: export your library as .bib.")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        if "@" not in text:
            raise UploadError(
                f"{safe} has no BibTeX entries (no '@'): export your library as .bib."
            )
    return safe


def _ingest_in_thread(
    lib: Library, paths: Sequence[Path], user: str, bars: Mapping[str, Any]
) -> IngestReport:
    """``Library.ingest`` in a worker thread: its progress callback comes from the PDF reader
    threads, and only the script thread may touch widgets, so events travel through a queue.
    If the user leaves the page, the ingest still finishes (it is atomic, never half-done)."""
    events: queue.Queue[tuple[str, Any]] = queue.Queue()

    def work() -> None:
        try:
            progress = lambda d, t, n: events.put(("file", (d, t, n)))  # noqa: E731
            events.put(("done", lib.ingest(paths, progress=progress, user=user)))
        except BaseException as e:  # shown (or re-raised) by the script thread
            events.put(("error", e))

    threading.Thread(target=work, name="ingest", daemon=True).start()
    with st.spinner("Reading, matching, indexing and saving…"):
        while True:
            kind, item = events.get()
            if kind == "file":
                done, total, name = item
                if name in bars:
                    bars[name].progress(1.0, text=f"{md(name)}: read ({done}/{total} PDFs)")
            elif kind == "error":
                raise item
            else:
                return item  # type: ignore[no-any-return]


def ingest_uploads(
    lib: Library, files: Sequence[Any], user: str
) -> tuple[IngestReport | None, list[tuple[str, str]]]:
    """Check, save to a temporary folder and ingest uploaded files (``UploadedFile``-like:
    ``.name`` and ``.getvalue()``), with one progress bar per file. Returns the report and the
    refused files as (name, reason)."""
    max_bytes = load_settings().max_upload_mb * 2**20
    refused: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="citable-upload-") as tmp:
        paths: list[Path] = []
        for f in files:
            data = f.getvalue()
            try:
                name = check_upload(f.name, data, max_bytes)
            except UploadError as e:
                refused.append((safe_upload_name(f.name), str(e)))
                continue
            sha = hashlib.sha256(data).hexdigest()
            if sha in seen:
                refused.append((name, f"{name} is the same file as {seen[sha]}: added once."))
                continue
            seen[sha] = name
            path = Path(tmp) / name
            n = 1
            while path.exists():  # two uploads with one name: keep both
                path = Path(tmp) / f"{path.stem}-{n}{path.suffix}"
                n += 1
            path.write_bytes(data)
            paths.append(path)
        if not paths:
            return None, refused
        bars = {p.name: st.progress(0.0, text=f"{md(p.name)}: waiting") for p in paths}

        report = _ingest_in_thread(lib, paths, user, bars)
        skipped = {Path(s.path).name for s in report.skipped}
        for name, bar in bars.items():
            bar.progress(1.0, text=f"{md(name)}: {'skipped' if name in skipped else 'done'}")
    return report, refused


def paper_name(lib: Library) -> Any:
    """A format_func for selectboxes of paper keys."""

    def name(key: str) -> str:
        p = lib.paper(key)
        return f"{p.label} — {p.title[:80]}" if p else key

    return name


# ---- audit -------------------------------------------------------------------------------------
def _pivot(rows: Sequence[tuple[Any, str, int]], index_name: str) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[index_name, "status", "n"])
    table = frame.pivot_table(index=index_name, columns="status", values="n", aggfunc="sum")
    present = [s for s in STATUSES if s in table.columns]
    return table.reindex(columns=present).fillna(0).astype(int)


def status_chart(
    rows: Sequence[tuple[Any, str, int]], index_name: str, horizontal: bool = False
) -> None:
    """A stacked bar chart of (x, status, count) rows, one colour per verdict."""
    if not rows:
        st.caption("Nothing logged yet.")
        return
    table = _pivot(rows, index_name)
    colours: list[Any] = [render.STATUS_COLOURS[s][0] for s in table.columns]
    table.columns = [render.status_label(s) for s in table.columns]
    st.bar_chart(table, color=colours, horizontal=horizontal, stack=True)


def paper_status_rows(lib: Library, top: int = 15) -> list[tuple[str, str, int]]:
    rows = lib.store.counts_by_paper()
    keys = list(dict.fromkeys(k for k, _, _ in rows))[:top]
    label = {k: (p.label if (p := lib.paper(k)) else k) or "(not in the library)" for k in keys}
    return [(label[k], s, n) for k, s, n in rows if k in label]


def backend_status_rows(store: Store) -> list[tuple[str, str, int]]:
    return [(f"{b or 'check text'} · {m}" if m else (b or "check text"), s, n)
            for b, m, s, n in store.counts_by_backend()]  # fmt: skip


def show_flagged(lib: Library, row: Mapping[str, Any]) -> None:
    """Drill-down of one logged citation: question, claim, verdict, evidence."""
    st.markdown(f"**Question**: {md(row['question'] or '(a checked text)')}")
    st.caption(f"{row['created_at']:%Y-%m-%d %H:%M} · {md(row['user'])} · {row['source']} · "
               f"run `{row['run_id']}`")  # fmt: skip
    paper = lib.paper(row["paper_key"]) if row["paper_key"] else None
    verdict = render.chip_html(
        row["status"], row["marker"], render.STATUS_HELP.get(row["status"], "")
    )
    name = f" {render.esc(paper.label)}: {render.esc(paper.title)}" if paper else ""
    html(f"<div>{verdict}{name}</div>")
    st.markdown("**Claim**")
    html(render.quote_html(row["claim"] or ""))
    if row["evidence"]:
        st.markdown(f"**Closest evidence, page {row['page']}** (score {row['score']:.2f})")
        html(render.quote_html(row["evidence"]))


# ---- export ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ExportFile:
    label: str
    data: str
    file_name: str
    mime: str


def export_files(lib: Library, run_id: str) -> list[ExportFile]:
    from research_assistant.pipeline import export

    kinds = (("Markdown", "md", "text/markdown"), ("HTML", "html", "text/html"),
             ("BibTeX of the cited works", "bib", "application/x-bibtex"))  # fmt: skip
    return [ExportFile(label, export(lib, run_id, fmt), f"citable-{run_id}.{fmt}", mime)
            for label, fmt, mime in kinds]  # fmt: skip


def read_text_upload(f: Any) -> str:
    data = f.getvalue()
    if b"\x00" in data[:4096]:
        raise UploadError(f"{safe_upload_name(f.name)} is not a text file: upload .txt or .md.")
    try:
        return str(data.decode("utf-8"))
    except UnicodeDecodeError:
        return str(data.decode("latin-1"))
