"""Roles a passage exchanges between two clauses (pure).

"English depends on the corpus, while German benefits from SMEs" and "German depends on the
corpus, while English benefits from SMEs" share every word and hold no opposite: similarity,
negation and direction words cannot tell them apart. What differs is which words stand together
in a clause. A claim that puts the shared words x with y in one clause and z with w in another
is contradicted by a passage that puts x with w and z with y instead (and never x with y or z
with w).

A guard keeps a phrase told in another order from counting: when x stands within a few words
of z, or y of w, in either text ("realistic, fine-grained queries", "GPT-4o, the strongest
baseline"), the two are one phrase or an apposition, not two roles.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from itertools import combinations
from typing import Protocol, TypeVar

from research_assistant.check.quantifier import contradicted
from research_assistant.terms import FOREIGN_FUNCTION_WORDS, term_list
from research_assistant.text import LINE_HYPHEN, fold

__all__ = ["clauses", "crossed", "exchanged", "settle", "window_conflict"]

# Where one clause ends and the next begins: punctuation, coordinating and relative words, and
# the phrases that set two things against each other; "1)" numbers an item of a list.
_SPLIT = re.compile(
    r"[;:,.()\[\]]|\b(?:and|while|whereas|but|which|that|who|whose|where|instead of|rather than"
    r"|in contrast to|unlike|followed by|then|because|since|so)\b|\b\d\)"
)
# A fronted phrase ("In the first stage, ...") says something of the clause that follows it.
_FRONTED = re.compile(
    r"^\s*(?:in|on|for|during|after|before|to|with|when|if|as|at|by|once|within|from|under"
    r"|given)\b"
)
_FRONTED_TERMS = 5  # a fronted phrase has fewer content terms than this
_ASIDE = re.compile(r"\([^()]{0,80}\)")  # "(Lin, 1998)", "(CRF)": asides and citations
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
# "key/value pair" names both of a pair, a role of neither: no word the guard reads
_SLASHED = re.compile(r"[^\W_]+(?:/[^\W_]+)+")
# Words this close (in words) in either text are one phrase told in another order, not two
# roles: chosen on tests/data/verification_dev5.jsonl, where 3 keeps every paraphrase control.
_GUARD = 3


# "for H > 23": a bound is a role word of its own ("above23"), so that "agree for H > 23 and
# diverge for H < 23" is read as two roles exchanged against "agree for H < 23 ... diverge for H > 23"
_BOUND = re.compile(r"(?:[<≤]|(?<![-<])>|≥)\s?(\d+(?:\.\d+)?)")


def _bound(m: re.Match[str]) -> str:
    side = "below" if m.group(0)[0] in "<≤" else "above"
    return f" {side}{m.group(1).replace('.', 'p')} "


def _clean(text: str) -> str:
    cleaned = _ASIDE.sub(" ", fold(LINE_HYPHEN.sub("", text)).replace("\n", " "))
    return (
        _BOUND.sub(_bound, cleaned)
        if "<" in cleaned or ">" in cleaned or "≤" in cleaned or "≥" in cleaned
        else cleaned
    )


@functools.lru_cache(maxsize=4096)
def clauses(text: str) -> tuple[frozenset[str], ...]:
    """The content terms of each clause of ``text``, a fronted phrase kept with its clause."""
    out: list[frozenset[str]] = []
    carry = ""
    for piece in _SPLIT.split(_clean(text)):
        if not piece or not piece.strip():
            continue
        if _FRONTED.match(piece) and len(term_list(piece)) < _FRONTED_TERMS:
            carry = f"{carry} {piece}"
            continue
        found = term_list(f"{carry} {piece}")
        carry = ""
        if found:
            out.append(frozenset(found))
    if carry and term_list(carry):
        out.append(frozenset(term_list(carry)))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _positions(text: str) -> dict[str, tuple[int, ...]]:
    """Each term's word positions in ``text`` (asides removed, as for the clauses)."""
    pos: dict[str, list[int]] = {}
    for i, w in enumerate(_WORD.findall(_SLASHED.sub(" / ", _clean(text)))):
        for t in term_list(w):
            pos.setdefault(t, []).append(i)
    return {t: tuple(p) for t, p in pos.items()}


