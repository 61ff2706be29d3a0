"""pdf.py against the real corpus PDFs, broken files made on the spot, and its own output."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pymupdf
import pytest

from research_assistant.errors import (
    CorruptPdfError,
    EncryptedPdfError,
    NotAPdfError,
    ScannedPdfError,
)
from research_assistant.ingest import layout, pdf

# What each corpus PDF prints: (file, DOI, arXiv id, title). Looked up in the page-1 text.
CORPUS_PDFS = [
    ("0807.3577.pdf", "10.1088/1475-7516/2008/10/003", "",
     "Apparent and average accelerations of the Universe"),
    ("1001._0908.0054.pdf", "", "0908.0054v1", "Ultra light bosonic dark matter and CMB"),
    ("1512.04469.pdf", "", "1512.04469v1",
     "Über die Klassifizierung von Knoten in dynamischen Netzwerken mit Inhalt"),
    ("1601.03642.pdf", "", "1601.03642v1", "Creativity in Machine Learning"),
    ("1707.04066v1.pdf", "", "1707.04066v1",
     "THE SIZE DISTRIBUTION OF NEAR EARTH OBJECTS LARGER THAN 10 METERS"),
    ("1801.07779.pdf", "", "1801.07779v1",
     "The WiLI benchmark dataset for written language identification"),
    ("2302.07302v1.pdf", "10.1145/3544548.3580847", "2302.07302v1",
     "CiteSee: Augmenting Citations in Scientific Papers with Persistent and Personalized "
     "Historical Context"),
    ("7f4e18385a30ccb00dc637d5123f894f1f862964.pdf", "10.1088/1742-6596/2188/1/012011", "",
     "SemEAGAT: A Novel Approach by Incorporating Semantic Dependency Graph in Event Detection"),
    ("MullenJSSv18i03.pdf", "", "",
     "TIMP: An R Package for Modeling Multi-way Spectroscopic Measurements"),
    ("P14-1059.pdf", "", "",
     "How to make words with vectors: Phrase generation in distributional semantics"),
    ("Wang-paperAVE2008.pdf", "", "", "Information Synthesis for Answer Validation"),
    ("compressed.tracemonkey-pldi-09.pdf", "", "",
     "Trace-based Just-in-Time Type Specialization for Dynamic Languages"),
    ("e4faf2c1d76b9bf8f8b4524dfb8c5c6b93be5f35.pdf", "10.1371/journal.pone.0197919", "",
     "Comparative physiological and metabolomics analysis of wheat (Triticum aestivum L.) "
     "following post-anthesis heat stress"),
    ("map-reduce.pdf", "", "", "MapReduce: Simplified Data Processing on Large Clusters"),
    ("paper.pdf", "", "", "A Perspective on Explanations of Molecular Prediction Models"),
    ("pasa.pdf", "", "2501.10120v1", "PaSa: An LLM Agent for Comprehensive Academic Paper Search"),
    ("seung08.pdf", "", "", "Natural Image Denoising with Convolutional Networks"),
    ("smith07.pdf", "", "", "Smooth Sensitivity and Sampling in Private Data Analysis"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "doi", "arxiv", "title"), CORPUS_PDFS, ids=lambda v: v[:20])
def test_corpus_pdf_is_read(corpus: Path, name: str, doi: str, arxiv: str, title: str) -> None:
    path = corpus / name
    info = pdf.read_pdf(path)
    assert info.page_count > 0
    assert [p.number for p in info.pages] == list(range(1, info.page_count + 1))
    assert info.pages[0].text.strip()
    assert info.first_page_text == info.pages[0].text
    assert info.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (info.doi, info.arxiv_id, info.title) == (doi, arxiv, title)
    assert info.notes == ()
    assert "\x00" not in "".join(p.text for p in info.pages)


def test_corpus_is_fully_covered(corpus: Path) -> None:
    assert sorted(p.name for p in corpus.glob("*.pdf")) == sorted(n for n, *_ in CORPUS_PDFS)


@pytest.mark.parametrize(
    ("name", "pages", "needle"),
    [
        ("MullenJSSv18i03.pdf", 46, "TIMP"),
        ("compressed.tracemonkey-pldi-09.pdf", 14, "trace"),
        ("1001._0908.0054.pdf", 4, "Ω"),  # the OHM SIGN of the text layer, mapped to omega
    ],
)
def test_page_counts_and_text(corpus: Path, name: str, pages: int, needle: str) -> None:
    info = pdf.read_pdf(corpus / name)
    assert info.page_count == pages
    assert any(needle in p.text for p in info.pages)
    assert "\u2126" not in "".join(p.text for p in info.pages)


def test_ligatures_are_expanded(corpus: Path) -> None:
    info = pdf.read_pdf(corpus / "1512.04469.pdf")
    assert "Klassifizierung" in info.first_page_text
    assert "\ufb01" not in info.first_page_text


def test_metadata_is_kept_beside_the_printed_title(corpus: Path) -> None:
    info = pdf.read_pdf(corpus / "1601.03642.pdf")
    assert info.metadata_title == "Art in Machine Learning"
    assert info.title == "Creativity in Machine Learning"
    assert info.metadata_author == "Martin Thoma"


def test_max_pages_reads_only_the_first_pages(corpus: Path) -> None:
    info = pdf.read_pdf(corpus / "paper.pdf", max_pages=2)
    assert info.page_count == 2
    assert info.title == "A Perspective on Explanations of Molecular Prediction Models"


# odd and broken files ------------------------------------------------------------------------


def test_copy_protected_pdf_is_read_with_a_note(corpus: Path) -> None:
    info = pdf.read_pdf(corpus / "odd" / "copy-protected.pdf")
    assert info.page_count == 2
    assert info.arxiv_id == "2103.15348v2"
    assert info.title.startswith("LayoutParser: A Unified Toolkit")
    assert info.notes == ("encrypted with an empty password; text extracted",)


def test_scanned_pdf_is_refused(corpus: Path) -> None:
    with pytest.raises(ScannedPdfError, match=r"calculus00marciala_p43\.pdf.*OCR"):
        pdf.read_pdf(corpus / "odd" / "calculus00marciala_p43.pdf")


def _png_named_pdf(path: Path) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    pix.clear_with(255)
    path.write_bytes(pix.tobytes("png"))


def _truncated(corpus: Path, path: Path) -> None:
    path.write_bytes((corpus / "map-reduce.pdf").read_bytes()[:3000])


def _password(_: Path, path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "A secret paper about percolation.")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")


@pytest.mark.parametrize(
    ("make", "error", "hint"),
    [
        (lambda _, p: p.write_bytes(b""), NotAPdfError, "empty"),
        (lambda _, p: _png_named_pdf(p), NotAPdfError, "not a PDF"),
        (lambda _, p: p.write_text("%PDF-1.7\n" + "garbage " * 50), CorruptPdfError, "damaged"),
        (_truncated, CorruptPdfError, "download it again"),
        (_password, EncryptedPdfError, "protected by a password: remove it"),
    ],
    ids=["zero-bytes", "png-renamed", "header-only", "truncated", "password"],
)
def test_bad_files_raise_typed_errors_naming_the_file(
    corpus: Path, tmp_path: Path, make, error: type[Exception], hint: str
) -> None:
    path = tmp_path / "My Paper.pdf"
    make(corpus, path)
    with pytest.raises(error) as caught:
        pdf.read_pdf(path)
    assert "My Paper.pdf" in str(caught.value)
    assert hint in str(caught.value)


def test_a_missing_file_is_reported_not_crashed(tmp_path: Path) -> None:
    with pytest.raises(NotAPdfError, match=r"gone\.pdf"):
        pdf.read_pdf(tmp_path / "gone.pdf")


def test_mostly_empty_pdf_is_read_with_a_note(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Only the first page has text.")
    for _ in range(5):
        doc.new_page()
    doc.save(tmp_path / "sparse.pdf")
    info = pdf.read_pdf(tmp_path / "sparse.pdf")
    assert info.page_count == 6
    assert info.notes == ("only 1 of 6 pages have text; the rest may be scans",)


@pytest.mark.parametrize(
    ("printed", "doi", "arxiv"),
    [
        ("Available at https://doi.org/10.1000/XYZ-123.", "10.1000/xyz-123", ""),
        ("DOI: 10.5555/abc(2001)12;", "10.5555/abc(2001)12", ""),
        ("Preprint arXiv:astro-ph/0601001v2, 2006", "", "astro-ph/0601001v2"),
        ("See https://arxiv.org/abs/2501.10120 for updates", "", "2501.10120"),
    ],
)
def test_identifiers_are_sniffed_from_the_text(
    tmp_path: Path, printed: str, doi: str, arxiv: str
) -> None:
    path = tmp_path / "ids.pdf"
    sections = [("Introduction", f"Some words about the work. {printed} More words.")]
    pdf.write_pdf(path, title="A Paper on Identifiers", authors="A", banner="", sections=sections)
    info = pdf.read_pdf(path)
    assert (info.doi, info.arxiv_id) == (doi, arxiv)


# superscripts -------------------------------------------------------------------------------


def _raised_pdf(path: Path) -> Path:
    """Two lines written piece by piece: exponents and a footnote marker set smaller and raised,
    a subscript set smaller and lowered, an ordinal raised."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [
        [("We counted 10", 11, 0), ("3", 7, 4), (" stars in the word", 11, 0), ("1", 7, 4),
         (" and 2.5 x 10", 11, 0), ("-22", 7, 4), (" kg.", 11, 0)],
        [("Water is H", 11, 0), ("2", 7, -2.5), ("O since the 20", 11, 0), ("th", 7, 4),
         (" century.", 11, 0)],
    ]  # fmt: skip
    for y, pieces in zip((100, 130), lines, strict=True):
        x = 72.0
        for text, size, rise in pieces:
            page.insert_text((x, y - rise), text, fontsize=size, fontname="helv")
            x += pymupdf.get_text_length(text, fontname="helv", fontsize=size)
    doc.save(path)
    return path


