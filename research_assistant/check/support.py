"""How well a passage supports a claim, and what in it contradicts the claim (pure).

The score mixes three signals over a window of one or two sentences: the share of the claim's
terms the window holds, weighted by how rare each term is in the whole library (a paper's topic
words count, "results" does not); rapidfuzz's partial ratio (word order and phrasing); and, when
an embedder is passed in, the cosine similarity of the two (paraphrase). Hard checks then look
for a contradiction that no similarity may override: a number of the claim that the window
states differently (read as values by ``quantities``), a negation on one side only, a direction
word whose opposite the window uses (increase/decrease, outperforms/underperforms), a name the
cited passages never mention.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from research_assistant.check.polarity import conflict_of, names_in
from research_assistant.models import Chunk
from research_assistant.quantities import Quantity, agree, counterpart, quantities
from research_assistant.terms import term_list, terms
from research_assistant.text import LINE_HYPHEN, fold, sentence_spans

__all__ = ["Context", "Support", "best_support", "clear_cache", "prepare"]

_CHUNKS_SCANNED = 4  # chunks (by weighted term overlap) whose sentences are scored
_WINDOWS_SCORED = 4  # windows per claim that reach rapidfuzz and the embedder
_NEAR = 2  # sentences either side of a window where a claim's number may also be stated
_NUMBER_PICK = 0.5  # how much a window holding the claim's numbers as written counts in the pick
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_FUZZ_CHARS = 160  # rapidfuzz sees at most this much of a claim (5x of a span): cost ~ product
# Weights of the signals, chosen on the development claims (see verify.SUPPORT_THRESHOLD).
W_COVER, W_FUZZ, W_SEMANTIC = 0.5, 0.1, 0.4


@dataclass(frozen=True)
class Context:
    """What the scorer knows beyond the passages: library-wide term rarity and an optional
    sentence similarity (dependencies passed in; the pure core loads no model)."""

    idf: Mapping[str, float] = field(default_factory=dict)
    default_idf: float = 1.0
    similarity: Callable[[str, str], float] | None = None

    def weight(self, term: str) -> float:
        return self.idf.get(term, self.default_idf)


@dataclass(frozen=True)
class Support:
    score: float
    chunk: Chunk | None
    span: str  # the best-supporting sentence(s), verbatim from chunk.text
    missing: tuple[Quantity, ...] = ()  # numbers of the claim the span does not state
    counterparts: tuple[Quantity | None, ...] = ()  # the span's number in each one's role
    conflict: str = ""  # why the span contradicts the claim; "" when nothing does
    absent: tuple[str, ...] = ()  # names in the claim that no cited passage mentions
    cover: float = 0.0
    semantic: float = 0.0
    fuzz: float = 0.0


class _Sentence:
    __slots__ = ("_quantities", "end", "folded", "start", "terms", "text")

    def __init__(self, text: str, start: int, end: int) -> None:
        self.start, self.end = start, end
        self.text = LINE_HYPHEN.sub("", text[start:end])
        self.folded = fold(self.text)
        self.terms = terms(self.text)
        self._quantities: tuple[Quantity, ...] | None = None

    @property
    def quantities(self) -> tuple[Quantity, ...]:
        if self._quantities is None:
            self._quantities = quantities(self.text, small_words=True)
        return self._quantities


class _Prepared:
    __slots__ = ("folded", "sentences", "terms", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.terms = terms(text)
        self.folded: str | None = None
        self.sentences: list[_Sentence] | None = None


_CACHE: dict[str, _Prepared] = {}
_CACHE_LIMIT = 500_000


def _prepared(chunk: Chunk) -> _Prepared:
    p = _CACHE.get(chunk.chunk_id)
    if p is None or (p.text is not chunk.text and p.text != chunk.text):
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        p = _Prepared(chunk.text)
        _CACHE[chunk.chunk_id] = p  # one dict assignment: safe enough across threads
    return p


def clear_cache() -> None:
    """Forget every prepared chunk (benchmarks measure cold checks with it)."""
    _CACHE.clear()


def prepare(chunks: Iterable[Chunk]) -> None:
    """Warm the per-chunk cache (e.g. when a library is loaded) so checks stay sub-millisecond."""
    for chunk in chunks:
        _prepared(chunk)


def _sentences(p: _Prepared) -> list[_Sentence]:
    if p.sentences is None:
        p.sentences = [_Sentence(p.text, s, e) for s, e in sentence_spans(p.text)]
    return p.sentences


def _stated_elsewhere(q: Quantity, others: Sequence[_Prepared]) -> bool:
    """Whether a number with a unit is stated, in the same role, somewhere else in the cited
    passages: "one terabyte of data" on page 8 for a claim whose "891 seconds" is on page 9."""
    if not q.unit:
        return False
    keys = [k for k in (_unit_word(q), *_DIGITS.findall(q.text)) if len(k) > 1]
    for p in others:
        if not any(k in _folded(p) for k in keys):
            continue
        for s in _sentences(p):
            if any(k in s.folded for k in keys) and any(
                agree(q, e) and q.role & e.role for e in s.quantities
            ):
                return True
    return False


def _unit_word(q: Quantity) -> str:
    words = [w for w in fold(q.text).split() if w.isalpha()]
    return words[-1] if words else ""


def _replaced(q: Quantity, evidence: tuple[Quantity, ...]) -> bool:
    other = counterpart(q, evidence)
    return other is not None and bool(other.role & q.role)


def _share(digits: frozenset[str], text: str) -> float:
    """The share of the claim's numbers (as written) that ``text`` holds."""
    return sum(d in text for d in digits) / len(digits) if digits else 0.0


