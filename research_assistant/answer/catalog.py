"""Questions about the library itself: "Which papers in my library are by Thoma?", "... from
2008?", "... appeared at ACM conferences?", "... study asteroids?".

Answered from the catalog (authors, years, venues) and, for a topic, from the chunks: each
listed paper is cited with a sentence of its own (from its abstract when the filter is
metadata, the sentence that best states the topic otherwise), so every entry of the list is
checked like any other claim. Pure: the library's chunks and search come in as functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from research_assistant.answer.asking import LibraryAsk
from research_assistant.answer.bib_filters import MONTH_NAMES, paper_kind, paper_month
from research_assistant.answer.sentences import cite_sentence, clean_sentences
from research_assistant.check.support import Context, chunk_terms
from research_assistant.models import Chunk, Paper, Passage
from research_assistant.terms import terms
from research_assistant.text import fold, words

__all__ = ["Facets", "Listing", "facets", "list_papers", "render"]

# A paper is listed for a topic when the topic's weighed terms are in its retrieved chunks (or
# title), times how many of the retrieved chunks are its, scores at least this. Chosen on the
# development library questions: "differential privacy" lists the one paper about it, not the
# four that say "differentiate" once (docs/BENCHMARKS.md).
TOPIC_THRESHOLD = 0.8
RELATIVE_TO_BEST = 0.75  # of the best paper's score (development library questions)
TITLE_SHARE = 0.5  # a topic term in the title counts this much where the sentence lacks it
TOPIC_TOP_K = 40  # chunks searched for a topic question
MASS_CHUNKS = 4  # a paper with this many of them is wholly about the topic
MAX_LISTED = 10
MAX_UNQUOTED = 5  # matching papers without a PDF, named after the list
_NO_BRACKETS = str.maketrans("[]", "()")
_YEAR_IN_PARENS = re.compile(r"\s*\((?:1[89]|20)\d\d[a-z]?\)")
_ABSTRACT = re.compile(r"\babstract\b[\s.:—-]*", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    paper: Paper
    chunk: Chunk
    sentence: str  # the paper's own sentence, cleaned as answers quote it
    score: float


@dataclass(frozen=True)
class Listing:
    why: str  # what the papers share: "by Thoma", "from 2008", "about asteroids"
    entries: tuple[Entry, ...]  # at most MAX_LISTED
    total: int = 0  # how many papers match in all
    unquoted: tuple[Paper, ...] = ()  # matching papers with no PDF text to quote (named only)
    noun: tuple[str, str] = ("paper", "papers")  # what they are: "preprint", "preprints"

    @property
    def passages(self) -> tuple[Passage, ...]:
        return tuple(Passage(e.chunk, e.score) for e in self.entries)


def _venue_text(p: Paper) -> str:
    venue = " ".join(v for k, v in p.fields if k in ("journal", "booktitle", "publisher"))
    return fold(f"{p.venue} {venue} {p.entry_type}")


@dataclass(frozen=True)
class Facets:
    """The catalog's author family names, venue words, kinds of publication and months: made
    once per library state (at 10,000 papers, making them for every library question cost
    0.3 s of it)."""

    families: frozenset[str]
    venue_words: dict[str, frozenset[str]]  # paper key -> the folded words of its venue
    kinds: dict[str, str]  # paper key -> ``paper_kind``
    months: dict[str, int | None]  # paper key -> the month of its entry

    @property
    def all_venue_words(self) -> frozenset[str]:
        return frozenset().union(*self.venue_words.values())


def facets(papers: Mapping[str, Paper]) -> Facets:
    return Facets(
        families=frozenset(fold(a.family) for p in papers.values() for a in p.authors),
        venue_words={k: frozenset(words(_venue_text(p))) for k, p in papers.items()},
        kinds={k: paper_kind(p) for k, p in papers.items()},
        months={k: paper_month(p) for k, p in papers.items()},
    )


def _metadata_filters(
    ask: LibraryAsk, facts: Facets
) -> tuple[list[Callable[[Paper], bool]], list[str]]:
    """The filters a question's years and names make, and how to say them."""
    tests: list[Callable[[Paper], bool]] = []
    said: list[str] = []
    if ask.years:
        years = set(ask.years)
        tests.append(lambda p: p.year in years)
        said.append("from " + " or ".join(str(y) for y in sorted(years)))
    authors = [n for n in ask.names if fold(n) in facts.families]
    if authors:
        wanted = {fold(n) for n in authors}
        tests.append(lambda p: any(fold(a.family) in wanted for a in p.authors))
        said.append("by " + " ".join(ask.names[ask.names.index(authors[0]) :][:3]))
    names = [n for n in ask.names if n not in authors]
    venues = [n for n in names if fold(n) in facts.all_venue_words] if names else []
    if venues:
        wanted_v = {fold(n) for n in venues}
        tests.append(lambda p: bool(wanted_v & facts.venue_words.get(p.key, frozenset())))
        said.append("published at " + " ".join(venues))
    bib = ask.bib
    if bib.kinds:
        kinds = set(bib.kinds)
        tests.append(lambda p: facts.kinds.get(p.key) in kinds)
        if len(bib.kinds) > 1:  # one kind names the papers instead (``_noun``)
            said.insert(0, " or ".join(_KIND_SAID[k][1] for k in bib.kinds))
    if bib.since is not None or bib.until is not None:
        low, high = bib.since or 0, bib.until or 9999
        tests.append(lambda p: p.year is not None and low <= p.year <= high)
        said.append(_span_said(bib.since, bib.until))
    if bib.months:
        months = set(bib.months)
        tests.append(lambda p: facts.months.get(p.key) in months)
        said.append("published in " + " or ".join(MONTH_NAMES[m - 1] for m in bib.months))
    return tests, said


