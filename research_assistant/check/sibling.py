"""A term put in the place of its sibling from the sentence beside the evidence (pure).

"The Combiner function is executed on each machine that performs a reduce task" copies the
paper's "... that performs a map task" but for one word, and the word it puts there is one the
paper uses in the very next sentence ("the combiner and the reduce functions"). Over the two
sentences every term of the claim is found, no opposite is used and the similarity is high:
the swap only shows when the claim is aligned with the sentence it copies. A claim that copies
most of a sentence (``_COPIED`` of its content words, in order), where between two of its words
that the sentence also has in that order it says one or two words the sentence does not, and
the sentence says one or two others there, is a swap when the claim's word is one the
neighbouring sentence uses (the paper's word for a sibling: another phase, another data set,
another scale) and the sentence's word is not. A writer's own synonym is seldom a word of the
next sentence; a subject carried over from the sentence before, and referred to by a pronoun
("they behave exactly as radiation"), is no swap. Two more swaps show in the copied sentence
itself: two of its words exchanged, and the attribute of a parallel clause taken for another
("opened ... rendered in green text, or saved ... rendered in red text" told as "opened ...
rendered in red text"); and a sentence's alternative set aside ("instead of MIDI files") stated
as the one chosen. A word the paper itself sets beside the sentence's anywhere ("map or
reduce", ``coordinated``) is a sibling wherever it stands: the claim then need copy only half
of the sentence, in any sentence of the evidence span. Each leaves the claim on the topic but not
stated (``Support.unstated``): uncertain, never verified. Written after reading tests/data/verification_dev7.jsonl.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple, Protocol

from research_assistant.check.lexicon import words_of
from research_assistant.check.polarity import Reading
from research_assistant.terms import stem
from research_assistant.text import STOPWORDS

__all__ = ["SET_ASIDE", "coordinated", "coordinated_in", "set_aside", "swap_in_span", "swapped"]

_COPIED = 0.7  # share of the claim's content words the sentence holds in the same order
_COPIED_SIBLING = 0.5  # ... where the claim's word is one the passage sets beside the sentence's
_GAP = 2  # at most this many words on either side of a swap
_MIN_STEM = 3  # shorter stems ("an" of "ANs") are too ambiguous to tell a sibling by
# "an active one" (a pro-form), "eighty-one" (a number, read by the number check): no sibling
_NOT_NAMES = frozenset(
    stem(w)
    for w in "one ones two three four five six seven eight nine ten eleven twelve twenty thirty "
    "forty fifty sixty seventy eighty ninety hundred thousand million billion dozen half "
    "once twice".split()
)
# words that refer back to the sentence before: its subject may be carried over
_ANAPHORA = frozenset(
    "they them their theirs it its this these those such he she his her him".split()
)


def _content(r: Reading) -> list[tuple[str, str]]:
    """(word, stem) of each content word in order: no stopwords, no one- or two-letter words."""
    return [
        (w, s)
        for w, s in zip(r.words, r.stems, strict=True)
        if w not in STOPWORDS and (len(w) > 2 or w.isdigit())
    ]


def _aligned(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs of a longest common subsequence of two stem lists (both short)."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below, x = table[i], table[i + 1], a[i]
        for j in range(m - 1, -1, -1):
            if x == b[j]:
                row[j] = below[j + 1] + 1
            else:  # max() unrolled: this loop runs for every window the checker settles on
                down, right = below[j], row[j + 1]
                row[j] = down if down >= right else right
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _base(stem_: str) -> str:
    """A stem with its name mark dropped ("reduce_" of "the reduce tasks" is "reduc")."""
    return stem(stem_[:-1]) if stem_.endswith("_") else stem_


def _kin(ours: Sequence[tuple[str, str]], theirs: Sequence[tuple[str, str]]) -> bool:
    """Whether a word of one side holds a word of the other: one word written two ways
    ("vector- based" and "vectorbased", a compound and its head), not two words."""
    return any(a in b or b in a for a, _ in ours for b, _ in theirs)


def _plain(stem: str) -> bool:
    """Whether a stem may name a sibling: not a number (the number check's), nor a pro-form."""
    return len(stem) >= _MIN_STEM and not stem[0].isdigit() and stem not in _NOT_NAMES


_COORDINATING = frozenset("and or nor versus vs".split())


class _Worded(Protocol):
    """Words and their stems, as a ``Reading`` has them."""

    @property
    def words(self) -> list[str]: ...
    @property
    def stems(self) -> list[str]: ...


class _Words(NamedTuple):
    words: list[str]
    stems: list[str]


@functools.lru_cache(maxsize=100_000)
def _stem(word: str) -> str:
    return stem(word)


def coordinated_in(folded: Iterable[str]) -> frozenset[tuple[str, str]]:
    """``coordinated`` over folded sentences, read for their words alone (cheaper than a
    ``Reading``: a chunk's pairs are read once, for every sentence of it)."""
    worded = (
        _Words(w, [_stem(x) for x in w])
        for f in folded
        if " and " in f or " or " in f or " nor " in f or " vs" in f or " versus " in f
        for w in (words_of(f),)
    )
    return coordinated(worded)


def coordinated(readings: Iterable[_Worded]) -> frozenset[tuple[str, str]]:
    """The stem pairs the text sets side by side as siblings, both ways round: "map and
    reduce", "the policy and value models", "any map task or reduce task"."""
    out: set[tuple[str, str]] = set()
    for r in readings:
        w, s = r.words, r.stems
        for i in range(1, len(w) - 1):
            if w[i] not in _COORDINATING:
                continue
            sides = [(i - 1, i + 1)]
            if i >= 2 and i + 2 < len(w) and s[i - 1] == s[i + 2]:  # "map task or reduce task"
                sides.append((i - 2, i + 1))
            for a, b in sides:
                x, y = _base(s[a]), _base(s[b])
                if x != y and _plain(x) and _plain(y) and STOPWORDS.isdisjoint((w[a], w[b])):
                    out.update(((x, y), (y, x)))
    return frozenset(out)


def swapped(
    claim: Reading,
    closest: Reading,
    beside: Sequence[tuple[Reading, bool]],
    siblings: frozenset[tuple[str, str]] = frozenset(),
    *,
    siblings_only: bool = False,
) -> tuple[str, str] | None:
    """(the claim's word, the sentence's word) where the claim, copying ``closest``, puts a
    word of a neighbouring sentence (``beside``: each with whether it stands before) in the
    place of the sentence's own, or a word the passage sets beside it as a sibling
    (``siblings``, from ``coordinated``; with ``siblings_only``, nothing else is read); else
    None."""
    ours = _content(claim)
    theirs = _content(closest)
    if not ours or not theirs:
        return None
    a, b = [s for _, s in ours], [s for _, s in theirs]
    need = max(2, _COPIED * len(a))
    # a sibling the passage names beside the sentence's word is read at a lower copy share
    floor = min(need, max(3, _COPIED_SIBLING * len(a))) if siblings else need
    held = (Counter(a) & Counter(b)).total()
    if held < floor:  # the common subsequence is no longer
        return None
    pairs = _aligned(a, b)
    # a claim holding the sentence's words but telling some in another order ("In the bilinear
    # model the matrix C ..." for "... is of bilinear form, where the matrix C ...") may still
    # exchange two of them: read for that at the lower copy share
    reordered = held >= need and len(pairs) >= max(3, _COPIED_SIBLING * len(a))
    if len(pairs) < floor and not reordered:
        return None
    own, said = set(a), set(b)
    gaps = list(_gaps(ours, theirs, pairs, own, said))
    # "reduce tasks" where the paper says "map tasks" (and elsewhere "map or reduce"), between
    # two aligned words or before the first one ("Any reduce tasks completed ...")
    (i0, j0) = pairs[0]
    first = (
        [(w, s) for w, s in ours[:i0][-_GAP:] if s not in said],
        [(w, s) for w, s in theirs[:j0][-_GAP:] if s not in own],
    )
    sibling = next(
        (
            (w, v)
            for gap, other in (first, *gaps)
            for w, s in gap
            for v, t in other
            if (_base(s), _base(t)) in siblings
        ),
        None,
    )
    if sibling or siblings_only:
        return sibling
    copied = len(pairs) >= need
    found = _crossed(ours, theirs, pairs, own, parallel=copied) if copied or reordered else None
    if found or not copied:
        return found
    refers_back = not _ANAPHORA.isdisjoint(closest.words)
    near = set().union(*(r.stem_set for r, before in beside if not (before and refers_back)))
    if not near:
        return None
    for gap, other in gaps:
        if not all(_plain(s) for _, s in other) or any(s in near for _, s in other):
            continue
        taken = [w for w, s in gap if _plain(s) and s in near]
        if taken:
            return taken[0], other[0][0]
    return None


def _gaps(
    ours: list[tuple[str, str]],
    theirs: list[tuple[str, str]],
    pairs: list[tuple[int, int]],
    own: set[str],
    said: set[str],
) -> Iterator[tuple[list[tuple[str, str]], list[tuple[str, str]]]]:
    """Between two aligned words, the one or two words only the claim says there and the one
    or two only the sentence says: a place where the claim may have put another word."""
    for (i1, j1), (i2, j2) in pairwise(pairs):
        gap = [(w, s) for w, s in ours[i1 + 1 : i2] if s not in said]
        other = [(w, s) for w, s in theirs[j1 + 1 : j2] if s not in own]
        if gap and other and len(gap) <= _GAP and len(other) <= _GAP and not _kin(gap, other):
            yield gap, other


def _crossed(
    ours: list[tuple[str, str]],
    theirs: list[tuple[str, str]],
    pairs: list[tuple[int, int]],
    own: set[str],
    *,
    parallel: bool = True,
) -> tuple[str, str] | None:
    """(the claim's word, the sentence's word) where the claim, copying the sentence, takes a
    word the sentence uses in another of its places: two of its words exchanged ("both visited
    and saved, we apply the saved augmentation" told as "... the visited augmentation"), or the
    attribute of a parallel clause ("opened rendered in green text, or saved rendered in red
    text" told as "opened are rendered in red text"); else None."""
    said = {x for _, x in theirs}
    for k, ((i1, j1), (i2, j2)) in enumerate(pairwise(pairs)):
        gap, other = ours[i1 + 1 : i2], theirs[j1 + 1 : j2]
        if len(gap) == 1 and len(other) == 1:
            (w, s), (v, t) = gap[0], other[0]
            if _plain(s) and _plain(t) and s in said and t in own and not _kin(gap, other):
                return w, v
        if not parallel:  # read for two words exchanged only
            continue
        anchor = theirs[j1][1]
        again = [j for j in range(j1 + 1, j2) if theirs[j][1] == anchor]
        if k >= 2 and again and other and theirs[j2][1] not in {x for _, x in other}:
            v, t = other[0]
            if (
                _plain(t)
                and t not in own
                and again[0] > j1 + 1
                and _plain(ours[i2][1])
                and not _kin(ours[i2 : i2 + 1], other[:1])
            ):
                return ours[i2][0], v
    return None


# "X instead of Y", "X rather than Y": the phrase after the marker is the alternative the paper
# sets aside (up to the end of its clause); a claim stating it, with no contrast of its own, has
# the paper's alternative the wrong way round ("took MIDI files as input" for "instead of ...
# MIDI files, they took raw audio waveforms as input").
_SET_ASIDE = re.compile(r"\b(instead of|rather than)\s+([^,;:.()]+)")
SET_ASIDE = ("instead of", "rather than")  # the sentence's word ``swap_in_span`` gives then
_CONTRAST = frozenset("instead rather than not no unlike nor never without".split())
# ... or with a verb that sets one thing against another ("swaps the LSTM units for RNN units")
_SETS_AGAINST = frozenset(
    stem(w) for w in "swap replace substitute switch exchange trade prefer favor avoid".split()
)


def set_aside(claim: Reading, folded: str) -> tuple[str, str] | None:
    """The claim's word that a sentence (``folded``) names only as the alternative it sets
    aside, and the marker ("instead of"), when the claim sets nothing against anything."""
    if not _CONTRAST.isdisjoint(claim.words) or not _SETS_AGAINST.isdisjoint(claim.stem_set):
        return None
    for m in _SET_ASIDE.finditer(folded):
        rest = Reading(folded[: m.start()] + " " + folded[m.end() :]).stem_set
        aside = Reading(m.group(2))
        for w, s in _content(claim):
            if s in aside.stem_set and s not in rest and _plain(s):
                return w, m.group(1)
    return None


class _Read(Protocol):
    """A sentence of a passage as ``passages`` keeps it: what ``swap_in_span`` reads of it."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def reading(self) -> Reading: ...
    @property
    def folded(self) -> str: ...


def swap_in_span(
    claim: Reading,
    sentences: Sequence[_Read],
    start: int,
    end: int,
    siblings: frozenset[tuple[str, str]] = frozenset(),
) -> tuple[str, str] | None:
    """``_swap_in_span`` with its words as written ("reduce", not the name mark "reduce_")."""
    found = _swap_in_span(claim, sentences, start, end, siblings)
    return (found[0].rstrip("_"), found[1].rstrip("_")) if found else None


def _swap_in_span(
    claim: Reading,
    sentences: Sequence[_Read],
    start: int,
    end: int,
    siblings: frozenset[tuple[str, str]],
) -> tuple[str, str] | None:
    """``swapped`` for the evidence span ``start:end`` of a chunk whose ``sentences`` are
    given: the span's sentence sharing most with the claim is the one copied, and the others
    of the span and the sentences either side of it are its neighbours; ``siblings`` are the
    word pairs the paper sets side by side (``coordinated``)."""
    inside = [i for i, x in enumerate(sentences) if x.start >= start and x.end <= end]
    if not inside:
        return None
    for i in inside:
        x = sentences[i]
        if "instead of" in x.folded or "rather than" in x.folded:
            found = set_aside(claim, x.folded)
            if found:
                return found
    stems = claim.stem_set
    at = max(inside, key=lambda i: len(stems & sentences[i].reading.stem_set))
    around = sorted({*inside, at - 1, at + 1} - {at})
    beside = [(sentences[i].reading, i < at) for i in around if 0 <= i < len(sentences)]
    found = swapped(claim, sentences[at].reading, beside, siblings)
    # a span of two sentences may hold the claim's word in the one it copies less ("Any map
    # tasks completed ... Similarly, any map task or reduce task in progress ...")
    if found or not siblings:
        return found
    for i in inside:
        found = (
            None
            if i == at
            else swapped(claim, sentences[i].reading, (), siblings, siblings_only=True)
        )
        if found:
            return found
    return None
