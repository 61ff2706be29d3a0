"""Related words: a question's word the passages do not use counts, as another form does, when
the offline word vectors put it close to one they use ("big" and "large")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from research_assistant import Library, ask
from research_assistant.answer.base import AnswerRequest, SourcePassage
from research_assistant.answer.extractive import RELATED, ExtractiveAnswerer, score_sentences
from research_assistant.check.scored import Context
from research_assistant.embed import default_embedder

PASSAGE = (
    "The large surveys cannot afford to measure synthetic objects in their data stream. "
    "We can, because our observing season is comparatively short."
)
QUESTION = "Why can the big surveys not afford to measure synthetic objects?"


def test_the_embedder_relates_words_by_their_vectors() -> None:
    found = default_embedder().related(["big", "telescope", "7"], ["large", "season", "7"], RELATED)
    assert found == {"big": frozenset({"large"})}  # "7" is no word; a word present is no relative


def test_a_word_the_passages_use_is_not_related_again() -> None:
    assert default_embedder().related(["large"], ["large", "big"], RELATED) == {}


def _request(related: bool) -> AnswerRequest:
    def relate(
        wanted: Iterable[str], have: Iterable[str], threshold: float
    ) -> dict[str, frozenset[str]]:
        have = set(have)
        return {"big": frozenset({"larg"})} if "big" in wanted and "larg" in have else {}

    passage = SourcePassage(
        label="Trilling et al., 2017",
        paper_key="t",
        chunk_id="t-1",
        page=3,
        text=PASSAGE,
        authors="Trilling",
        title="The size distribution of near Earth objects",
    )
    ctx = Context(related=relate if related else None)
    return AnswerRequest(question=QUESTION, passages=(passage,), context=ctx)


def _coverage(related: bool) -> float:
    (first,) = [s for s in score_sentences(_request(related)) if "large" in s.sentence.text]
    return first.coverage


def test_a_related_word_counts_as_a_form_of_the_question_word() -> None:
    assert _coverage(related=True) > _coverage(related=False)
    assert "large surveys" in ExtractiveAnswerer().answer(_request(related=True)).text


def test_a_paraphrased_question_is_answered_on_the_corpus(claims_library: Library) -> None:
    # development question dev4-q-22: "big" where the paper says "large-scale"
    question = (
        "Why can the DECam team afford to inject fake asteroids into its images when the big "
        "dedicated surveys cannot?"
    )
    answer = ask(claims_library, question)
    assert answer.mode == "answer"
    assert "comparatively short observing season" in answer.answer
    state = claims_library.state
    ctx = state.support_context
    state._cache["support"] = replace(ctx, related=None)
    try:
        assert ask(claims_library, question).mode == "refuse"  # the words alone fall short
    finally:
        state._cache["support"] = ctx
