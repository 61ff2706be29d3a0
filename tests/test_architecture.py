"""The import rules of STYLE.md, checked by parsing every module with ast."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "research_assistant"
FRAMEWORKS = {"streamlit", "anthropic", "duckdb", "llama_index", "pymupdf", "fitz"}
PURE = [
    "bibtex", "citations", "verify", "support", "references", "prompts", "text", "models",
    "matching", "inference", "names", "uploads",
]  # fmt: skip
# Each outside library may be imported by exactly one module of the package.
SEAMS = {
    "pymupdf": {"pdf"},
    "llama_index": {"index"},
    "anthropic": {"llm"},
    "duckdb": {"store"},
    "streamlit": {"ui"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("module", PURE)
def test_pure_modules_import_no_framework(module: str) -> None:
    path = PACKAGE / f"{module}.py"
    if not path.exists():
        pytest.fail(f"{path.name} is part of the pure core in DESIGN.md and must exist")
    assert imported_roots(path) & FRAMEWORKS == set()


def test_each_framework_has_one_seam() -> None:
    for path in PACKAGE.glob("*.py"):
        roots = imported_roots(path)
        for framework, allowed in SEAMS.items():
            if framework in roots:
                assert path.stem in allowed, f"{path.name} imports {framework}"
        assert "fitz" not in roots, f"{path.name}: import pymupdf, not fitz"


def test_pages_hold_no_framework_but_streamlit() -> None:
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]:
        if not path.exists():
            continue
        roots = imported_roots(path)
        assert roots & (FRAMEWORKS - {"streamlit"}) == set(), path.name
        assert len(path.read_text().splitlines()) <= 120, f"{path.name}: pages stay thin"


def test_public_api_is_declared() -> None:
    import research_assistant

    for name in research_assistant.__all__:
        assert hasattr(research_assistant, name), name
    assert {"Library", "ask", "check_text"} <= set(research_assistant.__all__)
