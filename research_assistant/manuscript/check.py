"""Resolve every citation of a manuscript through its own reference list (or .bib) and check
it against the library: the same claim extractor, resolver and checker as Check text
(check/claims.py, check/resolve.py, check/verify.py), with the reference list in front.

A numbered citation "[12]" names entry 12; a key names its .bib entry; an author-year citation
names the entry of that first author and year when the list has one, else it is resolved
against the library as Check text does. An entry the library holds is checked against that
paper; an entry it does not hold is ``not_in_library``; a number or key with no entry is
``malformed``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from research_assistant.check.claims import claim_text
from research_assistant.check.mentions import find_mentions
from research_assistant.check.resolve import Resolver
from research_assistant.check.support import Context
from research_assistant.check.verify import check_claim, check_paper
from research_assistant.manuscript.citations import labelled_cites, numeric_cites
from research_assistant.manuscript.match import match_references
from research_assistant.manuscript.model import (
    Manuscript,
    ManuscriptCitation,
    RefEntry,
    RefMatch,
)
from research_assistant.models import Chunk, Passage
from research_assistant.results import MALFORMED, NOT_IN_LIBRARY, Citation, Mention
from research_assistant.text import fold

__all__ = ["check_citations"]

_FRONT = re.compile(r"\b(?:abstract|introduction|summary)\b", re.I)
_FRONT_CHARS = 5000  # the title block of page 1: authors, affiliations, notes
Search = Callable[[str, int], Sequence[Passage]]


def _family(name: str) -> str:
    return "".join(ch for ch in fold(name).split(" ")[-1] if ch.isalnum()) if name else ""


def _cited(ms: Manuscript) -> list[tuple[Mention, int | None, str]]:
    """(mention, reference index or None, why there is no entry) for every cited work."""
    refs = ms.references
    numbered = {r.number: i for i, r in enumerate(refs) if r.number is not None}
    if refs and not numbered:  # an unnumbered list in a numbered text: the order is the number
        numbered = {i + 1: i for i in range(len(refs))}
    by_key = {r.key: i for i, r in enumerate(refs) if r.key}
    out: list[tuple[Mention, int | None, str]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, idx: int | None, why: str) -> None:
        entry = refs[idx] if idx is not None else RefEntry("")
        marker = ms.text[start:end]
        year = entry.year or None
        out.append((Mention(marker, start, end, entry.first_author, year=year), idx, why))

    keyed = ms.key_cites
    if not keyed and by_key and ms.kind != "tex":  # an alpha-style list: "[Tho17a]"
        keyed = tuple(labelled_cites(ms.text, ms.body_end, set(by_key)))
    if keyed:
        for c in keyed:
            taken.append((c.start, c.end))
            for key in c.keys:
                idx = by_key.get(key)
                add(c.start, c.end, idx, "" if idx is not None else f"the key {key} is in no .bib")
    elif ms.kind != "tex":
        front = _FRONT.search(ms.text, 0, _FRONT_CHARS)
        for start, end, nums in numeric_cites(ms.text, ms.body_end):
            if ms.text[start] == "^" and front and start < front.start():
                continue  # "Smith^1, Lee^2": affiliations above the abstract, not citations
            taken.append((start, end))
            for n in nums:
                idx = numbered.get(n)
                why = "" if idx is not None else (
                    f"the reference list has no entry {n}" if refs else "no reference list found"
                )  # fmt: skip
                add(start, end, idx, why)
    by_name: dict[tuple[str, str], int] = {}
    for i, r in enumerate(refs):
        by_name.setdefault((_family(r.first_author), r.year.lower()), i)

    def listed(m: Mention) -> int | None:
        year = (m.year or "").lower()
        idx = by_name.get((_family(m.first_author), year))
        if idx is None and year[4:]:  # "Smith 2020a" against a list printing "2020"
            idx = by_name.get((_family(m.first_author), year[:4]))
        return idx

    # a lone "Thoma (2016)" with no other sign of a citation counts where the list has it
    for m in find_mentions(ms.text[: ms.body_end], known=lambda m: listed(m) is not None):
        if any(s < m.end and m.start < e for s, e in taken):
            continue  # inside a numbered or key citation
        out.append((m, listed(m), ""))
    return sorted(out, key=lambda x: x[0].start)


def check_citations(
    ms: Manuscript,
    resolver: Resolver,
    chunks_of: Callable[[str], Sequence[Chunk]],
    *,
    search: Search | None = None,
    ctx: Context | None = None,
) -> tuple[tuple[ManuscriptCitation, ...], tuple[RefMatch, ...]]:
    """Every cited work of ``ms`` checked, in document order, and the reference matches."""
    matches = match_references(ms.references, resolver)
    out: list[ManuscriptCitation] = []
    claims: dict[tuple[int, int], str] = {}
    for m, idx, why in _cited(ms):
        span = (m.start, m.end)
        if span not in claims:
            claims[span] = claim_text(ms.text, m)
        claim = claims[span]
        c = _verdict(m, claim, idx, why, ms.references, matches, resolver, chunks_of, search, ctx)
        out.append(ManuscriptCitation(c, idx, ms.page_at(m.start)))
    return tuple(out), matches


def _verdict(
    m: Mention,
    claim: str,
    idx: int | None,
    why: str,
    refs: Sequence[RefEntry],
    matches: Sequence[RefMatch],
    resolver: Resolver,
    chunks_of: Callable[[str], Sequence[Chunk]],
    search: Search | None,
    ctx: Context | None,
) -> Citation:
    if why:
        return Citation(m, MALFORMED, claim=claim, reason=f"{m.marker}: {why}")
    if idx is None:  # an author-year citation the reference list does not hold
        return check_claim(m, claim, resolver, chunks_of, search=search, ctx=ctx)
    key = matches[idx].key
    if key is None:
        entry = refs[idx]
        shown = entry.text if len(entry.text) <= 160 else entry.text[:157] + "…"
        doi = f" (doi {entry.doi})" if entry.doi else ""
        return Citation(m, NOT_IN_LIBRARY, claim=claim, reason=f"not in your library: {shown}{doi}")
    return check_paper(m, claim, resolver.paper(key), list(chunks_of(key)), ctx)
