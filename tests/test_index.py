"""Page-aware chunking and the BM25 index: offsets, persistence, generations."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_assistant.errors import LibraryError
from research_assistant.fulltext import Fulltext
from research_assistant.index import (
    CHUNK_MAX_CHARS,
    SearchIndex,
    chunk_paper,
    same_text,
    split_page,
)
from research_assistant.ingest.pdf import read_pdf
from research_assistant.models import Chunk, PageText

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


def test_chunks_carry_their_terms_through_the_index(corpus: Path, tmp_path: Path) -> None:
    """The reader's terms ride with each chunk into the index and come back with it, equal to
    the checker's terms of the text; chunks indexed without terms (a rebuild from the catalog)
    get them computed; a whole-library read leaves them out (memory)."""
    from research_assistant.check.passages import chunk_terms
    from research_assistant.ingest.chunking import chunk_spans
    from research_assistant.terms import terms

    info = read_pdf(corpus / "map-reduce.pdf")
    read = chunk_paper("mr", info.sha256, info.pages, chunk_spans(info.pages))
    bare = chunk_paper("dla", "a" * 64, [PageText(1, PAGE)])
    assert all(c.terms == terms(c.text) for c in read)
    assert all(c.terms is None for c in bare)
    SearchIndex.build(read + bare, {}, GEN1).save(tmp_path)
    loaded = SearchIndex.load(tmp_path, read + bare, GEN1)
    assert loaded is not None
    for key in ("mr", "dla"):
        back = loaded.chunks_of(key)
        assert back and all(c.terms is not None and c.terms == terms(c.text) for c in back)
        assert all(chunk_terms(c) is c.terms for c in back)
    hit = loaded.retrieve("fractal dimension", 1)[0].chunk
    assert hit.terms == terms(hit.text)
    assert all(c.terms is None for c in loaded.all_chunks())
    # the counts stored with the generation are those of the texts
    assert loaded.terms.df == SearchIndex.build(bare + read, {}, GEN2).terms.df


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


# ---- incremental changes (issue 14) ----------------------------------------------------------
GEN3 = "00112233aabb"
QUERIES = [
    "map and reduce functions over key value pairs",
    "paper search agent large language model",
    "dune height distribution",
    "master worker failure re-execution",
    "crawler selects citations to expand",
]


@pytest.fixture(scope="module")
def corpus_chunks(corpus: Path) -> dict[str, list[Chunk]]:
    """Three corpus papers' chunks, and a shorter version of the second ("smith2" replaced)."""
    out = {}
    for key, name in (("mr", "map-reduce.pdf"), ("smith", "smith07.pdf"), ("pasa", "pasa.pdf")):
        info = read_pdf(corpus / name)
        out[key] = chunk_paper(key, info.sha256, info.pages)
        if key == "smith":
            out["smith2"] = chunk_paper(key, "f" * 64, info.pages[:2])
    return out


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(folder.iterdir()) if f.is_file()}


def test_add_replace_remove_ranks_as_a_full_rebuild(
    tmp_path: Path, corpus_chunks: dict[str, list[Chunk]]
) -> None:
    """One change adds a paper, replaces one (new file: new chunk ids, fewer pages) and removes
    one; the derived index holds, counts and ranks what a full build of the result does, and
    the generation it came from is left exactly as it was."""
    c = corpus_chunks
    titles = {"mr": "MapReduce", "smith": "Dunes", "pasa": "PaSa"}
    folder = tmp_path / "index"
    SearchIndex.build(c["mr"] + c["smith"], titles, GEN1, stage=folder).save(folder)
    base = SearchIndex.load(folder, len(c["mr"]) + len(c["smith"]), GEN1, titles)
    assert base is not None
    before = folder_bytes(folder / GEN1)
    old_top = [[p.chunk.chunk_id for p in base.retrieve(q, 5)] for q in QUERIES]

    new = base.derive(folder, {"pasa": c["pasa"], "smith": c["smith2"]}, ["mr"], titles, GEN2)
    new.write(folder)
    full = SearchIndex.build(c["smith2"] + c["pasa"], titles, GEN3)
    assert len(new) == len(full) == len(c["smith2"]) + len(c["pasa"])
    assert new.chunks_of("mr") == [] and new.chunks_of("smith") == c["smith2"]
    assert new.chunks_of("pasa") == c["pasa"] and new.chunk(c["pasa"][0].chunk_id) == c["pasa"][0]
    assert new.terms == full.terms
    reopened = SearchIndex.load(folder, len(full), GEN2, titles)
    assert reopened is not None and reopened.terms == full.terms
    for q in QUERIES:
        want = [p.chunk.chunk_id for p in full.retrieve(q, 5)]
        assert [p.chunk.chunk_id for p in new.retrieve(q, 5)] == want
        assert [p.chunk.chunk_id for p in reopened.retrieve(q, 5)] == want

    # the old generation: its files untouched (the new one links them), its results the same
    assert folder_bytes(folder / GEN1) == before
    assert [[p.chunk.chunk_id for p in base.retrieve(q, 5)] for q in QUERIES] == old_top
    old = SearchIndex.load(folder, len(c["mr"]) + len(c["smith"]), GEN1, titles)
    assert old is not None and old.chunks_of("mr") == c["mr"]


