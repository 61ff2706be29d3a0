"""views.py: what the pages show, computed without Streamlit."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant.library import Library
from research_assistant.models import IngestReport, Skipped
from research_assistant.pipeline import check_text
from research_assistant.report.exports import EXPORTERS
from research_assistant.web import render, views

CLAIM = "DLA clusters in 2D have a fractal dimension of about 1.71 [Lindqvist and Haddad, 2021]."


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    lib = Library.open(tmp_path / "lib")
    lib.ingest(demo.build_demo(tmp_path / "src"))
    return lib


def test_status_table_orders_verdicts_and_sums() -> None:
    rows = [
        ("a", "unsupported", 1),
        ("a", "verified", 2),
        ("b", "verified", 3),
        ("a", "verified", 1),
    ]
    table = views.status_table(rows, "paper")
    assert list(table.columns) == ["verified", "unsupported"]  # the order of results.STATUSES
    assert table.loc["a", "verified"] == 3 and table.loc["b", "unsupported"] == 0


def test_chart_rows_use_labels_and_filter_by_user(lib: Library) -> None:
    check_text(lib, CLAIM, user="ann")
    check_text(lib, "It is 1.9 [Lindqvist and Haddad, 2021]. See [Nobody, 1990].", user="bob")
    assert views.paper_status_rows(lib, user="ann") == [
        ("Lindqvist and Haddad, 2021", "verified", 1)
    ]
    labels = {label for label, _, _ in views.paper_status_rows(lib)}
    assert labels == {"Lindqvist and Haddad, 2021", "(not in the library)"}
    assert views.backend_status_rows(lib.store, user="ann") == [("check text", "verified", 1)]


def test_export_files(lib: Library) -> None:
    from research_assistant.pipeline import ask

    first = ask(lib, "What fractal dimension do DLA clusters have?", backend="extractive", user="u")
    files = views.export_files(lib, first.id)
    assert [f.file_name.rsplit(".", 1)[1] for f in files] == ["md", "html", "bib", "docx"]
    assert "Lindqvist" in files[2].data
    # one download per exporter, with its label and mime type (the Export page's buttons)
    assert [(f.label, f.mime) for f in files] == [(e.label, e.mime) for e in EXPORTERS.values()]


def test_status_chart_data_labels_and_colours_each_verdict() -> None:
    rows = [("a", "unsupported", 1), ("a", "verified", 2)]
    table, colours = views.status_chart_data(rows, "paper")
    assert list(table.columns) == [render.status_label(s) for s in ("verified", "unsupported")]
    assert colours == [render.STATUS_COLOURS[s][0] for s in ("verified", "unsupported")]


def test_the_demo_library_is_recognised(lib: Library, tmp_path: Path) -> None:
    assert views.is_demo(lib)
    assert not views.is_demo(Library.open(tmp_path / "empty"))


def test_the_open_conversation_is_the_chosen_one_else_the_latest(lib: Library) -> None:
    first = lib.store.create_conversation("u", "first")
    second = lib.store.create_conversation("u", "second")
    other = lib.store.create_conversation("v", "someone else's")
    latest, listed = views.pick_conversation(lib.store, "u", None)  # a reload
    assert latest == second and listed == [second, first]
    assert views.pick_conversation(lib.store, "u", first.id)[0] == first
    assert views.pick_conversation(lib.store, "u", views.NEW)[0] is None
    assert views.pick_conversation(lib.store, "u", other.id)[0] == second  # never another's


@pytest.mark.parametrize(
    ("n", "pages", "first_shown", "hidden"),
    [(0, 1, None, 0), (10, 1, 0, 0), (11, 1, 1, 1), (25, 1, 15, 15), (25, 2, 5, 5), (25, 3, 0, 0)],
)
def test_turns_are_paged_from_the_newest(
    n: int, pages: int, first_shown: int | None, hidden: int
) -> None:
    shown, not_shown = views.page_of_turns(list(range(n)), pages)
    assert not_shown == hidden and (shown[0] if shown else None) == first_shown
    assert shown == list(range(n))[hidden:]  # the newest always shown, nothing skipped between


def test_history_and_highlights_in_the_shapes_their_consumers_take() -> None:
    turns = [{"question": "Q1", "answer": "A1", "id": "x"}, {"question": "Q2", "answer": "A2"}]
    assert [(t.question, t.answer) for t in views.history_of(turns)] == [("Q1", "A1"), ("Q2", "A2")]
    (note,) = views.highlight_annotations(3, [(10.0, 20.0, 110.0, 32.5)])
    assert note == {"page": 3, "x": 10.0, "y": 20.0, "width": 100.0, "height": 12.5,
                    "color": views.HIGHLIGHT, "border": "solid"}  # fmt: skip


def test_the_ingest_summary_counts_the_rows_it_sits_above() -> None:
    report = IngestReport(
        added=("a",), unchanged=("u1", "u2"), skipped=(Skipped("bad.pdf", "a scan: OCR it"),)
    )
    rows = render.ingest_rows(report, [("x.pdf", "x.pdf is empty")], [("c.pdf", "already")])
    assert [r["result"] for r in rows] == [
        "refused", "skipped", "already in the library", "BibTeX entry unchanged",
        "BibTeX entry unchanged",
    ]  # fmt: skip
    line, calm = views.ingest_summary(report, rows)
    assert line == (
        "1 added, 1 already in the library, 2 BibTeX entries unchanged, 1 refused, 1 skipped"
    )
    assert not calm
    calm_line = ("1 already in the library, nothing changed", True)
    assert views.ingest_summary(None, rows[2:3]) == calm_line


def test_audit_bins_and_paper_health(lib: Library) -> None:
    assert views.auto_bucket(lib.store) == "hour"  # nothing logged yet
    check_text(lib, CLAIM, user="u")
    assert views.auto_bucket(lib.store) == "hour"  # one day of data: per hour
    (row,) = views.paper_health(lib)
    assert row["paper"] == "Lindqvist and Haddad, 2021" and row["citations"] == 1
    assert row["verified"] + row["flagged"] == 1 and "Diffusion" in row["title"]
