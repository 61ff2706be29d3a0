"""The command line as outside tools use it: JSON contracts on stdout, errors and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from research_assistant.answer.registry import ANSWERERS
from research_assistant.cli import build_parser, main
from research_assistant.pipeline import WIDEN_CHUNKS
from research_assistant.report.exports import EXPORTERS

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None):
    """The real entry point in a subprocess (one DuckDB process at a time)."""
    return subprocess.run(
        [sys.executable, "-m", "research_assistant", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )  # fmt: skip


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lib = tmp_path_factory.mktemp("cli") / "lib"
    result = run("--library", str(lib), "--json", "demo")
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["added"]) == 4
    return lib


def test_papers_json(demo_dir: Path) -> None:
    result = run("--library", str(demo_dir), "papers", "--json")
    rows = json.loads(result.stdout)
    assert len(rows) == 4
    assert {r["label"] for r in rows} >= {"Okafor, 2020a", "Okafor, 2020b"}
    assert all(r["metadata"] == "bibtex" and r["pdf"] and r["chunks"] > 0 for r in rows)


def test_ask_json_contract(demo_dir: Path) -> None:
    result = run("--library", str(demo_dir), "--json", "ask",
                 "What fractal dimension do DLA clusters have in 2D?", "--top-k", "4")  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["mode"] == "answer" and out["citations"]
    # the 4 chunks searched for, then the nearest other chunks of the two best papers
    searched, widened = out["retrieved"][:4], out["retrieved"][4:]
    assert len(searched) == 4 and len(widened) <= WIDEN_CHUNKS
    best_two = list(dict.fromkeys(p["paper_key"] for p in searched))[:2]
    assert all(p["paper_key"] in best_two for p in widened)
    c = out["citations"][0]
    assert set(c) >= {"marker", "start", "end", "first_author", "year", "paper_key", "via",
                      "status", "score", "claim", "evidence"}  # fmt: skip
    assert out["answer"][c["start"] : c["end"]] == c["marker"]
    assert "Searching" not in result.stdout  # progress never pollutes JSON


def test_verify_from_stdin_and_export(demo_dir: Path) -> None:
    text = "DLA clusters in 2D have a fractal dimension of about 1.71 [Lindqvist and Haddad, 2021]."
    result = run("--library", str(demo_dir), "--json", "verify", "-", stdin=text)
    out = json.loads(result.stdout)
    assert out["summary"] == {"verified": 1}
    assert out["citations"][0]["evidence"]["page"] >= 1
    exported = run("--library", str(demo_dir), "export", out["id"], "--format", "bib")
    assert exported.returncode == 0 and "@" in exported.stdout and "Lindqvist" in exported.stdout
    word = subprocess.run(
        [sys.executable, "-m", "research_assistant", "--library", str(demo_dir), "export",
         out["id"], "--format", "docx"],
        capture_output=True, cwd=ROOT, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert word.returncode == 0 and word.stdout.startswith(b"PK")  # a .docx: a ZIP archive
    refused = run("--library", str(demo_dir), "--json", "export", out["id"], "--format", "docx")
    assert refused.returncode == 1 and "--json holds text" in refused.stderr


def test_ingest_reports_bad_files_and_goes_on(tmp_path: Path) -> None:
    (tmp_path / "bad.pdf").write_bytes(b"not a pdf at all")
    result = run("--library", str(tmp_path / "lib"), "--json", "ingest",
                 str(tmp_path / "bad.pdf"), str(tmp_path / "nowhere.bib"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert {Path(s["path"]).name for s in out["skipped"]} == {"bad.pdf", "nowhere.bib"}
    assert set(out) >= {"added", "updated", "skipped", "unmatched_pdfs", "entries_without_pdf"}


def test_errors_exit_1_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--library", str(tmp_path / "lib"), "export", "missing-id"])
    assert code == 1 and "No answer or checked text" in capsys.readouterr().err
    code = main(["--library", str(tmp_path / "lib"), "ask", "anything", "--backend", "anthropic"])
    assert code == 1 and "ANTHROPIC_API_KEY" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main(["--library", str(tmp_path / "file"), "papers"]) == 1


def test_library_comes_from_the_environment(tmp_path: Path) -> None:
    result = run("papers", "--json", env={"RA_LIBRARY_DIR": str(tmp_path / "envlib")})
    assert result.returncode == 0 and json.loads(result.stdout) == []
    assert (tmp_path / "envlib" / "catalog.duckdb").exists()


def test_demo_if_empty_leaves_a_real_library_alone(demo_dir: Path) -> None:
    result = run("--library", str(demo_dir), "demo", "--if-empty")
    assert result.returncode == 0 and "already has papers" in result.stderr


def _choices(command: str, option: str) -> list[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    action = next(a for a in sub.choices[command]._actions if option in a.option_strings)
    return list(action.choices)


def test_the_choices_are_the_registries() -> None:
    # Adding a backend or an export format touches its registry only.
    assert _choices("ask", "--backend") == _choices("eval", "--backend") == list(ANSWERERS)
    assert _choices("export", "--format") == list(EXPORTERS)


def test_the_command_line_acts_as_the_folders_curator(demo_dir: Path, tmp_path: Path) -> None:
    # The library refuses members (roles.require_curator); whoever runs the CLI on the folder
    # owns it, so its changes go through.
    result = run("--library", str(demo_dir), "--json", "backup", str(tmp_path / "b.tar.gz"))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["papers"] == 4 and (tmp_path / "b.tar.gz").is_file()
    (tmp_path / "x.bib").write_text("@misc{cliAdded, title={T}, author={A, B}, year=2001}")
    result = run("--library", str(demo_dir), "--json", "ingest", str(tmp_path / "x.bib"))
    assert result.returncode == 0 and json.loads(result.stdout)["added"] == ["cliAdded"]
