"""Library questions answered from the catalog, on a made-up library (pure: no index, no PDF):
filters, the cap on listed papers, and titles that must not read as citations."""

from __future__ import annotations

from collections.abc import Callable

from research_assistant.answer import catalog
from research_assistant.answer.asking import library_ask
from research_assistant.check.mentions import find_mentions
from research_assistant.models import Chunk, Name, Paper, Passage

ABSTRACT = (
    "Abstract. We measure how quickly sorted records reach the output files of a cluster. "
    "The second sentence says more."
)


def paper(i: int, year: int, family: str = "Ngata", title: str = "") -> Paper:
    return Paper(
        key=f"p{i}",
        title=title or f"Study number {i} of sorting",
        authors=(Name(family, "A."),),
        year=year,
        label=f"{family}, {year}" if i == 0 else f"{family}, {year}{chr(97 + i % 26)}",
        venue="Proceedings of the ACM Symposium" if i % 2 else "Journal of Sorting",
    )


def library(n: int = 15) -> dict[str, Paper]:
    papers = [paper(i, 2008 if i < n else 2010) for i in range(n + 3)]
    papers.append(paper(99, 2011, "Okafor", "Dark Matter and CMB (2009) [revisited]"))
    return {p.key: p for p in papers}


def chunks_of(calls: list[str]) -> Callable[[str], list[Chunk]]:
    def read(key: str) -> list[Chunk]:
        calls.append(key)
        return [Chunk(f"{key}:1:0", key, 1, 0, len(ABSTRACT), ABSTRACT)]

    return read


def no_search(_query: str, _k: int) -> list[Passage]:
    return []


def test_a_year_lists_at_most_ten_papers_and_says_how_many_match() -> None:
    ask = library_ask("Which of my papers are from 2008?")
    assert ask is not None
    calls: list[str] = []
    listing = catalog.list_papers(ask, library(), chunks_of(calls), no_search)
    assert listing is not None
    assert listing.total == 15 and len(listing.entries) == catalog.MAX_LISTED
    assert len(calls) == catalog.MAX_LISTED  # only the listed papers' chunks are read
    text = catalog.render(listing)
    assert text.startswith("15 papers in the library are from 2008; the first 10.")
    assert text.count("We measure how quickly sorted records") == 10


def test_authors_and_venues_filter() -> None:
    lib = library(4)
    by_author = library_ask("Which papers in my library are by Okafor?")
    at_venue = library_ask("Which papers in my library appeared at ACM conferences?")
    assert by_author is not None and at_venue is not None
    found = catalog.list_papers(by_author, lib, chunks_of([]), no_search)
    assert found is not None and [e.paper.key for e in found.entries] == ["p99"]
    acm = catalog.list_papers(at_venue, lib, chunks_of([]), no_search)
    assert acm is not None and acm.entries
    assert all("ACM" in e.paper.venue for e in acm.entries)
    # the same lists from facets made once (the app keeps them per library state)
    facts = catalog.facets(lib)
    assert "okafor" in facts.families and "acm" in facts.all_venue_words
    for ask, listing in ((by_author, found), (at_venue, acm)):
        assert catalog.list_papers(ask, lib, chunks_of([]), no_search, None, facts) == listing


def test_a_title_never_becomes_a_citation_marker() -> None:
    ask = library_ask("Which papers in my library are by Okafor?")
    assert ask is not None
    listing = catalog.list_papers(ask, library(2), chunks_of([]), no_search)
    assert listing is not None
    text = catalog.render(listing)
    assert "[revisited]" not in text and "(2009)" not in text
    assert [m.marker for m in find_mentions(text)] == [f"[{listing.entries[0].paper.label}]"]


def test_no_filter_and_no_topic_is_not_a_listing() -> None:
    ask = library_ask("Which papers in my library?")
    assert ask is not None
    assert catalog.list_papers(ask, library(2), chunks_of([]), no_search) is None


def test_a_paper_without_a_pdf_is_named_not_quoted() -> None:
    """A matching entry with no text to quote is counted and named after the list, with no
    citation (nothing of it could be checked), and its title cannot become a marker."""
    ask = library_ask("Which papers in my library are by Okafor?")
    assert ask is not None
    listing = catalog.list_papers(ask, library(2), lambda key: [], no_search)
    assert listing is not None and not listing.entries
    assert [p.key for p in listing.unquoted] == ["p99"]
    text = catalog.render(listing)
    assert text.startswith("1 paper in the library is by Okafor.")
    assert "Without a PDF in the library, so not quoted: Dark Matter and CMB (revisited)." in text
    assert not find_mentions(text)