def _folded(p: _Prepared) -> str:
    if p.folded is None:
        p.folded = fold(LINE_HYPHEN.sub("", p.text))
    return p.folded


@dataclass(frozen=True)
class _Window:
    cover: float
    chunk: Chunk
    sentences: tuple[_Sentence, ...]
    context: tuple[_Sentence, ...] = ()  # the sentences around it, for numbers only


def best_support(
    claim: str,
    chunks: Sequence[Chunk],
    ctx: Context | None = None,
    *,
    ignore_names: Sequence[str] = (),
) -> Support:
    """The span among ``chunks`` that best supports ``claim``, scored in [0, 1], with any
    contradiction it holds. ``ignore_names``: the cited authors and title, which a narrative
    citation leaves in the claim and the passages need not repeat."""
    ctx = ctx or Context()
    want = frozenset(term_list(claim))
    if not want or not chunks:
        return Support(0.0, None, "")
    total = sum(ctx.weight(t) for t in want)
    prepped = [_prepared(c) for c in chunks]
    claim_text = LINE_HYPHEN.sub("", claim)
    # The claim's numbers as written pick windows too: "44%" finds its sentence when the words
    # around it are the writer's own.
    digits = frozenset(_DIGITS.findall(claim_text))
    overlap = [
        (
            sum(ctx.weight(t) for t in want & p.terms)
            * (1 + _NUMBER_PICK * _share(digits, p.text)),
            -i,
        )
        for i, p in enumerate(prepped)
    ]
    windows: list[tuple[float, int, _Window]] = []
    for score, i in heapq.nlargest(_CHUNKS_SCANNED, overlap):
        if score <= 0:
            continue
        sents = _sentences(prepped[-i])
        found = [want & x.terms for x in sents]
        hits = [_share(digits, x.text) for x in sents]
        for j, sent in enumerate(sents):
            cover = sum(ctx.weight(t) for t in found[j]) / total
            pick = cover + _NUMBER_PICK * hits[j]
            around = tuple(sents[max(0, j - _NEAR) : j] + sents[j + 1 : j + 1 + _NEAR])
            single = _Window(cover, chunks[-i], (sent,), around)
            windows.append((pick, sent.start - sent.end, single))
            if j + 1 < len(sents) and (found[j + 1] - found[j] or hits[j + 1]):
                both = sum(ctx.weight(t) for t in found[j] | found[j + 1]) / total
                pick = both + _NUMBER_PICK * max(hits[j], hits[j + 1])
                around = tuple(sents[max(0, j - _NEAR) : j] + sents[j + 2 : j + 2 + _NEAR])
                pair = _Window(both, chunks[-i], (sent, sents[j + 1]), around)
                windows.append((pick, sent.start - sents[j + 1].end, pair))
    if not windows:
        return Support(0.0, None, "")
    folded_claim = fold(claim_text)
    claim_numbers = quantities(claim_text)
    ignored = fold(" ".join(ignore_names))
    names = [n for n in names_in(claim) if fold(n) not in ignored]
    absent = tuple(n for n in names if not any(fold(n) in _folded(p) for p in prepped))
    found_elsewhere: dict[int, bool] = {}

    def elsewhere(q: Quantity) -> bool:  # once per claim number, not per window
        key = id(q)
        if key not in found_elsewhere:
            found_elsewhere[key] = _stated_elsewhere(q, prepped)
        return found_elsewhere[key]

    scored = [
        _score(w, claim_text, folded_claim, want, claim_numbers, absent, ctx, elsewhere)
        for _, _, w in heapq.nlargest(_WINDOWS_SCORED, windows, key=lambda x: x[:2])
    ]
    clean = [s for s in scored if not s.conflict]
    best_clean = max(clean, key=lambda s: s.score, default=None)
    best_any = max(scored, key=lambda s: s.score)
    # The span that says 1.78 where the claim says 1.71 is the one the reader needs to see,
    # unless another span supports the claim nearly as well without contradicting it. A
    # negation or direction word is stricter: a flipped finding is often echoed elsewhere by a
    # sentence that lacks just the word that matters.
    if best_clean is None or not best_any.conflict:
        return best_clean or best_any
    margin = -_CONFLICT_MARGIN if best_any.conflict in ("number", "name") else _CONFLICT_MARGIN
    return best_clean if best_clean.score > best_any.score + margin else best_any


