"""Backup and restore of a library folder as one .tar.gz.

A backup is taken from the process that has the library open (DuckDB allows one process per
file): changes are paused, the catalog is checkpointed so the .duckdb file holds everything, and
the folder is archived. Restore unpacks into a new or empty folder only, refuses members that
would land outside it, and checks that the result opens.
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from pathlib import Path

from research_assistant.errors import LibraryError
from research_assistant.files import atomic_file
from research_assistant.library import Library

MANIFEST = "CITABLE-BACKUP"
_SKIP_SUFFIXES = (".wal", ".tmp")


def backup(lib: Library, dest: Path) -> Path:
    """Write ``dest`` (a .tar.gz) with the whole library: catalog and log, PDFs, index, .bib."""
    dest = dest.expanduser().resolve()
    if dest.is_relative_to(lib.root):
        raise LibraryError(f"Write the backup outside the library folder, not to {dest}.")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with lib.paused():
        lib.store.checkpoint()
        with atomic_file(dest, suffix=".tar.gz") as tmp, tarfile.open(tmp, "w:gz") as tar:
            info = tarfile.TarInfo(MANIFEST)
            note = f"Citable library backup of {lib.root.name}\n".encode()
            info.size = len(note)
            tar.addfile(info, io.BytesIO(note))
            for path in sorted(lib.root.rglob("*")):
                rel = path.relative_to(lib.root)
                skip = path.name.endswith(_SKIP_SUFFIXES) or path.name.startswith(".tmp-")
                if path.is_file() and not skip:
                    tar.add(path, arcname=str(rel), recursive=False)
    return dest


def restore(archive: Path, target: Path) -> Library:
    """Unpack a backup into ``target`` (new or empty) and open it."""
    archive = archive.expanduser().resolve()
    target = target.expanduser().resolve()
    if not archive.is_file():
        raise LibraryError(f"No backup file at {archive}.")
    if target.exists() and any(target.iterdir()):
        raise LibraryError(
            f"{target} is not empty: restore into a new folder, check it, then swap folders."
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".restore-", dir=target.parent))
    try:
        try:
            with tarfile.open(archive, "r:gz") as tar:
                names = tar.getnames()
                if MANIFEST not in names:
                    raise LibraryError(f"{archive.name} is not a Citable library backup.")
                # the 'data' filter refuses absolute paths, '..', links out of the folder, devices
                tar.extractall(staging, filter="data")
        except (tarfile.TarError, OSError, EOFError) as e:
            raise LibraryError(f"{archive.name} cannot be read as a backup: {e}") from e
        (staging / MANIFEST).unlink()
        if target.exists():
            target.rmdir()
        shutil.move(str(staging), str(target))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Library.open(target)
