"""The export formats by name: the CLI's ``export --format`` choices, ``pipeline.export`` and
the Export page iterate ``EXPORTERS``, so adding a format touches this table only.

Pure (the Word writer, python-docx's seam, is loaded by the docx exporter when called): each
exporter renders a ``Document`` (a logged answer or checked text, with its verdicts)
to bytes. The BibTeX holds the cited works only, without fields that point into this machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from research_assistant.bib.write import to_bibtex
from research_assistant.models import Paper
from research_assistant.report.blocks import Block, Heading, Paragraph, Run, Table
from research_assistant.report.references import (
    STATUS_COLOURS,
    STATUS_STYLE,
    to_html,
    to_markdown,
)
from research_assistant.results import Citation, Reference

__all__ = ["EXPORTERS", "Document", "Exporter", "conversation_text", "word_blocks"]


@dataclass(frozen=True)
class Document:
    """What is exported: the text, its checked citations, its references and their papers."""

    title: str
    text: str
    citations: Sequence[Citation]
    references: Sequence[Reference]
    cited: Sequence[Paper]  # the library papers of ``references``, in their order


@dataclass(frozen=True)
class Exporter:
    name: str
    label: str  # what a download button calls it
    mime: str
    suffix: str
    render: Callable[[Document], bytes]
    binary: bool = False  # not text: the CLI writes its bytes as they are


def _markdown(doc: Document) -> bytes:
    return to_markdown(doc.text, doc.citations, doc.references, title=doc.title).encode("utf-8")


def _html(doc: Document) -> bytes:
    return to_html(doc.text, doc.citations, doc.references, title=doc.title).encode("utf-8")


def _bibtex(doc: Document) -> bytes:
    return to_bibtex(doc.cited, local=False).encode("utf-8")


def conversation_text(
    turns: Sequence[tuple[str, str, Sequence[Citation]]],
) -> tuple[str, list[Citation]]:
    """A conversation's turns (question, answer, the answer's citations) as one text, each
    question before its answer, with the citations moved to where their markers now are: every
    exporter then renders a whole conversation as it renders one answer."""
    parts: list[str] = []
    citations: list[Citation] = []
    at = 0
    for question, answer, cited in turns:
        head = f"Question: {' '.join(question.split())}\n\nAnswer: "
        start = at + len(head)
        for c in cited:
            m = c.mention
            citations.append(
                replace(c, mention=replace(m, start=m.start + start, end=m.end + start))
            )
        parts.append(f"{head}{answer}\n\n")
        at += len(parts[-1])
    return "".join(parts).rstrip(), citations


def _run(status: str, text: str = "") -> Run:
    symbol, label = STATUS_STYLE.get(status, ("?", status))
    fg, bg = STATUS_COLOURS.get(status, ("#57606a", "#eaeef2"))
    return Run(text or f"{symbol} {label}", bold=True, colour=fg, background=bg)


def _text_paragraphs(doc: Document) -> list[Paragraph]:
    """The text with each citation's verdict after its marker (numbered as in the appendix);
    blank lines start a new paragraph."""
    numbered = sorted(enumerate(doc.citations, 1), key=lambda x: (x[1].mention.end, x[0]))
    paragraphs: list[list[Run]] = [[]]

    def plain(text: str) -> None:
        for i, part in enumerate(text.split("\n\n")):
            if i:
                paragraphs.append([])
            if part.strip():
                paragraphs[-1].append(Run(" ".join(part.split("\n"))))

    at = 0
    for number, c in numbered:
        end = min(max(c.mention.end, at), len(doc.text))
        plain(doc.text[at:end])
        symbol = STATUS_STYLE.get(c.status, ("?", ""))[0]
        paragraphs[-1].append(_run(c.status, f" {symbol}{number} "))
        at = end
    plain(doc.text[at:])
    return [Paragraph(tuple(runs)) for runs in paragraphs if runs]


def word_blocks(doc: Document) -> tuple[Block, ...]:
    """The Word export as neutral blocks (``research_assistant.word.write_docx`` writes them):
    the verdict legend, the text with coloured verdicts, the verification appendix (each
    citation: verdict, claim, evidence quote and page) and the references."""
    blocks: list[Block] = [Heading(doc.title, 0), Paragraph(tuple(
        r for s in STATUS_STYLE for r in (_run(s), Run("  "))))]  # fmt: skip
    blocks += _text_paragraphs(doc)
    blocks.append(Heading("Verification appendix", 1))
    rows = []
    for i, c in enumerate(doc.citations, 1):
        ev = c.evidence
        where = f"p. {ev.page}: {ev.text[:_QUOTE_CHARS]}" if ev else c.reason or "no evidence"
        rows.append((Run(str(i)), Run(c.mention.marker), _run(c.status), Run(c.claim),
                     Run(where, italic=ev is not None)))  # fmt: skip
    if rows:
        blocks.append(Table(("#", "citation", "verdict", "claim", "evidence"), tuple(rows)))
    else:
        blocks.append(Paragraph((Run("No citations were found in this text."),)))
    if doc.references:
        blocks.append(Heading("References", 1))
        blocks += [Paragraph((Run(r.text), *(_run(s, " " + STATUS_STYLE[s][0]) for s in
                    r.statuses if s in STATUS_STYLE))) for r in doc.references]  # fmt: skip
    return tuple(blocks)


def _word(doc: Document) -> bytes:
    from research_assistant.word import write_docx  # python-docx's one seam, loaded on demand

    return write_docx(word_blocks(doc), title=doc.title)


_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_QUOTE_CHARS = 600  # evidence quoted per citation in the Word appendix

EXPORTERS = MappingProxyType(
    {
        "md": Exporter("md", "Markdown", "text/markdown", "md", _markdown),
        "html": Exporter("html", "HTML", "text/html", "html", _html),
        "bib": Exporter("bib", "BibTeX of the cited works", "application/x-bibtex", "bib", _bibtex),
        "docx": Exporter("docx", "Word", _DOCX, "docx", _word, binary=True),
    }
)
