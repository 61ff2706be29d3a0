"""Hostile and broken input (issue 10): archives, catalogs, BibTeX, upload names, a full disk.

Each test drives one finding through the entry point an attacker or an accident would use
(``restore``, ``Library.open``, the CLI, the upload function, ``parse_bib_file``). A sentinel
folder beside the library stands for "everything outside it": its listing must not change.
"""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from research_assistant import demo
from research_assistant import store as store_mod
from research_assistant.backup import MANIFEST, backup, restore
from research_assistant.cli import main
from research_assistant.errors import LibraryError, ResearchAssistantError, StoreError
from research_assistant.files import safe_name
from research_assistant.index import SearchIndex
from research_assistant.library import Library
from research_assistant.pipeline import check_text, export
from research_assistant.web.uploads import stage

ROOT = Path(__file__).resolve().parent.parent
MiB = 2**20


def listing(folder: Path) -> list[tuple[str, int]]:
    """Every path under ``folder`` with its size (links not followed)."""
    return sorted(
        (str(p.relative_to(folder)), p.lstat().st_size if not p.is_dir() else 0)
        for p in folder.rglob("*")
    )


@pytest.fixture
def sentinel(tmp_path: Path) -> Iterator[Path]:
    """A folder outside every library of the test; its listing is checked after the test."""
    folder = tmp_path / "sentinel"
    (folder / "inner").mkdir(parents=True)
    (folder / "keep.txt").write_text("keep me")
    (folder / "inner" / "data.bin").write_bytes(b"\x01" * 100)
    before = listing(folder)
    yield folder
    assert listing(folder) == before, "something outside the library changed"


def close(root: Path) -> None:
    store_mod.close(root / "catalog.duckdb")


def demo_files(tmp_path: Path) -> list[Path]:
    return demo.build_demo(tmp_path / "demo-src")


def _member(tar: tarfile.TarFile, name: str, data: bytes = b"") -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


# ---- 1. restore writes outside its folder ----------------------------------------------------


def cve_2025_4517_archive(path: Path, outside: Path) -> None:
    """The published bypass of tarfile's 'data' filter: 16 nested 247-character directories
    with a symlink per level, a link to ../ x16 past PATH_MAX, a link ``escape`` through it, and
    a file written through ``escape`` to an absolute path outside the target."""
    comp = "d" * 247
    steps = "abcdefghijklmnop"
    with tarfile.open(path, "w:gz") as tar:
        _member(tar, MANIFEST, b"Citable library backup\n")
        inner = ""
        for step in steps:
            d = tarfile.TarInfo(os.path.join(inner, comp))
            d.type = tarfile.DIRTYPE
            tar.addfile(d)
            link = tarfile.TarInfo(os.path.join(inner, step))
            link.type = tarfile.SYMTYPE
            link.linkname = comp
            tar.addfile(link)
            inner = os.path.join(inner, comp)
        linkpath = os.path.join(*steps, "l" * 254)
        long_link = tarfile.TarInfo(linkpath)
        long_link.type = tarfile.SYMTYPE
        long_link.linkname = "../" * len(steps)
        tar.addfile(long_link)
        escape = tarfile.TarInfo("escape")
        escape.type = tarfile.SYMTYPE
        escape.linkname = linkpath + "/.." * 17
        tar.addfile(escape)
        hard = tarfile.TarInfo("hardlink")
        hard.type = tarfile.LNKTYPE
        hard.linkname = "escape/" + str(outside / "keep.txt").lstrip("/")
        tar.addfile(hard)
        _member(tar, "escape/" + str(outside / "pwned.txt").lstrip("/"), b"pwned")


