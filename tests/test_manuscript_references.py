"""The pure pieces of a manuscript check: reference lists found, split and parsed in the
styles journals print, numbered and keyed citations found, LaTeX read as text."""

from __future__ import annotations

import pytest

from research_assistant.check.resolve import Resolver
from research_assistant.manuscript.check import check_citations
from research_assistant.manuscript.citations import labelled_cites, numeric_cites, pandoc_cites
from research_assistant.manuscript.latex import bibitems, latex_text
from research_assistant.manuscript.model import Manuscript
from research_assistant.manuscript.references import (
    find_reference_list,
    parse_entry,
    split_entries,
)

# (printed entry, first author, year, DOI, arXiv id, title)
ENTRIES = [
    ("Smith, J., & Lee, C. (2020a). A study of growth. Phys. Rev. E, 3(2). "
     "https://doi.org/10.1103/PhysRevE.3.2", "Smith", "2020a", "10.1103/PhysRevE.3.2", "",
     "A study of growth"),
    ('A. Gal, B. Eich, and M. Franz, "Trace-based just-in-time type specialization," in PLDI, '
     "2009.", "Gal", "2009", "", "", "Trace-based just-in-time type specialization"),
    ("J. Dean and S. Ghemawat. 2004. MapReduce: simplified data processing. In OSDI.", "Dean",
     "2004", "", "", "MapReduce: simplified data processing"),
    ("Thoma M. Creativity in machine learning. arXiv:1601.03642, 2016.", "Thoma", "2016", "",
     "1601.03642", ""),
    ("van der Berg, A. (1999). Particles. Journal.", "van der Berg", "1999", "", "", "Particles"),
    ("Trilling, D. E., Valdes, F., et al. 2017, AJ, 154, 170", "Trilling", "2017", "", "", ""),
]  # fmt: skip


@pytest.mark.parametrize(("text", "first", "year", "doi", "arxiv", "title"), ENTRIES)
def test_entries_are_parsed(
    text: str, first: str, year: str, doi: str, arxiv: str, title: str
) -> None:
    e = parse_entry(text)
    assert (e.first_author, e.year, e.doi, e.arxiv_id) == (first, year, doi, arxiv)
    if title:
        assert e.title == title


LISTS = [
    ("[1] A. One. First. 2001.\n[2] B. Two. Second\nwork. 2002.\n", [(1, ""), (2, "")]),
    ("(1) One, A. First. J. 2001, 1.\n(2) Two, B. Second. J. 2002, 2.\n", [(1, ""), (2, "")]),
    ("1. One A. First. 2001.\n2. Two B. Second. 2002.\n", [(1, ""), (2, "")]),
    ("[Cop87]\nD. Cope, “Music,” 1987.\n[GEB15]\nL. Gatys, “Style,” 2015.\n", [(None, "Cop87"), (None, "GEB15")]),
    ("Boslough, M., Brown, P., &\nHarris, A. W. 2015, in\nAerospace Conference, 1-12\n"
     "Brown, P., Assink, J. D. 2013, Nature, 503,\n238\n", [(None, ""), (None, "")]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "want"), LISTS)
def test_lists_are_split_by_their_numbers_labels_or_line_starts(
    text: str, want: list[tuple[int | None, str]]
) -> None:
    entries = split_entries(text)
    assert [(n, label) for n, label, _ in entries] == want
    assert all("20" in t or "19" in t for _, _, t in entries)


def test_the_last_references_heading_starts_the_list() -> None:
    text = "Intro citing the references below.\nReferences\n[1] A. 2001.\nAppendix A\n" + "x" * 300
    start, end = find_reference_list(text) or (0, 0)
    assert text[start:end].strip().startswith("[1] A. 2001.")
    assert find_reference_list("No list here.") is None


def test_numeric_citations_and_superscripts() -> None:
    text = "Fast [3–5, 9] and slow^2,4. Exponent 10^6, years [1990–2020], interval [0, 1]."
    assert [n for *_, n in numeric_cites(text, len(text))] == [(3, 4, 5, 9), (2, 4)]


def test_pandoc_and_alpha_keys() -> None:
    text = "See [@dean2004; @thoma2016, p. 4] and @lee2020. Mail a@b.org. [KB14, Tho17a] [x]"
    assert [c.keys for c in pandoc_cites(text)] == [("dean2004", "thoma2016"), ("lee2020",)]
    assert [c.keys for c in labelled_cites(text, len(text), {"KB14", "Tho17a"})] == [
        ("KB14", "Tho17a")
    ]


def test_latex_becomes_text_with_key_markers() -> None:
    source = (
        "\\documentclass{article}\n% \\cite{commented}\n\\begin{document}\n\\section{Intro}\n"
        "Words~\\citep[p.~3]{a, b}. \\emph{More} text\\footnote{See \\cite{c}.}\n"
        "\\begin{equation} x = \\cite{eq} \\end{equation}\n"
        "\\begin{thebibliography}{9}\\bibitem{a} A. One. First. 2001.\\end{thebibliography}\n"
        "\\end{document}"
    )
    text, cites = latex_text(source)
    assert [text[c.start : c.end] for c in cites] == ["[a, b]", "[c]"]
    assert [c.keys for c in cites] == [("a", "b"), ("c",)]
    assert "commented" not in text and "More text" in text and "eq" not in text
    assert bibitems(source) == [("a", "A. One. First. 2001.")]


def test_unclosed_environments_cost_one_pass() -> None:
    """20,000 openers without closers: each closer is looked for once, not once per opener."""
    _, cites = latex_text("\\begin{equation} " * 20_000 + "\\[ $$ Words \\cite{k}.")
    assert [c.keys for c in cites] == [("k",)]


def test_affiliation_superscripts_above_the_abstract_are_no_citations() -> None:
    text = (
        "A Title\n\nA. Smith^1, B. Lee^2\n\n^1 Some University\n\nAbstract\n\nGrowth is fast^1.\n"
    )
    refs = (parse_entry("C. Other. Unrelated work on growth. 2001.", 1),)
    ms = Manuscript("m.pdf", "0", "pdf", text, len(text), refs, page_starts=(0,))
    found, matches = check_citations(ms, Resolver([]), lambda _key: [])
    assert [(c.citation.mention.marker, c.citation.status, c.reference) for c in found] == [
        ("^1", "not_in_library", 0)
    ]
    assert found[0].citation.claim == "Growth is fast."
    assert [m.method for m in matches] == ["none"]
