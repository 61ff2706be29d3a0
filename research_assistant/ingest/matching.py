"""Pure: pair each PDF with its bibliography entry (inference.py makes one for a PDF without).

Evidence is tried strongest first: the entry's ``file`` field (compared with the PDFs given, by
path or base name, never looked up on disk), then the DOI, then the arXiv id, then a fuzzy
title. Each entry goes to at most one PDF (greedy, strongest evidence first).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PureWindowsPath

from rapidfuzz import fuzz, process

from research_assistant.ids import arxiv_from_doi, arxiv_from_url, norm_arxiv, norm_doi
from research_assistant.models import Match, Paper, PdfInfo
from research_assistant.text import words

# Chosen on ../shared/corpus, scores from _title_score (0..100). Labelled data: the 18 text PDFs
# against the 19 entries of library.bib. Best true-match score per PDF: 100 for all 18 (each
# printed title is found whole in the sniffed title or the page-1 head, including the German
# 1512.04469 and 1601.03642 whose metadata titles differ). Best wrong-match score per PDF: max
# 56.0 (paper.pdf vs bolejko...2008), median 50. Against the 3,003 unrelated titles of the six
# bib/*.bib libraries the best wrong score is 82.1 ("Machine Learning" vs 1601.03642's metadata
# title "Art in Machine Learning"), the next 75. 90 clears every wrong score seen by 8 points
# and leaves 10 points for a typo or punctuation difference in a hand-kept .bib.
TITLE_MATCH_THRESHOLD = 90.0
_HEAD_CHARS = 600  # the title sits in the first ~600 characters of page 1 (after headers)
_PARTIAL_MIN_WORDS = 4  # shorter titles occur by chance inside a page: compare them whole
_ABSTRACT = re.compile(r"\b(?:abstract|zusammenfassung|summary|r[ée]sum[ée])\b", re.IGNORECASE)

_RANKS = {"file": 4, "doi": 3, "arxiv": 2, "title": 1}
_GIL_FREE_FROM = 1_000  # titles; below, one search holds the GIL for under 10 ms


def match_pdfs(
    pdfs: Sequence[PdfInfo], papers: Sequence[Paper], bib_dirs: Sequence[Path] = ()
) -> tuple[Match, ...]:
    """One Match per PDF, in the order given; an entry is claimed by at most one PDF.

    A PDF is not compared with every entry in Python: entries with a file, DOI or arXiv id are
    found through tables, and titles at the threshold by rapidfuzz's batch search (C++, no
    Python call per entry): an ingest into a library of 10,000 entries costs milliseconds a PDF.
    """
    pdf_keys = [_pdf_keys(pdf.path) for pdf in pdfs]
    given = set().union(*(paths for paths, _ in pdf_keys))
    by_path: dict[str, list[int]] = {}
    by_name: dict[str, list[int]] = {}
    by_doi: dict[str, list[int]] = {}
    by_arxiv: dict[str, list[int]] = {}
    entry_titles: list[str] = []
    for j, paper in enumerate(papers):
        paths, names = _file_keys(paper.files, bib_dirs, given) if paper.files else (set(), set())
        # a file field naming a given PDF's path claims that very PDF; else its base name
        for key, table in [(p, by_path) for p in paths] or [(n, by_name) for n in names]:
            table.setdefault(key, []).append(j)
        norm_title, doi, arxiv = _entry_keys(paper.title, paper.doi, paper.arxiv_id, paper.url)
        entry_titles.append(norm_title)
        for key, table in ((doi, by_doi), (arxiv, by_arxiv)):
            if key:
                table.setdefault(key, []).append(j)
    titled = {j: t for j, t in enumerate(entry_titles) if t}
    long_titled = {j: t for j, t in titled.items() if len(t.split()) >= _PARTIAL_MIN_WORDS}
    candidates: list[tuple[int, float, float, int, int, str]] = []
    for i, pdf in enumerate(pdfs):
        path_keys, name_key = pdf_keys[i]
        strong: dict[int, str] = {}  # entry -> the strongest evidence other than the title
        for method, found in (
            ("arxiv", by_arxiv.get(norm_arxiv(pdf.arxiv_id), [])),
            ("doi", by_doi.get(norm_doi(pdf.doi), [])),
            ("file", [j for k in path_keys for j in by_path.get(k, [])]),
            ("file", by_name.get(name_key, [])),
        ):
            strong.update((j, method) for j in found)
        views = _title_views(pdf)
        for j, method in strong.items():
            title = _title_score(entry_titles[j], views)
            candidates.append((_RANKS[method], 1.0, title, i, j, method))
        for j, title in _titles_at_threshold(titled, long_titled, views).items():
            if j not in strong:
                candidates.append((_RANKS["title"], title / 100, title, i, j, "title"))
    candidates.sort(key=lambda c: (-c[0], -c[1], -c[2], c[3], c[4]))
    chosen: dict[int, Match] = {}
    taken: set[int] = set()
    for _, score, _, i, j, method in candidates:
        if i in chosen or j in taken:
            continue
        chosen[i] = Match(pdf=pdfs[i].path, key=papers[j].key, method=method, score=score)
        taken.add(j)
    return tuple(
        chosen.get(i, Match(pdf=pdf.path, key=None, method="none")) for i, pdf in enumerate(pdfs)
    )


def _titles_at_threshold(
    titled: dict[int, str], long_titled: dict[int, str], views: tuple[str, str, str]
) -> dict[int, float]:
    """Entry index -> ``_title_score`` for every entry title (``titled``; those of 4+ words are
    also searched for inside the page-1 head) scoring at the threshold, found by rapidfuzz's
    batch search: the same scorers, so the same scores."""
    sniffed, metadata, head = views
    found: dict[int, float] = {}
    searches = [(view, fuzz.ratio, titled) for view in (sniffed, metadata) if view]
    if head:
        searches.append((head, fuzz.partial_ratio, long_titled))
    for view, scorer, choices in searches:
        for j, score in _search(view, scorer, choices):
            found[j] = max(found.get(j, 0.0), score)
    return found


def _search(
    view: str, scorer: Callable[..., float], choices: dict[int, str]
) -> list[tuple[int, float]]:
    """(entry index, score) of the titles scoring at the threshold against ``view``.

    rapidfuzz's ``extract`` holds the GIL for the whole call: searching a page-1 head in 10,000
    titles took 0.1 s a PDF, and an ingest of 50 PDFs into such a library stalled a server's asks
    (ask p95 0.4-2 s). ``cdist`` computes the same scores with the GIL released (about a third
    more CPU, and it loads numpy), so it is used where a search is long enough to stall.
    """
    if len(choices) < _GIL_FREE_FROM:
        hits = process.extract(
            view, choices, scorer=scorer, score_cutoff=TITLE_MATCH_THRESHOLD, limit=None
        )
        return [(j, float(score)) for _, score, j in hits]
    keys = list(choices)
    row = process.cdist(
        [view],
        list(choices.values()),
        scorer=scorer,
        score_cutoff=TITLE_MATCH_THRESHOLD,
        workers=1,
        dtype="float64",
    )[0].tolist()
    return [
        (keys[k], float(score)) for k, score in enumerate(row) if score >= TITLE_MATCH_THRESHOLD
    ]


# file field ----------------------------------------------------------------------------------


def file_paths(raw: str) -> list[str]:
    """The paths inside one raw BibTeX ``file`` value, in its common dialects.

    ``paper.pdf`` (Better BibTeX, relative), ``/abs/a.pdf;/abs/b.pdf`` (Zotero), JabRef's
    ``Description:path\\:with\\:colons.pdf:PDF`` triples separated by ``;``, and Mendeley's
    ``:C$\\backslash$:/Users/x.pdf:pdf``.
    """
    raw = raw.replace("$\\backslash$", "\\")
    out = []
    for item in _split_unescaped(raw, ";"):
        parts = _split_unescaped(item, ":")
        if len(parts) >= 3 and len(parts[-1]) <= 30 and "." not in parts[-1]:
            # JabRef/Mendeley "description:path:type"; a Windows drive splits the path in two
            path = ":".join(parts[1:-1])
        else:
            path = ":".join(parts)
        path = re.sub(r"\\([\\:;])", r"\1", path).strip()
        if path:
            out.append(path)
    return out


def _split_unescaped(text: str, sep: str) -> list[str]:
    return [p.replace("\0", "\\" + sep) for p in text.replace("\\" + sep, "\0").split(sep)]


def _file_keys(
    files: Sequence[str], bib_dirs: Sequence[Path], given: set[str]
) -> tuple[set[str], set[str]]:
    """The entry's file paths that name a PDF given in this run, and the base names of all.

    Nothing is looked up on disk: a ``file`` field is a string from an upload, and whether
    ``/etc/passwd`` or ``../../x`` exists on the server must not change a match (a .bib could
    probe the server). Absolute paths compare as written, relative ones against each .bib's
    folder, both with the paths of the PDFs given (``given``).
    """
    paths: set[str] = set()
    names: set[str] = set()
    for raw in files:
        for path in file_paths(raw):
            where = [Path(path)] if Path(path).is_absolute() else [d / path for d in bib_dirs]
            paths.update(os.path.normpath(p) for p in where)
            # Both separators: a path written on Windows may be read on Linux.
            names.add(PureWindowsPath(path).name.casefold())
    return paths & given, names


def _pdf_keys(path: str) -> tuple[set[str], str]:
    """A PDF given in this run (its own file): its path as given and resolved, and its name."""
    p = Path(path)
    return {os.path.normpath(os.path.abspath(p)), str(p.resolve())}, p.name.casefold()


# identifiers ---------------------------------------------------------------------------------


def warm(papers: Iterable[Paper]) -> None:
    """Fill the cache of the entries' matching keys (an app does it at start-up, so that its
    first ingest into a big library does not normalise every entry)."""
    for p in papers:
        _entry_keys(p.title, p.doi, p.arxiv_id, p.url)


@functools.lru_cache(maxsize=100_000)
def _entry_keys(title: str, doi: str, arxiv_id: str, url: str) -> tuple[str, str, str]:
    """An entry's normalised title, DOI and arXiv id (cached: a library's entries are matched
    again at every ingest)."""
    arxiv = norm_arxiv(arxiv_id or arxiv_from_doi(doi) or arxiv_from_url(url))
    return _norm(title), norm_doi(doi), arxiv


# titles --------------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(words(text))


def _title_views(pdf: PdfInfo) -> tuple[str, str, str]:
    head = pdf.first_page_text[:_HEAD_CHARS]
    # The title precedes the abstract; the abstract's own phrases ("artificial intelligence")
    # would otherwise partially match short unrelated titles.
    m = _ABSTRACT.search(head)
    return _norm(pdf.title), _norm(pdf.metadata_title), _norm(head[: m.start()] if m else head)


def _title_score(entry: str, views: tuple[str, str, str], cutoff: float = 0.0) -> float:
    """0..100: the entry title against the sniffed title, metadata title and page-1 head (0
    for a score below ``cutoff``)."""
    if not entry:
        return 0.0
    sniffed, metadata, head = views
    score = max(
        fuzz.ratio(entry, sniffed, score_cutoff=cutoff),
        fuzz.ratio(entry, metadata, score_cutoff=cutoff),
    )
    if head and len(entry.split()) >= _PARTIAL_MIN_WORDS:
        score = max(score, fuzz.partial_ratio(entry, head, score_cutoff=cutoff))
    return float(score)


def reference_title_score(title: str, printed: str, entry: str) -> float:
    """How well a library title matches one entry of a manuscript's reference list (0..100):
    the title whole against ``printed`` (the entry's title as parsed), or found inside the whole
    ``entry`` text when it has 4+ words: the scorer of PDFs and entries, with the entry in the
    place of the page-1 head, so the same threshold holds."""
    return _title_score(_norm(title), (_norm(printed), "", _norm(entry)))


def title_score(paper: Paper, pdf: PdfInfo) -> float:
    """How well ``paper``'s title matches ``pdf`` (0..100), for reports and threshold tuning."""
    return _title_score(_norm(paper.title), _title_views(pdf))


# inferring an entry --------------------------------------------------------------------------


__all__ = [
    "TITLE_MATCH_THRESHOLD",
    "file_paths",
    "match_pdfs",
    "norm_arxiv",
    "reference_title_score",
    "title_score",
    "warm",
]
