"""The library folder over the real corpus: matching, bad files, atomic writes, idempotence."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from research_assistant import store as store_mod
from research_assistant.bib.parse import parse_bib_file
from research_assistant.check.support import library_context
from research_assistant.errors import LibraryError, PermissionDeniedError
from research_assistant.files import safe_name
from research_assistant.index import SearchIndex
from research_assistant.library import Library
from research_assistant.roles import CURATOR, MEMBER, User

ROOT = Path(__file__).resolve().parent.parent


def open_fresh(path: Path) -> Library:
    store_mod.close(path / "catalog.duckdb")
    return Library.open(path)


@pytest.fixture(scope="module")
def corpus_lib(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> tuple[Library, object]:
    lib = Library.open(tmp_path_factory.mktemp("corpus") / "lib")
    report = lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "odd", corpus / "library.bib"])
    return lib, report


def test_every_text_pdf_is_matched_by_its_file_field(corpus_lib, corpus: Path) -> None:
    lib, report = corpus_lib
    text_pdfs = sorted(p.name for p in corpus.glob("*.pdf"))
    matched = {Path(m.pdf).name: m for m in report.matches}
    assert all(matched[name].method == "file" and matched[name].key for name in text_pdfs)
    assert len(report.added) == 19  # 18 text PDFs + odd/copy-protected.pdf, all from library.bib
    assert report.unmatched_pdfs == () and report.entries_without_pdf == ()
    assert {p.key: p.pdf is not None for p in lib.papers()} == {k: True for k in report.added}


def test_odd_files_are_skipped_or_flagged_with_a_reason(corpus_lib) -> None:
    lib, report = corpus_lib
    skipped = {Path(s.path).name: s.reason for s in report.skipped}
    assert list(skipped) == ["calculus00marciala_p43.pdf"]
    assert "no text layer" in skipped["calculus00marciala_p43.pdf"]
    protected = [p for p in lib.papers() if p.key.startswith("shen")]
    assert protected and protected[0].chunks > 0  # encrypted with an empty password: readable


def test_matching_without_file_fields_uses_doi_and_title(tmp_path: Path, corpus: Path) -> None:
    bib = (corpus / "library.bib").read_text(encoding="utf-8")
    stripped = re.sub(r"^\s*file\s*=\s*\{[^}]*\},?\s*$", "", bib, flags=re.M | re.I)
    assert "file" not in re.findall(r"^\s*(\w+)\s*=", stripped, flags=re.M)
    (tmp_path / "nofile.bib").write_text(stripped, encoding="utf-8")
    expected = {
        m.group(2).strip(): m.group(1)
        for m in re.finditer(r"@\w+\{([^,]+),.*?file\s*=\s*\{([^}]*)\}", bib, flags=re.S)
    }
    pdfs = sorted(corpus.glob("*.pdf"))
    lib = Library.open(tmp_path / "lib")
    report = lib.ingest([*pdfs, tmp_path / "nofile.bib"])
    got = {Path(m.pdf).name: m.key for m in report.matches}
    right = sum(got[p.name] == expected[p.name] for p in pdfs)
    print(f"matched without file fields: {right}/{len(pdfs)}")
    assert right / len(pdfs) >= 0.95
    assert all(m.method in {"doi", "arxiv", "title"} for m in report.matches if m.key)


def test_a_second_ingest_of_the_same_files_changes_nothing(corpus_lib, corpus: Path) -> None:
    lib, _ = corpus_lib
    generation = lib.store.meta("generation")
    runs = lib.store.count("ingest_runs")
    report = lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "library.bib"])
    assert report.added == () and report.updated == ()
    assert len(report.unchanged) == 19  # every entry of library.bib, PDFs included
    assert lib.store.meta("generation") == generation
    assert lib.store.count("ingest_runs") == runs


def test_library_reloads_without_parsing_pdfs(corpus_lib, monkeypatch) -> None:
    lib, _ = corpus_lib
    import research_assistant.ingest.pdf as pdf

    monkeypatch.setattr(pdf, "read_pdf", lambda *a, **k: pytest.fail("PDF parsed on load"))
    again = open_fresh(lib.root)
    assert [p.key for p in again.papers()] == [p.key for p in lib.papers()]
    hits = again.index.retrieve("MapReduce master worker failure re-execution", 3)
    assert hits[0].chunk.paper_key == "deanMapReduceSimplifiedData2004"


def test_open_reads_no_chunk_and_term_rarity_comes_with_the_index(corpus_lib, monkeypatch) -> None:
    """Opening an indexed library reads no chunk text from the catalog (the index stores the
    chunks); the checker's term rarity is built from the counts stored with the generation,
    equal to counting every chunk, and stays equal after an incremental change."""
    lib, _ = corpus_lib
    monkeypatch.setattr(store_mod.Store, "chunks", lambda *a, **k: pytest.fail("chunks read"))
    again = open_fresh(lib.root)
    assert again.index.retrieve("MapReduce master worker", 1)
    every = library_context(again.index.all_chunks())
    ctx = again.state.support_context
    assert (ctx.idf, ctx.default_idf) == (every.idf, every.default_idf)


def test_term_rarity_follows_incremental_changes(two_papers: Library, corpus: Path) -> None:
    two_papers.ingest([corpus / "pasa.pdf"])
    two_papers.remove("deanMapReduceSimplifiedData2004")
    for lib in (two_papers, open_fresh(two_papers.root)):
        every = library_context(lib.index.all_chunks())
        ctx = lib.state.support_context
        assert (ctx.idf, ctx.default_idf) == (every.idf, every.default_idf)
        assert len(lib.index) == sum(p.chunks for p in lib.papers())


def test_papers_json_contract(corpus_lib) -> None:
    lib, _ = corpus_lib
    row = next(p.to_dict() for p in lib.papers() if p.key == "deanMapReduceSimplifiedData2004")
    assert row["label"] == "Dean and Ghemawat, 2004" and row["year"] == 2004
    assert row["metadata"] == "bibtex" and row["pdf"].endswith(".pdf") and row["pages"] == 13
    assert row["chunks"] > 13
    assert set(row) == {"key", "label", "title", "authors", "year", "pdf", "pages", "chunks",
                        "metadata"}  # fmt: skip


@pytest.fixture
def two_papers(tmp_path: Path, corpus: Path) -> Library:
    lib = Library.open(tmp_path / "lib")
    lib.ingest([corpus / "map-reduce.pdf", corpus / "smith07.pdf", corpus / "library.bib"])
    return lib


def test_a_crash_before_the_catalog_commit_keeps_the_old_library(
    two_papers: Library, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = [(p.key, p.label, p.pdf) for p in two_papers.papers()]

    def boom(*a, **k):
        raise KeyboardInterrupt("killed")

    monkeypatch.setattr(two_papers.store, "apply_changes", boom)
    with pytest.raises(KeyboardInterrupt):
        two_papers.ingest([corpus / "pasa.pdf"])
    monkeypatch.undo()
    again = open_fresh(two_papers.root)
    assert [(p.key, p.label, p.pdf) for p in again.papers()] == before
    assert len(again.index) == len(two_papers.index)


def test_a_crash_after_the_catalog_commit_loads_the_new_state(
    two_papers: Library, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(self, folder, **kwargs):
        raise KeyboardInterrupt("killed after the commit, before CURRENT was switched")

    monkeypatch.setattr(SearchIndex, "activate", boom)
    with pytest.raises(KeyboardInterrupt):
        two_papers.ingest([corpus / "pasa.pdf"])
    monkeypatch.undo()
    again = open_fresh(two_papers.root)
    keys = {p.key for p in again.papers() if p.pdf}
    assert "hePaSaLLMAgent2025" in keys  # the catalog committed, so the paper is there
    assert again.index.retrieve("PaSa paper search agent", 1)[0].chunk.paper_key in keys
    assert again.index.generation == again.store.meta("generation")


def test_a_lost_index_is_rebuilt_and_a_full_disk_does_not_stop_reading(
    two_papers: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.rmtree(two_papers.root / "index")
    again = open_fresh(two_papers.root)  # rebuilt from the catalog's chunks
    assert (two_papers.root / "index" / again.store.meta("generation")).is_dir()
    shutil.rmtree(two_papers.root / "index")

    def full(self, folder, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SearchIndex, "write", full)
    again = open_fresh(two_papers.root)  # the rebuilt index is used from memory
    assert again.index.retrieve("MapReduce master worker", 1)
    assert {p.key for p in again.papers()} == {p.key for p in two_papers.papers()}


# Each library copy is changed by a process that dies (os._exit: no cleanup, no DuckDB
# checkpoint, as kill -9 or a power cut leaves it) on entering one named function of the
# change. One child imports the package once and forks a process per crash point (all at
# once, each on its own copy), so the suite pays for importing LlamaIndex once, not six times.
CRASHED = 86
CRASHING_INGESTS = """
import importlib, json, os, sys, traceback
import pandas  # what the changes import lazily, imported once before forking
from research_assistant.library import Library

