"""Resolve a citation mention to the library papers it names (pure).

Family names are compared folded, with and without particles ("van der Berg" is "Berg"), and by
rapidfuzz ratio for one-letter typos and transliterations; the year and its a/b suffix, the
second author and "et al." narrow the candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from research_assistant.models import Paper
from research_assistant.results import Mention
from research_assistant.text import PARTICLES, fold

__all__ = ["NAME_MATCH_THRESHOLD", "Resolver", "label_of"]

# fuzz.ratio of two folded family names. Chosen on the name-pair table in tests/test_verify.py
# (NAME_PAIRS): one-letter typos and transliterations of names of 6+ letters score >= 92.3
# (Neumann/Neuman, Mueller/Muller), distinct real names score <= 90.9 (Thomas/Thoma,
# Gall/Gal 85.7, Chang/Zhang 80); the constant sits in that gap.
NAME_MATCH_THRESHOLD: float = 91.5
_VIA_SEARCH_K = 8
_VIA_NEAR = 400  # characters around the supporting span searched for the in-text citation

_LABEL_YEAR = re.compile(r"(\d{4})([a-z]{0,2})\s*$")


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

    def suffix(self, key: str) -> str:
        """The a/b suffix of the paper's label ("" when its label has none)."""
        return self._suffix[key]

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
        if not found and " " in name.strip():  # "John Smith", a given name written out
            return self._by_author(name.split()[-1])
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
