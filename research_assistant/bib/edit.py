"""A curator's correction of a paper's metadata (usually one inferred from its PDF): checked
here, applied by ``Library.correct_metadata``, which saves the catalog and library.bib.

Pure: the title, authors (a BibTeX name list: ``Dean, Jeffrey and Ghemawat, Sanjay``), year,
venue and DOI as typed in the app, validated with messages that say what to type instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from research_assistant.bib.names import parse_names
from research_assistant.errors import BibtexError
from research_assistant.ids import DOI_IN_TEXT, norm_doi
from research_assistant.models import Paper

__all__ = ["Correction", "corrected"]

MIN_YEAR, MAX_YEAR = 1400, 2200  # a typed year outside this range is a typo
MAX_CHARS = 1000  # any one typed field


@dataclass(frozen=True)
class Correction:
    title: str
    authors: str  # a BibTeX name list
    year: str  # "" for none
    venue: str = ""
    doi: str = ""


def corrected(paper: Paper, fix: Correction) -> Paper:
    """``paper`` with the typed values; ``BibtexError`` naming the field that cannot be used."""
    title = " ".join(fix.title.split())
    if not title:
        raise BibtexError("The title is empty: type the paper's title.")
    if any(len(v) > MAX_CHARS for v in (fix.title, fix.authors, fix.venue, fix.doi)):
        raise BibtexError(f"A field is over {MAX_CHARS} characters: shorten it.")
    names, others = parse_names(" ".join(fix.authors.split()))
    if not names:
        raise BibtexError(
            "No author could be read: type them as 'Family, Given and Family, Given'."
        )
    year: int | None = None
    if fix.year.strip():
        if not fix.year.strip().isdigit() or not MIN_YEAR <= int(fix.year) <= MAX_YEAR:
            raise BibtexError(f"The year {fix.year.strip()!r} is not a year: type it as 2004.")
        year = int(fix.year)
    doi = norm_doi(fix.doi.strip()) if fix.doi.strip() else ""
    if doi and not DOI_IN_TEXT.fullmatch(doi):
        raise BibtexError(f"{fix.doi.strip()!r} is not a DOI: type it as 10.1145/1327452.1327492.")
    venue = " ".join(fix.venue.split())
    fields = {k: v for k, v in paper.fields if k not in {"title", "year", "doi", "author"}}
    venue_field = next((k for k in ("journal", "booktitle") if k in fields), "journal")
    fields.pop(venue_field, None)
    if venue:
        fields[venue_field] = venue
    if doi:
        fields["doi"] = doi
    return replace(
        paper, title=title, authors=names, others=others, year=year, venue=venue, doi=doi,
        fields=tuple(sorted(fields.items())),
    )  # fmt: skip
