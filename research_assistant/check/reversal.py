"""Comparisons whose two sides a passage swaps (pure): "count outperforms cbow" for a claim
that cbow outperforms count shares every word with it and holds no opposite word."""

from __future__ import annotations

from collections.abc import Iterator

from research_assistant.terms import stem
from research_assistant.text import STOPWORDS

__all__ = ["COMPARATIVES", "MARKERS", "MARKER_WORDS", "reversed_sides", "surface"]

# Words that order two sides ("A outperforms B", "A is faster than B"): swapping the sides
# reverses the finding. "by" after one ("outperformed by") swaps them back.
COMPARATIVES = frozenset(
    stem(w) for w in "outperform beat surpass exceed than superior inferior dominate prefer".split()
)
# Words and phrases that order two sides without comparing them ("X is translated into Y", "X
# instead of Y", "X followed by Y"): swapped sides reverse the finding only where both texts
# use the same marker. Not "over" ("gains over X", "over 100"), nor "versus", which is mostly
# symmetric ("precision versus recall").
MARKERS = tuple(
    tuple(m.split())
    for m in ("instead of", "rather than", "in contrast to", "into", "followed by", "prior to")
)
_SAME_MARK = {"rather than": "instead of"}  # "Y rather than X" orders its sides as "Y instead of X"
MARKER_WORDS = frozenset(m[0] for m in MARKERS)  # a text holding none of these has no marker
_SIDE = 6  # content words either side of a comparative that name its two sides


def surface(words: list[str], s: str) -> str:
    """The word as written whose stem is ``s``: explanations quote words, not stems."""
    return next((w for w in words if stem(w) == s), s)


def _sides(
    words: list[str], stems: list[str], shared: set[str]
) -> list[tuple[set[str], set[str], set[str]]]:
    """Per comparative of the text: its stem and the shared content stems before and after."""
    out = []
    for i, s in enumerate(stems):
        if s not in COMPARATIVES:
            continue
        # sides are counted in content words: "T, since it is usually shorter than H"
        before = set(_content(reversed(stems[:i]), words[:i][::-1], shared))
        after = set(_content(iter(stems[i + 1 :]), words[i + 1 :], shared))
        if i + 1 < len(words) and words[i + 1] == "by":  # passive: the sides swap
            before, after = after, before
        out.append(({s}, before - after, after - before))
    if MARKER_WORDS.isdisjoint(words):
        return out
    for i, w in enumerate(words):
        for m in MARKERS:
            if w == m[0] and tuple(words[i : i + len(m)]) == m:
                end = i + len(m)
                before = {x for x in stems[max(0, i - _SIDE) : i] if x in shared}
                after = {x for x in stems[end : end + _SIDE] if x in shared}
                mark = " ".join(m)
                out.append(({_SAME_MARK.get(mark, mark)}, before - after, after - before))
    return out


def _content(stems: Iterator[str], words: list[str], shared: set[str]) -> list[str]:
    """The shared stems among the first ``_SIDE`` content words of ``stems``."""
    out: list[str] = []
    seen = 0
    for x, w in zip(stems, words, strict=False):
        if w in STOPWORDS:
            continue
        seen += 1
        if seen > _SIDE:
            break
        if x in shared:
            out.append(x)
    return out


def reversed_sides(
    claim: tuple[list[str], list[str]], passage: tuple[list[str], list[str]], shared: set[str]
) -> str:
    """The comparative whose two sides the passage swaps ("B outperforms A" for "A outperforms
    B"), else "". Each side is its (words, stems)."""
    cw, cs = claim
    if COMPARATIVES.isdisjoint(cs) and MARKER_WORDS.isdisjoint(cw):
        return ""
    # a side may be one letter that names a variable or a set ("H is shorter than T")
    shared = {
        s
        for s in shared
        if (len(s) > 2 or (len(s) == 1 and s.isalpha()))
        and s not in STOPWORDS
        and s not in COMPARATIVES
    }
    claim_sides = _sides(cw, cs, shared)
    if not claim_sides:
        return ""
    passage_sides = _sides(*passage, shared)
    for mark, left, right in claim_sides:
        for other, pleft, pright in passage_sides:
            if mark == other and left & pright and right & pleft:
                ours, theirs = sorted(left & pright)[0], sorted(right & pleft)[0]
                word = next(iter(mark))
                word = word if " " in word or word in MARKER_WORDS else surface(cw, word)
                return f"{word}: {surface(cw, ours)} vs {surface(cw, theirs)}"
    return ""
