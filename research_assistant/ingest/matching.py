"""Pure: pair each PDF with its bibliography entry (inference.py makes one for a PDF without).

Evidence is tried strongest first: the entry's ``file`` field (compared with the PDFs given, by
path or base name, never looked up on disk), then the DOI, then the arXiv id, then a fuzzy title. Each entry goes to at most one PDF (greedy, strongest evidence first).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path, PureWindowsPath

from rapidfuzz import fuzz

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


def match_pdfs(
    pdfs: Sequence[PdfInfo], papers: Sequence[Paper], bib_dirs: Sequence[Path] = ()
) -> tuple[Match, ...]:
    """One Match per PDF, in the order given; an entry is claimed by at most one PDF."""
    candidates: list[tuple[int, float, float, int, int, str]] = []
    pdf_keys = [_pdf_keys(pdf.path) for pdf in pdfs]
    given = set().union(*(paths for paths, _ in pdf_keys))
    file_keys = [_file_keys(p.files, bib_dirs, given) for p in papers]
    entry_titles = [_norm(p.title) for p in papers]
    for i, pdf in enumerate(pdfs):
        path_keys, name_key = pdf_keys[i]
        doi, arxiv = norm_doi(pdf.doi), norm_arxiv(pdf.arxiv_id)
        views = _title_views(pdf)
        for j, paper in enumerate(papers):
            paths, names = file_keys[j]
            # a file field naming a given PDF's path claims that very PDF; else its base name
            if (path_keys & paths) if paths else (name_key in names):
                method = "file"
            elif doi and doi == norm_doi(paper.doi):
                method = "doi"
            elif arxiv and arxiv == _paper_arxiv(paper):
                method = "arxiv"
            else:
                method = "title"
            # only a title at the threshold counts alone: rapidfuzz stops early below it (a PDF
            # is compared with every entry without one: thousands in a big library)
            cutoff = TITLE_MATCH_THRESHOLD if method == "title" else 0.0
            title = _title_score(entry_titles[j], views, cutoff)
            if title < cutoff:
                continue
            score = title / 100 if method == "title" else 1.0
            # the title score breaks ties between two PDFs claiming one entry by the same method
            candidates.append((_RANKS[method], score, title, i, j, method))
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


def _paper_arxiv(paper: Paper) -> str:
    if paper.arxiv_id:
        return norm_arxiv(paper.arxiv_id)
    return norm_arxiv(arxiv_from_doi(paper.doi) or arxiv_from_url(paper.url))


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
]
