"""Library: the papers, searchable; curators also upload PDFs and BibTeX, fix matches, remove."""

import streamlit as st

from research_assistant import ResearchAssistantError
from research_assistant.web import panels, render, ui, views

lib = ui.start_page("Library", "📚")
user = ui.viewer()
st.title("Library")

if user.is_curator:
    st.subheader("Add papers")
    folder = st.toggle("Upload a whole folder", help="Otherwise choose one or more files.")
    with st.form("upload", clear_on_submit=True):
        files = st.file_uploader(
            "PDFs and BibTeX (.bib) files: Zotero, JabRef, Mendeley exports or hand-kept",
            type=["pdf", "bib"],
            accept_multiple_files="directory" if folder else True,
        )
        submitted = st.form_submit_button("Add to the library", type="primary")
    if submitted and files:
        try:
            st.session_state["ra_ingest"] = ui.ingest_uploads(lib, files, user)
            st.rerun()  # every count on the page and in the sidebar, after the change
        except ResearchAssistantError as e:
            ui.show_error(e)
    if "ra_ingest" in st.session_state:
        panels.ingest_result(*st.session_state["ra_ingest"])

papers = lib.papers()
st.subheader(f"Papers ({len(papers)})")
query = st.text_input("Search", placeholder="label, title or key")
left, right = st.columns(2)
with_pdf = left.checkbox("Only papers with a PDF")
inferred = right.checkbox("Only inferred metadata (PDFs without a BibTeX entry)")
rows = render.paper_rows(papers, query, with_pdf, inferred)
st.dataframe(rows, hide_index=True, width="stretch")
st.caption(f"{len(rows)} of {len(papers)} papers shown.")
if not user.is_curator:
    st.caption("Adding, fixing and removing papers is for the library's curators.")
    st.stop()

name = views.paper_name(lib)
with_pdfs = [p.key for p in papers if p.pdf]
with st.expander("Fix a match: give a PDF to the right entry"):
    if not with_pdfs:
        st.caption("No paper has a PDF yet.")
    else:
        source = st.selectbox("The PDF now attached to", with_pdfs, format_func=name)
        target = st.selectbox("belongs to the entry", [p.key for p in papers], format_func=name)
        if st.button("Move the PDF", disabled=source == target):
            try:
                lib.assign_pdf(source, target, user=user)  # curators only: Library checks
                st.success("Moved. The Ask page uses the change at once.")
                st.rerun()
            except ResearchAssistantError as e:
                ui.show_error(e)

with st.expander("Correct a paper's metadata (title, authors, year, venue, DOI)"):
    panels.metadata_editor(lib, user)

with st.expander("Remove a paper"):
    if not papers:
        st.caption("The library is empty.")
    else:
        doomed = st.selectbox("Paper", [p.key for p in papers], format_func=name)
        sure = st.checkbox("Yes: remove this paper, its PDF copy and its passages")
        if st.button("Remove", type="primary", disabled=not sure):
            try:
                lib.remove(doomed, user=user)
                st.rerun()
            except ResearchAssistantError as e:
                ui.show_error(e)

panels.backup_section(lib, user)
