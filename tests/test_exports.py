"""report/exports.py: the EXPORTERS registry the CLI, pipeline.export and the Export page use."""

from __future__ import annotations

import io
from dataclasses import replace

import docx  # the Word export is read back as Word would read it

from research_assistant.report.exports import EXPORTERS, Document, conversation_text
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
        "docx": ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
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


def test_the_word_export_has_the_legend_coloured_verdicts_and_the_appendix() -> None:
    unsupported = replace(CITATION, status="unsupported", evidence=None, reason="no support")
    doc = replace(document(), text=TEXT + "\n\nMore text.", citations=[CITATION, unsupported])
    word = docx.Document(io.BytesIO(EXPORTERS["docx"].render(doc)))
    paragraphs = [p.text for p in word.paragraphs]
    assert paragraphs[0] == "Segmentation?"
    assert "✅ verified" in paragraphs[1] and "⚠ unsupported" in paragraphs[1]  # the legend
    assert paragraphs[2] == f"{TEXT[:-1]} ✅1  ⚠2 ."  # each verdict after its marker
    assert paragraphs[3] == "More text."
    verdict = next(r for r in word.paragraphs[2].runs if r.text == " ✅1 ")
    assert str(verdict.font.color.rgb) == "1A7F37"  # coloured as in the app
    assert "Verification appendix" in paragraphs
    (table,) = word.tables
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows[0] == ["#", "citation", "verdict", "claim", "evidence"]
    assert rows[1] == [
        "1",
        MARKER,
        "✅ verified",
        "Cells were segmented",
        "p. 2: We segment cells.",
    ]
    assert rows[2][2:] == ["⚠ unsupported", "Cells were segmented", "no support"]
    assert any(p.startswith("Smith") for p in paragraphs[paragraphs.index("References") :])


def test_a_conversation_is_one_text_with_its_citations_moved_along() -> None:
    text, moved = conversation_text([("Q1?", "No answer.", []), ("Q2?", TEXT, [CITATION])])
    assert text == f"Question: Q1?\n\nAnswer: No answer.\n\nQuestion: Q2?\n\nAnswer: {TEXT}"
    (c,) = moved
    assert text[c.mention.start : c.mention.end] == MARKER  # still on its marker
    md = EXPORTERS["md"].render(replace(document(), text=text, citations=moved)).decode()
    assert f"{MARKER} ✅" in md and "Question: Q1?" in md
