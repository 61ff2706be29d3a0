"""A refusal that helps: the papers that came closest, each with its nearest passage, plainly
marked as not an answer. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from research_assistant.answer.asking import question_terms
from research_assistant.answer.base import SourcePassage
from research_assistant.answer.sentences import clean_sentences
from research_assistant.results import Closest
from research_assistant.terms import terms

__all__ = ["CLOSEST_PAPERS", "closest"]

CLOSEST_PAPERS = 3
_SNIPPET_CHARS = 300


def _nearest(passage: SourcePassage, asked: set[str]) -> str:
    """The sentence of the passage that shares most terms with the question."""
    best, best_n = "", -1
    for _, sentence in clean_sentences(passage.text):
        n = len(asked & terms(sentence))
        if n > best_n:
            best, best_n = sentence, n
    text = best or " ".join(passage.text.split())
    return text if len(text) <= _SNIPPET_CHARS else text[: _SNIPPET_CHARS - 1].rstrip() + "…"


def closest(question: str, passages: Sequence[SourcePassage]) -> tuple[Closest, ...]:
    """The first ``CLOSEST_PAPERS`` distinct papers of the retrieved passages (retrieval
    order), each with its best-ranked passage's nearest sentence."""
    asked = set(question_terms(question))
    out: list[Closest] = []
    seen: set[str] = set()
    for p in passages:
        if p.paper_key in seen:
            continue
        seen.add(p.paper_key)
        out.append(Closest(p.paper_key, p.label, p.title, p.page, p.chunk_id, _nearest(p, asked)))
        if len(out) == CLOSEST_PAPERS:
            break
    return tuple(out)
