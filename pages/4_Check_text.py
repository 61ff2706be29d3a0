"""Check text: every [Author, Year] or (Author, Year) citation of a text, checked."""

import streamlit as st

from research_assistant import ResearchAssistantError
from research_assistant.web import jobs, manuscripts, ui, uploads

lib = ui.start_page("Check text", "🔎")
st.title("Check the citations of a text")
ui.legend_sidebar()
judge = jobs.judge_model()
opinions = {
    "On the citations the offline checker cannot settle": (True, False),
    "On every citation (a green chip then needs the model's agreement; slower)": (True, True),
    "None (offline verdicts only)": (False, False),
}
choice = st.sidebar.radio(f"Second opinion from {judge}", list(opinions)) if judge else None
second, every = opinions[choice] if choice else (False, False)

text = st.text_area(
    "Paste a text with [Author, Year] or (Author, Year) citations",
    height=200,
    placeholder="DLA clusters in the plane have a fractal dimension of about 1.71 "
    "[Lindqvist and Haddad, 2021].",
)
upload = st.file_uploader("…or upload a .txt or .md file", type=["txt", "md"],
                          max_upload_size=uploads.TEXT_UPLOAD_MB)  # fmt: skip
if st.button("Check the citations", type="primary"):
    try:
        source = (
            uploads.read_text_upload(upload.name, upload.getvalue()) if upload is not None else text
        )
        with st.spinner("Checking every citation against the library…"):  # in a worker thread
            st.session_state["ra_checked"] = jobs.check_job(
                lib, source, ui.current_user(), second, every
            ).wait()
    except ResearchAssistantError as e:
        ui.show_error(e)

checked = st.session_state.get("ra_checked")
if checked is not None:
    if not checked.citations:
        st.info("No citations found: write them as [Author, Year] or (Author, Year).")
    with st.container(border=True):
        ui.show_checked(lib, checked.text, checked.citations, checked.references, key=checked.id)
    st.caption(f"Checked against the whole library · id `{checked.id}` (Export page)")

st.header("Check a manuscript")
st.caption("PDF, Word, LaTeX (with its .bib) or Markdown: every citation, numbered, keyed or "
           "author-year, resolved through the manuscript's own reference list.")  # fmt: skip
draft = st.file_uploader("Manuscript", type=manuscripts.MANUSCRIPT_TYPES, key="ra_ms",
                         max_upload_size=manuscripts.MAX_UPLOAD_MB)  # fmt: skip
bib = st.file_uploader("Its .bib (LaTeX, pandoc keys)", type=["bib"], key="ra_ms_bib")
if st.button("Check the manuscript", type="primary", disabled=draft is None) and draft:
    try:
        with st.spinner(f"Checking every citation of {draft.name}…"):  # in a worker thread
            st.session_state["ra_manuscript"] = manuscripts.job(
                lib, draft.name, draft.getvalue(), ui.current_user(),
                (bib.name, bib.getvalue()) if bib else None, second, every,
            ).wait()  # fmt: skip
    except ResearchAssistantError as e:
        ui.show_error(e, draft.name)

done = st.session_state.get("ra_manuscript")
if done is not None:
    for note in done.checked.notes:
        st.warning(note)
    st.markdown(done.headline)
    cols = st.columns(4)
    stem = done.checked.name.rsplit(".", 1)[0]
    cols[0].download_button("HTML report", done.html, f"{stem}-checked.html", "text/html")
    cols[1].download_button("Word report", done.docx, f"{stem}-checked.docx")
    cols[2].download_button("Missing references (.bib)", done.bib, f"{stem}-missing.bib")
    if done.annotated is not None:
        cols[3].download_button("Annotated PDF", done.annotated, f"{stem}-checked.pdf",
                                "application/pdf")  # fmt: skip
    st.iframe(done.html.decode("utf-8"), height=700)  # our report: every string escaped
