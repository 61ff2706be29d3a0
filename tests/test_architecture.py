"""The house rules of STYLE.md and DESIGN.md, checked by parsing every module with ast.

One folder per stage of the data flow; the pure folders import no framework; each outside
framework has exactly one importing module (its seam); the package has no import cycle; imports
inside functions need a comment that says why; modules and pages stay small.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "research_assistant"
FRAMEWORKS = {"streamlit", "anthropic", "openai", "duckdb", "llama_index", "pymupdf", "fitz"}
# The pure core: whole folders, plus the value and text modules everything shares.
PURE_FOLDERS = ("bib", "check", "report")
PURE_MODULES = (
    "answer.prompts",
    "answer.base",
    "answer.asking",
    "answer.sentences",
    "answer.catalog",
    "answer.refusal",
    "answer.extractive",
    "ingest.layout",
    "tables",
    "text",
    "models",
    "results",
    "errors",
    "files",
    "ids",
    "roles",
)
# Each outside framework may be imported by exactly one module of the package.
SEAMS = {
    "pymupdf": {"ingest.pdf"},
    "llama_index": {"nodes"},
    "tantivy": {"fulltext"},
    "anthropic": {"answer.claude"},
    "openai": {"answer.openai"},
    "duckdb": {"store"},
    "docx": {"word"},  # python-docx: reading Word manuscripts, writing Word reports
    "streamlit": {"web.ui", "web.panels"},  # panels: conversations and the PDF viewer
    "streamlit_pdf_viewer": {"web.panels"},
}
# Heavy libraries that `import research_assistant` must not pull in.
HEAVY = ("streamlit", "anthropic", "duckdb", "llama_index", "pymupdf", "pandas", "rapidfuzz")
MAX_MODULE_LINES = 400
MAX_PAGE_LINES = 80
MAX_UI_LINES = 300


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(p for p in parts if p != "__init__") or "__init__"
        found[name] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, in_function: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """Every import statement with whether it sits inside a function (TYPE_CHECKING skipped)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_function
        inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        yield from _imports(node, inner)


def _targets(node: ast.stmt, module: str) -> set[str]:
    """Dotted names an import statement brings in (relative imports resolved)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names}
    assert isinstance(node, ast.ImportFrom)
    base = node.module or ""
    if node.level:
        pkg = module.split(".")[: -node.level] if module != "__init__" else []
        base = ".".join([*pkg, base]).strip(".")
        base = f"research_assistant.{base}".strip(".")
    return {base, *(f"{base}.{a.name}" for a in node.names)}


def roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {t.split(".")[0] for node, _ in _imports(tree) for t in _targets(node, "")}


def own_imports(name: str, path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node, _ in _imports(tree):
        for target in _targets(node, name):
            if target.startswith("research_assistant."):
                inner = target.removeprefix("research_assistant.")
                if inner in known and inner != name:
                    out.add(inner)
    return out


def in_pure_core(name: str) -> bool:
    return name.split(".")[0] in PURE_FOLDERS or name in PURE_MODULES


@pytest.mark.parametrize("folder", ["bib", "ingest", "check", "answer", "report", "web"])
def test_each_stage_has_its_folder(folder: str) -> None:
    assert (PACKAGE / folder / "__init__.py").exists(), f"research_assistant/{folder}/ is missing"


def test_pure_core_imports_no_framework() -> None:
    offenders = {
        name: sorted(roots(path) & FRAMEWORKS)
        for name, path in modules().items()
        if in_pure_core(name) and roots(path) & FRAMEWORKS
    }
    assert offenders == {}


def test_each_framework_has_one_seam() -> None:
    for name, path in modules().items():
        found = roots(path)
        assert "fitz" not in found, f"{path.name}: import pymupdf, not fitz"
        for framework, allowed in SEAMS.items():
            if framework in found:
                assert name in allowed, f"{name} imports {framework}; only {allowed} may"


def test_no_import_cycle() -> None:
    mods = modules()
    graph = {name: own_imports(name, path, set(mods)) for name, path in mods.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt) :], nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_function_level_imports_of_the_package_say_why() -> None:
    """A hidden import must carry a comment on its line saying why (start-up time, a subprocess)."""
    silent = []
    for name, path in modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for node, in_function in _imports(tree):
            own = any(t.startswith("research_assistant") for t in _targets(node, name))
            if in_function and own and "#" not in lines[node.lineno - 1]:
                silent.append(f"{name}:{node.lineno}")
    assert silent == []


def test_modules_stay_small() -> None:
    found = modules()
    assert len(found) > 50  # the walk found the package
    for name, path in found.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        assert n <= MAX_MODULE_LINES, f"{name} has {n} lines: split it"


def test_pages_are_thin_and_use_no_framework_but_streamlit() -> None:
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]:
        found = roots(path)
        assert found & (FRAMEWORKS - {"streamlit"}) == set(), path.name
        n = len(path.read_text(encoding="utf-8").splitlines())
        assert n <= MAX_PAGE_LINES, f"{path.name} has {n} lines: pages stay thin"


def test_importing_the_package_is_light() -> None:
    code = (
        "import sys, research_assistant, research_assistant.cli\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_public_api_is_declared() -> None:
    import research_assistant

    for name in research_assistant.__all__:
        assert hasattr(research_assistant, name), name
    assert {"Library", "ask", "check_text", "export"} <= set(research_assistant.__all__)


def test_the_cycle_check_finds_a_cycle(tmp_path: Path) -> None:
    """The checker itself: two modules importing each other inside functions are a cycle."""
    (tmp_path / "a.py").write_text("def f():\n    from research_assistant.b import g  # why\n")
    (tmp_path / "b.py").write_text("import research_assistant.a\n")
    known = {"a", "b"}
    assert own_imports("a", tmp_path / "a.py", known) == {"b"}
    assert own_imports("b", tmp_path / "b.py", known) == {"a"}


def test_the_streamlit_module_keeps_widgets_only() -> None:
    """Rules, staging, backups and jobs live in the package; web/ui.py draws and caches."""
    n = len((PACKAGE / "web" / "ui.py").read_text(encoding="utf-8").splitlines())
    assert n < MAX_UI_LINES, f"web/ui.py has {n} lines: move what is not a widget out of it"
