"""Papers back to BibTeX: the one writer (the merged library.bib and the export of cited works)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from research_assistant.bib.fields import VERBATIM_FIELDS
from research_assistant.bib.names import encode_latex, format_file_field, parse_name
from research_assistant.models import Name, Paper

__all__ = ["LOCAL_FIELDS", "entry", "format_name", "format_names", "merged_bib", "to_bibtex"]

_FIELD_NAME = re.compile(r"[A-Za-z_][\w:.+-]*")
_NOT_WRITTEN = frozenset({"title", "year", "crossref", "file"})
# Fields that point into someone's own disk or reference manager: kept in the library's merged
# library.bib, left out of anything exported for other people.
LOCAL_FIELDS = frozenset(
    {"file", "pdf", "localfile", "local-url", "bdsk-file-1", "bdsk-file-2", "mendeley-groups"}
)


@lru_cache(maxsize=100_000)
def entry(paper: Paper) -> str:
    """One paper's entry of the merged library.bib (cached: rewritten after every change)."""
    return to_bibtex([paper])


def merged_bib(papers: Iterable[Paper]) -> str:
    """The library's merged library.bib: every paper's entry, by key."""
    return "\n".join(entry(p) for p in sorted(papers, key=lambda p: p.key))


def to_bibtex(papers: Iterable[Paper], *, local: bool = True) -> str:
    """Papers as BibTeX entries that ``parse_bibtex`` reads back to the same key, title, authors
    and year. Crossref'd fields were inherited when parsed, so each entry stands alone.
    ``local=False`` leaves out file paths and other fields that only mean something here."""
    out = []
    for paper in papers:
        fields = dict(paper.fields)
        # an entry built from a PDF (inferred metadata) keeps its identifiers outside fields
        fields.update(
            {k: v for k, v in (("doi", paper.doi), ("url", paper.url)) if v and k not in fields}
        )
        entry_type = re.sub(r"\W", "", paper.entry_type) or "misc"
        lines = []
        # the names of an editor-only entry were read from its editor field
        role = "editor" if "author" not in fields and "editor" in fields else "author"
        if paper.authors:
            lines.append((role, format_names(paper.authors, paper.others)))
        fields.pop(role, None)  # written from paper.authors, or held no name at all
        if paper.title:
            lines.append(("title", "{" + encode_latex(paper.title) + "}"))  # keep the case
        if paper.year is not None:
            lines.append(("year", str(paper.year)))
        elif fields.get("year"):
            lines.append(("year", encode_latex(fields["year"])))
        for name, value in sorted(fields.items()):
            if name in _NOT_WRITTEN or not value or not _FIELD_NAME.fullmatch(name):
                continue
            if not local and name.lower() in LOCAL_FIELDS:
                continue
            lines.append((name, value if name in VERBATIM_FIELDS else encode_latex(value)))
        if paper.files and local:
            lines.append(("file", format_file_field(paper.files)))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in lines)
        out.append(f"@{entry_type}{{{paper.key},\n{body}\n}}\n")
    return "\n".join(out)


# --- names ----------------------------------------------------------------------------------

# A name whose two parts are capitalised words of letters needs no braces: "Family, Given" reads
# back the same, so format_name need not try candidates through the parser (0.1 ms a name:
# library.bib of 10,000 papers is rewritten after every change).
_LETTERS = r"[^\W\d_][^\W\d_.]*\.?"
_PLAIN_WORD = f"{_LETTERS}(?:[-'’]{_LETTERS})*"  # no "--" or "''": LaTeX dashes and quotes
_PLAIN_PART = re.compile(f"{_PLAIN_WORD}(?: {_PLAIN_WORD})*")


_AND_WORD = re.compile(r"(?<!\S)and(?!\S)", re.IGNORECASE)


def _plain(part: str) -> bool:
    return (
        _PLAIN_PART.fullmatch(part) is not None
        and not _AND_WORD.search(
            part
        )  # "And Hans" would split in two names: the slow path braces it
        and all(w[0].isupper() for w in part.split())
        and unicodedata.is_normalized("NFC", part)
    )


@lru_cache(maxsize=100_000)
def format_name(name: Name) -> str:
    """A Name back to BibTeX, braced where needed so that ``parse_name`` reads the same parts."""
    if not (name.corporate or name.von or name.jr) and _plain(name.family) and _plain(name.given):
        return f"{name.family}, {name.given}"
    return _format_name(name)


def _format_name(name: Name) -> str:
    family = _part(name.family)
    if name.corporate:
        return f"{{{family}}}"
    braced = f"{{{family}}}"  # keeps "Rodriguez Montoya" whole and "van Stokkum" a family name
    candidates = [_compose(name, f, comma) for f in (family, braced) for comma in (False, True)]
    if not name.jr:  # bibtexparser splits "First von Last" a little differently
        candidates.append(" ".join(_part(p) for p in (name.given, name.von) if p) + f" {family}")
    for text in candidates:
        if parse_name(text) == name:
            return text
    return candidates[-1 if name.jr else -2]  # a garbled split: at least keep the family whole


def format_names(names: Iterable[Name], others: bool = False) -> str:
    """A BibTeX name list: ``A and B and others``."""
    # a person actually called "others" must not read as the "and others" marker
    parts = [p + "," if p.lower() == "others" else p for p in map(format_name, names)]
    return " and ".join(parts + (["others"] if others else []))


def _part(text: str) -> str:
    # a bare word "and" or a comma inside one name part would split it: brace them
    return _AND_WORD.sub("{and}", encode_latex(text)).replace(",", "{,}")


def _compose(name: Name, family: str, comma: bool) -> str:
    last = f"{_part(name.von)} {family}" if name.von else family
    if name.jr:
        # "{}" keeps the first-name slot when there is none: "Last, Jr," would lose the Jr
        return f"{last}, {_part(name.jr)}, {_part(name.given) or '{}'}"
    if name.given:
        return f"{last}, {_part(name.given)}"
    # the "von Last, First" form with an empty first name reads the von part more literally,
    # and stops a braced one-person family from reading as a corporate name
    return f"{last}, {{}}" if comma or last.startswith("{") else last
