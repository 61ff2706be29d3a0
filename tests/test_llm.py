"""ClaudeAnswerer through the real anthropic SDK against the local fake Messages API server."""

from __future__ import annotations

import anthropic
import pytest

from research_assistant.answer import prompts
from research_assistant.answer.base import (
    AnswerRequest,
    Draft,
    RepairNote,
    SourcePassage,
    passage_source,
)
from research_assistant.answer.claude import ClaudeAnswerer
from research_assistant.answer.extractive import ExtractiveAnswerer
from research_assistant.answer.registry import make_answerer
from research_assistant.errors import LLMError
from tests.fake_claude import FakeClaude, answer, cite, cut, error, fake_claude, hang

__all__ = ["fake_claude"]  # the fixture, imported so pytest finds it here

DLA = SourcePassage(
    label="Witten and Sander, 1981",
    paper_key="witten1981diffusion",
    title="Diffusion-limited aggregation, a kinetic critical phenomenon",
    page=2,
    chunk_id="witten1981diffusion:2:0",
    text="In two dimensions the fractal dimension of the clusters is about 1.71.",
)
MAPREDUCE = SourcePassage(
    label="Dean and Ghemawat, 2004",
    paper_key="dean2004mapreduce",
    title="MapReduce: Simplified Data Processing on Large Clusters",
    page=3,
    chunk_id="dean2004mapreduce:3:1",
    text="The master pings every worker periodically.",
)
REQUEST = AnswerRequest(
    question="What fractal dimension do DLA clusters have in 2D?", passages=(DLA, MAPREDUCE)
)
GOOD = answer(
    "DLA clusters grown in two dimensions have a fractal dimension of about 1.71 ",
    ("[Witten and Sander, 1981].", [cite(DLA.text, index=0, source=passage_source(DLA))]),
)


def claude(server: FakeClaude, **options: object) -> ClaudeAnswerer:
    settings: dict[str, object] = {"base_url": server.base_url, "timeout_s": 5.0, "max_retries": 2}
    settings.update(options)
    return ClaudeAnswerer("test-key", model="claude-test", **settings)  # type: ignore[arg-type]


