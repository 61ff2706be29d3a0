"""How well a passage supports a claim, and what in it contradicts the claim (pure).

The score mixes three signals over a window of one or two sentences (or a sentence stating the
claim's numbers with the two before it, which name its subject): the share of the claim's
terms the window holds, weighted by how rare each term is in the whole library (a paper's topic
words count, "results" does not); rapidfuzz's partial ratio (word order and phrasing); and, when
an embedder is passed in, the cosine similarity of the two (paraphrase). Hard checks then look
for a contradiction that no similarity may override: a number of the claim that the window
states differently (read as values by ``quantities``), a negation on one side only, a direction
word whose opposite the window uses (increase/decrease, outperforms/underperforms), the two
sides of a comparison swapped, a name the cited passages never use (nor spell out). Windows that
say the claim's finding either way are read even when others cover more; one that does not state
it is reported (``Support.unstated``), one stating all of the claim's numbers anchors it
(``Support.anchored``). An acronym the paper spells out counts as its words (``passages``)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from rapidfuzz import fuzz

from research_assistant.agreement import agrees_any, counterpart, within_a_range_only
from research_assistant.check.binding import settle
from research_assistant.check.names import named_years, names_in
from research_assistant.check.nearest import NUMBER_PICK, chunk_overlap, value_forms
from research_assistant.check.passages import (
    DIGITS,
    Paper,
    Sentence,
    anchoring,
    chunk_terms,
    clear_cache,
    expand_acronyms,
    folded_text,
    held_terms,
    idf_from_counts,
    idf_table,
    mentioned,
    paper_of,
    prepare,
    prepared,
    rare_name,
    replaced,
    sentences_of,
    share,
    siblings_of,
    significant,
    stated,
    stated_elsewhere,
)
from research_assistant.check.polarity import (
    Reading,
    conflict_of,
    finding_senses,
    may_conflict,
    unstated,
)
from research_assistant.check.scored import Context, Support
from research_assistant.check.sentences import named_cells, unnamed_rows
from research_assistant.check.sibling import swap_in_span
from research_assistant.models import Chunk
from research_assistant.quantities import Quantity, quantities
from research_assistant.terms import term_list
from research_assistant.text import LINE_HYPHEN, fold

__all__ = [
    "Context",
    "Support",
    "best_support",
    "chunk_terms",
    "clear_cache",
    "idf_from_counts",
    "library_context",
    "prepare",
]

_CHUNKS_SCANNED = 4  # chunks (by weighted term overlap) whose sentences are scored
_WINDOWS_SCORED = 4  # windows per claim that reach rapidfuzz and the embedder
_SPECIFIC = 5  # significant digits
_LEAD_IN = 2  # sentences before one stating the claim's numbers that may name its subject
_NEAR = 2  # sentences either side of a window where a claim's number may also be stated
_NAME_WORDS = 3  # an ignored name this short is a person's ("van Stokkum"), not a title
_FUZZ_CHARS = 160  # rapidfuzz sees at most this much of a claim (5x of a span): cost ~ product
# Weights of the signals, chosen on the development claims (see verify.SUPPORT_THRESHOLD).
W_COVER, W_FUZZ, W_SEMANTIC = 0.5, 0.1, 0.4
# rapidfuzz costs ~0.1 ms a window: skipped where even a perfect ratio leaves the score under
_FUZZ_WORTH = 0.22  # the lowest any verdict above unsupported needs (MANY_ANCHORED_THRESHOLD)


class _Window(NamedTuple):  # a tuple, not a frozen dataclass: dozens are made per check
    cover: float
    chunk: Chunk
    sentences: tuple[Sentence, ...]
    pool: Sequence[Sentence] = ()  # the chunk's sentences; those around it, for numbers only,
    near: tuple[int, int, int, int] = (0, 0, 0, 0)  # are pool[a:b] and pool[c:d]
    lead_in: int = 0  # leading sentences that name the subject only: numbers are not read there
    row: Sentence | None = None  # a table row whose columns the claim names: ...
    cells: tuple[Quantity, ...] = ()  # ... its numbers are those columns' cells only


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
    # a narrative citation's names ("Gal et al. (2009) report ...") are no evidence: a passage
    # citing the author's earlier work would share the rarest term of the claim
    cited = {t for n in ignore_names if 0 < len(n.split()) <= _NAME_WORDS for t in term_list(n)}
    want = want - cited or want
    if not want or not chunks:
        return Support(0.0, None, "")
    paper = paper_of(chunks)
    want, aliases = expand_acronyms(claim, want, paper)
    # math.fsum: a sum of a set's weights is the same in any order (sum() was not: the order
    # of a set of strings changes with PYTHONHASHSEED, and windows tied but for the last bit)
    total = math.fsum(ctx.weight(t) for t in want)
    prepped = paper.prepped
    claim_text = LINE_HYPHEN.sub("", claim)
    # The claim's numbers as written pick windows too: "44%" finds its sentence when the words
    # around it are the writer's own.
    digits = frozenset(DIGITS.findall(claim_text))
    claim_numbers = quantities(claim_text)
    if claim_numbers and (named := named_years(claim_text)):  # "AVE 2008": a name, where the
        years = {y for name, y in named if mentioned(name, paper)}  # paper writes it so
        claim_numbers = tuple(q for q in claim_numbers if q.text not in years)
    # numbers written the same way in claim and chunk are found as written; others as values
    as_written = all((m := DIGITS.match(q.text)) and m.group() in digits for q in claim_numbers)
    # a number this specific ("1,256,683") may stand a sentence further from its subject
    lead_in = _LEAD_IN + any(significant(q.text) >= _SPECIFIC for q in claim_numbers)
    forms = value_forms(claim_numbers)  # "1,256,683" finds the chunk that writes "1 256 683"
    overlap = chunk_overlap(want, digits, paper, ctx, forms, aliases, top=_CHUNKS_SCANNED)
    windows: list[tuple[float, int, _Window]] = []
    weight = {t: ctx.weight(t) for t in want}
    for score, i in heapq.nlargest(_CHUNKS_SCANNED, overlap):
        if score <= 0:
            continue
        sents = sentences_of(prepped[-i])
        found = [held_terms(want, x.terms, aliases) for x in sents]
        if not claim_numbers:
            hits = [0.0] * len(sents)
        elif as_written and share(digits, prepped[-i].text) == 1.0:
            hits = [share(digits, x.text) for x in sents]
        else:
            hits = [stated(claim_numbers, digits, x) for x in sents]
        rows = prepped[-i].tables
        tabled = {x for j, row in rows.items() for x in (j, *row.named)} if rows else set()
        for j in unnamed_rows(rows, want):  # a row states nothing of a claim that does not
            found[j], hits[j] = frozenset(), 0.0  # name it: "Intermediate data produced 758 TB"
        for j, sent in enumerate(sents):
            if not found[j] and not hits[j]:  # nothing of the claim: no window starts here
                continue  # (one with the next sentence scores as that sentence alone)
            cover = math.fsum(map(weight.__getitem__, found[j])) / total
            pick = cover + NUMBER_PICK * hits[j]
            near = (max(0, j - _NEAR), j, j + 1, j + 1 + _NEAR)
            columns = named_cells(rows[j], want) if j in rows else None
            only = (sent, quantities(columns, small_words=True)) if columns else (None, ())
            single = _Window(cover, chunks[-i], (sent,), sents, near, 0, *only)
            windows.append((pick, sent.start - sent.end, single))
            # a table's row pairs with its own caption and heads (below), not with its neighbour
            paired = not (rows and (j in tabled or j + 1 in tabled))
            if paired and j + 1 < len(sents) and (found[j + 1] - found[j] or hits[j + 1]):
                both = math.fsum(map(weight.__getitem__, found[j] | found[j + 1])) / total
                pick = both + NUMBER_PICK * max(hits[j], hits[j + 1])
                near = (max(0, j - _NEAR), j, j + 2, j + 2 + _NEAR)
                pair = _Window(both, chunks[-i], (sent, sents[j + 1]), sents, near)
                windows.append((pick, sent.start - sents[j + 1].end, pair))
            if j in rows and rows[j].named:  # a table row: its caption and heads say what it is
                parts = sorted((j, *rows[j].named))
                got = set().union(*(found[x] for x in parts))
                whole = math.fsum(map(weight.__getitem__, got)) / total
                pick = whole + NUMBER_PICK * min(1.0, math.fsum(hits[x] for x in parts))
                near = (max(0, j - _NEAR), j, j + 1, j + 1 + _NEAR)
                row = _Window(
                    whole, chunks[-i], tuple(sents[x] for x in parts), sents, near, 0, *only
                )
                windows.append((pick, sents[parts[0]].start - sents[parts[-1]].end, row))
            if hits[j] == 1.0 and j >= _LEAD_IN and j not in rows:
                # "This network has 1 256 683 parameters.": the sentences before it say what
                # "this network" is (a table row has its caption and heads for that, above)
                back = min(lead_in, j)
                lead = sents[j - back : j + 1]
                terms_of = set().union(*found[j - back : j + 1])
                three = math.fsum(map(weight.__getitem__, terms_of)) / total
                near = (max(0, j - back - 1), j - back, j + 1, j + 2)
                windows.append(
                    (
                        three + NUMBER_PICK,
                        lead[0].start - sent.end,
                        _Window(three, chunks[-i], tuple(lead), sents, near, back),
                    )
                )
    if not windows:
        return Support(0.0, None, "")
    folded_claim = fold(claim_text)
    reading = Reading(folded_claim)
    ignored = fold(" ".join(ignore_names))
    names = [n for n in names_in(claim) if fold(n) not in ignored]
    found_elsewhere: dict[int, bool] = {}

    def elsewhere(q: Quantity) -> bool:  # once per claim number, not per window
        key = id(q)
        if key not in found_elsewhere:
            found_elsewhere[key] = stated_elsewhere(q, prepped)
        return found_elsewhere[key]

    top = heapq.nlargest(_WINDOWS_SCORED, windows, key=lambda x: x[:2])
    scored = [
        _score(w, claim_text, folded_claim, reading, want, claim_numbers, ctx, elsewhere)
        for _, _, w in top + _contradicting(reading, windows, top)
    ]
    best = settle(scored, folded_claim, _pick, lambda s, why: replace(s, conflict=why))
    if best.missing:  # the evidence's number in each missing one's role, for the explanation
        roles = tuple(counterpart(q, best.evidence_numbers) for q in best.missing)
        best = replace(best, counterparts=roles)
    if best.chunk is not None and not best.conflict:  # a sibling's word in the copied sentence
        best = _read_swap(best, reading, paper)
    return _read_names(best, names, paper) if names and not best.conflict else best


def _read_swap(best: Support, claim: Reading, paper: Paper) -> Support:
    """The support, left on the topic but not stating the claim when the claim copies the
    span's sentence with one word of a neighbouring sentence in place of its own (``sibling``)."""
    assert best.chunk is not None
    start = best.chunk.text.find(best.span)
    sents = sentences_of(prepared(best.chunk))
    end = start + len(best.span)
    found = swap_in_span(claim, sents, start, end, siblings_of(paper)) if start >= 0 else None
    return replace(best, unstated=(*best.unstated, found[0]), swap=found) if found else best


