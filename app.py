"""Ask: chat with the library; every citation in an answer shows its verdict and evidence."""

import streamlit as st

from research_assistant.web import ui, views

lib = ui.start_page("Ask", "💬")
opts = ui.ask_sidebar()
user = ui.current_user()

st.title("Ask your library")
if not lib.papers():
    st.info("The library is empty: add PDFs and a BibTeX file on the Library page first.")
    st.page_link("pages/1_Library.py", label="Go to the Library", icon="📚")
else:
    st.caption(
        "Every [Author, Year] citation in an answer is checked against the text of the paper it "
        "names. Hover a citation for its evidence; click the buttons below an answer to open "
        "the highlighted page."
    )

for run in views.history(lib.store, user):
    ui.show_turn(lib, run)

if question := st.chat_input("Ask a question about your papers"):
    with st.chat_message("user"):
        st.markdown(ui.md(question))
    with st.chat_message("assistant"):
        ui.ask_streamed(lib, question, opts, user)
