"""What an upload must pass before the library sees it (pure: no Streamlit, no library writes).

Each file is judged by its content, not its name or the browser's word; its name is reduced to
one safe path component; copies (the same bytes twice in one upload, or a PDF the library
already holds) are refused by SHA-256. Accepted files are written to a folder the caller owns
(a temporary one): the library itself only changes through ``Library.ingest``, which is atomic,
so a refused or failed upload leaves it as it was.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from research_assistant.errors import UploadError

KINDS = {".pdf": "PDF", ".bib": "BibTeX"}
_UNSAFE_NAME = re.compile(r"[^\w.()+ -]+")
NAME_CHARS = 120  # longer names are cut: file systems allow 255 bytes, and UTF-8 takes up to 4
# The PDF specification lets a reader find "%PDF-" in the first 1024 bytes (some generators
# put junk before it); PyMuPDF accepts such files, so the check does too.
PDF_HEADER_WINDOW = 1024
MiB = 2**20


def safe_upload_name(name: str) -> str:
    """The last path component only, with no characters a file system or shell treats apart."""
    base = Path(name.replace("\\", "/")).name
    base = _UNSAFE_NAME.sub("_", base).strip(" .")
    suffix = Path(base).suffix[:10]
    if len(base) > NAME_CHARS:  # cut the stem, keep the suffix (the type is judged by it too)
        base = base[: NAME_CHARS - len(suffix)].rstrip(" .") + suffix
    return base or "upload"


def _mib(n: int) -> str:
    return f"{n / MiB:.1f}".removesuffix(".0")


def check_upload(name: str, data: bytes, max_bytes: int) -> str:
    """Refuse what cannot be a PDF or a .bib, judged by content; returns the safe name."""
    safe = safe_upload_name(name)
    suffix = Path(safe).suffix.lower()
    if suffix not in KINDS:
        raise UploadError(f"{safe}: only PDF and .bib files can be added. Choose those files.")
    if not data:
        raise UploadError(f"{safe} is empty (0 bytes): export or download it again.")
    if len(data) > max_bytes:
        raise UploadError(
            f"{safe} is {_mib(len(data))} MiB, over the {_mib(max_bytes)} MiB limit per file "
            "(RA_MAX_UPLOAD_MB): split it, or ask the administrator to raise the limit."
        )
    if suffix == ".pdf" and b"%PDF-" not in data[:PDF_HEADER_WINDOW]:
        raise UploadError(
            f"{safe} is not a PDF (it does not start with %PDF-): upload the paper's PDF file "
            "itself, not a web page or an image."
        )
    if suffix == ".bib":
        if b"\x00" in data[:4096]:
            raise UploadError(f"{safe} is a binary file, not BibTeX: export your library as .bib.")
        if "@" not in decode_text(data):
            raise UploadError(
                f"{safe} has no BibTeX entries (no '@'): export your library as .bib."
            )
    return safe


def decode_text(data: bytes) -> str:
    """UTF-8, else Latin-1 (old BibTeX exports), which decodes any bytes."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text_upload(name: str, data: bytes) -> str:
    """A pasted-in .txt or .md file (Check text page)."""
    if b"\x00" in data[:4096]:
        raise UploadError(f"{safe_upload_name(name)} is not a text file: upload .txt or .md.")
    return decode_text(data)


@dataclass(frozen=True)
class Staged:
    """Files written to the staging folder, and the refused ones as (safe name, reason)."""

    paths: list[Path] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)


def stage(
    files: Iterable[tuple[str, bytes]],
    folder: Path,
    *,
    max_file_bytes: int,
    max_batch_bytes: int,
    known: Mapping[str, str] | None = None,
) -> Staged:
    """Check ``(name, bytes)`` uploads and write the accepted ones into ``folder``.

    ``known`` maps the SHA-256 of every PDF already in the library to its paper's label. An
    upload over ``max_batch_bytes`` is refused whole (``UploadError``): nothing is written.
    """
    files = list(files)
    total = sum(len(data) for _, data in files)
    if total > max_batch_bytes:
        raise UploadError(
            f"This upload is {_mib(total)} MiB, over the {_mib(max_batch_bytes)} MiB limit per "
            "upload (RA_MAX_BATCH_MB): nothing was added. Add the files in several goes."
        )
    out = Staged()
    seen: dict[str, str] = {}  # sha256 -> the name it was accepted under
    folder = folder.resolve()
    for raw_name, data in files:
        try:
            name = check_upload(raw_name, data, max_file_bytes)
        except UploadError as e:
            out.refused.append((safe_upload_name(raw_name), str(e)))
            continue
        sha = hashlib.sha256(data).hexdigest()
        if sha in seen:
            out.refused.append((name, f"{name} is the same file as {seen[sha]}: added once."))
            continue
        if known and sha in known:
            out.refused.append(
                (name, f"{name} is already in the library (as {known[sha]}): not added again.")
            )
            continue
        seen[sha] = name
        path = _free_path(folder, name)
        if path.parent != folder:  # safe_upload_name makes this impossible; never trust one line
            raise UploadError(f"{name}: refused, the name would leave the upload folder.")
        path.write_bytes(data)
        out.paths.append(path)
    return out


def _free_path(folder: Path, name: str) -> Path:
    """``folder / name``, or ``stem-1.suffix``... when two uploads share a name (keep both)."""
    path = (folder / name).resolve()
    n = 1
    while path.exists():
        path = folder / f"{Path(name).stem}-{n}{Path(name).suffix}"
        n += 1
    return path
