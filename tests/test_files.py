"""files.py: byte-safe name cuts, generations, and the guard every delete in a library takes."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from research_assistant.errors import LibraryError
from research_assistant.files import (
    check_generation,
    cut_utf8,
    disk_full,
    is_disk_full,
    is_generation,
    new_generation,
    remove_inside,
    safe_name,
)


@pytest.mark.parametrize(
    ("text", "limit", "cut"),
    [("abc", 5, "abc"), ("abcdef", 3, "abc"), ("論論", 5, "論"), ("é" * 3, 5, "éé"), ("", 1, "")],
)
def test_cut_utf8_never_splits_a_character(text: str, limit: int, cut: str) -> None:
    assert cut_utf8(text, limit) == cut
    assert len(cut_utf8(text, limit).encode()) <= limit


def test_pdf_copy_names_stay_short_in_bytes() -> None:
    name = safe_name("論" * 100 + "x" * 200, "f" * 64)
    assert len(name.encode()) <= 100 and name.endswith("-ffffffff.pdf")


def test_generations() -> None:
    g = new_generation()
    assert is_generation(g) and len(g) == 12 and g != new_generation()
    assert is_generation("empty")
    for bad in ("../../x", "/etc", "ABCDEF012345", "0" * 11, "0" * 13, "", "empty/.."):
        assert not is_generation(bad)
        with pytest.raises(LibraryError, match="restore"):
            check_generation(bad, "the catalog")


def test_remove_inside_refuses_anything_outside_the_root(tmp_path: Path) -> None:
    root, outside = tmp_path / "lib", tmp_path / "outside"
    (root / "index" / "old").mkdir(parents=True)
    outside.mkdir()
    (outside / "keep").write_text("x")
    (root / "index" / "link").symlink_to(outside)
    for path in (outside, root / "index" / ".." / ".." / "outside", root / "index" / "link", root):
        with pytest.raises(LibraryError, match="not inside the library folder"):
            remove_inside(path, root)
    assert (outside / "keep").read_text() == "x" and (root / "index" / "link").is_symlink()
    remove_inside(root / "index" / "old", root)
    assert not (root / "index" / "old").exists()


def test_disk_full_is_recognised_and_says_how_much_is_free(tmp_path: Path) -> None:
    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert is_disk_full(RuntimeError("IO Error: write failed: No space left on device"))
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert disk_full(tmp_path).startswith("the disk holding the library is full: ")
    assert disk_full(tmp_path).endswith(" MB free")