def _near(pos: dict[str, tuple[int, ...]], x: str, y: str) -> bool:
    return any(abs(i - j) <= _GUARD for i in pos.get(x, ()) for j in pos.get(y, ()))


def _pairs(segs: tuple[frozenset[str], ...], shared: set[str]) -> set[tuple[str, str]]:
    """The pairs of shared terms that stand in one clause together (sorted)."""
    return {p for s in segs for p in combinations(sorted(s & shared), 2)}


def _pair(x: str, y: str) -> tuple[str, str]:
    return (x, y) if x < y else (y, x)


def crossed(claim: str, passage: str) -> tuple[str, str, str, str] | None:
    """The terms (x, y, z, w) where the claim binds x to y and z to w in its clauses and the
    passage binds x to w and z to y instead, else None. Both are texts as written or folded."""
    cs = clauses(claim)
    if len(cs) < 2:  # most claims: read no passage
        return None
    ps = clauses(passage)
    if not ps:
        return None
    shared = set().union(*cs) & set().union(*ps)
    shared = {
        t for t in shared if len(t) > 1 and not t.isdigit() and t not in FOREIGN_FUNCTION_WORDS
    }  # "mit" and "auf" bind nothing
    if len(shared) < 4:
        return None
    claim_pairs, passage_pairs = _pairs(cs, shared), _pairs(ps, shared)
    only_claim = sorted(claim_pairs - passage_pairs)
    only_passage = passage_pairs - claim_pairs
    if len(only_claim) < 2 or len(only_passage) < 2:
        return None
    pos_claim, pos_passage = _positions(claim), _positions(passage)
    for (a, b), (c, d) in combinations(only_claim, 2):
        if len({a, b, c, d}) < 4:
            continue
        for x, y, z, w in ((a, b, c, d), (b, a, c, d)):
            if _pair(x, w) not in only_passage or _pair(z, y) not in only_passage:
                continue
            if any(_near(p, x, z) or _near(p, y, w) for p in (pos_claim, pos_passage)):
                continue  # one phrase in another order, or an apposition
            return x, y, z, w
    return None


def exchanged(claim: str, passage: str) -> str:
    """Why the passage exchanges two roles of the claim ("binding: A~B, C~D": the claim binds A
    to B and C to D, the passage A to D and C to B), else "". Both are folded texts; the
    passage is a whole window, since the two clauses may stand in two of its sentences."""
    found = crossed(claim, passage)
    if found is None:
        return ""
    x, y, z, w = (_surface(claim, t) for t in found)
    return f"binding: {x}~{y}, {z}~{w}"


def _surface(text: str, term: str) -> str:
    """The word of ``text`` as written whose term is ``term``: explanations quote words (a
    bound as its sign and number: "> 23")."""
    bound = _BOUND_TERM.fullmatch(term)
    if bound:
        return f"{'<' if bound.group(1) == 'below' else '>'} {bound.group(2).replace('p', '.')}"
    return next((w for w in _WORD.findall(text) if term in term_list(w)), term)


_BOUND_TERM = re.compile(r"(below|above)(\d+(?:p\d+)?)")


def window_conflict(claim: str, span: str) -> str:
    """The conflicts read over a whole span rather than one sentence (``claim`` folded, ``span``
    as written): two roles exchanged, perhaps across its sentences; a whole set for a part of
    it, or a vague amount for a far larger or smaller one (``quantifier``)."""
    folded = _clean(span)
    return exchanged(claim, folded) or contradicted(claim, folded)


class _Shown(Protocol):
    """A scored span as ``support`` keeps it: what ``settle`` reads of it."""

    @property
    def chunk(self) -> object | None: ...
    @property
    def conflict(self) -> str: ...
    @property
    def span(self) -> str: ...


S = TypeVar("S", bound=_Shown)


def settle(
    scored: list[S], claim: str, pick: Callable[[list[S]], S], mark: Callable[[S, str], S]
) -> S:
    """The span to show among ``scored`` (``pick``), read for the conflicts of a whole span
    first: a picked span they contradict is marked (``mark``) and the pick made again. Read for
    the span to show only, not for every window scored (about 0.2 ms a window)."""
    best = pick(scored)
    while best.chunk is not None and not best.conflict:
        why = window_conflict(claim, best.span)
        if not why:
            return best
        scored = [mark(x, why) if x is best else x for x in scored]
        best = pick(scored)
    return best
