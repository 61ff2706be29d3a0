"""A second opinion on the citations the offline checker cannot settle (pure).

When a model that can judge is configured, the pipeline sends it the citations left in the
middle (uncertain, partial) or verified just over the threshold, or, when asked for ``every``
one, every citation the checker verified too and every one it did not find stated (unsupported
with no contradiction: a paraphrase in other words than the paper's), in batched calls of
JUDGE_BATCH, with the exact passages of the cited paper (``items``). Its rulings then combine
with the offline verdicts (``combine``), under rules that keep a green chip meaning the paper
says it:

- the judge may lift a claim to verified only when its quote is found in a passage of the cited
  paper (fuzzy match >= QUOTE_MATCH) and every number of the claim agrees with the quote;
- it may lower a claim to unsupported when it says the paper contradicts it, and a verified
  claim to uncertain when it finds the passages do not state it (with ``every``, a green chip
  is one the checker and the model both find stated);
- a contradiction found offline (a number, a direction, a negation, a name) is never sent, so
  never overturned; a failed call leaves every offline verdict as it was, noted.

Every citation the judge saw carries its opinion in ``Citation.judge`` (logged with the run).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rapidfuzz import fuzz

from research_assistant.agreement import agree
from research_assistant.answer.base import Judge, JudgeItem, Ruling
from research_assistant.check.nearest import nearest_chunks
from research_assistant.check.support import Context
from research_assistant.check.verify import SUPPORT_THRESHOLD
from research_assistant.errors import ResearchAssistantError
from research_assistant.models import Chunk
from research_assistant.quantities import quantities
from research_assistant.results import PARTIAL, UNCERTAIN, UNSUPPORTED, VERIFIED, Citation, Evidence
from research_assistant.text import LINE_HYPHEN, fold

__all__ = [
    "ACTIONS",
    "JUDGE_BATCH",
    "NEAR_MARGIN",
    "QUOTE_MATCH",
    "action_of",
    "combine",
    "failed",
    "items",
    "needs_judge",
    "second_opinion",
]

NEAR_MARGIN = 0.05  # a verified score this close over SUPPORT_THRESHOLD is asked about too
QUOTE_MATCH = 90  # rapidfuzz partial_ratio of the judge's quote against a cited passage
# Claims per judging call: each is sent with up to four passages of 4,000 characters, so ten
# make a request of about 40,000 tokens at most, and a reply that fits the call's max_tokens.
JUDGE_BATCH = 10
_PASSAGES = 4  # chunks of the cited paper sent with a claim
_PASSAGE_CHARS = 4000  # per passage sent: bounds the request


# What a judged citation's note says happened (``action_of`` reads it back for the audit).
_LIFTED, _LOWERED, _NO_RULING, _UNAVAILABLE = (
    "lifted from",
    "lowered from",
    "gave no ruling",
    "unavailable",
)
ACTIONS = ("lifted", "lowered", "kept", "no ruling", "unavailable")


def action_of(judge: str) -> str:
    """What the judge's note on a citation (``Citation.judge``) says happened, one of ACTIONS:
    lifted to verified, lowered (to uncertain or unsupported), kept (its opinion changed
    nothing), no ruling, unavailable (the call failed); "" for a citation no judge read."""
    if not judge:
        return ""
    if f"({_LIFTED} " in judge:
        return "lifted"
    if f"({_LOWERED} " in judge:
        return "lowered"
    if _NO_RULING in judge:
        return "no ruling"
    if f") {_UNAVAILABLE} (" in judge:
        return "unavailable"
    return "kept"


def needs_judge(c: Citation, every: bool = False) -> bool:
    """Whether the offline verdict is one a second opinion may settle; with ``every``, every
    verified citation is asked about too, and every unsupported one the checker found no
    contradiction for (a contradiction found offline never is)."""
    if c.paper_key is None:
        return False
    if c.status in (UNCERTAIN, PARTIAL):
        return True
    if c.status == UNSUPPORTED:
        return every and not c.conflict
    return c.status == VERIFIED and (every or c.score < SUPPORT_THRESHOLD + NEAR_MARGIN)


def _passages(c: Citation, chunks: Sequence[Chunk], ctx: Context | None) -> list[Chunk]:
    """What the judge reads of the cited paper: the evidence chunk, then the chunks that share
    most with the claim (a partial claim's evidence holds one part only)."""
    first = [x for x in chunks if c.evidence and x.chunk_id == c.evidence.chunk_id]
    out: list[Chunk] = []
    for x in [*first, *nearest_chunks(c.claim, chunks, ctx, _PASSAGES)]:
        if x not in out:
            out.append(x)
    return out[:_PASSAGES]


def items(
    citations: Sequence[Citation],
    chunks_of: Callable[[str], Sequence[Chunk]],
    label_of: Callable[[str], str],
    ctx: Context | None = None,
    every: bool = False,
) -> list[JudgeItem]:
    """One JudgeItem per citation that needs a judge; its id is the citation's index."""
    out = []
    for i, c in enumerate(citations):
        if needs_judge(c, every) and c.paper_key is not None:
            sent = _passages(c, chunks_of(c.paper_key), ctx)
            texts = tuple(x.text[:_PASSAGE_CHARS] for x in sent)
            if texts:  # a paper with no text has nothing to judge against
                out.append(JudgeItem(i, c.claim, label_of(c.paper_key), texts))
    return out


def _found(quote: str, chunks: Sequence[Chunk]) -> Chunk | None:
    """The passage that holds the quote (fuzzy, folded), or None."""
    q = fold(quote)
    if len(q) < 12:  # too short to show anything
        return None
    best: tuple[float, Chunk] | None = None
    for chunk in chunks:
        text = fold(LINE_HYPHEN.sub("", chunk.text))
        ratio = 100.0 if q in text else fuzz.partial_ratio(q, text)
        if ratio >= QUOTE_MATCH and (best is None or ratio > best[0]):
            best = (ratio, chunk)
    return best[1] if best else None


def _numbers_hold(claim: str, quote: str) -> bool:
    evidence = quantities(quote, small_words=True)
    return all(any(agree(q, e) for e in evidence) for q in quantities(claim))


def combine(
    c: Citation,
    ruling: Ruling | None,
    chunks: Sequence[Chunk],
    model: str,
    label: str,
    ctx: Context | None = None,
) -> Citation:
    """The citation after the judge's ruling (None: it gave none for this claim)."""
    who = f"model judge ({model})"
    if ruling is None:
        return replace(c, judge=f"{who} {_NO_RULING}; the offline verdict stands")
    said = f"{who}: {ruling.verdict}" + (f" — {ruling.reason}" if ruling.reason else "")
    if ruling.verdict == "contradicts":
        if c.status == UNSUPPORTED:
            return replace(c, judge=said)
        reason = f"the {who} finds that {label} contradicts this: {ruling.reason or 'see p.'}"
        return replace(
            c, status=UNSUPPORTED, reason=reason, judge=f"{said} ({_LOWERED} {c.status})"
        )
    if ruling.verdict == "not_enough" and c.status == VERIFIED:
        reason = (
            f"the {who} does not find this stated in {label}'s passages"
            + (f" ({ruling.reason})" if ruling.reason else "")
            + ": check the evidence"
        )
        return replace(c, status=UNCERTAIN, reason=reason, judge=f"{said} ({_LOWERED} verified)")
    if ruling.verdict != "supports" or c.status == VERIFIED:
        return replace(c, judge=said)
    chunk = _found(ruling.quote, _passages(c, chunks, ctx))
    if chunk is None:
        return replace(c, judge=f"{said} (not lifted: its quote is not in the cited passages)")
    if not _numbers_hold(c.claim, ruling.quote):
        return replace(c, judge=f"{said} (not lifted: the claim's numbers are not in its quote)")
    return replace(
        c,
        status=VERIFIED,
        evidence=Evidence(chunk.chunk_id, chunk.page, ruling.quote),
        reason=f"{label}, p. {chunk.page} supports this (confirmed by the {who})",
        judge=f"{said} ({_LIFTED} {c.status})",
    )


def failed(c: Citation, model: str, why: str) -> Citation:
    """A citation that was sent to a judge whose call failed: the offline verdict, noted."""
    return replace(c, judge=f"model judge ({model}) {_UNAVAILABLE} ({why}); offline verdict stands")


def second_opinion(
    citations: Sequence[Citation],
    judge: Judge,
    chunks_of: Callable[[str], Sequence[Chunk]],
    label_of: Callable[[str], str],
    ctx: Context | None = None,
    every: bool = False,
) -> tuple[Citation, ...]:
    """The citations after judging calls, JUDGE_BATCH claims each, on those that need it
    (``needs_judge``; ``every``: every verified one too); when a call fails, the offline
    verdicts of its claims stand and say so."""
    todo = items(citations, chunks_of, label_of, ctx, every)
    out = list(citations)
    for start in range(0, len(todo), JUDGE_BATCH):
        batch = todo[start : start + JUDGE_BATCH]
        try:
            rulings = {r.id: r for r in judge.judge(batch)}
        except ResearchAssistantError as exc:
            for item in batch:
                out[item.id] = failed(out[item.id], judge.model, str(exc))
            continue
        for item in batch:
            c = out[item.id]
            chunks = chunks_of(c.paper_key) if c.paper_key else ()
            out[item.id] = combine(c, rulings.get(item.id), chunks, judge.model, item.label, ctx)
    return tuple(out)
