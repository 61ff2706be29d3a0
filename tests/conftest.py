"""Shared fixtures: the real corpus beside the checkout, and an isolated library folder."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.fake_claude"]

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not (CORPUS / "library.bib").is_file():
        pytest.skip(
            f"the shared test corpus is absent (looked in {CORPUS}); tests that need it skip"
        )
    return CORPUS


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
