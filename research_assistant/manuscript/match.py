"""Match each entry of a manuscript's reference list to a library paper: by DOI, then arXiv id,
then fuzzy title (the matcher that pairs PDFs with entries, ingest/matching.py), then first
author and year (the resolver of in-text citations, check/resolve.py), strongest first."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from research_assistant.check.resolve import Resolver
from research_assistant.ids import arxiv_from_doi, arxiv_from_url, norm_arxiv, norm_doi
from research_assistant.ingest.matching import reference_title_score
from research_assistant.manuscript.model import RefEntry, RefMatch
from research_assistant.models import Paper
from research_assistant.results import Mention
from research_assistant.text import words

__all__ = ["AUTHOR_YEAR_SCORE", "REFERENCE_TITLE_THRESHOLD", "TITLE_CONFLICT", "match_references"]

# ingest/matching.py's TITLE_MATCH_THRESHOLD (90) was chosen on page-1 heads. A reference list
# is dense with other titles' words: in paper.pdf's list "The mythos of model interpretability:
# In machine learning, ..." scores 90.0 against the library's "Creativity in Machine Learning".
# A title printed whole in an entry scores 100 (bench/manuscript.py prints the figures); 95
# leaves room for a typo or a hyphenation at a line end.
REFERENCE_TITLE_THRESHOLD = 95.0

# A match by first author and year alone is weaker evidence than an identifier or a title:
# reported with this score. It is refused when the entry prints a title (2+ words, mostly
# words, not a journal and volume) that scores under TITLE_CONFLICT against the library paper's
# title: the same author's other paper of that year (the three Thoma papers of the corpus show
# how often one author fills a library). Against the 3,228 entries of ../shared/corpus/bib, the
# 609 entries of the corpus PDFs' own lists (which cite none of them) gave two such false
# matches at 4+ words ("K. W. Mark Davis, “Unicode normalization forms,” 2017" -> a Davis 2017
# on fiction); at 2+ words, none (bench/manuscript.py).
AUTHOR_YEAR_SCORE = 0.5
TITLE_CONFLICT = 60.0
_NONE = RefMatch(None, "none", 0.0)
_PREFILTER = 80.0  # well under the threshold: the prefilter only saves time, never decides
_CANDIDATES = 50
_LOWER_WORD = re.compile(r"(?<![\w-])[a-z]{4,}\b")
_TITLE_WORDS = 5


def _paper_arxiv(p: Paper) -> str:
    return norm_arxiv(p.arxiv_id or arxiv_from_doi(p.doi) or arxiv_from_url(p.url))


def _title_like(text: str) -> bool:
    """2+ words, mostly words: a title ("Unicode normalization forms"), not a journal and its
    volume ("Astronomical Journal 154, 170 (2017)")."""
    tokens = text.split()
    return len(tokens) >= 2 and sum(t.isalpha() for t in tokens) >= 0.8 * len(tokens)


def _prints_title(e: RefEntry) -> bool:
    """Whether the entry prints a title at all (AAS style prints none: "Trilling, D. E., et
    al. 2017, AJ, 154, 170"): a title-like part, or a run of lower-case words."""
    return _title_like(e.title) or len(_LOWER_WORD.findall(e.text)) >= _TITLE_WORDS


def match_references(entries: Sequence[RefEntry], resolver: Resolver) -> tuple[RefMatch, ...]:
    """One RefMatch per entry, in order."""
    papers = list(resolver.papers.values())
    by_doi = {norm_doi(p.doi): p.key for p in papers if p.doi}
    by_arxiv = {a: p.key for p in papers if (a := _paper_arxiv(p))}
    titles = [" ".join(words(p.title)) for p in papers]
    return tuple(_match(e, papers, resolver, by_doi, by_arxiv, titles) for e in entries)


def _title_candidates(e: RefEntry, papers: list[Paper], titles: list[str]) -> list[Paper]:
    """The papers whose title may be in the entry: one C++ pass of rapidfuzz over all titles
    (a library of thousands), before the matcher's own score on the few left."""
    text = " ".join(words(e.text))
    hits = process.extract(
        text, titles, scorer=fuzz.partial_ratio, score_cutoff=_PREFILTER, limit=_CANDIDATES
    )
    return [papers[i] for _, _, i in hits if titles[i]]


def _match(
    e: RefEntry,
    papers: list[Paper],
    resolver: Resolver,
    by_doi: dict[str, str],
    by_arxiv: dict[str, str],
    titles: list[str],
) -> RefMatch:
    if e.doi and norm_doi(e.doi) in by_doi:
        return RefMatch(by_doi[norm_doi(e.doi)], "doi", 1.0)
    arxiv = norm_arxiv(e.arxiv_id or arxiv_from_doi(e.doi))
    if arxiv and arxiv in by_arxiv:
        return RefMatch(by_arxiv[arxiv], "arxiv", 1.0)
    best: tuple[float, str] | None = None
    for p in _title_candidates(e, papers, titles):
        score = reference_title_score(p.title, e.title, e.text)
        if score >= REFERENCE_TITLE_THRESHOLD and (best is None or score > best[0]):
            best = (score, p.key)
    if best is not None:
        return RefMatch(best[1], "title", best[0] / 100)
    if e.first_author and e.year[:4].isdigit():
        mention = Mention("", 0, 0, e.first_author, year=e.year)
        keys = resolver.resolve(mention)
        if len(keys) == 1:
            paper = resolver.paper(keys[0])
            if not _prints_title(e) or (
                reference_title_score(paper.title, e.title, e.text) >= TITLE_CONFLICT
            ):
                return RefMatch(keys[0], "author_year", AUTHOR_YEAR_SCORE)
    return _NONE
