"""views.py: what the pages show, computed without Streamlit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant.library import Library
from research_assistant.pipeline import check_text
from research_assistant.web import views

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


def test_ingest_job_reports_progress_and_cleans_its_staging(lib: Library, tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    paths = [Path(shutil.copy(p, staging)) for p in demo.build_demo(tmp_path / "again")]
    seen: list[tuple[int, int, str]] = []
    job = views.IngestJob(lib, staging, paths, "cora", 10 * 2**20)
    report = job.wait(lambda d, t, n: seen.append((d, t, n)))
    assert job.ahead == 0 and report.unchanged and not staging.exists()
    failing = views.IngestJob(lib, tmp_path / "gone", [tmp_path / "missing.pdf"], "cora", 1)
    assert failing.wait(lambda *a: None).skipped  # a bad file is reported, not raised
