"""Streamlit widgets and caching for app.py and pages/, the package's only streamlit import.
What it draws is decided elsewhere: markup in ``render``, page data in ``views``, logins in
``login``, background work in ``jobs``, who may change the library in ``Library`` and ``backup``
(``roles``). One ``Library`` per folder and one answerer per backend serve every session.

Testing seam: an object with the ``Answerer`` interface in ``st.session_state[ANSWERER_KEY]``
answers on the Ask page instead of the configured backend. ``start_page`` is the login gate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from time import time as now
from typing import Any

import streamlit as st

from research_assistant.errors import AuthError, LLMError, ResearchAssistantError
from research_assistant.library import Library
from research_assistant.models import IngestReport
from research_assistant.pipeline import get_answerer
from research_assistant.results import Answer, Citation, Reference
from research_assistant.settings import load_settings
from research_assistant.web import jobs, panels, render, sessions, uploads, views
from research_assistant.web import login as auth
from research_assistant.web.render import md

ANSWERER_KEY = "ra_answerer"  # session_state: an Answerer replacing the configured backend
USER_KEY = "ra_user"  # session_state: the user name logged in with a local account
COOKIE_KEY = "ra_cookie"  # session_state: a new session token to put in the browser's cookie
LOCAL_USER = auth.LOCAL.id  # who asks when logins are off (history and log rows use it)


# ---- resources and page preamble ---------------------------------------------------------------
@st.cache_resource(show_spinner=False)
def _open_library(path: str) -> Library:
    lib = Library.open(path)
    jobs.warm_in_background(lib)
    return lib


@st.cache_resource(show_spinner=False)
def _answerer(backend: str) -> Any:
    return get_answerer(backend)  # raises LLMError (not cached) when Claude has no key


def start_page(title: str, icon: str) -> Library:
    """Every page starts here: page config, the login gate, menu, library, sidebar."""
    st.set_page_config(page_title=f"{title} · Citable", page_icon=icon, layout="wide")
    user = _gate()  # st.stop()s before anything of the library is drawn
    with st.sidebar:
        st.markdown("### 📚 Citable")
        for path, label, page_icon in views.PAGES:
            st.page_link(path, label=label, icon=page_icon)
        if user is not auth.LOCAL:
            st.caption(f"Logged in: {md(user.name)} ({user.role})")
            st.button("Log out", key="ra-logout", on_click=_logout, icon="🚪")
        st.divider()
    try:
        lib = _library()
    except ResearchAssistantError as e:
        show_error(e)
        st.stop()
    papers = lib.papers()
    with st.sidebar:
        st.caption(f"Library: {len(papers)} papers, {sum(1 for p in papers if p.pdf)} with a PDF")
        if views.is_demo(lib):
            st.info(views.DEMO_NOTE, icon="🧪")
    return lib


# ---- logins ------------------------------------------------------------------------------------
_THROTTLE = auth.LoginThrottle()  # wrong passwords, per process (one process serves everyone)


def _oidc_section() -> bool:
    try:
        return "auth" in st.secrets
    except FileNotFoundError:  # no secrets.toml at all (StreamlitSecretNotFoundError)
        return False


def _library() -> Library:
    return _open_library(str(load_settings().resolved_library()))


def _identify() -> auth.User | None:
    s = load_settings()
    session_user = st.session_state.get(USER_KEY)
    if session_user is None and auth.mode(s.auth, _oidc_section(), s.auth_file) == auth.LOCAL_MODE:
        token = sessions.from_cookies(st.context.cookies)  # a reload, or a new tab
        if token and (session_user := sessions.user_of_token(_library().store, s, token, now())):
            st.session_state[USER_KEY] = session_user
    return auth.identify(s, _oidc_section(), session_user, lambda: st.user.to_dict())


def _cookie(token: str | None) -> None:
    """Write (None: delete) the session cookie with a script on the page (sessions.py)."""
    secure = str(st.context.url or "").startswith("https:")
    script = sessions.cookie_script(token, load_settings().session_hours, secure)
    st.html(script, unsafe_allow_javascript=True, width="content")


def _gate() -> auth.User:
    try:
        if (user := _identify()) is not None:
            if (token := st.session_state.pop(COOKIE_KEY, None)) is not None:
                _cookie(token)  # just logged in: later reloads and tabs stay logged in
            return user
        s = load_settings()
        html(render.LOGGED_OUT_CSS)  # a clean screen: no sidebar
        _cookie(None)
        st.title("Citable")
        st.caption("This library is shared by a lab: log in to ask it questions.")
        if auth.mode(s.auth, _oidc_section(), s.auth_file) == auth.OIDC:
            if st.button("Log in with your lab account", type="primary", icon="🔑"):
                st.login()
        else:
            with st.form("ra-login"):
                name = st.text_input("User name", autocomplete="username")
                password = st.text_input(
                    "Password", type="password", autocomplete="current-password"
                )
                submitted = st.form_submit_button("Log in", type="primary")
            if submitted:
                ctx = st.context  # who connects: a proxy on this machine names the client
                client = auth.client_address(ctx.ip_address, ctx.headers.get_all("X-Forwarded-For"))
                user = auth.password_login(s, name, password, _THROTTLE, client)
                st.session_state[USER_KEY] = user.id
                token = sessions.new_token(_library().store, s, user.id, now())
                st.session_state[COOKIE_KEY] = token
                st.rerun()
    except ResearchAssistantError as e:  # a broken accounts file: closed, not open
        show_error(e)
    st.stop()
    raise AssertionError  # unreachable: st.stop raises


def _logout() -> None:
    if (user_id := st.session_state.pop(USER_KEY, None)) is None:
        st.logout()  # OIDC: clears the identity cookie
    else:  # a local account: its session tokens end here (the login screen deletes the cookie)
        sessions.log_out(_library().store, user_id, now())


def viewer() -> auth.User:
    """The user of this session (``auth.LOCAL`` when logins are off)."""
    if (user := _identify()) is None:
        raise AuthError("Nobody is logged in in this session: log in first.")
    return user


def current_user() -> str:
    """The id every log row records: the local user name or OIDC e-mail, else ``LOCAL_USER``."""
    return viewer().id


# ---- shared widgets ----------------------------------------------------------------------------
def show_error(e: BaseException, file: str = "") -> None:
    prefix = f"{file}: " if file else ""
    hint = " This is temporary: try again in a minute." if getattr(e, "retryable", False) else ""
    st.error(render.inert(f"{prefix}{e}{hint}"), icon="⚠️")  # may quote a paper or file


def html(fragment: str) -> None:
    """Show markup built by ``render`` (which escapes every untrusted string)."""
    st.markdown(fragment, unsafe_allow_html=True)


def legend_sidebar() -> None:
    with st.sidebar:
        st.caption("What the marks mean (hover for details)")
        html(render.legend_html())


# ---- asking ------------------------------------------------------------------------------------
def ask_streamed(
    lib: Library, question: str, backend: str, top_k: int, user: str, **conversation: Any
) -> Answer | None:
    """Run ``pipeline.ask`` as a ``jobs.Job``; stream its text and steps into this script run
    (``st.write_stream`` drains the job's events: only the script thread draws).
    ``conversation``: ``history`` and ``conversation_id``, passed on to ``ask``."""
    status = st.status("Searching the library…", expanded=False)
    override = st.session_state.get(ANSWERER_KEY)
    try:
        answerer = override if override is not None else _answerer(backend)
    except LLMError as e:
        status.update(label="Cannot answer", state="error")
        show_error(e)
        return None
    job = jobs.ask_job(lib, question, backend, user, answerer=answerer, top_k=top_k, **conversation)

    def step(message: str) -> None:
        status.update(label=f"{message}…")
        status.write(message)

    body = st.empty()
    try:
        with body.container():
            st.write_stream(jobs.text_stream(job, step))
    except Exception as e:  # not Streamlit's stop or rerun, which are BaseExceptions
        status.update(label="Failed", state="error")
        body.empty()
        if not isinstance(e, ResearchAssistantError):
            raise
        show_error(e)
        return None
    answer = job.result
    summary = render.summary_text(answer.citations) or "no citations"
    status.update(label=f"Checked: {summary}", state="complete")
    with body.container():
        show_checked(lib, answer.answer, answer.citations, answer.references, key=answer.id)
        panels.closest_papers([c.to_dict() for c in answer.closest])
        st.caption(views.run_caption(answer.to_dict()))
    return answer


def show_turn(lib: Library, run: Mapping[str, Any]) -> None:
    """One logged question and its checked answer, as chat messages."""
    with st.chat_message("user"):
        st.markdown(md(run.get("question", "")))
    with st.chat_message("assistant"):
        citations = [Citation.from_dict(c) for c in run.get("citations", [])]
        refs = [Reference.from_dict(r) for r in run.get("references", [])]
        show_checked(lib, run.get("answer", ""), citations, refs, key=str(run.get("id", "")))
        panels.closest_papers(list(run.get("closest") or []))
        st.caption(views.run_caption(run))


# ---- citations and their evidence --------------------------------------------------------------
def show_checked(
    lib: Library, text: str, citations: Sequence[Citation], refs: Sequence[Reference], key: str
) -> None:
    """Text with verdict chips (hover: title, page, quote), evidence buttons, references."""
    papers = lib.state.papers
    html(render.answer_html(text, citations, papers, numbered=True))
    if citations:
        st.caption(f"{render.summary_text(citations)} — click a citation to see its evidence")
        clicked = None
        with st.container(horizontal=True, gap="small"):
            for i, c in enumerate(citations):
                help_ = md(render.tooltip(c, papers.get(c.paper_key or "")), lines=True)
                label = render.evidence_label(i + 1, c)
                if st.button(label, key=f"ev-{key}-{i}", help=help_, type="secondary"):
                    clicked = c
        if clicked is not None:
            panels.evidence_dialog(lib, clicked)
    if refs:
        html(render.references_html(refs))


# ---- library: uploads and backups (Library and backup refuse members themselves) --------------
def ingest_uploads(
    lib: Library, files: Sequence[Any], user: auth.User
) -> tuple[IngestReport | None, list[tuple[str, str]], list[tuple[str, str]]]:
    """Stage uploaded files (``UploadedFile``-like: ``.name``, ``.getvalue()``) and ingest them
    as a background job, one progress bar per file. Returns the report, the refused files and
    those already in the library, as (name, reason); a member gets ``PermissionDeniedError``
    (from ``jobs.ingest_uploads``)."""
    s, mib = load_settings(), uploads.MiB
    job, staged = jobs.ingest_uploads(
        lib, [(f.name, f.getvalue()) for f in files], user,
        max_file_bytes=s.max_upload_mb * mib, max_batch_bytes=s.max_batch_mb * mib,
    )  # fmt: skip
    if job is None:
        return None, staged.refused, staged.already
    bars = {p.name: st.progress(0.0, text=f"{md(p.name)}: waiting") for p in staged.paths}
    if job.ahead:
        st.info(f"{job.ahead} other ingest(s) first (one runs at a time): yours starts when "
                "they finish. Asking works meanwhile.", icon="⏳")  # fmt: skip

    def on_file(done: int, total: int, name: str) -> None:
        if name in bars:
            bars[name].progress(0.5, text=f"{md(name)}: read; matching and indexing next")

    with st.spinner("Reading, matching, indexing and saving…"):
        report = job.wait(on_file)
    skipped = {Path(s.path).name for s in report.skipped}
    for name, bar in bars.items():
        bar.progress(1.0, text=f"{md(name)}: {'skipped' if name in skipped else 'done'}")
    return report, staged.refused, staged.already


def judge_panel(judged: Mapping[str, int]) -> None:
    """What the model judge did to the logged citations (views.judge_summary); nothing when it
    never judged."""
    if not judged:
        return
    st.subheader("Second opinions of the model judge")
    read, changed = sum(judged.values()), judged["lifted"] + judged["lowered"]
    cols = st.columns(4)
    cols[0].metric("Citations it read", read)
    cols[1].metric("Lifted to verified", judged["lifted"])
    cols[2].metric("Lowered", judged["lowered"], help="to uncertain (not stated) or unsupported")
    cols[3].metric("Kept", judged["kept"], help="its opinion changed no verdict")
    st.caption(f"The model overturned the offline verdict on {changed} of {read} citations "
               f"({changed / read:.0%}); no ruling {judged['no ruling']}, call failed "
               f"{judged['unavailable']}.")  # fmt: skip
