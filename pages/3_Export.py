"""Export: an answer, a checked text or a whole conversation as Markdown, HTML, Word, or the
BibTeX of the cited works."""

import streamlit as st

from research_assistant import ResearchAssistantError
from research_assistant.web import render, ui, views

lib = ui.start_page("Export", "📤")
st.title("Export")
st.caption(
    "Every format lists each citation with its verdict, evidence quote and page: unverified "
    "citations are marked, never dropped. The BibTeX holds the cited works only."
)
user = ui.current_user()
runs, conversations = lib.store.history(user, limit=100), lib.store.conversations(user)
if not runs:
    st.info("Nothing to export yet: ask a question or check a text first.")
    st.stop()

whole = bool(conversations) and st.toggle("A whole conversation", key="ra-export-conversation")
try:
    if whole:
        chosen = st.selectbox("Conversation", conversations, format_func=lambda c: c.title)
        files = views.conversation_files(lib, chosen)
    else:
        run_id = st.selectbox(
            "Answer or checked text", [r["id"] for r in runs], format_func=render.run_name(runs)
        )
        files = views.export_files(lib, run_id)
except ResearchAssistantError as e:
    ui.show_error(e)
    st.stop()

for column, f in zip(st.columns(len(files)), files, strict=True):
    column.download_button(
        f"Download {f.label}", f.data, file_name=f.file_name, mime=f.mime,
        on_click="ignore", key=f"dl-{f.file_name}", icon="⬇️",
    )  # fmt: skip

with st.expander("Preview (Markdown)", expanded=True):
    st.code(files[0].data, language="markdown", wrap_lines=True)