# A contradicting span wins unless a clean one scores this much more: a flipped finding is
# usually paraphrased by a sentence elsewhere that misses the one word that matters.
_CONFLICT_MARGIN = 0.1


def _score(
    w: _Window,
    claim: str,
    folded_claim: str,
    want: frozenset[str],
    claim_numbers: tuple[Quantity, ...],
    absent: tuple[str, ...],
    ctx: Context,
    elsewhere: Callable[[Quantity], bool],
) -> Support:
    span = w.chunk.text[w.sentences[0].start : w.sentences[-1].end]
    folded = " ".join(x.folded for x in w.sentences)
    # partial_ratio of unrelated prose is ~50: only the part above that is evidence
    ratio = fuzz.partial_ratio(folded_claim[:_FUZZ_CHARS], folded[: 5 * _FUZZ_CHARS])
    fuzz_part = max(0.0, ratio - 50) / 50
    semantic = 0.0
    if ctx.similarity is not None:
        window_text = " ".join(x.text for x in w.sentences)
        semantic = max(0.0, ctx.similarity(claim, window_text))
    score = W_COVER * w.cover + W_FUZZ * fuzz_part + W_SEMANTIC * semantic
    evidence = tuple(q for x in w.sentences for q in x.quantities)
    missing = tuple(q for q in claim_numbers if not any(agree(q, e) for e in evidence))
    if missing:  # a number may sit in a neighbouring sentence of the same passage, unless the
        # window states another number in its place ("4 hidden layers" for "5 hidden layers")
        near = tuple(q for x in w.context for q in x.quantities)
        missing = tuple(
            q
            for q in missing
            if _replaced(q, evidence) or not (any(agree(q, e) for e in near) or elsewhere(q))
        )
    # negation and direction are read in the sentence that shares most with the claim
    closest = max(w.sentences, key=lambda x: len(x.terms & want)).folded
    conflict = "number" if missing else conflict_of(folded_claim, closest)
    if not conflict and absent:
        conflict = "name"
    return Support(
        score=round(min(score, 1.0), 4),
        chunk=w.chunk,
        span=span,
        missing=missing,
        counterparts=tuple(counterpart(q, evidence) for q in missing),
        conflict=conflict,
        absent=absent,
        cover=round(w.cover, 4),
        semantic=round(semantic, 4),
        fuzz=round(fuzz_part, 4),
    )


def idf_table(chunk_terms: Iterable[frozenset[str]]) -> tuple[dict[str, float], float]:
    """Inverse document frequency over chunks, and the weight of a term seen nowhere."""
    df: dict[str, int] = {}
    n = 0
    for ts in chunk_terms:
        n += 1
        for t in ts:
            df[t] = df.get(t, 0) + 1
    idf = {t: math.log(1 + n / (1 + k)) for t, k in df.items()}
    return idf, math.log(1 + n)


def library_context(
    chunks: Iterable[Chunk], similarity: Callable[[str, str], float] | None = None
) -> Context:
    """The scoring context of a library: term rarity over all its chunks (cached per chunk)."""
    idf, default = idf_table(_prepared(c).terms for c in chunks)
    return Context(idf=idf, default_idf=default, similarity=similarity)
