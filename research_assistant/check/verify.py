"""Resolve citation mentions to library papers and check each claim against the paper's text.

Pure: stdlib, rapidfuzz and the package's models/text only. The status of every citation follows
DESIGN.md: malformed -> unknown_source / ambiguous -> not_retrieved -> verified / unsupported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from rapidfuzz import fuzz, process

from research_assistant.check.claims import claim_text
from research_assistant.check.support import (
    NUMBER_MISMATCH_CAP,
    SUPPORT_THRESHOLD,
    Support,
    best_support,
    prepare,
)
from research_assistant.models import Chunk, Paper, Passage
from research_assistant.results import (
    AMBIGUOUS,
    MALFORMED,
    NOT_RETRIEVED,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Citation,
    Evidence,
    Mention,
)
from research_assistant.text import PARTICLES, fold

# fuzz.ratio of two folded family names. Chosen on the name-pair table in tests/test_verify.py
# (NAME_PAIRS): one-letter typos and transliterations of names of 6+ letters score >= 92.3
# (Neumann/Neuman, Mueller/Muller), distinct real names score <= 90.9 (Thomas/Thoma,
# Gall/Gal 85.7, Chang/Zhang 80); the constant sits in that gap.
NAME_MATCH_THRESHOLD: float = 91.5
_VIA_SEARCH_K = 8
_VIA_NEAR = 400  # characters around the supporting span searched for the in-text citation

_LABEL_YEAR = re.compile(r"(\d{4})([a-z]{0,2})\s*$")


# ----------------------------------------------------------------------------- resolving
def _name_key(name: str) -> str:
    """Folded, particles kept, separators dropped: "O'Neil" == "ONeil", "García-López"."""
    return "".join(ch for ch in fold(name) if ch.isalnum())


def _core_key(name: str) -> str:
    """Like _name_key without leading particles: "van der Berg" -> "berg"."""
    parts = [p for p in re.split(r"[\s'-]+", fold(name).replace(".", " ")) if p]
    while len(parts) > 1 and parts[0] in PARTICLES:
        parts.pop(0)
    return "".join(ch for p in parts for ch in p if ch.isalnum())


def label_of(paper: Paper) -> str:
    return paper.label or f"{paper.first_author or paper.key}, {paper.year or 'n.d.'}"


class Resolver:
    """Maps mentions to library keys through dicts built once from the papers."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers: dict[str, Paper] = {p.key: p for p in papers}
        self._suffix: dict[str, str] = {}
        self._by_name: dict[str, set[str]] = {}  # exact and particle-free keys
        self._by_part: dict[str, set[str]] = {}  # first word of a compound family name
        for p in papers:
            m = _LABEL_YEAR.search(p.label)
            self._suffix[p.key] = m.group(2) if m else ""
            names = [p.authors[0].cited, p.authors[0].family] if p.authors else []
            if p.label:
                names.append(re.split(r" et al\.?| and | & |,", p.label)[0])
            for n in names:
                for k in (_name_key(n), _core_key(n)):
                    if k:
                        self._by_name.setdefault(k, set()).add(p.key)
            if p.authors and not p.authors[0].corporate and " " in p.authors[0].family.strip():
                part = _core_key(p.authors[0].family.split()[0])
                self._by_part.setdefault(part, set()).add(p.key)
        self._names = list(self._by_name)

    def paper(self, key: str) -> Paper:
        return self.papers[key]

    def _by_author(self, name: str) -> set[str]:
        for key in (_name_key(name), _core_key(name)):
            if key in self._by_name:
                return self._by_name[key]
        core = _core_key(name)
        if core in self._by_part:
            return self._by_part[core]
        hits = process.extract(
            core, self._names, scorer=fuzz.ratio, score_cutoff=NAME_MATCH_THRESHOLD, limit=3
        )
        found: set[str] = set()
        for _name, _score, i in hits:
            found |= self._by_name[self._names[i]]
        return found

    def _second_matches(self, paper: Paper, name: str) -> bool:
        if len(paper.authors) < 2:
            return False
        want = _core_key(name)
        have = _core_key(paper.authors[1].cited)
        return want == have or fuzz.ratio(want, have) >= NAME_MATCH_THRESHOLD

    def explain(self, mention: Mention) -> tuple[tuple[str, ...], str]:
        """The keys the mention resolves to, and why when it resolves to none."""
        year = mention.year_number
        named = self._by_author(mention.first_author)
        if not named:
            return (), f"no library paper is by {mention.first_author}"
        cands = sorted(k for k in named if self.papers[k].year == year)
        if not cands:
            years = sorted({str(self.papers[k].year or "n.d.") for k in named})
            return (), f"the library has {mention.first_author} {', '.join(years)}, not {year}"
        suffix = mention.year_suffix.lower()
        if suffix:
            exact = [k for k in cands if self._suffix[k] == suffix]
            if exact:
                cands = exact
            elif len(cands) > 1 or self._suffix[cands[0]]:
                have = ", ".join(label_of(self.papers[k]) for k in cands)
                return (), f"no {mention.first_author} {mention.year} in the library ({have})"
        if mention.second_author:
            cands = [
                k for k in cands if self._second_matches(self.papers[k], mention.second_author)
            ]
            if not cands:
                return (), (
                    f"no library paper by {mention.first_author} and {mention.second_author} "
                    f"from {year}"
                )
        if len(cands) > 1 and not mention.second_author:
            # et al. consistency only breaks ties; it never rejects the only candidate
            many = [k for k in cands if len(self.papers[k].authors) > 2 or self.papers[k].others]
            few = [k for k in cands if k not in many]
            preferred = (
                many if mention.et_al else [k for k in few if len(self.papers[k].authors) < 2]
            )
            if preferred:
                cands = preferred
        return tuple(cands), ""

    def resolve(self, mention: Mention) -> tuple[str, ...]:
        return self.explain(mention)[0]