def _read_names(best: Support, names: Sequence[str], paper: Paper) -> Support:
    """The support with the claim's names read: one the cited paper never uses contradicts it
    (a scan of every passage, so read only when it would decide the verdict); one the paper
    uses in a passage or two, but not the span's, leaves it on the topic but not about it
    ("StanfordNER for English" shown a sentence on named-entity recognition in general)."""
    absent = tuple(n for n in names if not mentioned(n, paper))
    if absent:
        return replace(best, conflict="name", absent=absent)
    if best.chunk is None:
        return best
    here = folded_text(prepared(best.chunk))
    aside = tuple(n for n in names if fold(n) not in here and rare_name(n, paper))
    return replace(best, unstated=(*best.unstated, *aside)) if aside else best


def _pick(scored: list[Support]) -> Support:
    """The support to show among the scored windows."""
    clean = [s for s in scored if not s.conflict]
    best_clean = max(clean, key=lambda s: s.score, default=None)
    if best_clean is not None and best_clean.unstated:  # one that states the claim's finding
        stating = max((s for s in clean if not s.unstated), key=lambda s: s.score, default=None)
        if stating is not None and stating.score >= best_clean.score - _CONFLICT_MARGIN:
            best_clean = stating
    best_any = max(scored, key=lambda s: s.score)
    # The span that says 1.78 where the claim says 1.71 is the one the reader needs to see,
    # unless another span supports the claim nearly as well without contradicting it. A
    # negation, direction or swapped comparison is stricter: a flipped finding is often echoed
    # elsewhere by a sentence that lacks just the word that matters.
    worded = [s for s in scored if s.conflict and s.conflict not in ("number", "name")]
    flip = max(worded, key=lambda s: s.score, default=None)
    if best_clean is not None and flip is not None:
        # a span lacking the claim's negation is the echo; one stating it is no echo, and
        # needs no margin over it
        margin = 0.0 if best_clean.denies and flip.conflict.startswith(_CLAIM_NEG) else None
        margin = _CONFLICT_MARGIN if margin is None else margin
        return best_clean if best_clean.score > flip.score + margin else flip
    if best_clean is None or not best_any.conflict:  # a worded contradiction explains better
        near = flip if flip and flip.score >= best_any.score - _CONFLICT_MARGIN else None
        return best_clean or near or best_any  # than another passage's number
    anchored = max((s for s in clean if s.anchored >= 2), key=lambda s: s.score, default=None)
    if anchored is not None and best_any.conflict == "number":
        return anchored  # a span stating every number of the claim (two or more): the other's
        # number has another role ("348 pointings" for a claim of "235 NEOs, 97 found")
    return best_clean if best_clean.score > best_any.score - _CONFLICT_MARGIN else best_any


