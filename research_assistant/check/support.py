"""How well a passage supports a claim: content-word cover, rapidfuzz, numbers and units.

Pure: stdlib, rapidfuzz and the package's models/text. verify.py decides statuses with it.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from rapidfuzz import fuzz

from research_assistant.models import Chunk
from research_assistant.text import LINE_HYPHEN, STOPWORDS, fold, numbers, sentence_spans

# best_support() score of the best span. Chosen on tests/data/verification.jsonl (per-claim
# scores printed by bench/verify.py): supported claims score 0.58-1.0 (the lowest is a
# paraphrase, "qvol > 0" written as "greater than zero"), wrong-paper claims score at most 0.28;
# 0.45 sits in that gap, nearer the negatives because paraphrase is the common case in answers.
SUPPORT_THRESHOLD: float = 0.45
# A span that lacks a number (or unit) of the claim scores at most this: always unsupported.
NUMBER_MISMATCH_CAP: float = 0.35
assert NUMBER_MISMATCH_CAP < SUPPORT_THRESHOLD
_COVER_WEIGHT = 0.7  # share of the claim's content words in the span; the rest is fuzz
_CHUNKS_SCANNED = 4  # chunks (by content-word overlap) whose sentences are scored
_WINDOWS_FUZZED = 3  # sentence windows per claim that reach rapidfuzz
_FUZZ_CHARS = 120  # rapidfuzz sees at most this much of a claim (5x of a span): cost ~ product

_UNIT = re.compile(r"(\d+(?:[.,]\d+)*)\s?(%|[a-zµ°˚]{1,5})\b")
_UNITS = frozenset(
    str.split(
        "% percent m km cm mm nm um µm s ms us µs ns min h hr hrs hours days weeks years kg g mg "
        "kb mb gb tb pb hz khz mhz ghz v mv kv w kw mw j ev kev mev gev k °c ˚c mpc kpc pc au x "
        "fold px bit bits"
    )
)


# ----------------------------------------------------------------------------- support
@dataclass(frozen=True)
class Support:
    score: float
    chunk: Chunk | None
    span: str  # the best-supporting sentence(s), verbatim from chunk.text
    missing: tuple[str, ...] = ()  # numbers of the claim absent from the span
    found: tuple[str, ...] = ()  # numbers of the span absent from the claim


def _canon(number: str) -> str:
    # Signs are dropped: PDF text flattens superscripts, so "10^-22" arrives as "10−22".
    try:
        return format(Decimal(number.lstrip("+-")).normalize(), "f")
    except InvalidOperation:
        return number


_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


def fast_fold(text: str) -> str:
    """fold() with the words broken at line ends joined again: the form claims and spans share."""
    return fold(LINE_HYPHEN.sub("", text))


def content_terms(folded: str) -> frozenset[str]:
    """Content-word stems of folded text; hyphenated words count whole and by part."""
    out: set[str] = set()
    for w in set(_WORD.findall(folded)) - STOPWORDS:
        if "-" in w or "'" in w:
            parts = w.replace("'", "").split("-")
            out |= content_terms(" ".join(["".join(parts), *parts]))
            continue
        if len(w) < 2 or w.isdigit():
            continue
        if len(w) > 3 and w[-1] == "s" and w[-2] not in "su":  # plural: "layers" ~ "layer"
            w = w[:-1]
        out.add(w[:6])  # truncation stemming: "parallelized" ~ "parallelizes"
        if w[-1].isdigit() and w[0].isalpha():  # a footnote mark glued on: "TIMP1"
            out.add(w.rstrip("0123456789")[:6])
    return frozenset(out)


def _numbers(folded: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    nums = frozenset(_canon(n) for n in numbers(folded))
    units = frozenset(
        (_canon(n.replace(",", "")), u) for n, u in _UNIT.findall(folded) if u in _UNITS
    )
    return nums, units


class _Sentence:
    __slots__ = ("_numbers", "end", "folded", "start", "terms")

    def __init__(self, text: str, start: int, end: int) -> None:
        self.start, self.end = start, end
        self.folded = fast_fold(text[start:end])
        self.terms = content_terms(self.folded)
        self._numbers: tuple[frozenset[str], frozenset[tuple[str, str]]] | None = None

    @property
    def numbers(self) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
        if self._numbers is None:
            self._numbers = _numbers(self.folded)
        return self._numbers


@dataclass
class _Prepared:
    text: str
    terms: frozenset[str]
    sentences: list[_Sentence] | None = None


_CACHE: dict[str, _Prepared] = {}
_CACHE_LIMIT = 500_000


def _prepared(chunk: Chunk) -> _Prepared:
    p = _CACHE.get(chunk.chunk_id)
    if p is None or (p.text is not chunk.text and p.text != chunk.text):
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        p = _Prepared(chunk.text, content_terms(fast_fold(chunk.text)))
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


def best_support(claim: str, chunks: Sequence[Chunk]) -> Support:
    """The span among ``chunks`` that best supports ``claim``, scored in [0, 1]."""
    folded_claim = fast_fold(claim)
    want = content_terms(folded_claim)
    if not want or not chunks:
        return Support(0.0, None, "")
    prepped = [_prepared(c) for c in chunks]
    hits = [want & p.terms for p in prepped]
    # Rare words pick the chunks: a running header shared by every page must not decide.
    df = Counter(t for h in hits for t in h)
    weight = {t: math.log(1 + len(prepped) / (1 + n)) for t, n in df.items()}
    overlap = [(sum(weight[t] for t in h), -i) for i, h in enumerate(hits) if h]
    windows: list[tuple[float, int, Chunk, list[_Sentence]]] = []
    for _, i in heapq.nlargest(_CHUNKS_SCANNED, overlap):
        sents = _sentences(prepped[-i])
        found = [want & x.terms for x in sents]
        for j, sent in enumerate(sents):
            windows.append((len(found[j]), sent.start - sent.end, chunks[-i], [sent]))
            if j + 1 < len(sents) and found[j + 1] - found[j]:
                nxt = sents[j + 1]
                both = len(found[j] | found[j + 1])
                windows.append((both, sent.start - nxt.end, chunks[-i], [sent, nxt]))
    if not windows:
        return Support(0.0, None, "")
    claim_nums, claim_units = _numbers(folded_claim)
    best: Support | None = None
    best_raw: tuple[float, Support] | None = None
    for found_n, _, chunk, sents in heapq.nlargest(_WINDOWS_FUZZED, windows, key=lambda w: w[:2]):
        span = chunk.text[sents[0].start : sents[-1].end]
        folded = " ".join(x.folded for x in sents)
        # partial_ratio of unrelated prose is ~50: only the part above that is evidence
        ratio = fuzz.partial_ratio(folded_claim[:_FUZZ_CHARS], folded[: 5 * _FUZZ_CHARS])
        raw = _COVER_WEIGHT * found_n / len(want) + (1 - _COVER_WEIGHT) * max(0, ratio - 50) / 50
        nums = frozenset().union(*(x.numbers[0] for x in sents))
        units = frozenset().union(*(x.numbers[1] for x in sents))
        missing = sorted(claim_nums - nums) + [
            f"{n} {u}" for n, u in claim_units - units if any(m == n for m, _ in units)
        ]
        score = raw * NUMBER_MISMATCH_CAP if missing else raw
        cand = Support(
            round(score, 4), chunk, span, tuple(missing), tuple(sorted(nums - claim_nums))
        )
        if best is None or cand.score > best.score:
            best = cand
        if missing and (best_raw is None or raw > best_raw[0]):
            best_raw = (raw, cand)
    assert best is not None
    # A span that says 1.78 where the claim says 1.71 is the one the user needs to see.
    if best.score < SUPPORT_THRESHOLD and best_raw and best_raw[0] >= SUPPORT_THRESHOLD:
        return best_raw[1]
    return best