# ----------------------------------------------------------------------------- checking
def _near(span_number: Sequence[str], wanted: str) -> str:
    try:
        w = float(wanted)
        return min(span_number, key=lambda n: abs(float(n) - w))
    except ValueError:
        return span_number[0]


def _unsupported_reason(sup: Support, label: str) -> str:
    where = f" (p. {sup.chunk.page})" if sup.chunk else ""
    # the words match but a number does not
    close = bool(sup.missing) and sup.score / NUMBER_MISMATCH_CAP >= SUPPORT_THRESHOLD
    if close and sup.found and " " not in sup.missing[0]:
        return f"the paper says {_near(sup.found, sup.missing[0])}, not {sup.missing[0]}{where}"
    if close:
        return f"{sup.missing[0]} does not appear in the nearest passage of {label}{where}"
    return f"no passage of {label} supports this; nearest{where} scores {sup.score:.2f}"


def _cites(text: str, mention: Mention) -> bool:
    """Whether ``text`` holds an in-text citation of the mention's work, in any style."""
    folded = fold(text)
    name = re.escape(fold(mention.first_author).split()[-1]) if mention.first_author else ""
    year = mention.year or ""
    if not name or not year[:4].isdigit():
        return False
    for m in re.finditer(rf"(?<!\d){year[:4]}(?!\d)", folded):
        if re.search(rf"\b{name}\b", folded[max(0, m.start() - 120) : m.end() + 40]):
            return True
    return False


