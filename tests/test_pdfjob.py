"""PDF reader processes: order of results, progress, a worker that dies, reuse."""

from __future__ import annotations

from pathlib import Path

from research_assistant.ingest import readers as pdfjob
from research_assistant.models import PdfInfo


def test_results_come_back_in_input_order_with_progress(corpus: Path) -> None:
    paths = [str(corpus / n) for n in ("smith07.pdf", "map-reduce.pdf", "P14-1059.pdf")]
    paths.append(str(corpus / "odd" / "calculus00marciala_p43.pdf"))  # a scan: a reason
    done: list[int] = []
    results = pdfjob.read_many(paths, 2, lambda i, r: done.append(i))
    assert sorted(done) == [0, 1, 2, 3]
    assert [isinstance(r, PdfInfo) for r in results] == [True, True, True, False]
    assert [Path(r.path).name for r in results[:3]] == ["smith07.pdf", "map-reduce.pdf",
                                                        "P14-1059.pdf"]  # fmt: skip
    assert "no text layer" in results[3]


def test_a_dead_worker_fails_one_file_and_is_replaced(corpus: Path) -> None:
    paths = [str(corpus / "smith07.pdf"), str(corpus / "Wang-paperAVE2008.pdf")]
    with pdfjob.Readers(1) as readers:
        readers.procs[0].kill()
        readers.procs[0].wait()
        results = readers.read(paths)
        assert readers.procs[0].poll() is None  # a fresh worker took over
    crashed = [r for r in results if isinstance(r, str)]
    assert len(crashed) == 1 and "crashed" in crashed[0]
    assert sum(isinstance(r, PdfInfo) for r in results) == 1


def test_shared_readers_are_reused_and_a_second_caller_gets_its_own() -> None:
    with pdfjob.shared_readers(2) as first, pdfjob.shared_readers(2) as concurrent:
        assert concurrent is not first
    with pdfjob.shared_readers(2) as again:
        assert again is first and all(p.poll() is None for p in again.procs)


def test_read_or_reason_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "notes.pdf"
    bad.write_text("not a pdf")
    reason = pdfjob.read_or_reason(str(bad))
    assert isinstance(reason, str) and "notes.pdf" in reason


def test_prefetched_files_are_taken_and_the_rest_of_the_queue_dropped(corpus: Path) -> None:
    """The CLI sets the readers on every PDF it was given before the library is open; the
    ingest then asks for the new ones only: they come back in its order, with progress."""
    names = ("smith07.pdf", "map-reduce.pdf", "P14-1059.pdf", "seung08.pdf", "pasa.pdf")
    paths = [str(corpus / n) for n in names]
    with pdfjob.Readers(2) as readers:
        readers.prefetch(paths)
        done: list[int] = []
        wanted = [paths[3], paths[0], str(corpus / "paper.pdf")]  # the last one not prefetched
        results = readers.read(wanted, lambda i, _: done.append(i))
        again = readers.read([paths[1]])  # a dropped file is read again when asked for
    assert sorted(done) == [0, 1, 2]
    assert [Path(r.path).name for r in results if isinstance(r, PdfInfo)] == [
        "seung08.pdf", "smith07.pdf", "paper.pdf"
    ]  # fmt: skip
    assert isinstance(again[0], PdfInfo) and Path(again[0].path).name == "map-reduce.pdf"


def test_readers_closed_while_prefetching_stop_after_the_current_file(corpus: Path) -> None:
    with pdfjob.Readers(1) as readers:
        readers.prefetch([str(p) for p in sorted(corpus.glob("*.pdf"))])
    assert all(p.poll() is not None for p in readers.procs)


def test_the_cli_prefetches_only_pdfs_an_ingest_would_read(tmp_path: Path) -> None:
    """Files over the size limit are never handed to the readers before the library is open
    (the ingest skips them with a reason)."""
    from research_assistant.ingest.collect import readable_pdfs

    (tmp_path / "sub").mkdir()
    small, big = tmp_path / "sub" / "a.pdf", tmp_path / "b.pdf"
    small.write_bytes(b"%PDF-1.4 small")
    big.write_bytes(b"%PDF-1.4 " + b"0" * 100)
    (tmp_path / "notes.txt").write_text("not a paper")
    assert readable_pdfs([tmp_path, tmp_path / "gone.pdf"], max_bytes=50) == [small]