def test_streams_a_cited_answer(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(GOOD)
    pieces: list[str] = []
    draft = claude(fake_claude).answer(REQUEST, on_text=pieces.append)
    assert len(pieces) > 2  # arrived in pieces, in order
    assert "".join(pieces) == draft.text == GOOD.text.strip()
    assert draft.cited_spans == ()  # Claude's own citation events are not trusted or kept
    assert (draft.backend, draft.model, draft.refused) == ("anthropic", "claude-test", False)
    assert (draft.input_tokens, draft.output_tokens) == (120, 40)


def test_request_sends_search_results_with_citations_and_allowed_labels(
    fake_claude: FakeClaude,
) -> None:
    fake_claude.enqueue(GOOD)
    claude(fake_claude).answer(REQUEST)
    body = fake_claude.requests[0]
    assert body["stream"] is True and body["model"] == "claude-test"
    assert body["system"] == prompts.SYSTEM_PROMPT
    assert not {"temperature", "top_p", "top_k", "output_format"} & set(body)
    sent = fake_claude.headers[0]
    assert "test-key" in sent.get("x-api-key", "") + sent.get("authorization", "")
    *results, question = body["messages"][0]["content"]
    assert results == [
        {
            "type": "search_result",
            "source": passage_source(p),
            "title": p.label,
            "content": [{"type": "text", "text": p.text}],
            "citations": {"enabled": True},
        }
        for p in (DLA, MAPREDUCE)
    ]
    assert question["type"] == "text" and REQUEST.question in question["text"]
    assert "- [Witten and Sander, 1981]\n- [Dean and Ghemawat, 2004]" in question["text"]


def test_without_the_citations_feature_passages_go_inline(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(GOOD)
    draft = claude(fake_claude, use_citations=False).answer(REQUEST)
    (block,) = fake_claude.requests[0]["messages"][0]["content"]
    expected = prompts.PASSAGE_TEMPLATE.format(
        label=DLA.label, title=DLA.title, page=DLA.page, text=DLA.text
    )
    assert expected in block["text"] and REQUEST.question in block["text"]
    assert draft.text.endswith("[Witten and Sander, 1981].")


def test_repair_names_each_failing_citation_and_why(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(answer("DLA clusters have D = 1.71 [Witten and Sander, 1981]."))
    draft = Draft("DLA clusters have D = 1.71 [Witten, 1999].", "claude-test", "anthropic")
    note = RepairNote(
        "[Witten, 1999]",
        "DLA clusters have D = 1.71",
        "unknown_source",
        "no paper by Witten from 1999 in the library",
    )
    repaired = claude(fake_claude).repair(REQUEST, draft, [note])
    assert repaired.text == "DLA clusters have D = 1.71 [Witten and Sander, 1981]."
    first, assistant, follow_up = fake_claude.requests[0]["messages"]
    assert first["content"][0]["type"] == "search_result"
    assert assistant == {"role": "assistant", "content": draft.text}
    for part in (note.marker, note.claim, note.status, note.reason, "[Dean and Ghemawat, 2004]"):
        assert part in follow_up["content"]


def test_repair_with_nothing_to_fix_sends_nothing(fake_claude: FakeClaude) -> None:
    draft = Draft("x [Witten and Sander, 1981].", "claude-test", "anthropic")
    assert claude(fake_claude).repair(REQUEST, draft, []) is draft
    assert fake_claude.requests == []


def test_a_refusal_is_marked(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(answer(prompts.REFUSAL_TEXT))
    assert claude(fake_claude).answer(REQUEST).refused


def test_no_passages_refuses_without_asking(fake_claude: FakeClaude) -> None:
    draft = claude(fake_claude).answer(AnswerRequest("Anything?", ()))
    assert draft.refused and draft.text == prompts.REFUSAL_TEXT
    assert fake_claude.requests == []


def test_429_is_retried_then_succeeds(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(error(429), GOOD)
    assert claude(fake_claude).answer(REQUEST).text == GOOD.text.strip()
    assert len(fake_claude.requests) == 2


@pytest.mark.parametrize(
    ("status", "words"), [(529, "overloaded"), (500, "server error"), (429, "rate limit")]
)
def test_gives_up_retryable_after_retries(fake_claude: FakeClaude, status: int, words: str) -> None:
    fake_claude.enqueue(error(status), error(status))
    with pytest.raises(LLMError, match=words) as caught:
        claude(fake_claude, max_retries=1).answer(REQUEST)
    assert caught.value.retryable
    assert "--backend extractive" in str(caught.value)
    assert len(fake_claude.requests) == 2  # the SDK retried once


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (400, "refused the request"),
        (401, "API key"),
        (403, "may not use"),
        (404, "not found"),
    ],
)
def test_client_errors_are_not_retried(fake_claude: FakeClaude, status: int, words: str) -> None:
    fake_claude.enqueue(error(status, message="scripted"))
    with pytest.raises(LLMError, match=words) as caught:
        claude(fake_claude).answer(REQUEST)
    assert not caught.value.retryable
    assert len(fake_claude.requests) == 1


def test_timeout_is_retryable(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(hang(GOOD))
    with pytest.raises(LLMError, match=r"did not answer within 0\.5 s") as caught:
        claude(fake_claude, timeout_s=0.5, max_retries=0).answer(REQUEST)
    assert caught.value.retryable


def test_stream_cut_midway(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(cut("DLA clusters have a fractal dimension of about 1.71.", after_events=4))
    pieces: list[str] = []
    with pytest.raises(LLMError, match="dropped") as caught:
        claude(fake_claude).answer(REQUEST, on_text=pieces.append)
    assert caught.value.retryable
    assert pieces  # some text had arrived before the cut
    assert len(fake_claude.requests) == 1  # the SDK does not retry a broken stream


def test_error_event_inside_a_stream(fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(answer("never sent", error_type="overloaded_error", error_message="busy"))
    with pytest.raises(LLMError, match="overloaded") as caught:
        claude(fake_claude).answer(REQUEST)
    assert caught.value.retryable


def test_unreachable_api_is_retryable() -> None:
    with FakeClaude() as server:
        url = server.base_url
    with pytest.raises(LLMError, match="Could not reach") as caught:
        answerer = ClaudeAnswerer("test-key", model="claude-test", base_url=url, max_retries=0)
        answerer.answer(REQUEST)
    assert caught.value.retryable


def test_make_answerer_without_a_key_says_what_to_do() -> None:
    with pytest.raises(LLMError, match=r"ANTHROPIC_API_KEY.*--backend extractive") as caught:
        make_answerer("anthropic")
    assert not caught.value.retryable


def test_make_answerer_picks_the_backend(
    fake_claude: FakeClaude, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert isinstance(make_answerer("extractive"), ExtractiveAnswerer)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    answerer = make_answerer("anthropic", model="claude-x", base_url=fake_claude.base_url)
    assert isinstance(answerer, ClaudeAnswerer) and answerer.model == "claude-x"
    with pytest.raises(LLMError, match="Unknown answer backend"):
        make_answerer("gpt")


def test_fake_server_also_answers_plain_json(fake_claude: FakeClaude) -> None:
    """The fixture serves non-streaming requests too (for other modules' tests)."""
    fake_claude.enqueue(GOOD)
    client = anthropic.Anthropic(api_key="test-key", base_url=fake_claude.base_url)
    message = client.messages.create(
        model="claude-test", max_tokens=50, messages=[{"role": "user", "content": "hi"}]
    )
    assert "".join(b.text for b in message.content if b.type == "text") == GOOD.text
    assert message.content[1].citations[0].cited_text == DLA.text  # type: ignore[union-attr,index]
    assert fake_claude.requests[0].get("stream") is None


def test_an_empty_queue_fails_fast(fake_claude: FakeClaude) -> None:
    with pytest.raises(LLMError) as caught:
        claude(fake_claude).answer(REQUEST)
    assert not caught.value.retryable and len(fake_claude.requests) == 1