def _second_hand(
    claim: str,
    mention: Mention,
    resolver: Resolver,
    search: Callable[[str, int], Sequence[Passage]],
) -> Citation | None:
    best: tuple[float, Chunk, str] | None = None
    for passage in search(claim, _VIA_SEARCH_K):
        sup = best_support(claim, [passage.chunk])
        if sup.score < SUPPORT_THRESHOLD or sup.chunk is None:
            continue
        at = max(sup.chunk.text.find(sup.span), 0)
        near = sup.chunk.text[max(0, at - _VIA_NEAR) : at + len(sup.span) + _VIA_NEAR]
        if _cites(near, mention) and (best is None or sup.score > best[0]):
            best = (sup.score, sup.chunk, sup.span)
    if best is None:
        return None
    score, chunk, span = best
    paper = resolver.papers.get(chunk.paper_key)
    label = label_of(paper) if paper else chunk.paper_key
    return Citation(
        mention,
        UNKNOWN_SOURCE,
        via=chunk.paper_key,
        score=score,
        claim=claim,
        evidence=Evidence(chunk.chunk_id, chunk.page, span),
        reason=f"not in your library; cited second-hand by {label} (p. {chunk.page})",
    )


def check_citations(
    text: str,
    mentions: Sequence[Mention],
    resolver: Resolver,
    chunks_of: Callable[[str], Sequence[Chunk]],
    *,
    retrieved: Collection[str] | None = None,
    search: Callable[[str, int], Sequence[Passage]] | None = None,
) -> tuple[Citation, ...]:
    """One Citation per mention, in order, with its status per DESIGN.md; each mention's claim
    is its sentence or clause in ``text`` (claims.claim_text)."""
    claims = [claim_text(text, m) for m in mentions]
    return tuple(
        check_claim(m, c, resolver, chunks_of, retrieved=retrieved, search=search)
        for m, c in zip(mentions, claims, strict=True)
    )


def check_claim(
    m: Mention,
    claim: str,
    resolver: Resolver,
    chunks_of: Callable[[str], Sequence[Chunk]],
    *,
    retrieved: Collection[str] | None = None,
    search: Callable[[str, int], Sequence[Passage]] | None = None,
) -> Citation:
    """The verdict on one mention whose claim is already known (check_citations finds it)."""
    if m.malformed or m.year_number is None:
        why = m.malformed or "no year"
        return Citation(
            m, MALFORMED, claim=claim, reason=f"{m.marker} has {why}: give author and year"
        )
    keys, why = resolver.explain(m)
    if not keys:
        found = _second_hand(claim, m, resolver, search) if search and claim else None
        return found or Citation(m, UNKNOWN_SOURCE, claim=claim, reason=why)
    if len(keys) > 1:
        labels = ", ".join(f"{label_of(resolver.paper(k))} ({k})" for k in keys)
        suffixed = any(resolver._suffix[k] for k in keys)
        hint = "add the a/b suffix" if suffixed else "add the second author or a suffix"
        reason = f"{len(keys)} library papers match {m.first_author} {m.year}: {labels} — {hint}"
        return Citation(m, AMBIGUOUS, candidates=keys, claim=claim, reason=reason)
    key = keys[0]
    label = label_of(resolver.paper(key))
    chunks = list(chunks_of(key))
    if retrieved is not None:
        chunks = [c for c in chunks if c.chunk_id in retrieved]
        if not chunks:
            reason = f"{label} was not among the passages retrieved for this answer"
            return Citation(m, NOT_RETRIEVED, paper_key=key, claim=claim, reason=reason)
    sup = best_support(claim, chunks)
    evidence = Evidence(sup.chunk.chunk_id, sup.chunk.page, sup.span) if sup.chunk else None
    if sup.score >= SUPPORT_THRESHOLD and sup.chunk:
        status, reason = VERIFIED, f"{label}, p. {sup.chunk.page} supports this"
    elif not chunks:
        status, reason = UNSUPPORTED, f"{label} has no text in the library to check against"
    else:
        status, reason = UNSUPPORTED, _unsupported_reason(sup, label)
    return Citation(m, status, key, score=sup.score, claim=claim, evidence=evidence, reason=reason)


__all__ = [
    "NAME_MATCH_THRESHOLD",
    "NUMBER_MISMATCH_CAP",
    "SUPPORT_THRESHOLD",
    "Resolver",
    "Support",
    "best_support",
    "check_citations",
    "check_claim",
    "label_of",
    "prepare",
]
