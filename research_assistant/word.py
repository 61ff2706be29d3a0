"""The one python-docx seam: read the text of a Word .docx (body paragraphs, footnotes,
endnotes), and write simple Word documents from report/blocks.py's neutral structure.

Reading is bounded before python-docx unpacks anything: a .docx is a ZIP archive, and one of a
few KB can unpack to gigabytes. The archive's own table of sizes is checked first (members,
total unpacked size); XML is parsed by python-docx's lxml parser, which resolves no entities.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from docx.shared import RGBColor

from research_assistant.errors import ResearchAssistantError
from research_assistant.report.blocks import Block, Heading, Paragraph, Run, Table

__all__ = ["MAX_DOCX_MEMBERS", "MAX_DOCX_UNPACKED", "DocxText", "read_docx", "write_docx"]

# A Word manuscript of 60 pages with figures unpacks to tens of MB; the text parts to a few MB.
MAX_DOCX_UNPACKED = 256 * 2**20
MAX_DOCX_MEMBERS = 5000
_NOTE_PARTS = {"footnotes": "/word/footnotes.xml", "endnotes": "/word/endnotes.xml"}
_W_P, _W_T, _W_TAB, _W_BR = qn("w:p"), qn("w:t"), qn("w:tab"), qn("w:br")
_W_ID, _W_TYPE = qn("w:id"), qn("w:type")


@dataclass(frozen=True)
class DocxText:
    """The text of a .docx: one string per body paragraph, footnote and endnote, in order."""

    paragraphs: tuple[str, ...]
    footnotes: tuple[str, ...] = ()
    endnotes: tuple[str, ...] = ()


def _check_zip(name: str, data: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, ValueError) as exc:
        raise ResearchAssistantError(
            f"{name} is not a Word .docx file (not a ZIP archive): save it as .docx and try again"
        ) from exc
    if len(infos) > MAX_DOCX_MEMBERS or sum(i.file_size for i in infos) > MAX_DOCX_UNPACKED:
        raise ResearchAssistantError(
            f"{name} unpacks to more than {MAX_DOCX_UNPACKED // 2**20} MiB or "
            f"{MAX_DOCX_MEMBERS} parts: not a manuscript; save it again from Word"
        )


def _note_texts(document: docx.document.Document, kind: str) -> tuple[str, ...]:
    part = next(
        (p for p in document.part.package.iter_parts() if str(p.partname) == _NOTE_PARTS[kind]),
        None,
    )
    if part is None:
        return ()
    root = parse_xml(part.blob)
    out = []
    for note in root:
        if note.get(_W_TYPE) in ("separator", "continuationSeparator"):
            continue  # the rule above the notes, not a note
        text = " ".join(_paragraph_text(p) for p in note.iter(_W_P)).strip()
        if text:
            out.append(text)
    return tuple(out)


def _paragraph_text(p: object) -> str:
    pieces = []
    for el in p.iter(_W_T, _W_TAB, _W_BR):  # type: ignore[attr-defined]
        pieces.append(el.text or "" if el.tag == _W_T else " ")
    return "".join(pieces)


def read_docx(path: Path) -> DocxText:
    """The text of the .docx at ``path``; a clear error naming the file when it is not one."""
    path = Path(path)
    data = path.read_bytes()
    _check_zip(path.name, data)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises KeyError, ValueError, lxml errors, ...
        raise ResearchAssistantError(
            f"{path.name} cannot be read as a Word document ({type(exc).__name__}): "
            "open it in Word and save it again as .docx"
        ) from exc
    paragraphs = tuple(p.text for p in document.paragraphs)
    return DocxText(
        paragraphs, _note_texts(document, "footnotes"), _note_texts(document, "endnotes")
    )


# Writing --------------------------------------------------------------------------------------


def _rgb(colour: str) -> RGBColor | None:
    value = colour.lstrip("#")
    if len(value) != 6:
        return None
    try:
        return RGBColor.from_string(value.upper())
    except ValueError:
        return None


def _shade(properties: object, colour: str) -> None:
    """A background ``colour`` in a run's or a cell's properties element (w:rPr, w:tcPr)."""
    value = colour.lstrip("#")
    if len(value) == 6 and all(c in "0123456789abcdefABCDEF" for c in value):
        shading = parse_xml(f'<w:shd xmlns:w="{_W_NS}" w:val="clear" w:fill="{value}"/>')
        properties.append(shading)  # type: ignore[attr-defined]


_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _add_runs(paragraph: object, runs: Sequence[Run]) -> None:
    for r in runs:
        run = paragraph.add_run(_xml_safe(r.text))  # type: ignore[attr-defined]
        run.bold, run.italic = r.bold or None, r.italic or None
        if (rgb := _rgb(r.colour)) is not None:
            run.font.color.rgb = rgb
        if r.background:
            _shade(run._r.get_or_add_rPr(), r.background)


def _xml_safe(text: str) -> str:
    """XML 1.0 has no control characters but tab and line ends: a PDF's stray bytes go."""
    return "".join(c for c in text if c in "\t\n\r" or ord(c) >= 32)


def write_docx(blocks: Sequence[Block], *, title: str = "") -> bytes:
    """The blocks as a .docx file's bytes. Text is written as text: nothing in it is read as
    markup, so untrusted strings need no escaping here."""
    document = docx.Document()
    if title:
        document.core_properties.title = _xml_safe(title)[:255]
    for block in blocks:
        if isinstance(block, Heading):
            document.add_heading(_xml_safe(block.text), level=max(0, min(block.level, 9)))
        elif isinstance(block, Paragraph):
            p = document.add_paragraph(style="Quote" if block.quote else None)
            _add_runs(p, block.runs)
        elif isinstance(block, Table):
            table = document.add_table(rows=1, cols=len(block.header))
            table.style = "Table Grid"
            for cell, text in zip(table.rows[0].cells, block.header, strict=True):
                cell.paragraphs[0].add_run(_xml_safe(text)).bold = True
            for row in block.rows:
                cells = table.add_row().cells
                for cell, run in zip(cells, row, strict=False):
                    _add_runs(cell.paragraphs[0], [Run(run.text, run.bold, run.italic, run.colour)])
                    if run.background:
                        _shade(cell._tc.get_or_add_tcPr(), run.background)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
