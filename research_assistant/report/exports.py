"""The export formats by name: the CLI's ``export --format`` choices, ``pipeline.export`` and
the Export page iterate ``EXPORTERS``, so adding a format touches this table only.

Pure: each exporter renders a ``Document`` (a logged answer or checked text, with its verdicts)
to bytes. The BibTeX holds the cited works only, without fields that point into this machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from research_assistant.bib.write import to_bibtex
from research_assistant.models import Paper
from research_assistant.report.references import to_html, to_markdown
from research_assistant.results import Citation, Reference

__all__ = ["EXPORTERS", "Document", "Exporter"]


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


def _markdown(doc: Document) -> bytes:
    return to_markdown(doc.text, doc.citations, doc.references, title=doc.title).encode("utf-8")


def _html(doc: Document) -> bytes:
    return to_html(doc.text, doc.citations, doc.references, title=doc.title).encode("utf-8")


def _bibtex(doc: Document) -> bytes:
    return to_bibtex(doc.cited, local=False).encode("utf-8")


EXPORTERS = MappingProxyType(
    {
        "md": Exporter("md", "Markdown", "text/markdown", "md", _markdown),
        "html": Exporter("html", "HTML", "text/html", "html", _html),
        "bib": Exporter("bib", "BibTeX of the cited works", "application/x-bibtex", "bib", _bibtex),
    }
)
