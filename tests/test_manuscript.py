"""Manuscript checks end to end: manuscripts made here (a PDF rendered with PyMuPDF, a .docx
written with python-docx, LaTeX with its .bib, Markdown) cite corpus papers by number, key and
author and year; every citation's resolution and verdict, the reference matching methods, the
not-in-library list, the annotated PDF and the reports are asserted."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import docx
import pytest

from research_assistant import store as store_mod
from research_assistant.cli import main
from research_assistant.errors import ResearchAssistantError
from research_assistant.ingest import pdf
from research_assistant.ingest.pdf import read_annotations as annotations
from research_assistant.library import Library
from research_assistant.manuscript import outputs
from research_assistant.manuscript.model import CheckedManuscript
from research_assistant.report.manuscript import missing_bibtex, to_html
from research_assistant.report.references import STATUS_COLOURS
from research_assistant.reviewing import check_manuscript

# The corpus papers the manuscripts cite (file names in ../shared/corpus), and library.bib.
CITED = [
    "map-reduce.pdf",
    "seung08.pdf",
    "compressed.tracemonkey-pldi-09.pdf",
    "1801.07779.pdf",
    "pasa.pdf",
    "1707.04066v1.pdf",
    "smith07.pdf",
]
DEAN, JAIN, GAL = (
    "deanMapReduceSimplifiedData2004",
    "jainNaturalImageDenoising2008",
    ("galTracebasedJustintimeType2009"),
)
WILI, PASA, TRILLING = (
    "thomaWiLIBenchmarkDataset2018",
    "hePaSaLLMAgent2025",
    ("trillingSizeDistributionNear2017"),
)
NISSIM = "nissimSmoothSensitivitySampling2007"

# Claims from tests/data/verification.jsonl: true, a changed number, a wrong paper.
TRUE_DEAN = (
    "MapReduce is a programming model and an associated implementation for processing and "
    "generating large data sets"
)
CHANGED_JAIN = "The denoising network has 5 hidden layers and 24 feature maps in each hidden layer"
WRONG_GAL = (
    "Programs written in the MapReduce functional style are automatically parallelized and "
    "executed on a large cluster of commodity machines"
)
TRUE_WILI = (
    "The WiLI dataset contains 1000 paragraphs of 235 languages, totaling in 235 000 paragraphs"
)
TRUE_PASA = (
    "PaSa is optimized using reinforcement learning with a synthetic dataset, AutoScholarQuery, "
    "which includes 35k fine-grained academic queries"
)
TRUE_TRILLING = (
    "Over the entire observing run, around 365,000 synthetic asteroid detections were possible"
)
TRUE_NISSIM = "Two databases are neighbors if they differ in a single individual's data"
RESNET = "Residual learning eases the training of networks substantially deeper than before"


@pytest.fixture(scope="module")
def lib(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    library = Library.open(tmp_path_factory.mktemp("manuscript") / "lib")
    library.ingest([corpus / "library.bib", *(corpus / name for name in CITED)])
    yield library
    store_mod.close(library.root / "catalog.duckdb")


def _pdf(path: Path, paragraphs: list[str], references: list[str]) -> Path:
    html = "<h1>A test manuscript</h1><h2>Introduction</h2>" + "".join(
        f"<p>{p}</p>" for p in paragraphs
    )
    html += "<h2>References</h2>" + "".join(f"<p>{r}</p>" for r in references)
    path.write_bytes(pdf.html_pdf(html))
    return path


NUMERIC_BODY = [
    f"{TRUE_DEAN} [1].",
    f"{CHANGED_JAIN} [2].",
    f"{WRONG_GAL} [3].",
    f"{RESNET} [4].",
    f"{TRUE_WILI}<sup>5</sup>.",
    f"{TRUE_PASA} [6].",
    f"{TRUE_TRILLING} [7].",
    "This sentence cites a number the list does not hold [8].",
]
NUMERIC_REFS = [
    "[1] J. Dean and S. Ghemawat. MapReduce: simplified data processing on large clusters. "
    "In OSDI, 2004.",
    "[2] V. Jain and S. Seung. Natural image denoising with convolutional networks. NIPS, 2008.",
    "[3] A. Gal, B. Eich, M. Franz et al. Trace-based just-in-time type specialization for "
    "dynamic languages. In PLDI, 2009.",
    "[4] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. "
    "In CVPR, 2016. doi:10.1109/CVPR.2016.90",
    "[5] M. Thoma. The WiLI benchmark dataset for written language identification. "
    "arXiv:1801.07779, 2018.",
    "[6] Y. He et al. An agent for paper search. 2025. https://doi.org/10.48550/arXiv.2501.10120",
    "[7] D. E. Trilling, F. Valdes, L. Allen et al. Astronomical Journal 154, 170 (2017).",
]
# marker -> (status, library key or None, reference index or None)
NUMERIC_EXPECTED = {
    "[1]": ("verified", DEAN, 0),
    "[2]": ("unsupported", JAIN, 1),
    "[3]": ("unsupported", GAL, 2),
    "[4]": ("not_in_library", None, 3),
    "^5": ("verified", WILI, 4),
    "[6]": ("verified", PASA, 5),
    "[7]": ("verified", TRILLING, 6),
    "[8]": ("malformed", None, None),
}


@pytest.fixture(scope="module")
def numeric(
    lib: Library, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, CheckedManuscript]:
    path = _pdf(tmp_path_factory.mktemp("pdf") / "draft.pdf", NUMERIC_BODY, NUMERIC_REFS)
    return path, check_manuscript(lib, path)


def test_numeric_and_superscript_citations_resolve_through_the_reference_list(
    numeric: tuple[Path, CheckedManuscript],
) -> None:
    _, checked = numeric
    got = {
        c.citation.mention.marker: (c.citation.status, c.citation.paper_key, c.reference)
        for c in checked.citations
    }
    assert got == NUMERIC_EXPECTED
    assert [c.page for c in checked.citations] == [1] * 8
    assert checked.summary() == {
        "verified": 4,
        "unsupported": 2,
        "not_in_library": 1,
        "malformed": 1,
    }


def test_the_reference_list_is_matched_by_doi_arxiv_title_then_author_and_year(
    numeric: tuple[Path, CheckedManuscript],
) -> None:
    _, checked = numeric
    methods = [(m.method, m.key) for m in checked.matches]
    assert methods == [
        ("title", DEAN), ("title", JAIN), ("title", GAL), ("none", None),
        ("arxiv", WILI), ("doi", PASA), ("author_year", TRILLING),
    ]  # fmt: skip
    assert [r.number for r in checked.references] == [1, 2, 3, 4, 5, 6, 7]
    assert checked.missing() == [3]
    assert checked.references[3].doi == "10.1109/CVPR.2016.90"
    bib = missing_bibtex(checked)
    assert "doi = {10.1109/CVPR.2016.90}" in bib and "He, K. and Zhang, X." in bib


def test_the_json_contract(numeric: tuple[Path, CheckedManuscript], lib: Library) -> None:
    _, checked = numeric
    d = checked.to_dict()
    assert set(d) >= {"citations", "references", "summary"}
    assert {"marker", "status", "paper_key", "claim", "evidence", "reference"} <= set(
        d["citations"][0]
    )
    assert {"text", "key", "method", "score"} <= set(d["references"][0])
    run = lib.store.run(checked.id)
    assert run is not None and run["source"] == "manuscript" and run["file"] == "draft.pdf"
    assert run["sha256"] == checked.sha256


def test_the_annotated_pdf_holds_one_note_per_citation_in_its_verdict_colour(
    numeric: tuple[Path, CheckedManuscript], tmp_path: Path
) -> None:
    path, checked = numeric
    out = tmp_path / "checked.pdf"
    assert outputs.annotate(checked, path, out) == 8  # every sentence found and highlighted
    notes = annotations(out)
    assert len(notes) == 8 and {n[1] for n in notes} == {"Highlight"}
    for (page, _, colour, text), c in zip(notes, checked.citations, strict=True):
        want = STATUS_COLOURS[c.citation.status][0].lstrip("#")
        assert page == 1
        assert "".join(f"{round(x * 255):02x}" for x in colour) == want
        if c.citation.evidence:
            assert f"(p. {c.citation.evidence.page})" in text
            assert c.citation.evidence.text[:20] in text
    assert annotations(path) == []  # the manuscript itself is never changed


def test_reports_in_html_word_and_markdown(
    numeric: tuple[Path, CheckedManuscript], tmp_path: Path
) -> None:
    _, checked = numeric
    for suffix in outputs.REPORT_SUFFIXES:
        outputs.write_report(checked, tmp_path / f"report{suffix}")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Not in your library" in html and "Deep residual learning" in html
    assert 'href="https://doi.org/10.1109/CVPR.2016.90"' in html
    document = docx.Document(str(tmp_path / "report.docx"))
    cells = [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    assert "[3]" in cells and "author and year" in cells
    assert "∉ not in your library" in cells
    assert "not in your library" in (tmp_path / "report.md").read_text(encoding="utf-8")
    with pytest.raises(ResearchAssistantError, match=re.escape("report.txt")):
        outputs.write_report(checked, tmp_path / "report.txt")


def test_the_html_report_escapes_everything_from_the_manuscript(
    lib: Library, tmp_path: Path
) -> None:
    body = ["Hostile <script>alert(1)</script> text with a citation [1]."]
    refs = ['[1] A. Evil. <img src=x onerror="alert(2)"> A title of a paper. 2020.']
    md = tmp_path / "evil.md"
    md.write_text("# T\n\n" + "\n\n".join(body) + "\n\n## References\n\n" + "\n\n".join(refs))
    html = to_html(check_manuscript(lib, md))
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x" in html


# Word ----------------------------------------------------------------------------------------

_FOOTNOTES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:id="1"><w:p><w:r><w:t>{note}</w:t></w:r></w:p></w:footnote></w:footnotes>'
)
_FOOTNOTES_REL = (
    '<Relationship Id="rIdFn1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/footnotes" Target="footnotes.xml"/>'
)
_FOOTNOTES_TYPE = (
    '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.wordprocessingml.footnotes+xml"/>'
)


def _docx(path: Path, paragraphs: list[str], references: list[str], footnote: str) -> Path:
    """python-docx writes the body; it cannot write footnotes, so the footnotes part, its
    relationship and its content type are added to the package here, as Word stores them."""
    document = docx.Document()
    document.add_heading("A test manuscript", 0)
    for p in paragraphs:
        document.add_paragraph(p)
    document.add_heading("References", 1)
    for r in references:
        document.add_paragraph(r)
    buffer = io.BytesIO()
    document.save(buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>", _FOOTNOTES_REL.encode() + b"</Relationships>"
                )
            if item.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", _FOOTNOTES_TYPE.encode() + b"</Types>")
            dst.writestr(item, data)
        dst.writestr("word/footnotes.xml", _FOOTNOTES.format(note=footnote))
    return path


def test_a_word_manuscript_with_author_year_citations_and_a_footnote(
    lib: Library, tmp_path: Path
) -> None:
    path = _docx(
        tmp_path / "draft.docx",
        [
            f"{TRUE_DEAN} (Dean & Ghemawat, 2004).",
            f"{CHANGED_JAIN} (Jain & Seung, 2008).",
            f"{RESNET} (He et al., 2016).",
            "A claim about nothing in particular (Smith, 2019).",
        ],
        [
            "Dean, J., & Ghemawat, S. (2004). MapReduce: Simplified data processing on large "
            "clusters. In OSDI.",
            "Jain, V., & Seung, S. (2008). Natural image denoising with convolutional networks. "
            "In NIPS.",
            "He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image "
            "recognition. In CVPR. https://doi.org/10.1109/CVPR.2016.90",
        ],
        f"{TRUE_NISSIM} (Nissim et al., 2007).",
    )
    checked = check_manuscript(lib, path)
    got = [(c.citation.mention.marker, c.citation.status, c.citation.paper_key, c.reference)
           for c in checked.citations]  # fmt: skip
    assert got == [
        ("(Dean & Ghemawat, 2004)", "verified", DEAN, 0),
        ("(Jain & Seung, 2008)", "unsupported", JAIN, 1),
        ("(He et al., 2016)", "not_in_library", None, 2),
        ("(Smith, 2019)", "unknown_source", None, None),
        ("(Nissim et al., 2007)", "verified", NISSIM, None),  # from the footnote
    ]
    assert [m.method for m in checked.matches] == ["title", "title", "none"]


def test_a_docx_that_unpacks_too_far_is_refused_by_name(
    tmp_path: Path, lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    from research_assistant import word

    path = _docx(tmp_path / "big.docx", ["Text."], [], "A note.")
    monkeypatch.setattr(word, "MAX_DOCX_UNPACKED", 1000)
    with pytest.raises(ResearchAssistantError, match=re.escape("big.docx unpacks to more than")):
        check_manuscript(lib, path)
    (tmp_path / "fake.docx").write_bytes(b"not a zip")
    with pytest.raises(
        ResearchAssistantError, match=re.escape("fake.docx is not a Word .docx file")
    ):
        check_manuscript(lib, tmp_path / "fake.docx")


# LaTeX and Markdown --------------------------------------------------------------------------

BIB = r"""
@inproceedings{dean2004, author = {Dean, Jeffrey and Ghemawat, Sanjay}, year = {2004},
  title = {{MapReduce}: Simplified Data Processing on Large Clusters}, booktitle = {OSDI}}
