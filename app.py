"""Ask: chat with the library; every citation in an answer shows its verdict and evidence."""

import streamlit as st

from research_assistant.answer.registry import ANSWERERS
from research_assistant.settings import load_settings
from research_assistant.web import panels, render, ui, views

lib = ui.start_page("Ask", "💬")
user = ui.current_user()
settings = load_settings()
conversations = st.sidebar.container()  # filled at the end of the script
with st.sidebar:
    st.subheader("Answering")
    backends = list(ANSWERERS)  # one entry per answer backend of the registry
    backend = st.selectbox(
        "Backend",
        backends,
        index=views.backend_index(settings.default_backend()),
        format_func=lambda name: views.backend_option(name, settings.model_for(name)),
        key="ra_backend",
    )
    model = settings.model_for(backend)
    warn, note = views.backend_note(backend, model, st.session_state.get(ui.ANSWERER_KEY))
    (st.warning if warn else st.caption)(note)
    top_k = st.slider("Passages retrieved (top-k)", 1, 30, settings.top_k, key="ra_top_k")
ui.legend_sidebar()

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

current, listed = panels.current_conversation(lib.store, user)
turns = lib.store.conversation_turns(current.id, user) if current else []
shown, hidden = views.page_of_turns(turns, panels.turn_pages())
if hidden:
    panels.earlier_turns_button(hidden)
for run in shown:
    ui.show_turn(lib, run)

if question := st.chat_input("Ask a question about your papers"):
    if current is None:
        current = panels.start_conversation(lib.store, user, question)
        listed.insert(0, current)
    with st.chat_message("user"):
        st.markdown(render.md(question))
    with st.chat_message("assistant"):
        ui.ask_streamed(lib, question, str(backend), int(top_k), user,
                        history=views.history_of(turns), conversation_id=current.id)  # fmt: skip
with conversations:  # drawn last, so that a conversation started just now is listed
    panels.conversation_list(lib.store, user, current, listed)
