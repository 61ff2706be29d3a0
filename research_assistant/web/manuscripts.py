"""The Check page's manuscript upload, without Streamlit: stage the upload (and its .bib) in a
temporary folder, check it as a Job in a worker thread, and hold every download in memory
(the HTML and Word reports, the annotated PDF, the .bib of the references the library lacks).
At most MANUSCRIPTS_AT_ONCE manuscripts are checked at once in the shared process."""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from research_assistant.answer.base import Judge
from research_assistant.errors import UploadError
from research_assistant.library import Library
from research_assistant.manuscript import outputs, read
from research_assistant.manuscript.model import CheckedManuscript
from research_assistant.report.manuscript import missing_bibtex
from research_assistant.reviewing import check_manuscript
from research_assistant.web.jobs import Job, Post, page_judge
from research_assistant.web.render import md, summary_text
from research_assistant.web.uploads import safe_upload_name

__all__ = [
    "MANUSCRIPTS_AT_ONCE",
    "MANUSCRIPT_TYPES",
    "MAX_UPLOAD_MB",
    "CheckedUpload",
    "check_manuscript_upload",
    "job",
]

MANUSCRIPT_TYPES = [s.lstrip(".") for s in read.KINDS]
MAX_UPLOAD_MB = read.MAX_BYTES // 2**20
MANUSCRIPTS_AT_ONCE = 1  # a manuscript holds a core for seconds; Check text keeps its own slots
_SLOTS = threading.BoundedSemaphore(MANUSCRIPTS_AT_ONCE)


@dataclass(frozen=True)
class CheckedUpload:
    """A checked manuscript and its downloads, as bytes."""

    checked: CheckedManuscript
    html: bytes
    docx: bytes
    bib: bytes
    annotated: bytes | None = None  # PDF manuscripts only

    @property
    def headline(self) -> str:
        """One Markdown line: the file, its verdicts, its references (the file name inert)."""
        ms = self.checked
        verdicts = summary_text([c.citation for c in ms.citations]) or "no citations"
        return (
            f"**{md(ms.name)}**: {verdicts} · {len(ms.references)} references, "
            f"{len(ms.missing())} not in your library"
        )


def _write(folder: Path, name: str, data: bytes, what: str) -> Path:
    if len(data) > read.MAX_BYTES:
        raise UploadError(
            f"{name} is {len(data) / 2**20:.0f} MiB, over the {read.MAX_BYTES // 2**20} MiB "
            f"limit for a {what}"
        )
    path = folder / safe_upload_name(name)
    path.write_bytes(data)
    return path


def check_manuscript_upload(
    lib: Library,
    name: str,
    data: bytes,
    user: str,
    bib: tuple[str, bytes] | None = None,
    judge: Judge | None = None,
    every: bool = False,
) -> CheckedUpload:
    """Check the uploaded manuscript ``name`` (its ``data``), keys through the uploaded .bib;
    with a ``judge``, its second opinion (``every``: on every verified citation too)."""
    if Path(name).suffix.lower() not in read.KINDS:
        raise UploadError(
            f"{name} is not a manuscript Citable reads: upload a .pdf, .docx, .tex, .md or .txt"
        )
    with tempfile.TemporaryDirectory(prefix="citable-manuscript-") as tmp:
        folder = Path(tmp)
        path = _write(folder, name, data, "manuscript")
        bib_path = _write(folder, bib[0], bib[1], ".bib") if bib else None
        checked = check_manuscript(
            lib, path, bib_path, user, name=path.name, judge=judge, judge_every=every
        )
        annotated = None
        if checked.kind == "pdf":
            outputs.annotate(checked, path, folder / "annotated.pdf")
            annotated = (folder / "annotated.pdf").read_bytes()
    return CheckedUpload(
        checked,
        html=outputs.render_report(checked, ".html"),
        docx=outputs.render_report(checked, ".docx"),
        bib=missing_bibtex(checked).encode("utf-8"),
        annotated=annotated,
    )


def job(
    lib: Library,
    name: str,
    data: bytes,
    user: str,
    bib: tuple[str, bytes] | None = None,
    second_opinion: bool = False,
    every: bool = False,
) -> Job[CheckedUpload]:
    """``check_manuscript_upload`` as a Job: the page waits on it, a worker thread does the work.
    With ``second_opinion``, the configured model judges as on a checked text (jobs.check_job)."""

    def work(_post: Post) -> CheckedUpload:
        with _SLOTS:
            judge = page_judge(second_opinion)
            return check_manuscript_upload(lib, name, data, user, bib, judge, every)

    return Job("manuscript", work)
