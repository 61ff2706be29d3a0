"""matching.py: the corpus acceptance figures, the title threshold, file forms, one-to-one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from research_assistant.bib.parse import parse_bib_file
from research_assistant.ingest import matching
from research_assistant.ingest.matching import TITLE_MATCH_THRESHOLD, match_pdfs
from research_assistant.models import Paper, PdfInfo


def _correct(matches, truth: dict[str, str]) -> int:
    return sum(m.key == truth[Path(m.pdf).name] for m in matches)


def test_every_pdf_matches_its_entry_by_the_file_field(corpus: Path, library) -> None:
    infos, papers, truth = library
    matches = match_pdfs(infos, papers, [corpus])
    assert [m.pdf for m in matches] == [i.path for i in infos]
    assert _correct(matches, truth) == 18
    assert {m.method for m in matches} == {"file"}
    assert all(m.score == 1.0 for m in matches)


def test_without_file_fields_doi_arxiv_and_title_match_all_18(library) -> None:
    infos, papers, truth = library
    matches = match_pdfs(infos, [replace(p, files=()) for p in papers])
    assert _correct(matches, truth) == 18  # the acceptance bar is 95%; measured: 18/18
    methods = {Path(m.pdf).name: m.method for m in matches}
    assert methods["0807.3577.pdf"] == "doi"
    assert methods["e4faf2c1d76b9bf8f8b4524dfb8c5c6b93be5f35.pdf"] == "doi"
    assert methods["pasa.pdf"] == "arxiv"  # printed 2501.10120v1, entry eprint 2501.10120
    assert methods["1601.03642.pdf"] == "arxiv"
    for name in ("seung08.pdf", "map-reduce.pdf", "Wang-paperAVE2008.pdf", "paper.pdf"):
        assert methods[name] == "title"


def test_titles_alone_match_all_18(library) -> None:
    """The traps: 1601.03642's metadata title, the German 1512.04469, seung08 without a year."""
    infos, papers, truth = library
    bare = [replace(p, files=(), doi="", arxiv_id="") for p in papers]
    matches = match_pdfs(infos, bare)
    assert _correct(matches, truth) == 18
    assert {m.method for m in matches} == {"title"}
    assert min(m.score for m in matches) >= TITLE_MATCH_THRESHOLD / 100


def test_threshold_separates_true_from_wrong_titles_on_the_corpus(library) -> None:
    infos, papers, truth = library
    for info in infos:
        true_key = truth[Path(info.path).name]
        scores = {p.key: matching.title_score(p, info) for p in papers}
        assert scores[true_key] >= TITLE_MATCH_THRESHOLD, info.path
        wrong = max(s for k, s in scores.items() if k != true_key)
        assert wrong < TITLE_MATCH_THRESHOLD - 20, (info.path, wrong)  # measured max: 56


def test_threshold_matches_nothing_in_unrelated_libraries(corpus: Path, library) -> None:
    """3,003 entries of six real libraries that hold none of the 18 papers."""
    infos, _, _ = library
    others = [p for bib in sorted((corpus / "bib").glob("*.bib")) for p in
              parse_bib_file(bib).papers]  # fmt: skip
    assert len(others) > 2500
    matches = match_pdfs(infos, [replace(p, files=()) for p in others])
    assert [m for m in matches if m.key is not None] == []


