"""Files in the library folder: safe names, atomic writes, guarded deletes (pure: the stdlib).

Every write that must not be seen half-done (catalog exports, PDF copies, the merged library.bib,
backups, the demo's PDFs) goes through ``atomic_file``: a temporary file beside the target,
flushed to disk, then renamed over it, so a crash leaves the old file or the new one. Every
delete in a library folder goes through ``remove_inside``, which refuses a path that resolves
outside the library root (a crafted catalog or a planted link must never delete anything else).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from research_assistant.errors import LibraryError

__all__ = [
    "RESTORE_HINT",
    "atomic_file",
    "check_generation",
    "cut_utf8",
    "disk_full",
    "is_disk_full",
    "is_generation",
    "new_generation",
    "remove_inside",
    "safe_name",
    "write_atomic",
]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
TMP_PREFIX = ".tmp-"
STEM_BYTES = 80  # a PDF copy's name stays short: <stem>-<sha8>.pdf
# A catalog generation names a folder under index/: exactly what new_generation() makes (12
# lower-case hex digits), or "empty" for a library that never had a change. Anything else read
# from a catalog (a crafted "../../x" or "/home") is refused before it touches a path.
GENERATION_HEX = 12
EMPTY_GENERATION = "empty"
_GENERATION = re.compile(rf"[0-9a-f]{{{GENERATION_HEX}}}")
_DISK_FULL = {errno.ENOSPC, errno.EDQUOT}


def cut_utf8(text: str, max_bytes: int) -> str:
    """``text`` cut to at most ``max_bytes`` bytes of UTF-8, never inside a character."""
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", errors="ignore")


def safe_name(key: str, sha256: str) -> str:
    """A file name for a PDF copy that cannot escape the pdfs/ folder."""
    stem = cut_utf8(_SAFE.sub("_", key).strip("._"), STEM_BYTES) or "paper"
    return f"{stem}-{sha256[:8]}.pdf"


def new_generation() -> str:
    return os.urandom(GENERATION_HEX // 2).hex()


def is_generation(value: str) -> bool:
    return value == EMPTY_GENERATION or _GENERATION.fullmatch(value) is not None


RESTORE_HINT = (
    "Restore the library from a backup into a new folder: "
    "python -m research_assistant restore BACKUP.tar.gz NEW_FOLDER, then use --library NEW_FOLDER"
)


def check_generation(value: str, where: str) -> str:
    """``value`` if it is a generation this program writes, else a LibraryError naming ``where``
    (the catalog or index file it was read from) and what to do."""
    if not is_generation(value):
        raise LibraryError(
            f"{where} names the index generation {value[:80]!r}, which this program never "
            "writes: the catalog is damaged or was crafted, so the library was not opened and "
            f"nothing was deleted. {RESTORE_HINT}."
        )
    return value


def remove_inside(path: Path, root: Path) -> None:
    """Delete the file or folder tree ``path``, which must resolve to inside ``root``.

    Refused (LibraryError) when the resolved path is ``root`` itself or lies outside it: a
    crafted name or a planted link never deletes anything else. A link inside ``root`` is
    removed itself, never what it points to.
    """
    base = root.resolve()
    where = path.resolve()
    if where == base or not where.is_relative_to(base):
        raise LibraryError(f"Refused to delete {path}: it is not inside the library folder {base}.")
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path)


def is_disk_full(error: BaseException) -> bool:
    """An OSError saying the disk (or the user's quota) is full, also wrapped by DuckDB."""
    if isinstance(error, OSError) and error.errno in _DISK_FULL:
        return True
    return "No space left on device" in str(error) or "Disk quota exceeded" in str(error)


def disk_full(folder: Path) -> str:
    """The message for a full disk, with the free space of the disk holding ``folder``."""
    try:
        free = shutil.disk_usage(folder).free // 1_000_000
    except OSError:
        free = 0
    return f"the disk holding the library is full: {free} MB free"


@contextmanager
def atomic_file(path: Path, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path``, else it goes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; an unchanged file is left alone (keeps its mtime)."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return
    with atomic_file(path) as tmp:
        tmp.write_bytes(data)