_KIND_SAID = {  # singular, plural
    "journal": ("journal article", "journal articles"),
    "conference": ("conference paper", "conference papers"),
    "preprint": ("preprint", "preprints"),
    "thesis": ("thesis", "theses"),
    "book": ("book or chapter", "books or chapters"),
    "report": ("report", "reports"),
}


def _noun(ask: LibraryAsk) -> tuple[str, str]:
    """What the listed things are called: "preprints" when one kind is asked, else papers."""
    kinds = ask.bib.kinds
    return _KIND_SAID[kinds[0]] if len(kinds) == 1 else ("paper", "papers")


def _span_said(since: int | None, until: int | None) -> str:
    if since is not None and until is not None:
        return f"from {since}" if since == until else f"from {since} to {until}"
    return f"from {since} on" if since is not None else f"from {until} or before"


def _abstract_sentence(chunks: Sequence[Chunk]) -> tuple[Chunk, str] | None:
    """The first sentence of the paper's abstract, else its first prose sentence."""
    first: tuple[Chunk, str] | None = None
    for chunk in sorted(chunks, key=lambda c: (c.page, c.start))[:12]:
        m = _ABSTRACT.search(chunk.text)
        text = chunk.text[m.end() :] if m else chunk.text
        found = [s for _, s in clean_sentences(text) if len(s.split()) >= 8]
        if found and m:
            return chunk, found[0]
        if found and first is None:
            first = (chunk, found[0])
    return first


def _topic_entries(
    ask: LibraryAsk,
    papers: dict[str, Paper],
    retrieve: Callable[[str, int], Sequence[Passage]],
    ctx: Context | None,
) -> list[Entry]:
    """Papers by how much of the topic their retrieved chunks and title state, and how many
    of the retrieved chunks are theirs (a paper about the topic has many); each with its
    sentence that states most of it."""
    weight = {t: (ctx.weight(t) if ctx is not None else 1.0) for t in set(ask.topic)}
    total = sum(weight.values()) or 1.0
    chunks: dict[str, list[Chunk]] = {}
    for passage in retrieve(" ".join(ask.topic), TOPIC_TOP_K):
        if passage.chunk.paper_key in papers:
            chunks.setdefault(passage.chunk.paper_key, []).append(passage.chunk)

    def share(have: frozenset[str], title: frozenset[str]) -> float:
        got = sum(
            w if t in have else TITLE_SHARE * w if t in title else 0.0 for t, w in weight.items()
        )
        return got / total

    entries = []
    for key, found in chunks.items():
        paper = papers[key]  # its keywords name its topics as its title does
        title = terms(f"{paper.title} {dict(paper.fields).get('keywords', '')}")
        cover = share(frozenset().union(*(chunk_terms(c) for c in found)), title)
        score = cover * (1 + min(1.0, len(found) / MASS_CHUNKS)) / 2
        best = max(
            ((share(terms(s), title), c, s) for c in found for _, s in clean_sentences(c.text)),
            key=lambda x: x[0],
            default=None,
        )
        if best is not None and score >= TOPIC_THRESHOLD:
            entries.append(Entry(paper, best[1], best[2], score))
    ranked = sorted(entries, key=lambda e: (-e.score, e.paper.label))
    # a paper that states only part of the topic ("differentiating" for "differential
    # privacy") once is listed only when no paper states much more of it, many times
    floor = ranked[0].score * RELATIVE_TO_BEST if ranked else 0.0
    return [e for e in ranked if e.score >= floor]


