"""Streamlit panels beside ``ui``: the conversation list of the Ask sidebar and the evidence
viewer (the cited PDF, scrollable and zoomable, opened at the evidence page with the quote
highlighted). The second streamlit importer of the package and the only importer of
``streamlit_pdf_viewer``, whose frontend (pdf.js with its worker) ships inside its wheel: nothing
is fetched from the internet (tests/test_browser.py blocks every request that leaves 127.0.0.1).

What is shown is decided in ``views`` (which conversation, which turns) and ``render``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit_pdf_viewer import pdf_viewer

from research_assistant.backup import backup_bytes
from research_assistant.bib.edit import Correction
from research_assistant.bib.write import format_names
from research_assistant.conversations import Conversation
from research_assistant.errors import ResearchAssistantError
from research_assistant.ingest import pdf
from research_assistant.library import Library
from research_assistant.models import IngestReport
from research_assistant.results import Citation
from research_assistant.roles import User
from research_assistant.store import Store
from research_assistant.web import render, views
from research_assistant.web.render import md

CONVERSATION_KEY = "ra_conversation"  # session_state: the open conversation (views.NEW: none)
PAGES_KEY = "ra_turn_pages"  # session_state: pages of turns shown of the open conversation
VIEWER_HEIGHT = 720  # px: the viewer scrolls inside this frame through the whole paper


# ---- conversations -----------------------------------------------------------------------------
def _open(conversation_id: str) -> None:
    st.session_state[CONVERSATION_KEY] = conversation_id
    st.session_state[PAGES_KEY] = 1


def _more() -> None:
    st.session_state[PAGES_KEY] = st.session_state.get(PAGES_KEY, 1) + 1


def _rename(store: Store, conversation_id: str, user: str) -> None:
    title = st.session_state.get(f"ra-title-{conversation_id}", "")
    try:
        store.rename_conversation(conversation_id, user, title)
    except ResearchAssistantError as e:
        st.session_state["ra_conversation_error"] = str(e)


def _delete(store: Store, conversation_id: str, user: str) -> None:
    store.delete_conversation(conversation_id, user)
    _open(views.NEW)


def current_conversation(store: Store, user: str) -> tuple[Conversation | None, list[Conversation]]:
    """The open conversation of this session (else the user's latest) and the user's list."""
    return views.pick_conversation(store, user, st.session_state.get(CONVERSATION_KEY))


def start_conversation(store: Store, user: str, question: str) -> Conversation:
    conversation = store.create_conversation(user, question)
    _open(conversation.id)
    return conversation


def conversation_list(
    store: Store, user: str, current: Conversation | None, listed: list[Conversation]
) -> None:
    """The sidebar's list: newest first, the open one highlighted, renamable and deletable."""
    st.subheader("Conversations")
    st.button("New conversation", key="ra-new-conversation", icon="➕", on_click=_open,
              args=(views.NEW,), width="stretch")  # fmt: skip
    for c in listed:
        is_open = current is not None and c.id == current.id
        st.button(md(c.title), key=f"conv-{c.id}", on_click=_open, args=(c.id,),
                  type="primary" if is_open else "tertiary", width="stretch")  # fmt: skip
    if error := st.session_state.pop("ra_conversation_error", None):
        st.error(render.inert(error))
    if current is not None:
        with st.expander("Rename or delete this conversation"):
            st.text_input("Title", value=current.title, key=f"ra-title-{current.id}")
            st.button("Rename", key="ra-rename", on_click=_rename,
                      args=(store, current.id, user))  # fmt: skip
            st.button("Delete", key="ra-delete", on_click=_delete,
                      args=(store, current.id, user), icon="🗑️")  # fmt: skip


def earlier_turns_button(hidden: int) -> None:
    """Paging: a conversation is never cut silently; older turns come a page at a time."""
    st.caption(f"{hidden} earlier turn(s) of this conversation are above these.")
    step = min(hidden, views.TURNS_PER_PAGE)
    st.button(f"Show {step} earlier turn(s)", key="ra-more-turns", on_click=_more, icon="⬆️")


def turn_pages() -> int:
    return int(st.session_state.get(PAGES_KEY, 1))


# ---- evidence ----------------------------------------------------------------------------------
@st.cache_data(max_entries=64, show_spinner=False)
def _page_png(path: str, mtime: float, page: int, quote: str) -> bytes:
    return pdf.page_png(Path(path), page, quote)


@st.cache_data(max_entries=64, show_spinner=False)
def _rects(path: str, mtime: float, page: int, quote: str) -> list[tuple[float, ...]]:
    return [tuple(r) for r in pdf.quote_rects(Path(path), page, quote)]


def pdf_at_evidence(path: Path, c: Citation) -> None:
    """The whole PDF in the viewer (scrollable, with zoom controls), scrolled to the evidence
    page, the quote outlined; the highlighted page image below it as the fallback."""
    assert c.evidence is not None
    page, quote, mtime = c.evidence.page, c.evidence.text, path.stat().st_mtime
    try:
        rects = _rects(str(path), mtime, page, quote)
    except ResearchAssistantError as e:
        st.error(render.inert(f"{path.name}: {e}"), icon="⚠️")
        return
    st.caption(f"Page {page}: the evidence is highlighted (the viewer's own menu zooms)" + (
        "" if rects else " — the quote was not found on the page: read the page"))  # fmt: skip
    pdf_viewer(
        path.read_bytes(),
        height=VIEWER_HEIGHT,
        annotations=views.highlight_annotations(page, rects),
        scroll_to_page=page,
        zoom_level="auto",  # fit to the width: readable on a phone, zoomable from its menu
        annotation_outline_size=2,
        key=f"ra-pdf-{path.name}-{page}",
    )
    with st.expander("The page as an image"):
        st.image(_page_png(str(path), mtime, page, quote),
                 caption=f"Page {page}: the evidence is highlighted")  # fmt: skip


@st.dialog("Evidence", width="large")
def evidence_dialog(lib: Library, c: Citation) -> None:
    """The verdict, claim and evidence quote beside the PDF page with the quote highlighted."""
    paper = lib.paper(c.paper_key) if c.paper_key else None
    path = lib.pdf_path(paper.key) if paper else None
    text, page = st.columns([2, 3]) if path and c.evidence else (st.container(), None)
    with text:
        label = lambda k: p.label if (p := lib.paper(k)) else k  # noqa: E731
        st.markdown(render.evidence_html(c, paper, label), unsafe_allow_html=True)
        if c.evidence is None:
            st.info("No passage of the library supports this citation.")
        elif path is None:
            st.caption("The PDF of this paper is not in the library.")
        else:
            st.download_button("Download the PDF", path.read_bytes(), file_name=path.name,
                               mime="application/pdf", on_click="ignore", icon="📄")  # fmt: skip
    if page is None or path is None or c.evidence is None:
        return
    with page:
        pdf_at_evidence(path, c)


# ---- library -----------------------------------------------------------------------------------
def ingest_result(
    report: IngestReport | None, refused: list[tuple[str, str]], already: list[tuple[str, str]]
) -> None:
    """One summary line (calm when nothing went wrong), an error per refused file, and the
    whole table, problems first, never cut to a fixed height."""
    rows = render.ingest_rows(report, refused, already)
    line, calm = views.ingest_summary(report, rows)
    (st.success if calm else st.warning)(render.inert(line), icon="✅" if calm else "⚠️")
    for _name, reason in refused:
        st.error(render.inert(reason), icon="🚫")
    st.dataframe(rows, hide_index=True, width="stretch", height="content")


def metadata_editor(lib: Library, user: User) -> None:
    """Curators correct a paper's title, authors, year, venue and DOI (inferred ones first)."""
    papers = sorted(lib.papers(), key=lambda p: (p.metadata != "inferred", p.label))
    if not papers:
        st.caption("The library is empty.")
        return
    key = st.selectbox("Paper", [p.key for p in papers], format_func=views.paper_name(lib),
                       key="ra-edit-paper")  # fmt: skip
    paper = lib.paper(key)
    if paper is None:
        return
    with st.form(f"ra-edit-{key}"):
        title = st.text_input("Title", paper.title)
        authors = st.text_input("Authors (Family, Given and Family, Given)",
                                format_names(paper.authors, paper.others))  # fmt: skip
        year = st.text_input("Year", "" if paper.year is None else str(paper.year))
        venue = st.text_input("Journal or venue", paper.venue)
        doi = st.text_input("DOI", paper.doi)
        saved = st.form_submit_button("Save the correction", type="primary")
    if saved:
        try:
            new = lib.correct_metadata(key, Correction(title, authors, year, venue, doi), user)
        except ResearchAssistantError as e:
            st.error(render.inert(e), icon="⚠️")
        else:
            st.success(f"Saved as {md(new.label)}: the catalog and library.bib are updated.")
    bib = lib.root / "library.bib"
    if bib.is_file():
        st.download_button("Download the merged library.bib", bib.read_bytes(), "library.bib",
                           "application/x-bibtex", on_click="ignore", icon="⬇️")  # fmt: skip


def backup_section(lib: Library, user: User) -> None:
    with st.expander("Back up the library"):
        st.caption("Papers, index and the verification log in one .tar.gz. Restore it with "
                   "`python -m research_assistant restore FILE NEW_FOLDER`.")  # fmt: skip
        if st.button("Prepare a backup"):
            try:
                data, name = backup_bytes(lib, user)
                st.download_button("Download the backup", data, name, "application/gzip")
            except ResearchAssistantError as e:
                st.error(render.inert(e), icon="⚠️")


# ---- a refusal that helps ----------------------------------------------------------------------
def closest_papers(closest: list[dict[str, object]]) -> None:
    """The papers that came closest to a refused question, plainly marked as not an answer."""
    if not closest:
        return
    st.caption("Not an answer: the papers that came closest, with their nearest passage")
    for c in closest:
        page = f", p. {c.get('page')}" if c.get("page") else ""
        st.markdown(
            f"- **{md(c.get('label', ''))}**, {md(c.get('title', ''))}{page}: “{md(c.get('text', ''))}”"
        )
