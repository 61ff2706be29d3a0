"""Write what a manuscript check produces: the report (HTML, Word or Markdown, by the file's
suffix), the annotated PDF (each citation's sentence highlighted in its verdict's colour, with
a note holding the verdict, the evidence quote and its page) and the BibTeX of the references
the library lacks. Files are written atomically."""

from __future__ import annotations

from pathlib import Path

from research_assistant.errors import ResearchAssistantError
from research_assistant.files import write_atomic
from research_assistant.ingest.pdf import PdfAnnotation, annotate_pdf
from research_assistant.manuscript.model import CheckedManuscript
from research_assistant.report import manuscript as report
from research_assistant.report.references import STATUS_COLOURS, STATUS_STYLE
from research_assistant.word import write_docx

__all__ = ["REPORT_SUFFIXES", "annotate", "note_text", "render_report", "write_report"]

REPORT_SUFFIXES = (".html", ".docx", ".md")


def render_report(checked: CheckedManuscript, suffix: str) -> bytes:
    """The report as the bytes of a file with ``suffix`` (".html", ".docx" or ".md")."""
    if suffix == ".html":
        return report.to_html(checked).encode("utf-8")
    if suffix == ".docx":
        return write_docx(report.to_blocks(checked), title=f"Citations checked: {checked.name}")
    if suffix == ".md":
        return report.to_markdown(checked).encode("utf-8")
    raise ResearchAssistantError(
        f"A report cannot be written as {suffix or 'a file without a suffix'}: "
        f"name it {' or '.join(REPORT_SUFFIXES)}"
    )


def write_report(checked: CheckedManuscript, out: Path) -> None:
    out = Path(out)
    if out.suffix.lower() not in REPORT_SUFFIXES:
        raise ResearchAssistantError(
            f"Cannot write the report {out.name}: name it with {', '.join(REPORT_SUFFIXES)}"
        )
    write_atomic(out, render_report(checked, out.suffix.lower()))


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    v = hex_colour.lstrip("#")
    return (int(v[0:2], 16) / 255, int(v[2:4], 16) / 255, int(v[4:6], 16) / 255)


def note_text(checked: CheckedManuscript, i: int) -> str:
    """The note on the i-th citation: verdict, cited paper, evidence quote and page, why."""
    c = checked.citations[i].citation
    _, label = STATUS_STYLE[c.status]
    lines = [f"{c.mention.marker}: {label}"]
    if c.paper_key:
        lines.append(f"cited paper: {checked.labels.get(c.paper_key, c.paper_key)}")
    if c.evidence:
        lines.append(f"evidence (p. {c.evidence.page}): “{c.evidence.text}”")
    if c.reason:
        lines.append(c.reason)
    return "\n".join(lines)


def annotate(checked: CheckedManuscript, source: Path, dest: Path) -> int:
    """Write ``dest``, a copy of the PDF manuscript ``source`` with every citation annotated;
    returns how many sentences were highlighted (the rest are notes in the margin)."""
    if checked.kind != "pdf":
        raise ResearchAssistantError(
            f"{checked.name} is not a PDF: an annotated copy is made of PDF manuscripts only; "
            "the report holds every verdict"
        )
    notes = []
    for i, c in enumerate(checked.citations):
        if c.page is None:
            continue
        colour = _rgb(STATUS_COLOURS[c.citation.status][0])
        notes.append(PdfAnnotation(c.page, c.citation.claim, colour, note_text(checked, i)))
    return annotate_pdf(Path(source), Path(dest), notes)
