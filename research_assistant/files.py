"""Files in the library folder: safe names and atomic writes (pure: the stdlib only).

Every write that must not be seen half-done (catalog exports, PDF copies, the merged library.bib,
backups, the demo's PDFs) goes through ``atomic_file``: a temporary file beside the target,
flushed to disk, then renamed over it, so a crash leaves the old file or the new one.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_file", "safe_name", "write_atomic"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
TMP_PREFIX = ".tmp-"


def safe_name(key: str, sha256: str) -> str:
    """A file name for a PDF copy that cannot escape the pdfs/ folder."""
    stem = _SAFE.sub("_", key).strip("._")[:80] or "paper"
    return f"{stem}-{sha256[:8]}.pdf"


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