_CONTRADICTING = 2  # windows outside the top ones read for a contradiction of the claim
_CONTRADICTING_COVER = 0.6  # ... when they cover this share of the top window's terms


def _contradicting(
    claim: Reading,
    windows: list[tuple[float, int, _Window]],
    top: list[tuple[float, int, _Window]],
) -> list[tuple[float, int, _Window]]:
    """Windows beyond the top ones that may state the claim's finding the other way round (an
    opposite direction word, a comparison of the same two sides): "cbow outperforms count"
    for a claim that count outperforms cbow is often not the sentence that covers most."""
    floor = _CONTRADICTING_COVER * max(w.cover for _, _, w in top)
    senses = finding_senses(claim)  # a window stating the claim's finding is read too
    chosen = {id(w) for _, _, w in top}
    found = [
        x
        for x in windows
        if id(x[2]) not in chosen
        and x[2].cover >= floor
        and any(may_conflict(claim, s.stems) or senses & s.stems for s in x[2].sentences)
    ]
    return heapq.nlargest(_CONTRADICTING, found, key=lambda x: x[:2])


_CONFLICT_MARGIN = 0.1  # a contradicting span wins unless a clean one scores this much more
_CLAIM_NEG = "negation: claim"  # the conflict of a span lacking the claim's negation


