"""demo.py: the embedded demo library is readable, marked as demo, and says true things."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant.bib import parse as bibtex
from research_assistant.demo import DEMO_BANNER, DEMO_PAPERS, build_demo, demo_bibtex
from research_assistant.ingest import matching, pdf


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return build_demo(tmp_path_factory.mktemp("demo"))


def test_build_demo_writes_pdfs_then_the_bib(built: list[Path]) -> None:
    assert [p.name for p in built] == [f"{d.key}.pdf" for d in DEMO_PAPERS] + ["demo.bib"]
    assert all(p.is_file() for p in built)
    assert 4 <= len(DEMO_PAPERS) <= 5


def test_demo_pdfs_are_readable_and_bannered_on_every_page(built: list[Path]) -> None:
    for paper, path in zip(DEMO_PAPERS, built, strict=False):
        info = pdf.read_pdf(path)
        assert 2 <= info.page_count <= 3, path.name
        assert info.title == paper.title
        assert all(DEMO_BANNER in p.text for p in info.pages), path.name
        assert info.notes == ()


def test_demo_bib_parses_and_labels_show_a_and_b(built: list[Path]) -> None:
    result = bibtex.parse_bib_file(built[-1])
    assert result.problems == ()
    papers = bibtex.assign_labels(result.papers)
    assert [p.key for p in papers] == [d.key for d in DEMO_PAPERS]
    labels = {p.key: p.label for p in papers}
    assert labels["okaforPercolationThresholdsTwodimensional2020"] == "Okafor, 2020a"
    assert labels["okaforReturnEscapeRandom2020"] == "Okafor, 2020b"
    for paper in papers:
        assert paper.files == (f"{paper.key}.pdf",)
        assert "Demo content" in dict(paper.fields).get("note", "")


def test_demo_pdfs_match_their_entries_with_and_without_file_fields(built: list[Path]) -> None:
    papers = bibtex.parse_bib_file(built[-1]).papers
    infos = [pdf.read_pdf(p) for p in built[:-1]]
    for entries in (papers, tuple(replace(p, files=()) for p in papers)):
        matches = matching.match_pdfs(infos, entries, [built[-1].parent])
        assert [m.key for m in matches] == [d.key for d in DEMO_PAPERS]


def _all_text(path: Path) -> str:
    return " ".join(" ".join(p.text.split()) for p in pdf.read_pdf(path).pages)


@pytest.mark.parametrize(
    ("key", "fact"),
    [
        ("lindqvistDiffusionlimitedAggregationHow2021", "fractal dimension D ≈ 1.71 for DLA"),
        (
            "lindqvistDiffusionlimitedAggregationHow2021",
            "Witten and Sander [Witten and Sander, 1981]",
        ),
        ("lindqvistDiffusionlimitedAggregationHow2021", "[Okafor, 2020b]"),
        ("okaforPercolationThresholdsTwodimensional2020", "p_c ≈ 0.592746"),
        ("okaforReturnEscapeRandom2020", "only about 0.3405"),
        ("castellanosBrownianMotionCounting2018", "D = k_B T / (6πηa)"),
    ],
)
def test_facts_are_in_the_pdf_text(built: list[Path], key: str, fact: str) -> None:
    (path,) = [p for p in built if p.stem == key]
    assert fact in _all_text(path)


def test_build_demo_is_idempotent(built: list[Path]) -> None:
    before = [(p.read_bytes(), p.stat().st_mtime_ns) for p in built]
    assert build_demo(built[0].parent) == built
    assert [(p.read_bytes(), p.stat().st_mtime_ns) for p in built] == before


def test_demo_bibtex_marks_every_entry_as_demo() -> None:
    text = demo_bibtex()
    assert text.count("@article{") == len(DEMO_PAPERS)
    assert text.count("note = {Demo content") == len(DEMO_PAPERS)
    for paper in DEMO_PAPERS:
        assert f"file = {{{paper.key}.pdf}}" in text


def test_demo_module_imports_no_framework_at_module_level() -> None:
    tree = ast.parse(Path(demo.__file__).read_text(encoding="utf-8"))
    top = {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names}
    top |= {n.module or "" for n in tree.body if isinstance(n, ast.ImportFrom)}
    assert not any(m.split(".")[0] in {"pymupdf", "fitz", "streamlit"} for m in top)
    assert "research_assistant.ingest.pdf" not in top
