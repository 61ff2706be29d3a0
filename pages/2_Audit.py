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
counts, modes = lib.store.counts_by_status(user=mine), lib.store.questions_by_mode(user=mine)
total, asked, refused = sum(counts.values()), sum(modes.values()), modes.get("refuse", 0)
if not total and not asked:
    st.info("No citations checked yet: ask a question or check a text, then come back.")
    st.stop()
if mine is not None:
    st.caption("Your own citations and questions: curators see everyone's.")

verified = counts.get("verified", 0)
a, b, c, d = st.columns(4)
a.metric("Questions", asked, help="Questions asked on the Ask page")
b.metric("Refused", refused, help="Questions the library did not answer (no verified citation)")
c.metric("Citations checked", total)
d.metric("Verified", f"{verified / total:.0%}" if total else "–", help="Share of the citations")
st.markdown(f"**{asked} questions, {refused} refused**; {total} citations checked, "
            f"{verified} verified.")  # fmt: skip
if refused:
    with st.expander(f"The {refused} refused question(s)"):
        st.dataframe(lib.store.refused(user=mine), hide_index=True, height="content")

if mine is None:
    with st.expander("By user"):
        st.dataframe(lib.store.counts_by_user(), hide_index=True, height="content")

st.subheader("Verdicts over time")
auto = views.auto_bucket(lib.store, user=mine)
bucket = st.segmented_control("Per", ["hour", "day", "week", "month"], default=auto)
status_chart(lib.store.counts_over_time(bucket or auto, user=mine), "time", horizontal=False)

left, right = st.columns(2)
with left:
    st.subheader("By status")
    status_chart([(render.status_label(s), s, n) for s, n in counts.items()], "verdict")
    st.subheader("By backend and model")
    status_chart(views.backend_status_rows(lib.store, user=mine), "backend")
with right:
    st.subheader("By paper")
    st.dataframe(views.paper_health(lib, user=mine), hide_index=True, width="stretch",
                 column_config={"verified share": st.column_config.ProgressColumn(
                     format="percent", min_value=0.0, max_value=1.0)})  # fmt: skip

ui.judge_panel(views.judge_summary(lib.store, user=mine))

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
