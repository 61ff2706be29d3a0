"""Check text: every [Author, Year] or (Author, Year) citation of a text, checked."""

import streamlit as st

from research_assistant import ResearchAssistantError
from research_assistant.web import jobs, ui, uploads

lib = ui.start_page("Check text", "🔎")
st.title("Check the citations of a text")
ui.legend_sidebar()

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
            st.session_state["ra_checked"] = jobs.check_job(lib, source, ui.current_user()).wait()
    except ResearchAssistantError as e:
        ui.show_error(e)

checked = st.session_state.get("ra_checked")
if checked is not None:
    if not checked.citations:
        st.info("No citations found: write them as [Author, Year] or (Author, Year).")
    with st.container(border=True):
        ui.show_checked(lib, checked.text, checked.citations, checked.references, key=checked.id)
    st.caption(f"Checked against the whole library · id `{checked.id}` (Export page)")
