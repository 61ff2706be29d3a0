"""Shared fixtures: the real corpus beside the checkout, and an isolated library folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

pytest_plugins = ["tests.fake_claude"]

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
# Set by .ci/run: there a missing corpus fails the session instead of skipping half the suite.
REQUIRE_CORPUS = "RA_REQUIRE_CORPUS"

# No test depends on luck: hypothesis draws the same examples on every run and every machine
# (a failure it finds once, it finds every time; no saved examples from earlier runs), and no
# example fails for being slow.
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.load_profile("deterministic")


def _corpus_missing() -> str:
    """Why the shared corpus cannot be used, or "" when it can."""
    if (CORPUS / "library.bib").is_file():
        return ""
    return "../shared/corpus " + ("has no library.bib" if CORPUS.is_dir() else "is missing")


def pytest_sessionstart(session: pytest.Session) -> None:
    problem = _corpus_missing()
    if problem and os.environ.get(REQUIRE_CORPUS) == "1":
        raise pytest.UsageError(
            f"{problem}: CI needs the shared corpus beside the checkout (looked in {CORPUS}; "
            f"{REQUIRE_CORPUS}=1 makes this an error). Put the corpus there, or unset "
            f"{REQUIRE_CORPUS} to skip the tests that need it."
        )


@pytest.fixture(scope="session")
def corpus() -> Path:
    problem = _corpus_missing()
    if problem:
        pytest.skip(
            f"{problem} (looked in {CORPUS}): tests that need it skip here; "
            f"CI sets {REQUIRE_CORPUS}=1 and fails instead"
        )
    return CORPUS


@pytest.fixture(scope="module")
def claims_library(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The corpus library the labelled claim sets are checked against, ingested once per test
    module (tests/data/labelled_set.py). Not per session: tests that start the app close every
    DuckDB connection of the process (store.close_all), which a shared library would not survive."""
    sys.path.insert(0, str(Path(__file__).parent / "data"))
    import labelled_set

    return labelled_set.build_library(corpus, tmp_path_factory.mktemp("claims"))


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the real library folder or a real API key."""
    monkeypatch.setenv("RA_LIBRARY_DIR", str(tmp_path / "library"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("RA_BACKEND", raising=False)


@pytest.fixture(scope="module")
def library(corpus: Path) -> tuple[list, list, dict[str, str]]:
    """The 18 text PDFs read, the library.bib entries, and the truth: file name -> key."""
    from research_assistant.bib.parse import parse_bib_file
    from research_assistant.ingest import pdf

    papers = list(parse_bib_file(corpus / "library.bib").papers)
    truth = {Path(p.files[0]).name: p.key for p in papers}
    infos = [pdf.read_pdf(path) for path in sorted(corpus.glob("*.pdf"))]
    assert len(infos) == 18 and len(papers) == 19
    return infos, papers, truth
