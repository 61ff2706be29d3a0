"""Backup and restore of a library folder as one .tar.gz.

A backup is taken from the process that has the library open (DuckDB allows one process per
file): changes are paused, the catalog is checkpointed so the .duckdb file holds everything, and
the folder is archived. Restore trusts nothing in the archive: tarfile's own 'data' filter can be
bypassed on this Python (CVE-2025-4517), so every member is checked here before it is written:
only regular files and folders (no links of any kind, no devices), names relative and free of
'..', at most RESTORE_MAX_MEMBERS members and a bounded unpacked size (settings.py). Members are
written by this module into a staging folder beside the target, then the staging folder is
renamed into place and opened; any failure removes it and leaves the target as it was.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
import tarfile
import tempfile
import time
import zlib
from pathlib import Path

from research_assistant import store as store_mod
from research_assistant.errors import LibraryError
from research_assistant.files import atomic_file, disk_full, is_disk_full, remove_inside
from research_assistant.library import Library
from research_assistant.roles import Actor, require_curator
from research_assistant.settings import (
    RESTORE_MAX_BYTES,
    RESTORE_MAX_MEMBERS,
    RESTORE_MAX_NAME_CHARS,
    RESTORE_MAX_RATIO,
    RESTORE_RATIO_SLACK_BYTES,
)

MANIFEST = "CITABLE-BACKUP"
_SKIP_SUFFIXES = (".wal", ".tmp")


def backup(lib: Library, dest: Path, user: Actor = None) -> Path:
    """Write ``dest`` (a .tar.gz) with the whole library: catalog and log, PDFs, index, .bib."""
    require_curator(user, "Backing up the library")
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


def backup_bytes(lib: Library, user: Actor = None) -> tuple[bytes, str]:
    """The backup as bytes and a dated file name, for a download: taken by the process that
    holds the catalog, so the app need not stop (DuckDB allows one process per file)."""
    require_curator(user, "Backing up the library")  # before the archive is built
    with tempfile.TemporaryDirectory() as tmp:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = backup(lib, Path(tmp) / f"citable-library-{stamp}.tar.gz", user)
        return path.read_bytes(), path.name


def restore(archive: Path, target: Path) -> Library:
    """Unpack a backup into ``target`` (new or empty) and open it; on any failure ``target`` is
    left as it was."""
    archive = archive.expanduser().resolve()
    target = target.expanduser().resolve()
    if not archive.is_file():
        raise LibraryError(f"No backup file at {archive}.")
    if target.exists() and not target.is_dir():
        raise LibraryError(
            f"{target} is a file, not a folder: restore into a new folder (a path that does not "
            "exist yet) or an empty one."
        )
    existed = target.is_dir()
    if existed and any(target.iterdir()):
        raise LibraryError(
            f"{target} is not empty: restore into a new folder, check it, then swap folders."
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".restore-", dir=target.parent))
    except OSError as e:
        raise LibraryError(
            f"Cannot restore into {target}: {e.strerror}. Choose a folder you can write to."
        ) from e
    try:
        _unpack(archive, staging)
        os.replace(staging, target)  # an empty target folder is replaced whole
    except BaseException:
        with contextlib.suppress(OSError, LibraryError):
            remove_inside(staging, target.parent)
        raise
    try:
        return Library.open(target)
    except BaseException:  # e.g. a crafted generation: the restored folder goes again
        store_mod.close(target / "catalog.duckdb")
        with contextlib.suppress(OSError, LibraryError):
            remove_inside(target, target.parent)
            if existed:
                target.mkdir()
        raise


class _RefusedError(LibraryError):
    """A member refused while tarfile reads its header (the archive's name is added later)."""


class _CheckedInfo(tarfile.TarInfo):
    """tarfile reads GNU long names and pax headers whole into memory before a caller sees the
    member: refuse large ones, and GNU sparse members, before they are read."""

    def _proc_member(self, archive: tarfile.TarFile) -> tarfile.TarInfo:
        if self.type == tarfile.GNUTYPE_SPARSE:
            raise _RefusedError(f"its member {self.name[:120]!r} is a sparse file")
        if self.type in _HEADER_TYPES and self.size > _MAX_HEADER_BYTES:
            raise _RefusedError(f"it has a {self.size:,}-byte extended header")
        return super()._proc_member(archive)  # type: ignore[misc, no-any-return]


_HEADER_TYPES = (
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
    tarfile.XHDTYPE,
    tarfile.XGLTYPE,
    tarfile.SOLARIS_XHDTYPE,
)
_MAX_HEADER_BYTES = 64 * 1024
_FILE_TYPES = (tarfile.REGTYPE, tarfile.AREGTYPE)
MiB = 2**20


def _unpack(archive: Path, staging: Path) -> None:
    """Check each member, then write it below ``staging``; the manifest must come first."""
    name = archive.name
    packed = archive.stat().st_size
    limit = min(RESTORE_MAX_BYTES, RESTORE_RATIO_SLACK_BYTES + RESTORE_MAX_RATIO * packed)
    free = shutil.disk_usage(staging).free
    total = count = 0
    try:
        with tarfile.open(archive, "r:gz", tarinfo=_CheckedInfo) as tar:
            for member in tar:
                count += 1
                if count == 1:
                    if member.name != MANIFEST or member.type not in _FILE_TYPES:
                        raise LibraryError(f"{name} is not a Citable library backup.")
                    continue
                if count > RESTORE_MAX_MEMBERS:
                    raise _RefusedError(
                        f"it has more than {RESTORE_MAX_MEMBERS:,} members (the limit)"
                    )
                parts = _checked_parts(member)
                total += member.size
                if total > limit:
                    raise _RefusedError(
                        f"it unpacks to more than {limit / MiB:,.0f} MiB, the limit for a "
                        f"{packed / MiB:,.1f} MiB backup ({RESTORE_MAX_RATIO} times its size "
                        f"plus {RESTORE_RATIO_SLACK_BYTES // MiB} MiB, at most "
                        f"{RESTORE_MAX_BYTES // 2**30} GiB): it is not a library backup"
                    )
                if total > free:
                    raise LibraryError(f"Cannot restore {name}: {disk_full(staging)}.")
                _write_member(tar, member, staging, parts)
    except _RefusedError as e:
        raise LibraryError(
            f"{name} was refused and nothing was restored: {e}. A backup made by "
            "`python -m research_assistant backup` holds only files and folders; check that "
            "this is the right file."
        ) from e
    except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
        if is_disk_full(e):
            raise LibraryError(f"Cannot restore {name}: {disk_full(staging)}.") from e
        raise LibraryError(f"{name} cannot be read as a backup: {e}") from e
    if count == 0:
        raise LibraryError(f"{name} is not a Citable library backup.")


def _checked_parts(member: tarfile.TarInfo) -> tuple[str, ...]:
    """The member's path components, or _RefusedError: links, devices, absolute names, '..'."""
    shown = repr(member.name[:120])
    if member.issym() or member.islnk():
        kind = "symbolic" if member.issym() else "hard"
        raise _RefusedError(f"its member {shown} is a {kind} link")
    if member.type not in (*_FILE_TYPES, tarfile.DIRTYPE):
        raise _RefusedError(f"its member {shown} is not a regular file or folder")
    raw = member.name
    if len(raw) > RESTORE_MAX_NAME_CHARS or "\x00" in raw or "\\" in raw:
        raise _RefusedError(f"its member {shown} has a name no library file has")
    if raw.startswith("/"):
        raise _RefusedError(f"its member {shown} has an absolute name")
    parts = tuple(p for p in raw.split("/") if p not in ("", "."))
    if not parts or ".." in parts or any(len(p.encode()) > 255 for p in parts):
        raise _RefusedError(f"its member {shown} would land outside the library folder")
    return parts


def _write_member(
    tar: tarfile.TarFile, member: tarfile.TarInfo, staging: Path, parts: tuple[str, ...]
) -> None:
    """Create the member below ``staging`` without following any link: every folder on the way
    must be a real folder, and the file must not exist yet."""
    folders = parts if member.isdir() else parts[:-1]
    here = staging
    for part in folders:
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            here.mkdir(mode=0o755)
            continue
        if not stat.S_ISDIR(mode):
            raise _RefusedError(f"its member {member.name[:120]!r} passes through a file or link")
    dest = staging.joinpath(*parts)
    if not Path(os.path.realpath(dest)).is_relative_to(staging):
        raise _RefusedError(
            f"its member {member.name[:120]!r} would land outside the library folder"
        )
    if member.isdir():
        return
    source = tar.extractfile(member)
    if source is None:
        raise _RefusedError(f"its member {member.name[:120]!r} has no content")
    try:
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except FileExistsError as e:
        raise _RefusedError(f"its member {member.name[:120]!r} appears twice") from e
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(source, out, MiB)
