"""Backup and restore of a library folder: a restored backup answers like the original."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant import store as store_mod
from research_assistant.backup import MANIFEST, backup, backup_bytes, restore
from research_assistant.errors import LibraryError, PermissionDeniedError, StoreError
from research_assistant.library import Library
from research_assistant.pipeline import check_text
from research_assistant.roles import CURATOR, MEMBER, User

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


def test_backups_are_for_curators(lib: Library, tmp_path: Path) -> None:
    member = User("bob", "Bob", MEMBER)
    for make in (
        lambda: backup(lib, tmp_path / "m.tar.gz", member),
        lambda: backup_bytes(lib, member),
    ):
        with pytest.raises(PermissionDeniedError, match="Backing up the library is for curators"):
            make()
    assert not (tmp_path / "m.tar.gz").exists()
    data, name = backup_bytes(lib, User("ada", "Ada", CURATOR))
    assert data[:2] == b"\x1f\x8b" and name.startswith("citable-library-")  # a .tar.gz
    assert backup(lib, tmp_path / "owner.tar.gz").is_file()  # the CLI's path: no user


def _archive(path: Path, *members: tarfile.TarInfo, data: bytes = b"x") -> Path:
    with tarfile.open(path, "w:gz") as tar:
        tar.addfile(tarfile.TarInfo(MANIFEST), io.BytesIO(b""))
        for m in members:
            if m.isreg():
                m.size = len(data)
                tar.addfile(m, io.BytesIO(data))
            else:
                tar.addfile(m)
    return path


def _info(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


@pytest.mark.parametrize(
    ("members", "why"),
    [
        ([_info("/abs/x.pdf")], "absolute name"),
        ([_info("pdfs/../../x.pdf")], "outside the library folder"),
        ([_info("pdfs/link", tarfile.SYMTYPE, "pdfs")], "symbolic link"),
        ([_info("pdfs/hard", tarfile.LNKTYPE, "catalog.duckdb")], "hard link"),
        ([_info("dev", tarfile.CHRTYPE)], "not a regular file or folder"),
        ([_info("fifo", tarfile.FIFOTYPE)], "not a regular file or folder"),
        ([_info("a" * 500)], "no library file has"),
        ([_info("pdfs/x.pdf"), _info("pdfs/x.pdf")], "appears twice"),
        ([_info("pdfs"), _info("pdfs/x.pdf")], "passes through a file"),
    ],
)
def test_restore_checks_every_member(
    tmp_path: Path, members: list[tarfile.TarInfo], why: str
) -> None:
    archive = _archive(tmp_path / "evil.tar.gz", *members)
    (tmp_path / "target").mkdir()
    with pytest.raises(LibraryError, match=f"evil.tar.gz was refused.*{why}"):
        restore(archive, tmp_path / "target")
    assert list((tmp_path / "target").iterdir()) == []  # the empty target is left as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evil.tar.gz", "target"]


def test_restore_caps_members_and_extended_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from research_assistant import backup as backup_mod

    monkeypatch.setattr(backup_mod, "RESTORE_MAX_MEMBERS", 3)
    many = _archive(tmp_path / "many.tar.gz", *[_info(f"f{i}") for i in range(5)])
    with pytest.raises(LibraryError, match=r"many.tar.gz was refused.*more than 3 members"):
        restore(many, tmp_path / "t1")
    long_header = tmp_path / "pax.tar.gz"
    with tarfile.open(long_header, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        tar.addfile(tarfile.TarInfo(MANIFEST), io.BytesIO(b""))
        info = tarfile.TarInfo("pdfs/x.pdf")
        info.pax_headers = {"comment": "y" * 100_000}
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(LibraryError, match="extended header"):
        restore(long_header, tmp_path / "t2")
    assert not (tmp_path / "t1").exists() and not (tmp_path / "t2").exists()


def test_a_restore_that_does_not_open_leaves_no_folder(tmp_path: Path) -> None:
    archive = _archive(tmp_path / "a.tar.gz", _info("catalog.duckdb"), data=b"not duckdb" * 99)
    with pytest.raises(StoreError, match="may be damaged"):
        restore(archive, tmp_path / "t")
    assert not (tmp_path / "t").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.tar.gz"]
