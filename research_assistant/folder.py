"""Checks of a library folder's files that the catalog does not cover: a folder that lost its
catalog is refused, and PDF copies no paper points to (or a killed change's temporary files)
are removed, only inside pdfs/."""

from __future__ import annotations

import contextlib
from collections.abc import Set
from pathlib import Path

from research_assistant.errors import LibraryError, ResearchAssistantError
from research_assistant.files import EMPTY_GENERATION, RESTORE_HINT, TMP_PREFIX, remove_inside

__all__ = ["check_catalog_present", "remove_stale_pdfs"]


def check_catalog_present(root: Path, catalog: str) -> None:
    """Refuse a folder that holds a library's files but not its catalog: opening it would start
    an empty catalog, and the next change would remove the PDF copies it no longer knows."""
    if (root / catalog).exists():
        return
    found = []
    pdfs = [p for p in (root / "pdfs").iterdir()] if (root / "pdfs").is_dir() else []
    if pdfs:
        found.append(f"{len(pdfs)} file(s) in pdfs/")
    index = root / "index"
    if index.is_dir() and any(p.name not in (EMPTY_GENERATION, "CURRENT") for p in index.iterdir()):
        found.append("a search index in index/")
    found += [name for name in ("library.bib", f"{catalog}.wal") if (root / name).exists()]
    if found:
        raise LibraryError(
            f"The library folder {root} holds {', '.join(found)} but no {catalog}: the catalog "
            "was deleted or lost. The folder was not opened and nothing in it was changed. "
            f"{RESTORE_HINT}. (To start an empty library instead, choose a new folder.)"
        )


def remove_stale_pdfs(pdf_dir: Path, used: Set[str], root: Path) -> None:
    """Regular files of ``pdf_dir`` that are temporary, or PDF copies not named in ``used``."""
    for f in pdf_dir.iterdir():
        stale = f.name.startswith(TMP_PREFIX) or (f.suffix.lower() == ".pdf" and f.name not in used)
        if stale and f.is_file() and not f.is_symlink():
            with contextlib.suppress(OSError, ResearchAssistantError):
                remove_inside(f, root)
