"""The Answerer protocol and the values every answerer and the pipeline share.

Answerers live beside this module (``extractive``, ``claude``) and are listed in ``registry``;
they import this module, never each other, so the answer stage has no import cycle.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from research_assistant.answer import prompts
from research_assistant.text import fold

if TYPE_CHECKING:  # the checker's scoring context; base stays light to import
    from research_assistant.check.support import Context

__all__ = [
    "DEFAULT_MODEL",
    "AnswerRequest",
    "Answerer",
    "CitedSpan",
    "Draft",
    "Judge",
    "JudgeItem",
    "RepairNote",
    "Ruling",
    "SourcePassage",
    "Turn",
    "allowed_labels",
    "history_messages",
    "is_refusal",
    "judge_prompt",
    "labels_block",
    "parse_rulings",
    "passage_source",
    "refusal_draft",
    "repair_prompt",
]

# The newest Sonnet in anthropic 2.12's model list; RA_MODEL overrides it. Here, below the
# registry, Claude's answerer and the settings, so that none of them imports another for it.
DEFAULT_MODEL = "claude-sonnet-5-5"


@dataclass(frozen=True)
class SourcePassage:
    """A retrieved chunk as the answerer sees it; ``label`` is its paper's author-year label."""

    label: str
    paper_key: str
    title: str
    page: int
    chunk_id: str
    text: str
    authors: str = ""  # the paper's author family names: words that name it in a question


@dataclass(frozen=True)
class Turn:
    """An earlier exchange of the conversation: the question and the answer text shown."""

    question: str
    answer: str


@dataclass(frozen=True)
class AnswerRequest:
    question: str
    passages: tuple[SourcePassage, ...]
    history: tuple[Turn, ...] = ()  # earlier turns of the conversation, oldest first
    # library-wide term rarity and sentence similarity (the checker's), when the library has one
    context: Context | None = None


@dataclass(frozen=True)
class CitedSpan:
    """A sentence the extractive answerer copied: what its repair round replaces or drops.
    The verifier never trusts it; it checks every claim against the cited paper itself."""

    label: str
    chunk_id: str
    cited_text: str


@dataclass(frozen=True)
class Draft:
    text: str
    model: str
    backend: str
    refused: bool = False
    cited_spans: tuple[CitedSpan, ...] = ()
    input_tokens: int = 0
    output_tokens: int = 0
    # What the answerer fixed or found in the model's output (a fenced answer unwrapped, "[1]"
    # mapped to its label, an unfinished sentence dropped): logged with the run, shown in --json.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RepairNote:
    """One failing citation of a draft: its marker, the claim it supports, its status and why."""

    marker: str
    claim: str
    status: str
    reason: str


class Answerer(Protocol):
    backend: str  # a name in registry.ANSWERERS
    model: str

    def answer(
        self, request: AnswerRequest, on_text: Callable[[str], None] | None = None
    ) -> Draft: ...

    def repair(
        self,
        request: AnswerRequest,
        draft: Draft,
        notes: Sequence[RepairNote],
        on_text: Callable[[str], None] | None = None,
    ) -> Draft: ...


@dataclass(frozen=True)
class JudgeItem:
    """A citation the offline checker could not settle, as the judge sees it: the claim, the
    cited paper's label, and the exact passages of that paper it was checked against."""

    id: int
    claim: str
    label: str
    passages: tuple[str, ...]


JUDGE_VERDICTS = ("supports", "contradicts", "not_enough")


@dataclass(frozen=True)
class Ruling:
    """The judge's answer on one item: a verdict of JUDGE_VERDICTS, the span of the passages it
    rests on (quoted verbatim, it says) and one line of reason."""

    id: int
    verdict: str
    quote: str = ""
    reason: str = ""


class Judge(Protocol):
    """A second opinion from a model on claims the offline checker leaves in the middle: one
    batched call for all of them. Raises research_assistant.errors.LLMError when it fails."""

    backend: str
    model: str

    def judge(self, items: Sequence[JudgeItem]) -> tuple[Ruling, ...]: ...


def judge_prompt(items: Sequence[JudgeItem]) -> str:
    """The user turn of a judging call: every item with its passages (prompts.JUDGE_*)."""
    return prompts.JUDGE_PROMPT.format(
        items="\n\n".join(
            prompts.JUDGE_ITEM_TEMPLATE.format(
                id=item.id,
                label=item.label,
                claim=" ".join(item.claim.split()),
                passages=prompts.PASSAGE_SEPARATOR.join(item.passages),
            )
            for item in items
        )
    )


def parse_rulings(text: str, ids: Sequence[int]) -> tuple[Ruling, ...]:
    """The rulings of a judge's reply (a JSON array, possibly fenced or with prose around it);
    entries with an unknown id or verdict are dropped, so a garbled reply settles nothing."""
    start, end = text.find("["), text.rfind("]")
    if start < 0 or end <= start:
        return ()
    try:
        rows = json.loads(text[start : end + 1])
    except ValueError:
        return ()
    wanted, out = set(ids), []
    for row in rows if isinstance(rows, list) else ():
        if not isinstance(row, dict):
            continue
        rid, verdict = row.get("id"), str(row.get("verdict", "")).strip().lower()
        if isinstance(rid, int) and rid in wanted and verdict in JUDGE_VERDICTS:
            wanted.discard(rid)
            quote = " ".join(str(row.get("quote") or "").split())
            out.append(Ruling(rid, verdict, quote, " ".join(str(row.get("reason") or "").split())))
    return tuple(out)


def allowed_labels(passages: Sequence[SourcePassage]) -> tuple[str, ...]:
    """The distinct labels of the passages, in retrieval order: the closed world of citations."""
    return tuple(dict.fromkeys(p.label for p in passages))


def labels_block(request: AnswerRequest) -> str:
    """The allowed labels, one line each, as the prompts list them."""
    return "\n".join(
        prompts.ALLOWED_LABEL_LINE.format(label=label) for label in allowed_labels(request.passages)
    )


def repair_prompt(request: AnswerRequest, notes: Sequence[RepairNote]) -> str:
    """The user turn of a repair round: each failing citation and why, the allowed labels."""
    problems = "\n".join(
        prompts.REPAIR_PROBLEM_LINE.format(
            marker=n.marker, claim=" ".join(n.claim.split()), status=n.status, reason=n.reason
        )
        for n in notes
    )
    return prompts.REPAIR_PROMPT.format(problems=problems, allowed_labels=labels_block(request))


def passage_source(passage: SourcePassage) -> str:
    """The ``source`` of a passage's search_result block; Claude echoes it in its citations."""
    return f"{passage.paper_key}#p{passage.page}#{passage.chunk_id}"


def history_messages(history: Sequence[Turn]) -> list[dict[str, str]]:
    """The earlier turns as chat messages, oldest first: a user question, the assistant's answer.
    Both the Messages API and Chat Completions take this shape; the passages of earlier turns are
    not resent (the current turn's passages are the only ones citable)."""
    return [
        message
        for turn in history
        for message in (
            {"role": "user", "content": " ".join(turn.question.split())},
            {"role": "assistant", "content": turn.answer.strip() or prompts.REFUSAL_TEXT},
        )
    ]


def refusal_draft(model: str, backend: str) -> Draft:
    return Draft(text=prompts.REFUSAL_TEXT, model=model, backend=backend, refused=True)


def is_refusal(text: str) -> bool:
    """True when the answer is the refusal sentence (possibly with a remark) and cites nothing."""
    return fold(text).startswith(fold(prompts.REFUSAL_TEXT).rstrip(".")) and "[" not in text
