"""Streamlit helpers for app.py and pages/: the only module of the package importing streamlit.

What lives here: the cached resources (one ``Library`` per library folder and one answerer per
backend, shared by every session of the process: Library reads are thread-safe and an ingest
swaps its state in place, so every page sees a change without a restart), the page preamble,
and the widgets every page shares (citation chips, evidence dialog, sidebar, upload handling).
Markup comes from ``render`` (pure, escaped, unit-tested).

Testing seam: put any object with the ``Answerer`` interface (``backend``, ``model``,
``answer``, ``repair``) in ``st.session_state[ANSWERER_KEY]`` and the Ask page uses it instead
of the configured backend (``AppTest``: ``at.session_state[ui.ANSWERER_KEY] = FakeAnswerer()``).

Logins: ``start_page`` is the gate (with auth on, nothing of the library is drawn before it);
``viewer`` is who uses this session (``auth.User``), ``current_user`` the id every log row
records. Curator actions go through ``ingest_uploads``, ``move_pdf`` and ``remove_paper``,
which check the role themselves (``AuthError``), whatever the page shows.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from research_assistant.backup import backup
from research_assistant.demo import DEMO_VENUE
from research_assistant.errors import AuthError, LLMError, ResearchAssistantError
from research_assistant.ingest import pdf
from research_assistant.library import Library
from research_assistant.models import IngestReport
from research_assistant.pipeline import ask, get_answerer, warm
from research_assistant.results import Answer, Citation, Reference
from research_assistant.settings import Settings, load_settings
from research_assistant.web import login as auth
from research_assistant.web import render, uploads, views

ANSWERER_KEY = "ra_answerer"  # session_state: an Answerer replacing the configured backend
USER_KEY = "ra_user"  # session_state: the user name logged in with a local account
LOCAL_USER = auth.LOCAL.id  # who asks when logins are off (history and log rows use it)
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
    with contextlib.suppress(Exception):  # an optimisation only: ask() fills them anyway
        warm(lib)


@st.cache_resource(show_spinner=False)
def _answerer(backend: str) -> Any:
    return get_answerer(backend)  # raises LLMError (not cached) when Claude has no key


def library() -> Library:
    try:
        return _open_library(str(load_settings().resolved_library()))
    except ResearchAssistantError as e:
        show_error(e)
        st.stop()
        raise  # unreachable: st.stop raises


# The sidebar menu (the automatic one is off in .streamlit/config.toml: it would call the
# entry script "app"). Paths are relative to app.py. Members see every page too: Library
# read-only, Audit of their own citations (the pages ask ``viewer().is_curator``).
PAGES = (
    ("app.py", "Ask", "💬"),
    ("pages/1_Library.py", "Library", "📚"),
    ("pages/2_Audit.py", "Audit", "📊"),
    ("pages/3_Export.py", "Export", "📤"),
    ("pages/4_Check_text.py", "Check text", "🔎"),
)


def start_page(title: str, icon: str) -> Library:
    """Every page starts here: page config, the login gate, menu, library, sidebar."""
    st.set_page_config(page_title=f"{title} · Citable", page_icon=icon, layout="wide")
    user = _gate()  # st.stop()s before anything of the library is drawn
    with st.sidebar:
        st.markdown("### 📚 Citable")
        for path, label, page_icon in PAGES:
            st.page_link(path, label=label, icon=page_icon)
        if user is not auth.LOCAL:
            st.caption(f"Logged in: {md(user.name)} ({user.role})")
            st.button("Log out", key="ra-logout", on_click=_logout, icon="🚪")
        st.divider()
    lib = library()
    library_sidebar(lib)
    return lib


# ---- logins ------------------------------------------------------------------------------------
_THROTTLE = auth.LoginThrottle()  # wrong passwords, per process (one process serves everyone)


def _oidc_section() -> bool:
    try:
        return "auth" in st.secrets
    except FileNotFoundError:  # no secrets.toml at all (StreamlitSecretNotFoundError)
        return False


def _identify(s: Settings) -> auth.User | None:
    """Who uses this session, judged again on every run: a role change or a removed account
    takes effect at the next click. None: nobody is logged in."""
    mode = auth.mode(s.auth, _oidc_section(), s.auth_file)
    if mode == auth.NONE:
        return auth.LOCAL
    if mode == auth.OIDC:
        return auth.oidc_user(st.user.to_dict(), s.curator_ids())
    user_id = st.session_state.get(USER_KEY)
    if not user_id or s.auth_file is None:
        return None
    return auth.local_user(auth.load_accounts(s.auth_file), user_id, s.curator_ids())


def _gate() -> auth.User:
    try:
        s = load_settings()
        user = _identify(s)
        if user is not None:
            return user
        st.title("Citable")
        st.caption("This library is shared by a lab: log in to ask it questions.")
        if auth.mode(s.auth, _oidc_section(), s.auth_file) == auth.OIDC:
            if st.button("Log in with your lab account", type="primary", icon="🔑"):
                st.login()
        else:
            _password_form(s)
    except ResearchAssistantError as e:  # a broken accounts file: closed, not open
        show_error(e)
    st.stop()
    raise AssertionError  # unreachable: st.stop raises


def _password_form(s: Settings) -> None:
    assert s.auth_file is not None
    with st.form("ra-login"):
        name = st.text_input("User name", autocomplete="username")
        password = st.text_input("Password", type="password", autocomplete="current-password")
        submitted = st.form_submit_button("Log in", type="primary")
    if submitted:
        accounts = auth.load_accounts(s.auth_file)
        user = auth.login(accounts, name, password, s.curator_ids(), _THROTTLE)
        st.session_state[USER_KEY] = user.id
        st.rerun()


def _logout() -> None:
    if st.session_state.pop(USER_KEY, None) is None:
        st.logout()  # OIDC: clears the identity cookie; local accounts live in this session only


def viewer() -> auth.User:
    """The user of this session (``auth.LOCAL`` when logins are off)."""
    user = _identify(load_settings())
    if user is None:
        raise AuthError("Nobody is logged in in this session: log in first.")
    return user


def current_user() -> str:
    """The id every log row records: the local user name or OIDC e-mail, else ``LOCAL_USER``."""
    return viewer().id


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


# ---- library: uploads, curator actions -----------------------------------------------------------
def _ingest_in_thread(
    lib: Library, staging: Path, paths: Sequence[Path], user: str, bars: Mapping[str, Any]
) -> IngestReport:
    """Run the ingest as a background job; draw its progress here (the script thread)."""
    job = views.IngestJob(lib, staging, paths, user, load_settings().max_upload_mb * 2**20)
    if job.ahead:
        st.info(f"{job.ahead} other ingest(s) first (one runs at a time): yours starts when "
                "they finish. Asking works meanwhile.", icon="⏳")  # fmt: skip

    def on_file(done: int, total: int, name: str) -> None:
        if name in bars:
            bars[name].progress(1.0, text=f"{md(name)}: read ({done}/{total} PDFs)")

    with st.spinner("Reading, matching, indexing and saving…"):
        return job.wait(on_file)


def ingest_uploads(
    lib: Library, files: Sequence[Any], user: auth.User
) -> tuple[IngestReport | None, list[tuple[str, str]]]:
    """Check and stage uploaded files (``UploadedFile``-like: ``.name``, ``.getvalue()``) in a
    temporary folder, then ingest them with one progress bar per file. Returns the report and
    the refused files as (name, reason). Curators only."""
    auth.require_curator(user, "Adding papers")
    s = load_settings()
    known = {sha: (p.label if (p := lib.paper(k)) else k)
             for k, sha in lib.store.paper_shas().items() if sha}  # fmt: skip
    staging = Path(tempfile.mkdtemp(prefix="citable-upload-"))
    try:
        staged = uploads.stage(
            [(f.name, f.getvalue()) for f in files], staging, known=known,
            max_file_bytes=s.max_upload_mb * 2**20, max_batch_bytes=s.max_batch_mb * 2**20,
        )  # fmt: skip
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if not staged.paths:
        shutil.rmtree(staging, ignore_errors=True)
        return None, staged.refused
    bars = {p.name: st.progress(0.0, text=f"{md(p.name)}: waiting") for p in staged.paths}
    report = _ingest_in_thread(lib, staging, staged.paths, user.id, bars)
    skipped = {Path(s.path).name for s in report.skipped}
    for name, bar in bars.items():
        bar.progress(1.0, text=f"{md(name)}: {'skipped' if name in skipped else 'done'}")
    return report, staged.refused


def move_pdf(lib: Library, source: str, target: str, user: auth.User) -> None:
    auth.require_curator(user, "Fixing a match")
    lib.assign_pdf(source, target, user=user.id)


def make_backup(lib: Library, user: auth.User) -> tuple[bytes, str]:
    """The whole library (papers, index, log) as one .tar.gz, taken by the process that holds
    the catalog, so the app need not stop (DuckDB allows one process per file). Curators only."""
    auth.require_curator(user, "Backing up the library")
    with tempfile.TemporaryDirectory() as tmp:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = backup(lib, Path(tmp) / f"citable-library-{stamp}.tar.gz")
        return path.read_bytes(), path.name


def backup_section(lib: Library, user: auth.User) -> None:
    with st.expander("Back up the library"):
        st.caption("Papers, index and the verification log in one .tar.gz. Restore it with "
                   "`python -m research_assistant restore FILE NEW_FOLDER`.")  # fmt: skip
        if st.button("Prepare a backup"):
            try:
                data, name = make_backup(lib, user)
                st.download_button("Download the backup", data, name, "application/gzip")
            except ResearchAssistantError as e:
                show_error(e)


def remove_paper(lib: Library, key: str, user: auth.User) -> None:
    auth.require_curator(user, "Removing a paper")
    lib.remove(key, user=user.id)


# ---- audit -------------------------------------------------------------------------------------
def status_chart(
    rows: Sequence[tuple[Any, str, int]], index_name: str, horizontal: bool = False
) -> None:
    """A stacked bar chart of (x, status, count) rows, one colour per verdict."""
    if not rows:
        st.caption("Nothing logged yet.")
        return
    table = views.status_table(rows, index_name)
    colours: list[Any] = [render.STATUS_COLOURS[s][0] for s in table.columns]
    table.columns = [render.status_label(s) for s in table.columns]
    st.bar_chart(table, color=colours, horizontal=horizontal, stack=True)


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
def read_text_upload(f: Any) -> str:
    return uploads.read_text_upload(f.name, f.getvalue())
