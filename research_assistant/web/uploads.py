"""What an upload must pass before the library sees it (pure: no Streamlit, no library writes).

Each file is judged by its content, not its name or the browser's word; its name is reduced to
one safe path component; copies (the same bytes twice in one upload, or a PDF the library
already holds) are refused by SHA-256. Accepted files are written to a folder the caller owns
(``stage_in_temp``: a new temporary one): the library itself only changes through
``Library.ingest``, which is atomic, so a refused or failed upload leaves it as it was.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from research_assistant.errors import UploadError
from research_assistant.files import cut_utf8
from research_assistant.settings import CHECK_TEXT_MAX_CHARS

KINDS = {".pdf": "PDF", ".bib": "BibTeX"}
_UNSAFE_NAME = re.compile(r"[^\w.()+ -]+")
# Longer names are cut by UTF-8 bytes, never inside a character: file systems allow 255 bytes
# per name (100 CJK characters are 300), and "-1" may be added when two uploads share a name.
NAME_BYTES = 200
# The PDF specification lets a reader find "%PDF-" in the first 1024 bytes (some generators
# put junk before it); PyMuPDF accepts such files, so the check does too.
PDF_HEADER_WINDOW = 1024
MiB = 2**20
# The Check text uploader's own limit, MiB, which the browser applies before sending: the
# CHECK_TEXT_MAX_CHARS characters are at most 0.8 MiB of UTF-8 (read_text_upload checks them).
TEXT_UPLOAD_MB = 1


def safe_upload_name(name: str) -> str:
    """The last path component only, with no characters a file system or shell treats apart."""
    base = Path(name.replace("\\", "/")).name
    base = _UNSAFE_NAME.sub("_", base).strip(" .")
    suffix = cut_utf8(Path(base).suffix, 10)
    if len(base.encode("utf-8")) > NAME_BYTES:  # cut the stem, keep the suffix (judged too)
        stem = base[: len(base) - len(Path(base).suffix)]
        base = cut_utf8(stem, NAME_BYTES - len(suffix.encode("utf-8"))).rstrip(" .") + suffix
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


def read_text_upload(name: str, data: bytes, max_chars: int = CHECK_TEXT_MAX_CHARS) -> str:
    """A .txt or .md file for the Check text page, refused over ``max_chars`` characters (a
    file over 4 bytes per character allowed is refused before it is decoded)."""
    safe = safe_upload_name(name)
    if b"\x00" in data[:4096]:
        raise UploadError(f"{safe} is not a text file: upload .txt or .md.")
    if len(data) > 4 * max_chars:  # UTF-8 takes at most 4 bytes a character
        size = f"{_mib(len(data))} MiB"
    else:
        text = decode_text(data)
        if len(text) <= max_chars:
            return text
        size = f"{len(text):,} characters"
    raise UploadError(
        f"{safe} is too long to check ({size}): the limit is {max_chars:,} characters per "
        "check. Check it a chapter or a section at a time."
    )


@dataclass(frozen=True)
class Staged:
    """Files written to the staging folder, the refused ones as (safe name, reason), and the
    copies of a file already in the library or already in this upload (not an error: a note)."""

    paths: list[Path] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    already: list[tuple[str, str]] = field(default_factory=list)
    folder: Path | None = None  # set by stage_in_temp when it kept a folder of accepted files


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
            out.already.append((name, f"{name} is the same file as {seen[sha]}: added once."))
            continue
        if known and sha in known:
            out.already.append(
                (name, f"{name} is already in the library (as {known[sha]}): not added again.")
            )
            continue
        seen[sha] = name
        path = _free_path(folder, name)
        if path.parent != folder:  # safe_upload_name makes this impossible; never trust one line
            raise UploadError(f"{name}: refused, the name would leave the upload folder.")
        try:
            path.write_bytes(data)
        except OSError as e:  # a full disk, say: the reason only, never the server's path
            path.unlink(missing_ok=True)
            reason = e.strerror or type(e).__name__
            out.refused.append(
                (name, f"{name} could not be saved on the server ({reason}): try again later.")
            )
            continue
        out.paths.append(path)
    return out


def stage_in_temp(
    files: Iterable[tuple[str, bytes]],
    *,
    max_file_bytes: int,
    max_batch_bytes: int,
    known: Mapping[str, str] | None = None,
) -> Staged:
    """``stage`` into a new temporary folder, ``Staged.folder``, which then belongs to the
    caller (the ingest job deletes it). With nothing accepted, or the upload refused whole,
    the folder is removed here and ``folder`` is None."""
    folder = Path(tempfile.mkdtemp(prefix="citable-upload-"))
    try:
        staged = stage(
            files, folder, known=known, max_file_bytes=max_file_bytes,
            max_batch_bytes=max_batch_bytes,
        )  # fmt: skip
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    if not staged.paths:
        shutil.rmtree(folder, ignore_errors=True)
        return staged
    return replace(staged, folder=folder)


def _free_path(folder: Path, name: str) -> Path:
    """``folder / name``, or ``stem-1.suffix``... when two uploads share a name (keep both)."""
    path = (folder / name).resolve()
    n = 1
    while path.exists():
        path = folder / f"{Path(name).stem}-{n}{Path(name).suffix}"
        n += 1
    return path
