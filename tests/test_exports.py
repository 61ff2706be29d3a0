"""report/exports.py: the EXPORTERS registry the CLI, pipeline.export and the Export page use."""

from __future__ import annotations

from dataclasses import replace

from research_assistant.report.exports import EXPORTERS, Document
from research_assistant.report.references import build_references
from research_assistant.results import VERIFIED, Citation, Evidence, Mention
from tests.test_references import SMITH_A

TEXT = "Cells were segmented [Smith et al., 2020a]."
MARKER = "[Smith et al., 2020a]"
START = TEXT.index(MARKER)
CITATION = Citation(
    mention=Mention(MARKER, START, START + len(MARKER), "Smith", et_al=True, year="2020a"),
    paper_key=SMITH_A.key,
    status=VERIFIED,
    score=0.9,
    claim="Cells were segmented",
    evidence=Evidence("smithA2020:0", 2, "We segment cells."),
)


def document() -> Document:
    local = replace(SMITH_A, files=("/home/me/smith.pdf",))
    refs = build_references([CITATION], {SMITH_A.key: local})
    return Document("Segmentation?", TEXT, [CITATION], refs, [local])


def test_the_formats_and_their_files() -> None:
    assert {n: (e.suffix, e.mime) for n, e in EXPORTERS.items()} == {
        "md": ("md", "text/markdown"),
        "html": ("html", "text/html"),
        "bib": ("bib", "application/x-bibtex"),
    }
    assert all(name == e.name for name, e in EXPORTERS.items())


def test_each_format_renders_the_document_to_bytes() -> None:
    doc = document()
    md, page, bib = (EXPORTERS[n].render(doc).decode("utf-8") for n in ("md", "html", "bib"))
    assert md.startswith("# Segmentation?") and "Verification appendix" in md
    assert "<html" in page.lower() and "We segment cells." in page
    assert bib.startswith("@article{smithA2020,") and bib.count("@") == 1


def test_the_bibtex_leaves_out_fields_that_point_into_this_machine() -> None:
    bib = EXPORTERS["bib"].render(document()).decode("utf-8")
    assert "file" not in bib and "smith.pdf" not in bib  # bib.write.to_bibtex(local=False)