def zero_bomb_archive(path: Path, size: int) -> None:
    """A backup whose one member holds ``size`` bytes of zeros, written as concatenated gzip
    members (one per MiB of zeros, compressed once): small and fast, never all in memory."""
    head = io.BytesIO()
    with tarfile.open(fileobj=head, mode="w", format=tarfile.GNU_FORMAT) as tar:
        _member(tar, MANIFEST, b"Citable library backup\n")
    info = tarfile.TarInfo("pdfs/zeros.pdf")
    info.size = size
    header = info.tobuf(tarfile.GNU_FORMAT)
    first = head.getvalue()[:1024] + header  # the manifest (header + one block), then ours
    zeros_mib = gzip.compress(bytes(MiB), compresslevel=1)
    with path.open("wb") as out:
        out.write(gzip.compress(first))
        for _ in range(size // MiB):
            out.write(zeros_mib)
        out.write(gzip.compress(bytes(size % MiB) + bytes(-size % 512) + bytes(1024)))


def test_restore_refuses_links_escapes_and_bombs(tmp_path: Path, sentinel: Path) -> None:
    """Finding 1: restore checks every member itself (CVE-2025-4517 archive, a 300 MiB zero
    member); nothing outside the staging folder is written, a failed restore leaves no trace."""
    evil = tmp_path / "evil.tar.gz"
    cve_2025_4517_archive(evil, sentinel)
    target = tmp_path / "restored"
    with pytest.raises(LibraryError) as e:
        restore(evil, target)
    assert "evil.tar.gz" in str(e.value) and "link" in str(e.value)
    assert not target.exists()
    assert not (sentinel / "pwned.txt").exists()

    bomb = tmp_path / "bomb.tar.gz"
    zero_bomb_archive(bomb, 300 * MiB)
    assert bomb.stat().st_size < 2 * MiB
    target.mkdir()  # an empty folder given as the target stays as it was
    with pytest.raises(LibraryError) as e:
        restore(bomb, target)
    assert "bomb.tar.gz" in str(e.value) and "limit" in str(e.value)
    assert target.is_dir() and not any(target.iterdir())
    leftovers = sorted(p.name for p in tmp_path.iterdir())
    assert leftovers == ["bomb.tar.gz", "evil.tar.gz", "restored", "sentinel"]


# ---- 2. a crafted catalog deletes any folder --------------------------------------------------


def set_generation(root: Path, value: str) -> None:
    close(root)
    con = duckdb.connect(str(root / "catalog.duckdb"))
    con.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", [value])
    con.close()


@pytest.mark.parametrize("crafted", ["../../sentinel", "ABSOLUTE"])
def test_a_crafted_generation_deletes_nothing(tmp_path: Path, sentinel: Path, crafted: str) -> None:
    """Finding 2: meta.generation is validated wherever it is read (open, restore); no delete
    ever leaves the library folder."""
    crafted = str(sentinel) if crafted == "ABSOLUTE" else crafted
    root = tmp_path / "lib"
    Library.open(root)
    set_generation(root, crafted)
    with pytest.raises(ResearchAssistantError) as e:
        Library.open(root)
    assert "generation" in str(e.value) and "restore" in str(e.value)
    close(root)

    archive = tmp_path / "crafted.tar.gz"  # the same catalog, arriving as a backup
    with tarfile.open(archive, "w:gz") as tar:
        _member(tar, MANIFEST, b"Citable library backup\n")
        tar.add(root / "catalog.duckdb", arcname="catalog.duckdb")
    with pytest.raises(ResearchAssistantError, match="generation"):
        restore(archive, tmp_path / "restored")
    assert not (tmp_path / "restored").exists()


# ---- 3. a missing catalog loses the library --------------------------------------------------


def test_a_library_without_its_catalog_is_refused(
    tmp_path: Path, sentinel: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 3: PDFs or an index but no catalog.duckdb: refused with what happened and how to
    restore from a backup; `papers` and `ingest` delete nothing."""
    root = tmp_path / "lib"
    Library.open(root).ingest(demo_files(tmp_path)[:2] + demo_files(tmp_path)[-1:])
    close(root)
    (root / "catalog.duckdb").unlink()
    before = listing(root)
    assert main(["--library", str(root), "papers"]) == 1
    err = capsys.readouterr().err
    assert "catalog.duckdb" in err and "python -m research_assistant restore" in err
    assert main(["--library", str(root), "ingest", str(demo_files(tmp_path)[2])]) == 1
    assert "catalog.duckdb" in capsys.readouterr().err
    assert listing(root) == before


# ---- 4. a 1 KB .bib exhausts memory ------------------------------------------------------------


BOMB_SCRIPT = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from research_assistant.bib.parse import parse_bib_file
result = parse_bib_file(sys.argv[1])
print(json.dumps({"keys": [p.key for p in result.papers],
                  "problems": [p.message for p in result.problems]}))
"""


def test_a_bibtex_macro_bomb_is_a_problem_not_an_outage(tmp_path: Path) -> None:
    """Finding 4: @string expansion has a size limit; the bomb is a BibProblem naming the macro
    and the limit, the good entries are kept, and memory stays under 1 GiB (RLIMIT_AS)."""
    lines = ['@string{s0 = "ab"}']
    lines += [f"@string{{s{i} = s{i - 1} # s{i - 1}}}" for i in range(1, 40)]
    lines.append("@article{good1, author={Ada Lovelace}, title={Notes}, year=1843}")
    lines.append("@article{bomb, author={Eve Mallory}, title=s39, year=2024}")
    lines.append("@article{good2, author={Alan Turing}, title={Computable numbers}, year=1936}")
    bib = tmp_path / "bomb.bib"
    bib.write_text("\n".join(lines) + "\n")
    assert bib.stat().st_size < 1500
    result = subprocess.run(
        [sys.executable, "-c", BOMB_SCRIPT, str(bib)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout)
    assert {"good1", "good2"} <= set(out["keys"])
    bomb = [m for m in out["problems"] if "bomb.bib" in m and "limit" in m]
    assert bomb and any("s19" in m and "1,000,000" in m for m in bomb), out["problems"]


# ---- 9. long non-Latin upload names crash ----------------------------------------------------


def test_long_non_latin_upload_names_are_cut_by_bytes(tmp_path: Path) -> None:
    """Finding 9: 100 CJK characters (300 bytes) are cut by UTF-8 bytes, never mid-character;
    the upload is staged, not an ENAMETOOLONG traceback."""
    name = "論" * 100 + ".pdf"
    (tmp_path / "up").mkdir()
    staged = stage(
        [(name, b"%PDF-1.7\n%%EOF\n"), ("ok.bib", b"@misc{a, title={x}}")],
        tmp_path / "up",
        max_file_bytes=MiB,
        max_batch_bytes=MiB,
    )
    assert not staged.refused
    (pdf, bib) = staged.paths
    assert pdf.is_file() and bib.name == "ok.bib"
    assert pdf.name.endswith(".pdf") and len(pdf.name.encode()) <= 200
    assert pdf.name.startswith("論" * 60)  # whole characters only
    copy = safe_name("論" * 100, "0" * 64)
    assert len(copy.encode()) <= 200 and copy.endswith(".pdf")


# ---- 10. disk full --------------------------------------------------------------------------


def enospc(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_gives_a_clear_message_and_keeps_the_library(
    tmp_path: Path, sentinel: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Finding 10: ENOSPC at the PDF copy step and at the index save: a clear message with the
    free space, no orphan PDF copies, and the previous library state still loads."""
    from research_assistant import library as library_mod

    files = demo_files(tmp_path)
    pdfs, bib = files[:-1], files[-1]
    root = tmp_path / "lib"
    lib = Library.open(root)
    lib.ingest([pdfs[0], bib])
    before_papers = [p.to_dict() for p in lib.papers()]
    before_files = listing(root / "pdfs")

    real_write = library_mod.write_atomic
    calls: list[Path] = []

    def full_after_one(path: Path, data: bytes) -> None:
        calls.append(path)
        if len(calls) > 1:
            enospc()
        real_write(path, data)

    monkeypatch.setattr(library_mod, "write_atomic", full_after_one)
    with pytest.raises(LibraryError, match=r"the disk holding the library is full: \d+ MB free"):
        lib.ingest(pdfs[1:])
    assert len(calls) == 2  # one copy was written, then the disk filled up
    assert listing(root / "pdfs") == before_files  # ... and that copy was removed
    monkeypatch.undo()

    # the index of the new generation is saved before the catalog commit that switches to it
    monkeypatch.setattr(SearchIndex, "write", enospc)
    with pytest.raises(LibraryError, match="the disk holding the library is full"):
        lib.ingest(pdfs[1:])
    monkeypatch.undo()
    assert listing(root / "pdfs") == before_files
    assert [p.to_dict() for p in lib.papers()] == before_papers

    close(root)
    again = Library.open(root)
    assert [p.to_dict() for p in again.papers()] == before_papers
    assert again.index.generation == again.store.meta("generation")
    close(root)
    assert main(["--library", str(root), "--json", "papers"]) == 0
    assert [r["key"] for r in json.loads(capsys.readouterr().out)] == [
        p["key"] for p in before_papers
    ]

    # after the commit only tidying is left (CURRENT, old index folders, library.bib): a full
    # disk there loses nothing, and the committed change loads
    close(root)
    lib = Library.open(root)
    monkeypatch.setattr(SearchIndex, "activate", enospc)
    monkeypatch.setattr(library_mod, "write_atomic", full_after_one)
    calls.clear()
    lib.ingest(pdfs[1:2])
    monkeypatch.undo()
    after = [p.key for p in lib.papers() if p.pdf]
    assert len(after) == 2
    close(root)
    assert main(["--library", str(root), "--json", "papers"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert sorted(r["key"] for r in rows if r["pdf"]) == sorted(after)


# ---- 11. the smaller ones ---------------------------------------------------------------------


def test_a_damaged_catalog_says_restore_not_another_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 11: a corrupt catalog's message says it may be damaged and how to restore."""
    root = tmp_path / "lib"
    root.mkdir()
    (root / "catalog.duckdb").write_bytes(b"not a database at all " * 500)
    with pytest.raises(StoreError) as e:
        Library.open(root)
    message = str(e.value)
    assert "damaged" in message and "python -m research_assistant restore" in message
    assert "another process" not in message.lower()
    assert main(["--library", str(root), "papers"]) == 1
    assert "damaged" in capsys.readouterr().err


def mostly_scans_pdf(path: Path) -> Path:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Percolation on lattices: a short note with some text.")
    for _ in range(5):
        doc.new_page()
    doc.save(path)
    return path


def test_pdf_notes_reach_the_cli_and_its_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 11: PdfInfo.notes ("mostly scans", damage) are shown by `ingest` and in its JSON
    as "notes": [{"path", "note"}]."""
    pdf = mostly_scans_pdf(tmp_path / "scanned.pdf")
    assert main(["--library", str(tmp_path / "lib"), "--json", "ingest", str(pdf)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["notes"] == [{"path": str(pdf), "note": "only 1 of 6 pages have text; the rest "
                             "may be scans"}]  # fmt: skip
    close(tmp_path / "lib")
    pdf2 = mostly_scans_pdf(tmp_path / "scanned2.pdf")
    pdf2.write_bytes(pdf2.read_bytes() + b"\n% another copy\n")
    assert main(["--library", str(tmp_path / "lib2"), "ingest", str(pdf2)]) == 0
    assert "scanned2.pdf: only 1 of 6 pages have text" in capsys.readouterr().out


def test_orphan_pdf_copies_are_removed_at_open(tmp_path: Path, sentinel: Path) -> None:
    """Finding 11: copies no catalog row points to and .tmp- files left by a kill go at open,
    only inside pdfs/; a link to outside is never followed."""
    root = tmp_path / "lib"
    Library.open(root).ingest(demo_files(tmp_path)[:1])
    close(root)
    kept = listing(root / "pdfs")
    (root / "pdfs" / "orphan-12345678.pdf").write_bytes(b"%PDF-1.7")
    (root / "pdfs" / ".tmp-abc123").write_bytes(b"%PDF-half")
    (root / "pdfs" / "outside.pdf").symlink_to(sentinel / "keep.txt")
    (root / "notes.txt").write_text("mine")
    Library.open(root)
    names = {n for n, _ in listing(root / "pdfs")}
    assert names == {n for n, _ in kept} | {"outside.pdf"}
    assert (root / "notes.txt").read_text() == "mine"


def test_an_empty_library_option_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 11: `--library ""` is refused, not taken as the current folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["--library", "", "papers"]) != 0
    assert "--library" in capsys.readouterr().err
    assert not (tmp_path / "catalog.duckdb").exists() and not (tmp_path / "pdfs").exists()
    with pytest.raises(LibraryError, match="empty"):
        Library.open("")


def test_restoring_into_a_file_is_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 11: restoring into a path that is a file says so, no traceback."""
    lib = Library.open(tmp_path / "lib")
    archive = backup(lib, tmp_path / "b.tar.gz")
    (tmp_path / "afile").write_text("x")
    assert main(["restore", str(archive), str(tmp_path / "afile")]) == 1
    err = capsys.readouterr().err
    assert "afile" in err and "is a file" in err and "Traceback" not in err
    assert (tmp_path / "afile").read_text() == "x"


def test_file_fields_cannot_probe_server_paths(tmp_path: Path, sentinel: Path) -> None:
    """Finding 11: a .bib `file` field pointing at /etc/passwd or ../../x is never looked up;
    matching only compares it with the uploaded PDFs, so the result cannot reveal whether a
    server path exists."""
    upload = tmp_path / "upload"
    upload.mkdir()
    pdf = demo_files(tmp_path)[0]
    (upload / "paper.pdf").write_bytes(pdf.read_bytes())
    (sentinel / "paper.pdf").write_bytes(b"%PDF-1.7 outside")
    outcomes = []
    try:
        for field in [str(sentinel / "paper.pdf"), str(sentinel / "nowhere" / "paper.pdf"),
                      "../sentinel/paper.pdf", "../../nothing/paper.pdf"]:  # fmt: skip
            (upload / "x.bib").write_text(
                f"@misc{{entry, title={{An unrelated title}}, author={{Doe, J}}, year=2001,"
                f" file={{{field}}}}}"
            )
            lib = Library.open(tmp_path / f"lib{len(outcomes)}")
            report = lib.ingest([upload / "paper.pdf", upload / "x.bib"])
            outcomes.append([(m.key, m.method) for m in report.matches])
    finally:
        (sentinel / "paper.pdf").unlink()  # the sentinel's listing is checked afterwards
    assert outcomes == [[("entry", "file")]] * 4


# ---- 6. the Markdown export keeps raw HTML ----------------------------------------------------

HOSTILE_BIB = """@article{evil2020,
  author = {Evil, Eve},
  title = {Cells <img src=x onerror=alert(1)> and <script>alert(2)</script>},
  journal = {Journal of [x](javascript:alert(3))},
  year = {2020},
  url = {javascript:alert(4)}
}
"""
HOSTILE_TEXT = (
    "Cells divide <img src=x onerror=alert(1)> quickly [Evil, 2020]. <script>alert(5)</script> "
    "See [here](javascript:alert(6)), [there] (javascript:alert(7)), ![p](//127.0.0.1:9/leak.png),"
    " <javascript:alert(8)> and &lt;b&gt;. [d]: javascript:alert(9)\n"
    "DLA clusters in the plane have a fractal dimension of about 1.71 "
    "[Lindqvist and Haddad, 2021]."
)


def test_the_markdown_export_shows_html_and_links_as_text(tmp_path: Path) -> None:
    """Finding 6: raw HTML and links from a checked text or a paper's BibTeX reach the Markdown
    export as text; the only links are DOIs and http(s) addresses."""
    (tmp_path / "evil.bib").write_text(HOSTILE_BIB, encoding="utf-8")
    lib = Library.open(tmp_path / "lib")
    lib.ingest([*demo_files(tmp_path), tmp_path / "evil.bib"])
    checked = check_text(lib, HOSTILE_TEXT, user="eve")
    assert {c.paper_key for c in checked.citations} >= {"evil2020"}  # a hostile reference too
    md = export(lib, checked.id, "md")
    assert "<img" not in md and "<script" not in md.lower() and "<javascript" not in md
    assert "&lt;img src=x onerror=alert(1)>" in md and "&lt;script>alert(2)" in md  # shown
    assert "&amp;lt;b&amp;gt;" in md  # a character reference is shown as typed, not decoded
    assert not re.search(r"(?<!\\)\]\s*[(\[:]", md), "a link, image or link definition"
    autolinks = re.findall(r"<([^>\s]*)>", md)
    assert all(re.match(r"https?://", a) for a in autolinks), autolinks
    assert "javascript:alert(4)" in md  # the url field: text, not a link


# ---- 8. one member can stall everyone --------------------------------------------------------


def test_checking_a_text_over_the_limit_is_refused_at_once(tmp_path: Path) -> None:
    """Finding 8: check_text on 0.6 MB (8,000 citations) held the shared process for 27 s; it
    is refused with the limit in the message, before any citation is read or logged."""
    lib = Library.open(tmp_path / "lib")
    lib.ingest(demo_files(tmp_path))
    text = "Growth is slow [Lindqvist and Haddad, 2021]. " * 13_400  # 0.6 MB, 13,400 citations
    assert len(text) > 600_000
    with pytest.raises(ResearchAssistantError, match="over the limit of 200,000 characters"):
        check_text(lib, text, user="eve")
    assert lib.store.history() == []
