"""Which of the paths given to an ingest are PDFs and which are BibTeX files (folders searched
recursively). Light on imports: the CLI calls it at start-up, to set the PDF readers working
while it imports the rest (readers.Readers.prefetch)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from research_assistant.models import Skipped

PDF_SUFFIXES = {".pdf"}
BIB_SUFFIXES = {".bib", ".bibtex"}
MAX_FILE_BYTES = 200 * 1024 * 1024  # a larger "paper" is almost surely not one


def collect(paths: Sequence[Path]) -> tuple[list[Path], list[Path], list[Skipped]]:
    """Split the arguments into PDFs and .bib files; folders are searched recursively."""
    pdfs: list[Path] = []
    bibs: list[Path] = []
    skipped: list[Skipped] = []
    for path in paths:
        if path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and f.suffix.lower() in PDF_SUFFIXES:
                    pdfs.append(f)
                elif f.is_file() and f.suffix.lower() in BIB_SUFFIXES:
                    bibs.append(f)
        elif not path.exists():
            skipped.append(Skipped(str(path), "file not found: check the path"))
        elif path.suffix.lower() in BIB_SUFFIXES:
            bibs.append(path)
        elif path.suffix.lower() in PDF_SUFFIXES:
            pdfs.append(path)
        else:
            skipped.append(
                Skipped(str(path), "not a PDF or BibTeX (.bib) file: add PDFs and .bib exports")
            )
    return pdfs, bibs, skipped


def readable_pdfs(paths: Sequence[Path], max_bytes: int = MAX_FILE_BYTES) -> list[Path]:
    """The PDFs among ``paths`` (folders searched) that an ingest would read: not over
    ``max_bytes`` (what the readers may start on before the library is open)."""
    out = []
    for p in collect(paths)[0]:
        try:
            if p.stat().st_size <= max_bytes:
                out.append(p)
        except OSError:
            continue  # the ingest reports it
    return out
