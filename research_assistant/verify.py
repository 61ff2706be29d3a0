"""Resolve citation mentions to library papers and check each claim against the paper's text.

Pure: stdlib, rapidfuzz and the package's models/text only. The status of every citation follows
DESIGN.md: malformed -> unknown_source / ambiguous -> not_retrieved -> verified / unsupported.
"""

from __future__ import annotations

import heapq
import math
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from rapidfuzz import fuzz, process

from research_assistant import text as _text
from research_assistant.models import (
    AMBIGUOUS,
    MALFORMED,
    NOT_RETRIEVED,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Chunk,
    Citation,
    Evidence,
    Mention,
    Paper,
    Passage,
)
from research_assistant.text import STOPWORDS, fold, numbers, sentence_spans

# fuzz.ratio of two folded family names. Chosen on the name-pair table in tests/test_verify.py
# (NAME_PAIRS): one-letter typos and transliterations of names of 6+ letters score >= 92.3
# (Neumann/Neuman, Mueller/Muller), distinct real names score <= 90.9 (Thomas/Thoma,
# Gall/Gal 85.7, Chang/Zhang 80); the constant sits in that gap.
NAME_MATCH_THRESHOLD: float = 91.5
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
_VIA_SEARCH_K = 8
_VIA_NEAR = 400  # characters around the supporting span searched for the in-text citation

_PARTICLES = frozenset(
    str.split("van von der den de del della di da du la le ten ter dos das des zu vom am y d l")
)
_LABEL_YEAR = re.compile(r"(\d{4})([a-z]{0,2})\s*$")
_LINE_HYPHEN = re.compile(r"(?<=[^\W\d_])-[ \t]*\n\s*(?=[^\W\d_])")
_UNIT = re.compile(r"(\d+(?:[.,]\d+)*)\s?(%|[a-zµ°˚]{1,5})\b")
_UNITS = frozenset(
    str.split(
        "% percent m km cm mm nm um µm s ms us µs ns min h hr hrs hours days weeks years kg g mg "
        "kb mb gb tb pb hz khz mhz ghz v mv kv w kw mw j ev kev mev gev k °c ˚c mpc kpc pc au x "
        "fold px bit bits"
    )
)


# ----------------------------------------------------------------------------- resolving
def _name_key(name: str) -> str:
    """Folded, particles kept, separators dropped: "O'Neil" == "ONeil", "García-López"."""
    return "".join(ch for ch in fold(name) if ch.isalnum())


def _core_key(name: str) -> str:
    """Like _name_key without leading particles: "van der Berg" -> "berg"."""
    parts = [p for p in re.split(r"[\s'-]+", fold(name).replace(".", " ")) if p]
    while len(parts) > 1 and parts[0] in _PARTICLES:
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


# SEE: text.fold gives the same result (test_fast_fold_matches_text_fold); str.translate with
# a dict table costs ~150 µs per 1,000 characters, which alone would break the 1 ms budget.
_FOLD_MAP = {
    chr(k): v for t in (_text._APOSTROPHES, _text._DASHES, _text._SPECIAL) for k, v in t.items()
}
_FOLD_CHARS = re.compile("[" + re.escape("".join(_FOLD_MAP)) + "]")
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


def _fold(text: str) -> str:
    text = _LINE_HYPHEN.sub("", text)  # "automati-\ncally" is one word
    if text.isascii():
        return " ".join(text.replace("`", "'").split()).lower()
    text = _FOLD_CHARS.sub(lambda m: _FOLD_MAP[m.group()], unicodedata.normalize("NFC", text))
    text = unicodedata.normalize("NFKD", " ".join(text.split()))
    return _COMBINING.sub("", text).casefold()


def _terms(folded: str) -> frozenset[str]:
    """Content-word stems of folded text; hyphenated words count whole and by part."""
    out: set[str] = set()
    for w in set(_WORD.findall(folded)) - STOPWORDS:
        if "-" in w or "'" in w:
            parts = w.replace("'", "").split("-")
            out |= _terms(" ".join(["".join(parts), *parts]))
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
        self.folded = _fold(text[start:end])
        self.terms = _terms(self.folded)
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
        p = _Prepared(chunk.text, _terms(_fold(chunk.text)))
        _CACHE[chunk.chunk_id] = p  # one dict assignment: safe enough across threads
    return p


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
    folded_claim = _fold(claim)
    want = _terms(folded_claim)
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


# ----------------------------------------------------------------------------- checking
def _claims_from_text(text: str, mentions: Sequence[Mention]) -> list[str]:
    spans = list(sentence_spans(text))
    starts = [s for s, _ in spans]
    markers = sorted({(m.start, m.end) for m in mentions})

    def clean(s: int, e: int) -> str:
        parts, pos = [], s
        for ms, me in markers:
            if ms >= s and me <= e and ms >= pos:
                parts.append(text[pos:ms])
                pos = me
        parts.append(text[pos:e])
        return re.sub(r"\s+([.,;:!?])", r"\1", " ".join("".join(parts).split())).strip()

    out = []
    for m in mentions:
        i = max(bisect_right(starts, m.start) - 1, 0)
        claim = clean(*spans[i]) if spans else ""
        while i > 0 and not _terms(_fold(claim)):  # a marker standing alone after its sentence
            i -= 1
            claim = clean(*spans[i])
        out.append(claim)
    return out


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
    claims: Sequence[str] | None = None,
    retrieved: Collection[str] | None = None,
    search: Callable[[str, int], Sequence[Passage]] | None = None,
) -> tuple[Citation, ...]:
    """One Citation per mention, in order, with its status per DESIGN.md."""
    if claims is None:
        claims = _claims_from_text(text, mentions)
    return tuple(
        _check(m, c, resolver, chunks_of, retrieved, search)
        for m, c in zip(mentions, claims, strict=True)
    )


def _check(
    m: Mention,
    claim: str,
    resolver: Resolver,
    chunks_of: Callable[[str], Sequence[Chunk]],
    retrieved: Collection[str] | None,
    search: Callable[[str, int], Sequence[Passage]] | None,
) -> Citation:
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
    "label_of",
    "prepare",
]
