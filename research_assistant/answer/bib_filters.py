"""The catalog filters of a library question besides authors, venues and topics: what kind of
publication ("journal articles", "preprints", "conference papers"), a span of years ("before
2010", "since 2015", "between 2007 and 2009", "in the 2000s") and months ("published in
October"); and how a paper's BibTeX entry answers each. Pure: question text and ``Paper`` in,
values out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research_assistant.bib.fields import MONTHS
from research_assistant.models import Paper

__all__ = ["MONTH_NAMES", "BibFilters", "bib_filters", "paper_kind", "paper_month"]

# The kinds a question may ask for, and the words that ask: "journal articles", "preprints".
_KIND_WORDS = (
    ("journal", r"journal\s+(?:articles?|papers?|publications?)|(?:in|to)\s+(?:a\s+)?journals?"),
    (
        "conference",
        r"(?:conference|workshop|symposium)\s+(?:papers?|articles?|publications?|proceedings)"
        r"|(?:in|at)\s+(?:a\s+)?(?:(?:conference\s+)?proceedings|conferences?|workshops?)",
    ),
    ("preprint", r"preprints?|on\s+arxiv|arxiv\s+(?:papers?|preprints?)"),
    # a bare "thesis" or "book" is too often something else ("support the thesis that")
    ("thesis", r"theses|(?:phd|doctoral|master'?s)\s+thes[ie]s|dissertations?"),
    ("book", r"books|book\s+chapters?|chapters\s+in\s+books?"),
    ("report", r"(?:technical|tech)\s+reports?"),
)
_KINDS = tuple(
    (kind, re.compile(rf"\b(?:{words})\b", re.IGNORECASE)) for kind, words in _KIND_WORDS
)
# BibTeX entry types by kind (a preprint is told by its arXiv id or publisher, below).
_TYPES = {
    "journal": {"article"},
    "conference": {"inproceedings", "conference", "proceedings"},
    "thesis": {"phdthesis", "mastersthesis", "thesis"},
    "book": {"book", "inbook", "incollection", "booklet"},
    "report": {"techreport", "report"},
}
_UNPUBLISHED = {"misc", "unpublished", "online", "preprint", "electronic", "article"}
_ARXIV = re.compile(r"\barxiv\b", re.IGNORECASE)

_YEAR = r"(1[89]\d\d|20\d\d)"
# Spans of years: (pattern, the inclusive (low, high) it means as a function of the year(s)
# it found; None: unbounded on that side). The first pattern that matches is the span.
_SPANS = (
    (re.compile(rf"\bbetween\s+{_YEAR}\s+and\s+{_YEAR}\b", re.I), lambda a, b: (a, b)),
    (re.compile(rf"\bfrom\s+{_YEAR}\s+(?:to|until|through)\s+{_YEAR}\b", re.I), lambda a, b: (a, b)),
    (re.compile(rf"\b{_YEAR}\s*[-\u2013\u2014]\s*{_YEAR}\b"), lambda a, b: (a, b)),
    (re.compile(r"\b(?:in|from|during)\s+the\s+((?:1[89]|20)\d0)'?s\b", re.I), lambda a: (a, a + 9)),
    (re.compile(rf"\b(?:before|prior\s+to|earlier\s+than|older\s+than)\s+{_YEAR}\b", re.I),
     lambda a: (None, a - 1)),
    (re.compile(rf"\b(?:until|through|up\s+to)\s+{_YEAR}\b|\b{_YEAR}\s+or\s+(?:earlier|before)\b",
                re.I), lambda a: (None, a)),
    (re.compile(rf"\b(?:after|later\s+than|newer\s+than)\s+{_YEAR}\b", re.I), lambda a: (a + 1, None)),
    (re.compile(rf"\b(?:since|from)\s+{_YEAR}\s+on(?:wards?)?\b|\bsince\s+{_YEAR}\b"
                rf"|\b{_YEAR}\s+or\s+(?:later|after)\b", re.I), lambda a: (a, None)),
)  # fmt: skip

MONTH_NAMES = tuple(dict.fromkeys(MONTHS.values()))  # "January" ... "December", in order
_MONTHS = [m.lower() for m in MONTH_NAMES]
_MONTH = re.compile(
    r"\b(?:in|during|of)\s+(?:the\s+month\s+of\s+)?(" + "|".join(_MONTHS) + r")\b"
    r"|(?-i:\b(" + "|".join(m.capitalize() for m in _MONTHS) + r")\b)(?!\s+\d)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class BibFilters:
    kinds: tuple[str, ...] = ()  # "journal", "conference", "preprint", "thesis", "book", "report"
    since: int | None = None  # inclusive
    until: int | None = None  # inclusive
    months: tuple[int, ...] = ()  # 1-12
    spans: tuple[tuple[int, int], ...] = ()  # where in the question they were said

    def __bool__(self) -> bool:
        return bool(self.kinds or self.months) or self.since is not None or self.until is not None


def bib_filters(question: str) -> BibFilters:
    """The kinds, year span and months a library question asks for."""
    spans: list[tuple[int, int]] = []
    kinds = []
    for kind, pattern in _KINDS:
        for m in pattern.finditer(question):
            kinds.append(kind)
            spans.append(m.span())
    since = until = None
    for pattern, bounds in _SPANS:
        said = pattern.search(question)
        if said is None:
            continue
        since, until = bounds(*(int(y) for y in said.groups() if y))
        spans.append(said.span())
        break  # one span of years a question
    months = []
    for m in _MONTH.finditer(question):
        word = (m.group(1) or m.group(2)).lower()
        if word == "may" and m.group(2) and not m.group(1):
            continue  # "May" opening a clause is the verb more often than the month
        months.append(_MONTHS.index(word) + 1)
        spans.append(m.span())
    return BibFilters(
        tuple(dict.fromkeys(kinds)), since, until, tuple(dict.fromkeys(months)), tuple(spans)
    )


def paper_kind(paper: Paper) -> str:
    """What kind of publication the entry is: one of the kinds above, or "" (other)."""
    fields = dict(paper.fields)
    where = " ".join(fields.get(k, "") for k in ("journal", "publisher", "howpublished"))
    where += " " + fields.get("archiveprefix", "") + " " + fields.get("eprinttype", "")
    entry = paper.entry_type.lower()
    if entry in _UNPUBLISHED and (
        _ARXIV.search(fields.get("journal", "")) or (entry != "article" and (
            paper.arxiv_id or _ARXIV.search(where)))
    ):  # fmt: skip
        return "preprint"
    return next((kind for kind, types in _TYPES.items() if entry in types), "")


def paper_month(paper: Paper) -> int | None:
    """The month of the entry's ``month`` field (a name, an abbreviation or a number)."""
    raw = dict(paper.fields).get("month", "").strip().lower().rstrip(".")
    if raw.isdigit():
        return int(raw) if 1 <= int(raw) <= 12 else None
    name = MONTHS.get(raw)  # the BibTeX month macros and names ("oct", "sept", "october")
    return MONTH_NAMES.index(name) + 1 if name else None
