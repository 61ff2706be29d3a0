"""DOIs and arXiv identifiers: the one set of patterns for BibTeX fields, PDF pages and matching.

Pure: the stdlib only. Identifiers are compared normalised: a DOI lower-cased without its
resolver prefix, an arXiv id lower-cased without ``arXiv:`` and without its version (v1 and v2
are one work).
"""

from __future__ import annotations

import re

__all__ = [
    "ARXIV_IN_TEXT",
    "DOI_IN_TEXT",
    "arxiv_from_doi",
    "arxiv_from_url",
    "norm_arxiv",
    "norm_doi",
]

# A DOI printed in running text ends at white space, a quote or an angle bracket.
DOI_IN_TEXT = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_ARXIV_NEW = r"\d{4}\.\d{4,5}(?:v\d+)?"
_ARXIV_OLD = r"[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
# An arXiv id as a paper prints it: "arXiv:2501.10120v1" or an arxiv.org link.
ARXIV_IN_TEXT = re.compile(
    rf"(?:arXiv\s*:\s*|arxiv\.org/(?:abs|pdf)/)({_ARXIV_NEW}|{_ARXIV_OLD})", re.IGNORECASE
)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:\.pdf)?/?$", re.IGNORECASE)
_DOI_PREFIXES = ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:")


def norm_doi(doi: str) -> str:
    doi = doi.strip().lower()
    for prefix in _DOI_PREFIXES:
        doi = doi.removeprefix(prefix)
    return doi.rstrip(".,;")


def norm_arxiv(arxiv_id: str) -> str:
    arxiv_id = arxiv_id.strip().lower().removeprefix("arxiv:")
    return re.sub(r"v\d+$", "", arxiv_id)


def arxiv_from_doi(doi: str) -> str:
    """The arXiv id inside an arXiv DOI (10.48550/arXiv.2501.10120), else ""."""
    m = _ARXIV_DOI.match(norm_doi(doi))
    return m.group(1) if m else ""


def arxiv_from_url(url: str) -> str:
    """The arXiv id of an arxiv.org/abs or /pdf link, else ""."""
    m = _ARXIV_URL.search(url.strip())
    return m.group(1) if m else ""
