"""Page-aware chunking and the BM25 index: offsets, persistence, generations."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_assistant.errors import LibraryError
from research_assistant.index import CHUNK_MAX_CHARS, SearchIndex, chunk_paper, split_page
from research_assistant.models import PageText

PAGE = (
    "Diffusion-limited aggregation grows clusters by random walkers that stick on contact. "
    "In two dimensions the clusters have a fractal dimension of about 1.71. "
) * 12


@pytest.mark.parametrize(
    "text",
    [
        PAGE,
        "",
        "one sentence only",
        "x" * 5000,
        "Table 1 " + "0.1 0.2 0.3 " * 400,
        PAGE + "\n\n" + PAGE,
    ],
)
def test_split_page_offsets_cover_the_text_within_bounds(text: str) -> None:
    spans = split_page(text)
    for s, e in spans:
        assert 0 <= s < e <= len(text)
        assert e - s <= CHUNK_MAX_CHARS
    covered = "".join(text[s:e] for s, e in spans)
    # every non-space character of the page lands in some chunk
    assert set(text.split()) <= set(covered.split()) or not text.strip()


def test_chunks_never_cross_pages_and_slice_their_page() -> None:
    pages = [PageText(1, PAGE), PageText(2, "Second page. " * 200), PageText(3, "   ")]
    chunks = chunk_paper("smith2020", "f" * 64, pages)
    assert {c.page for c in chunks} == {1, 2}
    for c in chunks:
        assert pages[c.page - 1].text[c.start : c.end] == c.text
        assert c.chunk_id.startswith("smith2020@ffffffff:p")
    assert len({c.chunk_id for c in chunks}) == len(chunks)


def test_chunks_of_the_real_corpus_slice_their_pages(corpus: Path) -> None:
    from research_assistant.ingest.pdf import read_pdf

    info = read_pdf(corpus / "map-reduce.pdf")
    chunks = chunk_paper("dean2004", info.sha256, info.pages)
    assert len(chunks) > info.page_count
    for c in chunks:
        assert info.pages[c.page - 1].text[c.start : c.end] == c.text


def test_retrieve_ranks_the_relevant_paper_first(tmp_path: Path) -> None:
    a = chunk_paper("dla", "a" * 64, [PageText(1, PAGE)])
    b = chunk_paper("mr", "b" * 64, [PageText(1, "MapReduce splits input among workers. " * 20)])
    idx = SearchIndex.build(a + b, {"dla": "DLA", "mr": "MapReduce"}, "g1")
    top = idx.retrieve("fractal dimension of aggregation clusters", 3)
    assert top and top[0].chunk.paper_key == "dla"
    assert idx.retrieve("", 3) == []
    assert idx.retrieve("zzzz qqqq", 3) == []
    assert idx.chunks_of("mr") == b and idx.chunk(a[0].chunk_id) == a[0]


GEN1, GEN2 = "0123456789ab", "ba9876543210"  # generations are 12 hex digits (files.py)


def test_save_load_by_generation(tmp_path: Path) -> None:
    chunks = chunk_paper("dla", "a" * 64, [PageText(1, PAGE)])
    SearchIndex.build(chunks, {}, GEN1).save(tmp_path)
    loaded = SearchIndex.load(tmp_path, chunks, GEN1)
    assert loaded is not None and loaded.retrieve("fractal", 1)[0].chunk.paper_key == "dla"
    # a catalog at another generation whose index is missing forces a rebuild
    assert SearchIndex.load(tmp_path, chunks, GEN2) is None
    SearchIndex.build(chunks, {}, GEN2).save(tmp_path)
    assert [p.name for p in tmp_path.iterdir() if p.is_dir()] == [GEN2]
    assert (tmp_path / "CURRENT").read_text() == GEN2


def test_a_written_generation_waits_for_its_commit(tmp_path: Path) -> None:
    """write() makes the folder of a generation without touching the current one; the catalog
    commit decides which is loaded; discard() removes a write whose commit failed."""
    chunks = chunk_paper("dla", "a" * 64, [PageText(1, PAGE)])
    SearchIndex.build(chunks, {}, GEN1).save(tmp_path)
    new = SearchIndex.build(chunks, {}, GEN2)
    new.write(tmp_path)
    assert (tmp_path / "CURRENT").read_text() == GEN1
    assert SearchIndex.load(tmp_path, chunks, GEN1) is not None
    assert SearchIndex.load(tmp_path, chunks, GEN2) is not None
    new.discard(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [GEN1, "CURRENT"]


@pytest.mark.parametrize("generation", ["../../victim", "/tmp/victim", "GEN1", "", "a" * 13])
def test_a_generation_that_is_not_hex_never_becomes_a_path(tmp_path: Path, generation: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep").write_text("x")
    folder = tmp_path / "lib" / "index"
    folder.mkdir(parents=True)
    with pytest.raises(LibraryError, match="generation"):
        SearchIndex.build([], {}, generation).save(folder)
    if generation:
        with pytest.raises(LibraryError, match="generation"):
            SearchIndex.load(folder, [], generation)
    assert (victim / "keep").read_text() == "x"


def test_empty_index(tmp_path: Path) -> None:
    idx = SearchIndex.build([], {}, "empty")
    assert idx.retrieve("anything", 5) == [] and len(idx) == 0
    idx.save(tmp_path)
    loaded = SearchIndex.load(tmp_path, [], "empty")
    assert loaded is not None and len(loaded) == 0