def test_a_retitled_paper_is_searched_by_its_new_title(
    tmp_path: Path, corpus_chunks: dict[str, list[Chunk]]
) -> None:
    folder = tmp_path / "index"
    titles = {"mr": "MapReduce", "smith": "Dunes"}
    base = SearchIndex.build(corpus_chunks["mr"] + corpus_chunks["smith"], titles, GEN1)
    base.save(folder)
    renamed = {**titles, "smith": "Zanzibarish quokkas"}
    new = base.derive(folder, {}, [], renamed, GEN2)
    assert base.retrieve("zanzibarish quokkas", 1) == []
    assert new.retrieve("zanzibarish quokkas", 1)[0].chunk.paper_key == "smith"
    assert len(new) == len(base) and new.terms == base.terms


def test_a_change_killed_while_staged_leaves_the_current_generation(
    tmp_path: Path, corpus_chunks: dict[str, list[Chunk]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the staged copy's tantivy commit (the worst moment): the staged folder is
    removed, the current generation's files are byte for byte as they were and still load."""
    folder = tmp_path / "index"
    base = SearchIndex.build(corpus_chunks["mr"], {}, GEN1)
    base.save(folder)
    before = folder_bytes(folder / GEN1)
    original = Fulltext.change

    def killed(self: Fulltext, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        raise KeyboardInterrupt("killed after the staged commit")

    monkeypatch.setattr(Fulltext, "change", killed)
    with pytest.raises(KeyboardInterrupt):
        base.derive(folder, {"pasa": corpus_chunks["pasa"]}, ["mr"], {}, GEN2)
    assert sorted(p.name for p in folder.iterdir()) == [GEN1, "CURRENT"]
    assert folder_bytes(folder / GEN1) == before
    again = SearchIndex.load(folder, len(corpus_chunks["mr"]), GEN1)
    assert again is not None and again.retrieve(QUERIES[0], 1)[0].chunk.paper_key == "mr"


def test_an_index_of_another_number_of_chunks_or_format_is_rebuilt(
    tmp_path: Path, corpus_chunks: dict[str, list[Chunk]]
) -> None:
    chunks = corpus_chunks["mr"]
    SearchIndex.build(chunks, {}, GEN1).save(tmp_path)
    assert SearchIndex.load(tmp_path, len(chunks) + 1, GEN1) is None  # not the catalog's chunks
    (tmp_path / GEN1 / "FORMAT").write_text("something else\n")
    assert SearchIndex.load(tmp_path, chunks, GEN1) is None  # another schema: rebuilt


def test_copies_never_crowd_the_top(corpus_chunks: dict[str, list[Chunk]]) -> None:
    """The same text under two papers (a preprint and its journal version, say) is retrieved
    once, the best-scoring copy, and the rest of top k is filled with other chunks."""
    mr = corpus_chunks["mr"]
    copies = [Chunk(f"copy{c.chunk_id}", "copy", c.page, c.start, c.end, c.text) for c in mr]
    idx = SearchIndex.build(mr + copies + corpus_chunks["pasa"], {}, GEN1)
    top = idx.retrieve(QUERIES[0], 8)
    texts = [same_text(p.chunk.text) for p in top]
    assert len(top) == 8 and len(set(texts)) == 8
    assert [p.score for p in top] == sorted((p.score for p in top), reverse=True)
    raw = [same_text(c.text) for c, _ in idx._engine.search(QUERIES[0], 24)]
    assert len(set(raw)) < len(raw)  # without the merge, copies would take places


def test_llamaindex_nodes_are_the_library_chunks(corpus: Path) -> None:
    """nodes.py (for LlamaIndex users) chunks exactly as the library does."""
    from research_assistant.nodes import page_nodes  # LlamaIndex: imported by this test only

    info = read_pdf(corpus / "smith07.pdf")
    chunks = chunk_paper("smith", info.sha256, info.pages)
    nodes = page_nodes("smith", info.sha256, info.pages)
    assert [(n.node_id, n.metadata["page"], n.start_char_idx, n.end_char_idx, n.text)
            for n in nodes] == [(c.chunk_id, c.page, c.start, c.end, c.text) for c in chunks]  # fmt: skip


def test_tied_scores_rank_by_chunk_id_however_the_index_was_built(tmp_path: Path) -> None:
    """Chunks of the same length holding the query word once score the same; the top k is the
    same whichever order (and so whichever segment layout) they were indexed in."""
    chunks = [
        Chunk(
            f"p{i:03d}@00000000:p1:0", f"p{i:03d}", 1, 0, 40, f"alpha filler words number {i:03d}"
        )
        for i in range(60)
    ]
    tops = []
    for n, order in enumerate((chunks, chunks[::-1], chunks[30:] + chunks[:30])):
        (tmp_path / str(n)).mkdir()
        engine = Fulltext.create(tmp_path / str(n))
        for part in range(0, 60, 20):  # one segment per commit: another layout each time
            engine.change((), ((c, c.text) for c in order[part : part + 20]))
        tops.append([c.chunk_id for c, _ in engine.search("alpha", 7)])
    assert tops[0] == tops[1] == tops[2] == sorted(c.chunk_id for c in chunks)[:7]