def test_the_batch_title_search_finds_what_comparing_every_pair_finds(
    corpus: Path, library
) -> None:
    """The fast path (rapidfuzz's batch search) against the definition (``_title_score`` of
    every PDF with every entry): 18 PDFs against library.bib, the six real libraries, and
    their titles with a letter dropped or doubled (scores near the threshold)."""
    infos, papers, _ = library
    entries = list(papers) + [
        p for bib in sorted((corpus / "bib").glob("*.bib")) for p in parse_bib_file(bib).papers
    ]
    typos = [replace(p, title=p.title[:5] + p.title[6:]) for p in papers]
    typos += [replace(p, title=p.title[:9] + p.title[8:]) for p in papers]
    titles = [matching._norm(p.title) for p in entries + typos]
    titled = {j: t for j, t in enumerate(titles) if t}
    long_titled = {j: t for j, t in titled.items() if len(t.split()) >= 4}
    near = 0
    for info in infos:
        views = matching._title_views(info)
        every = {
            j: matching._title_score(t, views, TITLE_MATCH_THRESHOLD) for j, t in titled.items()
        }
        want = {j: s for j, s in every.items() if s >= TITLE_MATCH_THRESHOLD}
        assert matching._titles_at_threshold(titled, long_titled, views) == want, info.path
        # the same on a library small enough for the GIL-holding path: the corpus entries and
        # their altered titles only
        small = {j: t for j, t in titled.items() if j < len(papers) or j >= len(entries)}
        assert len(small) < matching._GIL_FREE_FROM <= len(titled)
        small_long = {j: t for j, t in small.items() if j in long_titled}
        small_want = {j: s for j, s in want.items() if j in small}
        assert matching._titles_at_threshold(small, small_long, views) == small_want, info.path
        near += sum(1 for j in want if j >= len(entries))
    assert near >= 18  # the altered titles do reach the threshold, so the search is tested there


def _info(path: str, **kw: object) -> PdfInfo:
    return PdfInfo(path=path, sha256="0" * 64, pages=(), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("files", "pdf_name", "matched"),
    [
        (("paper.pdf",), "paper.pdf", True),
        (("PAPER.PDF",), "paper.pdf", True),  # names compare case-insensitively
        (("C:\\Users\\me\\Zotero\\storage\\AB12\\paper.pdf",), "paper.pdf", True),
        ((":papers/paper.pdf:PDF",), "paper.pdf", True),  # a raw JabRef record
        (("Full text:C\\:\\\\Users\\\\me\\\\paper.pdf:PDF",), "paper.pdf", True),
        (("/nowhere/other.pdf;/nowhere/paper.pdf",), "paper.pdf", True),  # a raw Zotero list
        (("other.pdf",), "paper.pdf", False),
    ],
)
def test_file_field_forms_match_by_name(files: tuple[str, ...], pdf_name: str, matched: bool):
    paper = Paper(key="k", title="Something Entirely Different", files=files)
    (m,) = match_pdfs([_info(f"/some/where/{pdf_name}")], [paper])
    assert (m.key, m.method) == (("k", "file") if matched else (None, "none"))


def test_relative_file_paths_resolve_against_the_bib_folder(tmp_path: Path) -> None:
    (tmp_path / "bib" / "pdfs").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    mine = tmp_path / "bib" / "pdfs" / "paper.pdf"
    same_name = tmp_path / "elsewhere" / "paper.pdf"
    for p in (mine, same_name):
        p.write_bytes(b"%PDF-1.7")
    paper = Paper(key="k", title="T", files=("pdfs/paper.pdf",))
    matches = match_pdfs([_info(str(same_name)), _info(str(mine))], [paper], [tmp_path / "bib"])
    # The entry's file exists, so only that very file matches, not another with its name.
    assert [m.key for m in matches] == [None, "k"]


def test_an_entry_goes_to_one_pdf_and_the_loser_is_unmatched() -> None:
    paper = Paper(key="k", title="A Study of Percolation on Lattices", doi="10.1/xyz")
    copy_a = _info("/a/first.pdf", doi="10.1/xyz", title="A Study of Percolation on Lattices")
    copy_b = _info("/b/second.pdf", doi="10.1/XYZ")
    matches = match_pdfs([copy_b, copy_a], [paper])
    # same method: the better title breaks the tie; the other copy is reported unmatched
    assert [(m.key, m.method) for m in matches] == [(None, "none"), ("k", "doi")]


