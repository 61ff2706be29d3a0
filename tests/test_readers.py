"""The reader processes: they chunk each PDF, and an ingest's chunks and term counts are the
ones the parent would make itself (the readers' terms are the checker's ``chunk_terms``); they
run below normal priority, so the questions a server answers meanwhile come first."""

from __future__ import annotations

from pathlib import Path

from research_assistant.check.support import chunk_terms
from research_assistant.index import chunk_paper
from research_assistant.ingest.chunking import chunk_spans, split_page
from research_assistant.ingest.pdf import read_pdf
from research_assistant.ingest.readers import READER_NICENESS, Readers, read_or_reason
from research_assistant.library import Library
from research_assistant.models import PageText, PdfInfo
from research_assistant.termcounts import TermCounts

PDFS = ("map-reduce.pdf", "smith07.pdf", "pasa.pdf", "seung08.pdf")


def test_reader_spans_make_the_chunks_the_parent_would(corpus: Path) -> None:
    info = read_or_reason(str(corpus / "smith07.pdf"))
    assert isinstance(info, PdfInfo) and info.spans
    made_here = chunk_paper("smith", info.sha256, read_pdf(corpus / "smith07.pdf").pages)
    from_spans = chunk_paper("smith", info.sha256, info.pages, info.spans)
    assert from_spans == made_here
    assert [s.terms for s in info.spans] == [chunk_terms(c) for c in made_here]


def test_blank_pages_have_no_spans_and_ids_count_per_page() -> None:
    pages = [PageText(1, "Alpha beta gamma. " * 120), PageText(2, "  \n"), PageText(3, "Delta.")]
    spans = chunk_spans(pages)
    assert {s.page for s in spans} == {1, 3}
    assert len([s for s in spans if s.page == 1]) == len(split_page(pages[0].text)) > 1
    ids = [c.chunk_id for c in chunk_paper("k", "a" * 64, pages, spans)]
    assert ids[-1] == "k@aaaaaaaa:p3:0" and ids[0] == "k@aaaaaaaa:p1:0"


def test_an_ingest_with_reader_processes_counts_terms_as_a_recount(
    tmp_path: Path, corpus: Path
) -> None:
    lib = Library.open(tmp_path / "lib")
    report = lib.ingest([corpus / name for name in PDFS], workers=2)
    assert len(report.added) == len(PDFS)
    chunks = lib.index.all_chunks()
    assert lib.index.terms == TermCounts.of(chunks)
    reopened = Library.open(tmp_path / "lib")
    assert reopened.index.terms == TermCounts.of(chunks)


def test_reader_processes_run_below_normal_priority(corpus: Path) -> None:
    with Readers(1) as readers:
        (result,) = readers.read([str(corpus / "smith07.pdf")])
        assert isinstance(result, PdfInfo) and result.spans
        stat = Path(f"/proc/{readers.procs[0].pid}/stat").read_text()
        niceness = int(stat.rsplit(")", 1)[1].split()[16])  # field 19 of proc(5)
    assert niceness >= READER_NICENESS


def test_a_file_name_with_a_line_break_reads_its_own_file(tmp_path: Path, corpus: Path) -> None:
    """Paths go to the readers length-prefixed: a name holding a newline cannot shift the
    answers onto the next file."""
    odd = tmp_path / "a\nb.pdf"
    odd.write_bytes((corpus / "smith07.pdf").read_bytes())
    (tmp_path / "b.pdf").write_bytes((corpus / "map-reduce.pdf").read_bytes())
    with Readers(1) as readers:
        first, second = readers.read([str(odd), str(tmp_path / "b.pdf")])
    assert isinstance(first, PdfInfo) and isinstance(second, PdfInfo)
    assert first.first_page_text != second.first_page_text
    assert first.page_count == read_pdf(corpus / "smith07.pdf").page_count
    assert second.page_count == read_pdf(corpus / "map-reduce.pdf").page_count
