"""views.py: what the pages show, computed without Streamlit."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant.library import Library
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


def test_history_and_export_files(lib: Library) -> None:
    from research_assistant.pipeline import ask

    first = ask(lib, "What fractal dimension do DLA clusters have?", backend="extractive", user="u")
    check_text(lib, CLAIM, user="u")  # a checked text is not an Ask turn
    turns = views.history(lib.store, "u")
    assert [t["id"] for t in turns] == [first.id] and turns[0]["question"].startswith("What")
    files = views.export_files(lib, first.id)
    assert [f.file_name.rsplit(".", 1)[1] for f in files] == ["md", "html", "bib"]
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