def _score(
    w: _Window,
    claim: str,
    folded_claim: str,
    reading: Reading,
    want: frozenset[str],
    claim_numbers: tuple[Quantity, ...],
    ctx: Context,
    elsewhere: Callable[[Quantity], bool],
) -> Support:
    span = w.chunk.text[w.sentences[0].start : w.sentences[-1].end]
    semantic = 0.0
    if ctx.similarity is not None:
        window_text = " ".join(x.text for x in w.sentences)
        semantic = max(0.0, ctx.similarity(claim, window_text))
    fuzz_part = 0.0
    if W_COVER * w.cover + W_SEMANTIC * semantic + W_FUZZ >= _FUZZ_WORTH:
        folded = " ".join(x.folded for x in w.sentences)
        # partial_ratio of unrelated prose is ~50: only the part above that is evidence
        ratio = fuzz.partial_ratio(
            folded_claim[:_FUZZ_CHARS], folded[: 5 * _FUZZ_CHARS], score_cutoff=50
        )
        fuzz_part = max(0.0, ratio - 50) / 50
    score = W_COVER * w.cover + W_FUZZ * fuzz_part + W_SEMANTIC * semantic
    evidence = tuple(
        q for x in w.sentences[w.lead_in :] for q in (w.cells if x is w.row else x.quantities)
    )
    missing = tuple(
        q
        for q in claim_numbers
        if not agrees_any(q, evidence) or within_a_range_only(q, evidence, claim_numbers)
    )
    if missing and not w.lead_in:  # a number may sit in a neighbouring sentence of the same
        # passage, unless the window states another number in its place ("4 hidden layers" for
        # "5 hidden layers"); a window led in to its numbers' sentence must state them there
        a, b, c, d = w.near
        near = tuple(q for x in (*w.pool[a:b], *w.pool[c:d]) for q in x.quantities)
        missing = tuple(
            q for q in missing if replaced(q, evidence) or not (agrees_any(q, near) or elsewhere(q))
        )
    # negation is read in the sentence that shares most with the claim; a direction word or a
    # swapped comparison in any sentence of the window
    closest = max(w.sentences, key=lambda x: len(x.terms & want))
    conflict = "number" if missing else conflict_of(reading, closest.reading)
    if conflict.startswith(_CLAIM_NEG) and any(  # another sentence of the window denies it
        x is not closest
        and reading.negated & x.reading.negated
        and not conflict_of(reading, x.reading)
        for x in w.sentences
    ):
        conflict = ""
    for other in w.sentences:
        if not conflict and other is not closest:
            found = conflict_of(reading, other.reading, attached=True, beside=closest.reading)
            conflict = "" if found.startswith("negation") else found
    window_stems = set().union(*(x.stems for x in w.sentences))
    return Support(
        score=round(min(score, 1.0), 4),
        chunk=w.chunk,
        span=span,
        missing=missing,
        evidence_numbers=evidence,
        conflict=conflict,
        unstated=unstated(reading, window_stems),
        anchored=0 if missing else anchoring(claim_numbers, evidence),
        denies=not conflict and bool(reading.negated & closest.reading.negated),
        cover=round(w.cover, 4),
        semantic=round(semantic, 4),
        fuzz=round(fuzz_part, 4),
    )


def library_context(
    chunks: Iterable[Chunk], similarity: Callable[[str, str], float] | None = None
) -> Context:
    """The scoring context of a library: term rarity over all its chunks (cached per chunk)."""
    idf, default = idf_table(prepared(c).terms for c in chunks)
    return Context(idf=idf, default_idf=default, similarity=similarity)