def test_raised_exponents_and_markers_get_a_caret(tmp_path: Path) -> None:
    path = _raised_pdf(tmp_path / "raised.pdf")
    text = pdf.read_pdf(path).pages[0].text
    assert text == (
        "We counted 10^3 stars in the word^1 and 2.5 x 10^-22 kg.\n"
        "Water is H2O since the 20th century.\n"  # a subscript and an ordinal stay as printed
    )
    with pymupdf.open(path) as doc:  # everything but the marks as the plain extraction has it
        assert text.replace("^", "") == doc[0].get_text()


def test_a_quote_with_a_caret_is_found_on_the_page(tmp_path: Path) -> None:
    path = _raised_pdf(tmp_path / "raised.pdf")
    rects = pdf.quote_rects(path, 1, "counted 10^3 stars in the word^1 and 2.5 x 10^-22 kg")
    assert rects
    assert "counted" in _text_in(path, 1, rects) and "kg" in _text_in(path, 1, rects)
    assert pdf.page_png(path, 1, "10^3 stars") != pdf.page_png(path, 1)


def test_corpus_exponents_keep_their_caret(corpus: Path) -> None:
    text = " ".join(
        " ".join(p.text.split()) for p in pdf.read_pdf(corpus / "1707.04066v1.pdf").pages
    )
    assert "106.6" not in text
    assert "there are 10^6.6 NEOs larger than 10 meters" in text
    assert "We find around 10^6.6 (or 3.5 × 10^6) NEOs" in text
    assert "digest2 scores^1 greater" in text  # a footnote marker no longer glued to the word
    assert "D. E. Trilling,^1, 2, 3, ∗F. Valdes,^4 L. Allen" in text
    assert "2014 HA196" in text  # a subscript is left as the text layer has it
    quote = "We find around 10^6.6 (or 3.5 × 10^6) NEOs larger than H=27.3"
    assert pdf.quote_rects(corpus / "1707.04066v1.pdf", 6, quote)


