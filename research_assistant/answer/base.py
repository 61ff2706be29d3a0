"""The Answerer protocol and the values every answerer and the pipeline share.

Answerers live beside this module (``extractive``, ``claude``) and are listed in ``registry``;
they import this module, never each other, so the answer stage has no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from research_assistant.answer import prompts
from research_assistant.text import fold

__all__ = [
    "DEFAULT_MODEL",
    "AnswerRequest",
    "Answerer",
    "CitedSpan",
    "Draft",
    "RepairNote",
    "SourcePassage",
    "Turn",
    "allowed_labels",
    "is_refusal",
    "passage_source",
    "refusal_draft",
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


def allowed_labels(passages: Sequence[SourcePassage]) -> tuple[str, ...]:
    """The distinct labels of the passages, in retrieval order: the closed world of citations."""
    return tuple(dict.fromkeys(p.label for p in passages))


def passage_source(passage: SourcePassage) -> str:
    """The ``source`` of a passage's search_result block; Claude echoes it in its citations."""
    return f"{passage.paper_key}#p{passage.page}#{passage.chunk_id}"


def refusal_draft(model: str, backend: str) -> Draft:
    return Draft(text=prompts.REFUSAL_TEXT, model=model, backend=backend, refused=True)


def is_refusal(text: str) -> bool:
    """True when the answer is the refusal sentence (possibly with a remark) and cites nothing."""
    return fold(text).startswith(fold(prompts.REFUSAL_TEXT).rstrip(".")) and "[" not in text