def list_papers(
    ask: LibraryAsk,
    papers: dict[str, Paper],
    chunks_of: Callable[[str], Sequence[Chunk]],
    retrieve: Callable[[str, int], Sequence[Passage]],
    ctx: Context | None = None,
    facts: Facets | None = None,
) -> Listing | None:
    """The library's papers that the question asks for, each with a sentence of its own; None
    when the question names no filter the catalog can apply and no topic. ``facts``: the
    papers' ``facets``, when the caller keeps them."""
    tests, said = _metadata_filters(ask, facts or facets(papers))
    if tests:
        matching = [p for p in papers.values() if all(test(p) for test in tests)]
        if ask.about:  # "journal articles about cosmology": the topic narrows the list
            among = {p.key: p for p in matching}
            on_topic = _topic_entries(replace(ask, topic=ask.about), among, retrieve, ctx)
            why = " and ".join([*said, "on the topic asked"])
            return Listing(why, tuple(on_topic[:MAX_LISTED]), len(on_topic), noun=_noun(ask))
        entries: list[Entry] = []
        unquoted: list[Paper] = []
        for p in sorted(matching, key=lambda p: (p.year or 0, p.label)):
            found = _abstract_sentence(chunks_of(p.key))  # read for the listed papers only
            if found is not None:
                entries.append(Entry(p, found[0], found[1], 1.0))
            elif len(unquoted) < MAX_UNQUOTED:
                unquoted.append(p)
            if len(entries) == MAX_LISTED:
                break
        return Listing(
            " and ".join(said), tuple(entries), len(matching), tuple(unquoted), _noun(ask)
        )
    if not ask.topic:
        return None
    entries = _topic_entries(ask, papers, retrieve, ctx)
    return Listing("on the topic asked", tuple(entries[:MAX_LISTED]), len(entries))


def render(listing: Listing) -> str:
    """The answer text: a paragraph a paper, its title, then its own sentence, cited."""
    n = max(listing.total, len(listing.entries) + len(listing.unquoted))
    head = f"{n} {listing.noun[n != 1]} in the library"
    if listing.why:  # "7 preprints in the library." says it all
        head += f" {'is' if n == 1 else 'are'} {listing.why}"
    if n > len(listing.entries) + len(listing.unquoted):
        head += f"; the first {len(listing.entries)}"
    head += "."
    lines = [head]
    for e in listing.entries:
        lines.append(f"{_title(e.paper)}. {cite_sentence(e.sentence, e.paper.label)}")
    if listing.unquoted:  # named, not cited: there is no text of theirs to check a sentence in
        names = "; ".join(_title(p) for p in listing.unquoted)
        lines.append(f"Without a PDF in the library, so not quoted: {names}.")
    return "\n\n".join(lines)  # a paragraph a paper: each entry is a sentence of its own


def _title(paper: Paper) -> str:
    """The BibTeX title as the answer prints it: brackets, or a year in parentheses after a
    word, would read as citation markers ("Dark Matter and CMB (2009)")."""
    title = _YEAR_IN_PARENS.sub("", (paper.title or paper.key).translate(_NO_BRACKETS))
    return title.rstrip(". ")