def test_corpus_negative_exponents_use_an_ascii_minus(corpus: Path) -> None:
    text = " ".join(pdf.read_pdf(corpus / "1001._0908.0054.pdf").pages[0].text.split())
    assert "ultra light (∼10^-22 eV)" in text
    assert "10−22" not in text
    # the page prints 10−22: the highlight looks for that
    assert pdf.quote_rects(corpus / "1001._0908.0054.pdf", 1, "ultra light (∼10^-22 eV)")


def test_a_footnote_marker_is_not_part_of_a_doi() -> None:
    assert layout.find_doi("Published as doi:10.1000/xyz-123^1 in 2020.") == "10.1000/xyz-123"


def _unmarked(marked: str, plain: str) -> str:
    """``marked`` with the marks read_pdf adds undone, aligned on ``plain``: a "^" that is not in
    ``plain`` is dropped and a "-" standing for a minus sign becomes the minus sign again."""
    out: list[str] = []
    i = 0
    for ch in marked:
        if i < len(plain) and ch == plain[i]:
            out.append(ch)
            i += 1
        elif ch == "-" and i < len(plain) and plain[i] == "\u2212":
            out.append(plain[i])
            i += 1
        elif ch != "^":
            out.append(ch)
    return "".join(out)


@pytest.mark.parametrize("name", [n for n, *_ in CORPUS_PDFS], ids=lambda v: v[:20])
def test_only_the_marks_change_the_page_text(corpus: Path, name: str) -> None:
    """Pages without a raised run read exactly as the plain extraction; the others differ only
    by the marks, so offsets, chunks and highlights keep to the stored text."""
    info = pdf.read_pdf(corpus / name)
    with pymupdf.open(corpus / name) as doc:
        for page, stored in zip(doc, info.pages, strict=True):
            plain = page.get_text(flags=pdf._TEXT_FLAGS).translate(pdf._SAFE_FIXES)
            if "<sup>" not in page.get_textpage(flags=pdf._TEXT_FLAGS).extractXHTML():
                assert stored.text == plain
            else:
                assert _unmarked(stored.text, plain) == plain
                assert len(stored.text) - len(plain) == stored.text.count("^") - plain.count("^")