pdf, code, *points = sys.argv[1:]
pids = []
for root, target, needed_arg in zip(points[0::3], points[1::3], points[2::3]):
    pid = os.fork()
    if pid == 0:  # never returns: every way out is os._exit
        try:
            lib = Library.open(root)  # opened first: the crash must come from the ingest
            module, _, path = target.partition(":")
            owner_path, _, name = path.rpartition(".")
            owner = importlib.import_module(module)
            for part in filter(None, owner_path.split(".")):
                owner = getattr(owner, part)
            original = getattr(owner, name)

            def crash(*args, **kwargs):
                if needed_arg and needed_arg not in args:
                    return original(*args, **kwargs)
                os._exit(int(code))

            setattr(owner, name, crash)
            lib.ingest([pdf])
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        os._exit(0)  # the ingest finished: the crash point was never reached
    pids.append(pid)
print(json.dumps([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]))
"""

# (where the process dies, the function it dies on entering, an argument that call must have,
# whether the catalog commit had happened). In the order of Library._commit.
CRASH_POINTS = [
    ("while the next index is staged", "research_assistant.fulltext:Fulltext.change", "", False),
    ("after the PDF copy, before the index", "research_assistant.index:SearchIndex.write", "", False),
    ("before the catalog commit", "research_assistant.store:Store.apply_changes", "", False),
    ("inside the catalog transaction", "research_assistant.store:_bulk_insert", "chunks", False),
    ("after the commit, before index/CURRENT", "research_assistant.index:SearchIndex.activate", "", True),
    ("before library.bib", "research_assistant.library:Library._write_bib", "", True),
    ("before old PDF copies go", "research_assistant.library:Library._remove_orphan_pdfs", "", True),
]  # fmt: skip
PASA = "hePaSaLLMAgent2025"


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> dict[str, tuple[Path, int]]:
    """Crash point -> (a copy of a two-paper library whose ingest of pasa.pdf died there, the
    exit code of the process that died)."""
    base = tmp_path_factory.mktemp("crashes")
    lib = Library.open(base / "lib")
    lib.ingest([corpus / "map-reduce.pdf", corpus / "smith07.pdf", corpus / "library.bib"])
    assert not lib.paper(PASA).pdf  # in library.bib, its PDF not yet ingested
    store_mod.close(base / "lib" / "catalog.duckdb")  # one process per DuckDB file
    roots = [base / f"lib{i}" for i in range(len(CRASH_POINTS))]
    args = []
    for root, (_, target, needed_arg, _) in zip(roots, CRASH_POINTS, strict=True):
        shutil.copytree(base / "lib", root)
        args += [str(root), target, needed_arg]
    child = subprocess.run(
        [sys.executable, "-c", CRASHING_INGESTS, str(corpus / "pasa.pdf"), str(CRASHED), *args],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr[-3000:]
    codes = json.loads(child.stdout.splitlines()[-1])
    return {
        point[0]: (root, code) for point, root, code in zip(CRASH_POINTS, roots, codes, strict=True)
    }


@pytest.mark.parametrize(
    ("point", "committed"), [(p[0], p[3]) for p in CRASH_POINTS], ids=[p[0] for p in CRASH_POINTS]
)
def test_an_ingest_killed_at_each_step_leaves_a_consistent_library(
    crashed: dict[str, tuple[Path, int]], corpus: Path, point: str, committed: bool
) -> None:
    """The fault is injected, not timed: the process died exactly at one step of the change.
    Reopened, the library is the old one (killed before the commit) or the new one (after it),
    whole: papers, index generation, retrieval, PDF copies and library.bib agree."""
    root, code = crashed[point]
    assert code == CRASHED  # it died where it was told to, not before or never
    again = Library.open(root)
    assert again.index.generation == again.state.generation == again.store.meta("generation")
    assert bool(again.paper(PASA).pdf) is committed
    top = again.index.retrieve("PaSa paper search agent LLM", 1)[0].chunk.paper_key
    assert (top == PASA) is committed
    pdfs = {p.pdf for p in again.papers() if p.pdf}
    assert all(again.pdf_path(p.key) is not None for p in again.papers() if p.pdf)
    assert {f.name for f in again.pdf_dir.glob("*.pdf")} == pdfs  # no orphan copy is left
    bib = parse_bib_file(root / "library.bib")
    assert not bib.problems and {p.key for p in bib.papers} == {p.key for p in again.papers()}
    again.ingest([corpus / "pasa.pdf"])  # and the next change works
    assert again.paper(PASA).pdf and again.index.generation == again.store.meta("generation")
    store_mod.close(root / "catalog.duckdb")


def test_bad_files_are_skipped_with_reasons_and_good_ones_kept(
    tmp_path: Path, corpus: Path
) -> None:
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "image.pdf").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 100)
    (tmp_path / "truncated.pdf").write_bytes((corpus / "smith07.pdf").read_bytes()[:3000])
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "broken.bib").write_text("@article{ok2020, title={Fine}, author={A, B}, year=2020}"
                                         "\n@article{bad, title={Unclosed\n", encoding="utf-8")  # fmt: skip
    lib = Library.open(tmp_path / "lib")
    report = lib.ingest([
        tmp_path / "empty.pdf", tmp_path / "image.pdf", tmp_path / "truncated.pdf",
        tmp_path / "notes.txt", tmp_path / "missing.pdf", tmp_path / "broken.bib",
        corpus / "map-reduce.pdf",
    ])  # fmt: skip
    reasons = {Path(s.path).name: s.reason for s in report.skipped}
    assert set(reasons) == {"empty.pdf", "image.pdf", "truncated.pdf", "notes.txt", "missing.pdf"}
    for name, reason in reasons.items():
        if name.endswith(".pdf") and name != "missing.pdf":
            assert name in reason  # the message names the file
    assert "ok2020" in report.added
    assert report.problems  # the unclosed entry is reported, not fatal
    assert report.unmatched_pdfs == (str(corpus / "map-reduce.pdf"),)
    inferred = [p for p in lib.papers() if p.metadata == "inferred"]
    assert len(inferred) == 1 and "MapReduce" in inferred[0].title
    assert "ok2020" in report.entries_without_pdf


def test_replacing_a_changed_file_and_removing_a_paper(tmp_path: Path, corpus: Path) -> None:
    bib = tmp_path / "one.bib"
    bib.write_text("@article{dean2004, title={MapReduce: Simplified Data Processing on Large "
                   "Clusters}, author={Dean, Jeffrey and Ghemawat, Sanjay}, year={2004}, "
                   "file={paper.pdf}}", encoding="utf-8")  # fmt: skip
    shutil.copy(corpus / "map-reduce.pdf", tmp_path / "paper.pdf")
    lib = Library.open(tmp_path / "lib")
    assert lib.ingest([tmp_path / "paper.pdf", bib]).added == ("dean2004",)
    old_pdf = lib.paper("dean2004").pdf
    shutil.copy(corpus / "smith07.pdf", tmp_path / "paper.pdf")  # same name, new content
    report = lib.ingest([tmp_path / "paper.pdf", bib])
    assert report.updated == ("dean2004",)
    assert lib.paper("dean2004").pdf != old_pdf
    assert not (lib.pdf_dir / old_pdf).exists()
    assert {c.chunk_id.split(":")[0] for c in lib.chunks_of("dean2004")} == {
        f"dean2004@{lib.store.paper_shas()['dean2004'][:8]}"
    }
    lib.remove("dean2004")
    assert lib.paper("dean2004") is None and lib.chunks_of("dean2004") == []
    assert list(lib.pdf_dir.glob("*.pdf")) == []
    with pytest.raises(LibraryError):
        lib.remove("dean2004")


def test_labels_get_suffixes_when_a_colliding_paper_arrives(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    a = tmp_path / "a.bib"
    a.write_text("@article{s1, title={Beta}, author={Smith, J}, year=2020}", encoding="utf-8")
    lib.ingest([a])
    assert lib.paper("s1").label == "Smith, 2020"
    b = tmp_path / "b.bib"
    b.write_text("@article{s2, title={Alpha}, author={Smith, K}, year=2020}", encoding="utf-8")
    lib.ingest([b])
    assert (lib.paper("s2").label, lib.paper("s1").label) == ("Smith, 2020a", "Smith, 2020b")


def test_assign_pdf_fixes_a_wrong_match(two_papers: Library, tmp_path: Path) -> None:
    bib = tmp_path / "x.bib"
    bib.write_text("@misc{other, title={Something else}, author={Other, O}, year=1999}", "utf-8")
    two_papers.ingest([bib])
    two_papers.assign_pdf("deanMapReduceSimplifiedData2004", "other")
    assert two_papers.paper("other").pdf and two_papers.chunks_of("other")
    assert two_papers.paper("deanMapReduceSimplifiedData2004").pdf is None
    assert two_papers.chunks_of("deanMapReduceSimplifiedData2004") == []
    hit = two_papers.index.retrieve("MapReduce master worker", 1)[0]
    assert hit.chunk.paper_key == "other"


@pytest.mark.parametrize("key", ["../../etc/passwd", "a/b\\c", "..", "", "x" * 500, "ü:ß"])
def test_pdf_copy_names_cannot_escape_the_folder(key: str) -> None:
    name = safe_name(key, "0" * 64)
    assert "/" not in name and "\\" not in name and not name.startswith(".")
    assert name.endswith(".pdf") and len(name) < 100


def test_changes_by_hand_record_who_made_them(two_papers: Library, tmp_path: Path) -> None:
    bib = tmp_path / "y.bib"
    bib.write_text("@misc{spare, title={A spare entry}, author={Spare, S}, year=2001}", "utf-8")
    two_papers.ingest([bib], user="cora")
    two_papers.assign_pdf("deanMapReduceSimplifiedData2004", "spare", user="cora")
    two_papers.remove("spare", user="dan")
    rows = two_papers.store.query("SELECT username, report FROM ingest_runs ORDER BY started_at")
    assert [r[0] for r in rows][-3:] == ["cora", "cora", "dan"]
    assert '"action": "remove"' in rows[-1][1] and '"key": "spare"' in rows[-1][1]


def test_changes_are_for_curators(two_papers: Library, tmp_path: Path) -> None:
    """The rule the app and the CLI share: a member is refused before anything is written; a
    curator's change goes through and records their id; a plain id is the folder's owner."""
    member, curator = User("bob", "Bob", MEMBER), User("ada", "Ada", CURATOR)
    bib = tmp_path / "z.bib"
    bib.write_text("@misc{spare, title={A spare entry}, author={Spare, S}, year=2001}", "utf-8")
    dean = "deanMapReduceSimplifiedData2004"
    before = (two_papers.papers(), two_papers.state.generation)
    refused = [
        (lambda: two_papers.ingest([bib], user=member), "Adding papers"),
        (lambda: two_papers.assign_pdf(dean, "spare", user=member), "Fixing a match"),
        (lambda: two_papers.remove(dean, user=member), "Removing a paper"),
    ]
    for change, action in refused:
        with pytest.raises(PermissionDeniedError, match=f"{action} is for curators.*Bob"):
            change()
    assert (two_papers.papers(), two_papers.state.generation) == before
    two_papers.ingest([bib], user=curator)
    two_papers.assign_pdf(dean, "spare", user=curator)
    two_papers.remove("spare", user=curator)
    two_papers.ingest([bib])  # the CLI's path: no user, the owner of the folder
    rows = two_papers.store.query("SELECT username FROM ingest_runs ORDER BY started_at")
    assert [r[0] for r in rows][-4:] == ["ada", "ada", "ada", "anonymous"]


def test_known_pdfs_map_each_pdf_to_its_label(two_papers: Library) -> None:
    shas = two_papers.store.paper_shas()
    known = two_papers.known_pdfs()
    assert known == {sha: two_papers.paper(k).label for k, sha in shas.items() if sha}
    assert known  # the fixture holds a PDF