def test_stronger_evidence_wins_the_entry() -> None:
    paper = Paper(key="k", title="A Study of Percolation on Lattices", arxiv_id="2001.00001")
    by_title = _info("/a.pdf", title="A Study of Percolation on Lattices")
    by_arxiv = _info("/b.pdf", arxiv_id="2001.00001v3")
    matches = match_pdfs([by_title, by_arxiv], [paper])
    assert [(m.key, m.method) for m in matches] == [(None, "none"), ("k", "arxiv")]


def test_two_pdfs_take_two_entries_by_best_score() -> None:
    papers = [
        Paper(key="walks", title="Random Walks in One, Two and Three Dimensions"),
        Paper(key="walks3", title="Random Walks in Three Dimensions"),
    ]
    pdfs = [
        _info("/x.pdf", title="Random Walks in Three Dimensions"),
        _info("/y.pdf", title="Random Walks in One, Two and Three Dimensions"),
    ]
    assert [m.key for m in match_pdfs(pdfs, papers)] == ["walks3", "walks"]


@pytest.mark.parametrize(
    ("entry", "printed"),
    [
        (Paper(key="k", title="x", doi="https://doi.org/10.1088/ABC"), {"doi": "10.1088/abc"}),
        (Paper(key="k", title="x", doi="10.48550/arXiv.1601.03642"),
         {"arxiv_id": "1601.03642v1"}),
        (Paper(key="k", title="x", url="https://arxiv.org/abs/astro-ph/0601001v2"),
         {"arxiv_id": "astro-ph/0601001"}),
    ],
)  # fmt: skip
def test_identifier_forms(entry: Paper, printed: dict[str, str]) -> None:
    (m,) = match_pdfs([_info("/p.pdf", **printed)], [entry])
    assert m.key == "k"


def test_no_papers_no_pdfs() -> None:
    assert match_pdfs([], []) == ()
    (m,) = match_pdfs([_info("/p.pdf", title="Anything")], [])
    assert (m.key, m.method, m.score) == (None, "none", 0.0)


# inferring an entry --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "paths"),
    [
        ("paper.pdf", ["paper.pdf"]),
        (":papers/a.pdf:PDF", ["papers/a.pdf"]),
        ("Full text:C\\:\\\\Users\\\\x\\\\B.pdf:PDF", ["C:\\Users\\x\\B.pdf"]),
        ("C:\\Users\\x\\b.pdf", ["C:\\Users\\x\\b.pdf"]),
        ("/home/u/a.pdf;/home/u/b.pdf", ["/home/u/a.pdf", "/home/u/b.pdf"]),
        (":C$\\backslash$:/Users/x.pdf:pdf", ["C:/Users/x.pdf"]),
    ],
)
def test_file_paths(raw: str, paths: list[str]) -> None:
    assert matching.file_paths(raw) == paths


def test_file_fields_are_never_looked_up_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A .bib could probe whether a server path exists if matching looked it up: the field is
    only compared with the PDFs given (issue 10). An existing file elsewhere with the PDF's name
    does not change the match."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "paper.pdf").write_bytes(b"%PDF-1.7")
    touched: list[str] = []
    for method in ("exists", "is_file", "is_dir", "stat", "resolve", "lstat"):
        real = getattr(Path, method)

        def spy(self: Path, *a: object, _real=real, **k: object) -> object:
            touched.append(str(self))
            return _real(self, *a, **k)

        monkeypatch.setattr(Path, method, spy)
    fields = ("/etc/passwd", "../../x/paper.pdf", str(tmp_path / "elsewhere" / "paper.pdf"))
    paper = Paper(key="k", title="Unrelated", files=(";".join(fields),))
    (m,) = match_pdfs([_info(str(tmp_path / "up" / "paper.pdf"))], [paper], [tmp_path / "bib"])
    assert (m.key, m.method) == ("k", "file")
    assert not [t for t in touched if "passwd" in t or "elsewhere" in t or "/x/" in t]