# highlighting --------------------------------------------------------------------------------


def _text_in(path: Path, page: int, rects: list[tuple[float, float, float, float]]) -> str:
    with pymupdf.open(path) as doc:
        return " ".join(doc[page - 1].get_textbox(pymupdf.Rect(r)) for r in rects)


@pytest.mark.parametrize(
    ("name", "page", "quote", "lines", "expect"),
    [
        # on one line: found by page.search_for
        ("map-reduce.pdf", 1, "MapReduce is a programming model", 1, "programming"),
        # across a line break
        ("P14-1059.pdf", 1, "how can we generate the phrase that best expresses that meaning",
         2, "expresses"),
        # across two hyphenated line breaks ("distri-/butional", "mean-/ing"): the word runs
        ("P14-1059.pdf", 1, "Given a distributional vector representing some meaning", 3,
         "representing"),
        # a title typed with "fi" where the PDF has the ligature glyph
        ("1512.04469.pdf", 1, "Über die Klassifizierung von Knoten in dynamischen Netzwerken", 2,
         "Knoten"),
    ],
)  # fmt: skip
def test_quote_rects_finds_the_quote(
    corpus: Path, name: str, page: int, quote: str, lines: int, expect: str
) -> None:
    rects = pdf.quote_rects(corpus / name, page, quote)
    assert len(rects) == lines
    assert expect in _text_in(corpus / name, page, rects)


def test_quote_rects_returns_nothing_for_an_absent_quote(corpus: Path) -> None:
    assert pdf.quote_rects(corpus / "P14-1059.pdf", 1, "dark energy in supernova surveys") == []
    assert pdf.quote_rects(corpus / "P14-1059.pdf", 1, "   ") == []


def test_quote_rects_rejects_a_page_that_does_not_exist(corpus: Path) -> None:
    with pytest.raises(CorruptPdfError, match="has no page 99"):
        pdf.quote_rects(corpus / "P14-1059.pdf", 99, "words")


def test_page_png_renders_without_touching_the_file(corpus: Path) -> None:
    path = corpus / "P14-1059.pdf"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    plain = pdf.page_png(path, 1)
    marked = pdf.page_png(path, 1, "how can we generate the phrase that best expresses")
    assert plain.startswith(b"\x89PNG\r\n\x1a\n") and marked.startswith(b"\x89PNG")
    assert plain != marked  # the highlight changed pixels
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    small = pymupdf.Pixmap(pdf.page_png(path, 1, zoom=0.5))
    with pymupdf.open(path) as doc:
        assert small.width == pytest.approx(doc[0].rect.width * 0.5, abs=1)


# writing -------------------------------------------------------------------------------------

SECTIONS = [
    ("1 Introduction", "Percolation thresholds are sharp.\n\n" + "A long paragraph. " * 300),
    ("2 Results", "Bond percolation on the square lattice has p_c = 1/2 exactly & precisely."),
]


def test_write_pdf_round_trips_through_read_pdf(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "demo.pdf"
    title = "A Short Guide to Percolation Thresholds"
    pages = pdf.write_pdf(path, title=title, authors="Ada Lee", banner="DEMO", sections=SECTIONS)
    info = pdf.read_pdf(path)
    assert pages == info.page_count >= 2
    assert info.title == title
    assert info.metadata_author == "Ada Lee"
    assert all("DEMO" in p.text for p in info.pages)
    text = " ".join(" ".join(p.text.split()) for p in info.pages)
    assert "p_c = 1/2 exactly & precisely" in text
    assert [p.name for p in path.parent.iterdir()] == ["demo.pdf"]  # no temp file left


def test_write_pdf_is_deterministic_and_leaves_an_identical_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "demo.pdf"
    pdf.write_pdf(path, title="T one two", authors="A", banner="B", sections=SECTIONS)
    first, mtime = path.read_bytes(), path.stat().st_mtime_ns
    pdf.write_pdf(path, title="T one two", authors="A", banner="B", sections=SECTIONS)
    assert path.read_bytes() == first
    assert path.stat().st_mtime_ns == mtime
    pdf.write_pdf(path, title="T one three", authors="A", banner="B", sections=SECTIONS)
    assert path.read_bytes() != first