@inproceedings{jain2008, author = {Jain, Viren and Seung, Sebastian}, year = {2008},
  title = {Natural Image Denoising with Convolutional Networks}, booktitle = {NIPS}}
@inproceedings{he2016, author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  title = {Deep Residual Learning for Image Recognition}, year = {2016},
  doi = {10.1109/CVPR.2016.90}}
@article{pasa, author = {He, Yichen and others}, title = {An agent}, year = {2025},
  eprint = {2501.10120}, archiveprefix = {arXiv}}
"""

TEX = rf"""\documentclass{{article}}
\usepackage{{natbib}}
% \cite{{commented}} is no citation
\begin{{document}}
\section{{Introduction}}
{TRUE_DEAN}~\citep{{dean2004}}. As \citet[p.~3]{{jain2008}} report, {CHANGED_JAIN[4:].lower()}.
{RESNET}~\parencite{{he2016}}. {TRUE_PASA}~\cite{{pasa}}. A key with no entry~\textcite{{nokey}}.
\bibliographystyle{{plainnat}}
\bibliography{{refs}}
\end{{document}}
"""


def test_a_latex_manuscript_resolves_its_keys_through_its_bib(lib: Library, tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(TEX, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    checked = check_manuscript(lib, tmp_path / "paper.tex", tmp_path / "refs.bib")
    got = [(c.citation.mention.marker, c.citation.status, c.citation.paper_key)
           for c in checked.citations]  # fmt: skip
    assert got == [
        ("[dean2004]", "verified", DEAN),
        ("[jain2008]", "unsupported", JAIN),
        ("[he2016]", "not_in_library", None),
        ("[pasa]", "verified", PASA),
        ("[nokey]", "malformed", None),
    ]
    assert [(r.key, m.method) for r, m in zip(checked.references, checked.matches, strict=True)] == [
        ("dean2004", "title"), ("jain2008", "title"), ("he2016", "none"), ("pasa", "arxiv"),
    ]  # fmt: skip


def test_a_latex_manuscript_without_its_bib_says_so(lib: Library, tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(TEX, encoding="utf-8")
    checked = check_manuscript(lib, tmp_path / "paper.tex")
    assert any("paper.tex cites by key but no .bib was given" in n for n in checked.notes)
    assert {c.citation.status for c in checked.citations} == {"malformed"}


def test_markdown_with_pandoc_keys_and_author_year_text(lib: Library, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    text = (
        f"# Draft\n\n{TRUE_DEAN} [@dean2004]. {RESNET} [see @he2016, p. 3]. "
        f"@jain2008 report that {CHANGED_JAIN[4:].lower()}.\n\n{TRUE_NISSIM} (Nissim et al., 2007).\n"
    )
    (tmp_path / "draft.md").write_text(text, encoding="utf-8")
    checked = check_manuscript(lib, tmp_path / "draft.md", tmp_path / "refs.bib")
    got = [(c.citation.mention.marker, c.citation.status) for c in checked.citations]
    assert got == [
        ("[@dean2004]", "verified"),
        ("[see @he2016, p. 3]", "not_in_library"),
        ("@jain2008", "unsupported"),
        ("(Nissim et al., 2007)", "verified"),
    ]


# Bad input and the command line --------------------------------------------------------------


def test_bad_manuscripts_get_messages_that_name_the_file(
    lib: Library, corpus: Path, tmp_path: Path
) -> None:
    with pytest.raises(
        ResearchAssistantError, match=re.escape("calculus00marciala_p43.pdf has no text layer")
    ):
        check_manuscript(lib, corpus / "odd" / "calculus00marciala_p43.pdf")
    protected = check_manuscript(lib, corpus / "odd" / "copy-protected.pdf")  # empty password
    assert any("encrypted with an empty password" in n for n in protected.notes)
    assert any("No reference list was found in copy-protected.pdf" in n for n in protected.notes)
    (tmp_path / "draft.rtf").write_text("{\\rtf1}")
    with pytest.raises(
        ResearchAssistantError, match=re.escape("draft.rtf is not a manuscript Citable reads")
    ):
        check_manuscript(lib, tmp_path / "draft.rtf")
    (tmp_path / "nolist.md").write_text(f"{TRUE_DEAN} [1].\n")
    checked = check_manuscript(lib, tmp_path / "nolist.md")
    assert "No reference list was found in nolist.md" in checked.notes[0]
    assert checked.citations[0].citation.status == "malformed"


def test_a_real_corpus_paper_checked_as_a_manuscript(lib: Library, corpus: Path) -> None:
    """map-reduce.pdf's own reference list: 18 works, none in this library (no corpus paper
    cites another), each citation of the text reported as not in the library."""
    checked = check_manuscript(lib, corpus / "map-reduce.pdf")
    assert len(checked.references) == 18
    assert [r.number for r in checked.references] == list(range(1, 19))
    assert checked.missing() == list(range(18))
    assert checked.summary() == {"not_in_library": len(checked.citations)}
    assert len(checked.citations) >= 15


def test_the_command_line(lib: Library, numeric: tuple[Path, CheckedManuscript], tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    path, _ = numeric
    code = main(
        ["--library", str(lib.root), "--json", "check-manuscript", str(path),
         "--out", str(tmp_path / "r.html"), "--annotated", str(tmp_path / "a.pdf"),
         "--missing-bib", str(tmp_path / "missing.bib")]
    )  # fmt: skip
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    assert d["summary"] == {"verified": 4, "unsupported": 2, "not_in_library": 1, "malformed": 1}
    assert [c["reference"] for c in d["citations"]] == [0, 1, 2, 3, 4, 5, 6, None]
    assert (tmp_path / "r.html").exists() and len(annotations(tmp_path / "a.pdf")) == 8
    assert "He, K." in (tmp_path / "missing.bib").read_text(encoding="utf-8")
