"""Which chunks of a paper share most with a claim (pure): the claim's terms weighed by their
rarity in the library, raised by its numbers as written; the first step of every check, and the
passages a second reader (the model judge) and a widened answer are given."""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from research_assistant.check.passages import (
    DIGITS,
    Aliases,
    Paper,
    paper_of,
    share,
)
from research_assistant.check.scored import Context
from research_assistant.models import Chunk
from research_assistant.quantities import Quantity
from research_assistant.terms import term_list
from research_assistant.text import LINE_HYPHEN

__all__ = [
    "NUMBER_PICK",
    "Forms",
    "chunk_overlap",
    "forms_share",
    "nearest_chunks",
    "nearest_in_papers",
    "value_forms",
]

NUMBER_PICK = 0.5  # how much a window holding the claim's numbers as written counts in the pick


Forms = tuple[tuple[str, ...], ...]  # per number, the ways a paper may write it (value_forms)


def value_forms(numbers: Sequence[Quantity]) -> Forms:
    """How a paper may write each of the claim's numbers in digits ("5000", "5,000", "5 000";
    "80.7" for a share written 0.807): picks the chunks of a claim whose numbers are in words."""
    out: list[tuple[str, ...]] = []
    for q in numbers:
        v = q.value
        if -100 < v < 100 and v.is_integer():
            continue  # "3" is in most chunks: only a longer number picks one
        if v.is_integer() and abs(v) < 1e9:
            n = int(v)
            out.append((str(n), f"{n:,}", f"{n:,}".replace(",", " ")))
        elif 0 < v < 1:
            out.append((f"{v:g}", f"{v * 100:g}"))
        else:
            out.append((f"{v:g}",))
    return tuple(out)


def forms_share(forms: Forms, text: str) -> float:
    """The share of the numbers (``value_forms``) that ``text`` writes in one of their forms."""
    return sum(any(f in text for f in fs) for fs in forms) / len(forms) if forms else 0.0


def chunk_overlap(
    want: frozenset[str],
    digits: frozenset[str],
    paper: Paper,
    ctx: Context,
    forms: Forms = (),
    aliases: Aliases | None = None,
    top: int | None = None,
) -> list[tuple[float, int]]:
    """Per chunk: the weight of the claim's terms it holds, raised by the claim's numbers as
    written that it holds (or, ``forms``, as the paper may write them); and minus its index
    (ties go to the earlier chunk). ``top``: only the ``top`` highest matter, so a chunk whose
    terms cannot reach them, however many of the numbers it holds, is not searched for them
    (its score stays unraised: the ``top`` highest are the same)."""
    scores = [0.0] * len(paper.prepped)
    for t in sorted(want):  # in one order: float sums in a set's order change with the hash seed
        posting = paper.postings.get(t)
        if posting:
            w = ctx.weight(t)
            for i in posting:
                scores[i] += w
    for acronym, words in sorted((aliases or {}).items()):  # a chunk using it holds its words
        w = math.fsum(map(ctx.weight, words))
        for i in paper.postings.get(acronym, ()):
            scores[i] += w
    if digits or forms:
        floor = 0.0
        if top and len(scores) >= top:  # the top-th highest, before any number raises it
            floor = heapq.nlargest(top, scores)[-1] / (1 + NUMBER_PICK)
        for i, score in enumerate(scores):
            if score and score >= floor:
                text = paper.prepped[i].text
                held = max(share(digits, text), forms_share(forms, text))
                scores[i] = score * (1 + NUMBER_PICK * held)
    return [(score, -i) for i, score in enumerate(scores) if score]


def nearest_chunks(
    claim: str, chunks: Sequence[Chunk], ctx: Context | None = None, k: int = 3
) -> list[Chunk]:
    """The ``k`` chunks that share most with the claim (terms by rarity, numbers as written):
    the passages a second reader (the model judge) is shown."""
    return nearest_in_papers(claim, [chunks], ctx, k)


def nearest_in_papers(
    claim: str,
    papers: Sequence[Sequence[Chunk]],
    ctx: Context | None = None,
    k: int = 3,
    skip: frozenset[str] = frozenset(),
) -> list[Chunk]:
    """``nearest_chunks`` over several papers, each given whole (as ``chunks_of`` gives it:
    its index is made once, not for each list of chunks asked about); ties go to the earlier
    paper's earlier chunk; chunks whose id is in ``skip`` are never chosen."""
    ctx = ctx or Context()
    want = frozenset(term_list(claim))
    digits = frozenset(DIGITS.findall(LINE_HYPHEN.sub("", claim)))
    scored: list[tuple[float, int]] = []
    order: list[Chunk] = []
    for chunks in papers:
        for score, i in chunk_overlap(want, digits, paper_of(chunks), ctx):
            if score > 0 and chunks[-i].chunk_id not in skip:
                scored.append((score, -len(order)))
                order.append(chunks[-i])
    return [order[-i] for _, i in heapq.nlargest(k, scored)]
