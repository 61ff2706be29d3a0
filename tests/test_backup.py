"""Backup and restore of a library folder: a restored backup answers like the original."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant import store as store_mod
from research_assistant.backup import MANIFEST, backup, restore
from research_assistant.errors import LibraryError
from research_assistant.library import Library
from research_assistant.pipeline import check_text

CLAIM = "DLA clusters in 2D have a fractal dimension of about 1.71 [Lindqvist and Haddad, 2021]."


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    lib = Library.open(tmp_path / "lib")
    lib.ingest(demo.build_demo(tmp_path / "src"))
    check_text(lib, CLAIM, user="ann")  # something in the log
    return lib


def test_a_restored_backup_has_the_papers_the_index_and_the_log(
    lib: Library, tmp_path: Path
) -> None:
    archive = backup(lib, tmp_path / "backups" / "lib.tar.gz")
    restored = restore(archive, tmp_path / "restored")
    assert [p.to_dict() for p in restored.papers()] == [p.to_dict() for p in lib.papers()]
    assert restored.store.count("citation_log") == lib.store.count("citation_log") == 1
    assert all(restored.pdf_path(p.key) for p in restored.papers())
    assert check_text(restored, CLAIM).citations[0].status == "verified"
    assert restored.index.generation == lib.index.generation  # loaded, not rebuilt
    store_mod.close(restored.root / "catalog.duckdb")


def test_restore_refuses_a_non_empty_folder_and_foreign_archives(
    lib: Library, tmp_path: Path
) -> None:
    archive = backup(lib, tmp_path / "b.tar.gz")
    with pytest.raises(LibraryError, match="not empty"):
        restore(archive, lib.root)
    foreign = tmp_path / "foreign.tar.gz"
    with tarfile.open(foreign, "w:gz") as tar:
        tar.addfile(tarfile.TarInfo("hello.txt"), io.BytesIO(b""))
    with pytest.raises(LibraryError, match="not a Citable library backup"):
        restore(foreign, tmp_path / "x")
    (tmp_path / "junk.tar.gz").write_bytes(b"junk")
    with pytest.raises(LibraryError, match="cannot be read"):
        restore(tmp_path / "junk.tar.gz", tmp_path / "y")


def test_restore_refuses_members_outside_the_folder(tmp_path: Path) -> None:
    evil = tmp_path / "evil.tar.gz"
    with tarfile.open(evil, "w:gz") as tar:
        tar.addfile(tarfile.TarInfo(MANIFEST), io.BytesIO(b""))
        info = tarfile.TarInfo("../../escaped.txt")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"bad"))
    with pytest.raises(LibraryError):
        restore(evil, tmp_path / "deep" / "target")
    assert not (tmp_path / "escaped.txt").exists()
    assert not (tmp_path / "deep" / "target").exists()


def test_the_backup_goes_outside_the_library(lib: Library) -> None:
    with pytest.raises(LibraryError, match="outside the library"):
        backup(lib, lib.root / "inside.tar.gz")
