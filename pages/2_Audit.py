"""Audit: logged verdicts by time, status, paper and backend; flagged citations with a
drill-down. Curators see everyone's citations, members their own."""

import streamlit as st

from research_assistant.web import render, ui, views


def status_chart(rows: list, index_name: str, horizontal: bool = True) -> None:
    """A stacked bar chart of (x, status, count) rows, one colour per verdict."""
    if not rows:
        st.caption("Nothing logged yet.")
        return
    table, colours = views.status_chart_data(rows, index_name)
    st.bar_chart(table, color=colours, horizontal=horizontal, stack=True)


lib = ui.start_page("Audit", "📊")
user = ui.viewer()
mine = None if user.is_curator else user.id
st.title("Audit")
counts = lib.store.counts_by_status(user=mine)
total = sum(counts.values())
if not total:
    st.info("No citations checked yet: ask a question or check a text, then come back.")
    st.stop()
if mine is not None:
    st.caption("Your own citations: curators see everyone's.")

verified = counts.get("verified", 0)
a, b, c = st.columns(3)
a.metric("Citations checked", total)
b.metric("Verified", f"{verified / total:.0%}", help="Share of the logged citations")
c.metric("Flagged (not verified)", total - verified)

st.subheader("Verdicts over time")
bucket = st.segmented_control("Per", ["hour", "day", "week", "month"], default="day")
status_chart(lib.store.counts_over_time(bucket or "day", user=mine), "time", horizontal=False)

left, right = st.columns(2)
with left:
    st.subheader("By status")
    status_chart([(render.status_label(s), s, n) for s, n in counts.items()], "verdict")
    st.subheader("By backend and model")
    status_chart(views.backend_status_rows(lib.store, user=mine), "backend")
with right:
    st.subheader("By paper")
    status_chart(views.paper_status_rows(lib, user=mine), "paper")

st.subheader("Latest flagged citations")
flagged = lib.store.flagged(limit=50, user=mine)
if not flagged:
    st.success("Every logged citation is verified.")
    st.stop()
columns = ["created_at", "status", "marker", "claim", "paper_key", "page", "question", "user"]
st.dataframe([{k: row[k] for k in columns} for row in flagged], hide_index=True)
pick = st.selectbox(
    "Look closer at", range(len(flagged)), format_func=lambda i: render.flagged_name(flagged[i])
)
row = flagged[pick]
with st.container(border=True):
    st.markdown(f"**Question**: {render.md(row['question'] or '(a checked text)')}")
    when, who = f"{row['created_at']:%Y-%m-%d %H:%M}", render.md(row["user"])
    st.caption(f"{when} · {who} · {row['source']} · run `{row['run_id']}`")
    ui.html(render.flagged_html(row, lib.paper(row["paper_key"]) if row["paper_key"] else None))
