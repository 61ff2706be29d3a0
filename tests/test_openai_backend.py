"""OpenAIAnswerer through the real openai SDK against the local fake Chat Completions server
(tests/fake_openai.py), plain and streaming; what a weak model writes, made checkable; the whole
pipeline with it; and the same question through every backend over the corpus library."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant import store as store_mod
from research_assistant.answer import prompts
from research_assistant.answer.base import (
    AnswerRequest,
    Draft,
    JudgeItem,
    RepairNote,
    Ruling,
    SourcePassage,
    Turn,
    judge_prompt,
)
from research_assistant.answer.claude import ClaudeAnswerer
from research_assistant.answer.extractive import ExtractiveAnswerer
from research_assistant.answer.openai import NO_KEY, OpenAIAnswerer
from research_assistant.answer.registry import ANSWERERS, default_backend, make_answerer
from research_assistant.answer.tidy import cites_nothing, tidy
from research_assistant.check.coverage import citation_coverage
from research_assistant.check.judging import second_opinion
from research_assistant.cli import main
from research_assistant.errors import LLMError
from research_assistant.library import Library
from research_assistant.pipeline import _request, ask, check_text, get_answerer
from research_assistant.results import STATUSES, UNCERTAIN, VERIFIED
from research_assistant.settings import DEFAULT_MODEL, load_settings
from research_assistant.web import views
from tests import fake_claude as claude_fake
from tests.fake_claude import FakeClaude, fake_claude
from tests.fake_openai import FakeOpenAI, cut, error, fake_openai, hang, reply

__all__ = ["fake_claude", "fake_openai"]  # the fixtures, imported so pytest finds them here

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
GOOD = "DLA clusters grown in two dimensions have a fractal dimension of about 1.71 [Witten and Sander, 1981]."


def local(server: FakeOpenAI, **options: object) -> OpenAIAnswerer:
    settings: dict[str, object] = {"timeout_s": 5.0, "max_retries": 2}
    settings.update(options)
    return OpenAIAnswerer(base_url=server.base_url, model="llama-test", **settings)  # type: ignore[arg-type]


STREAMING = pytest.mark.parametrize("stream", [True, False], ids=["streaming", "plain"])


# ---------------------------------------------------------------------------- the answerer alone
@STREAMING
def test_a_good_cited_answer(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, stream: bool
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-users-real-key")  # never sent to a local server
    fake_openai.enqueue(reply(GOOD))
    pieces: list[str] = []
    draft = local(fake_openai, stream=stream).answer(REQUEST, on_text=pieces.append)
    assert "".join(pieces) == draft.text == GOOD
    assert len(pieces) > 2 if stream else len(pieces) == 1
    assert (draft.backend, draft.model, draft.refused, draft.notes) == (
        "openai", "llama-test", False, (),
    )  # fmt: skip
    if not stream:
        assert (draft.input_tokens, draft.output_tokens) == (150, 30)
    body = fake_openai.requests[0]
    assert body["model"] == "llama-test" and body["temperature"] == 0
    assert body.get("stream", False) is stream and body["max_tokens"] > 0
    system, user = body["messages"]
    assert system == {"role": "system", "content": prompts.SYSTEM_PROMPT}
    assert user["role"] == "user" and REQUEST.question in user["content"]
    assert "Passage 1 [Witten and Sander, 1981]" in user["content"]
    assert "Passage 2 [Dean and Ghemawat, 2004]" in user["content"]
    assert "- [Witten and Sander, 1981]\n- [Dean and Ghemawat, 2004]" in user["content"]
    auth = fake_openai.headers[0].get("authorization", "")
    assert auth == f"Bearer {NO_KEY}" and "sk-the-users-real-key" not in auth


def test_an_api_key_is_sent_when_set(fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(reply(GOOD))
    local(fake_openai, api_key="sk-vllm").answer(REQUEST)
    assert fake_openai.headers[0]["authorization"] == "Bearer sk-vllm"


def test_repair_names_each_failing_citation_and_why(fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(reply(GOOD))
    draft = Draft("DLA clusters have D = 1.71 [Witten, 1999].", "llama-test", "openai")
    note = RepairNote(
        "[Witten, 1999]", "DLA clusters have D = 1.71", "unknown_source", "no such paper"
    )
    repaired = local(fake_openai).repair(REQUEST, draft, [note])
    assert repaired.text == GOOD
    system, question, assistant, follow_up = fake_openai.requests[0]["messages"]
    assert system["role"] == "system" and "Passage 1" in question["content"]
    assert assistant == {"role": "assistant", "content": draft.text}
    for part in (note.marker, note.claim, note.status, note.reason, "[Dean and Ghemawat, 2004]"):
        assert part in follow_up["content"]
    assert local(fake_openai).repair(REQUEST, draft, []) is draft  # nothing to fix: no request
    assert len(fake_openai.requests) == 1


@STREAMING
@pytest.mark.parametrize(
    ("written", "expected", "note"),
    [
        ("D is about 1.71 [1].", "D is about 1.71 [Witten and Sander, 1981].", "numeric markers"),
        ("D is about 1.71 [Passage 1].", "D is about 1.71 [Witten and Sander, 1981].", "[Passage 1]"),
        ("D is 1.71 [1, 2].", "D is 1.71 [Witten and Sander, 1981; Dean and Ghemawat, 2004].", "[1, 2]"),
        ("D is 1.71 [1] as in [17].", "D is 1.71 [Witten and Sander, 1981] as in.", "number no passage"),
        ('```json\n{"answer": "D is about 1.71 [1]."}\n```', "D is about 1.71 [Witten and Sander, 1981].", "Markdown code fence"),
        ('{"answer": "D is about 1.71 [Witten and Sander, 1981]."}', "D is about 1.71 [Witten and Sander, 1981].", "JSON"),
        ("```\nD is about 1.71 [Witten and Sander, 1981].\n```", "D is about 1.71 [Witten and Sander, 1981].", "fence"),
        ("D is about 1.71 [Sander et al., 1983].", "D is about 1.71 [Sander et al., 1983].", "[Sander et al., 1983]"),
    ],
)  # fmt: skip
def test_what_a_weak_model_writes_is_made_checkable(
    fake_openai: FakeOpenAI, stream: bool, written: str, expected: str, note: str
) -> None:
    fake_openai.enqueue(reply(written))
    draft = local(fake_openai, stream=stream).answer(REQUEST)
    assert draft.text == expected and not draft.refused
    assert any(note in n for n in draft.notes), draft.notes
    assert len(fake_openai.requests) == 1


@STREAMING
def test_an_uncited_answer_is_asked_once_more(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.enqueue(reply("DLA clusters have D = 1.71."), reply(GOOD))
    draft = local(fake_openai, stream=stream).answer(REQUEST)
    assert draft.text == GOOD and not draft.refused
    assert draft.notes == ("the answer cited no passage: asked once more to cite",)
    *_, assistant, follow_up = fake_openai.requests[1]["messages"]
    assert assistant["content"] == "DLA clusters have D = 1.71."
    assert (
        "cites no passage" in follow_up["content"]
        and "[Witten and Sander, 1981]" in (follow_up["content"])
    )


@STREAMING
def test_a_refusal_is_marked_and_not_asked_again(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.enqueue(reply(prompts.REFUSAL_TEXT))
    draft = local(fake_openai, stream=stream).answer(REQUEST)
    assert draft.refused and draft.text == prompts.REFUSAL_TEXT
    assert len(fake_openai.requests) == 1
    assert local(fake_openai).answer(AnswerRequest("Anything?", ())).refused  # no passages
    assert len(fake_openai.requests) == 1


@STREAMING
def test_stopped_mid_sentence_drops_the_unfinished_sentence(
    fake_openai: FakeOpenAI, stream: bool
) -> None:
    fake_openai.enqueue(reply(GOOD + " The master pings every", finish_reason="length"))
    draft = local(fake_openai, stream=stream).answer(REQUEST)
    assert draft.text == GOOD
    assert draft.notes == (
        "the answer was cut (finish_reason=length)",
        "the model stopped mid-sentence: the unfinished sentence was dropped",
    )


def test_a_stream_ending_without_a_finish_reason_is_cut(fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(reply("The fractal dimension of", finish_reason=None))
    draft = local(fake_openai).answer(REQUEST)
    assert draft.refused and draft.text == prompts.REFUSAL_TEXT  # nothing whole was left
    assert "the stream ended early" in draft.notes[0]


def test_a_dropped_stream_is_a_retryable_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(cut(GOOD, after_chunks=3))
    pieces: list[str] = []
    with pytest.raises(LLMError, match="dropped before the answer was complete") as e:
        local(fake_openai).answer(REQUEST, on_text=pieces.append)
    assert e.value.retryable and pieces and "".join(pieces) != GOOD


@STREAMING
def test_429_is_retried_then_succeeds(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.enqueue(error(429), reply(GOOD))
    draft = local(fake_openai, stream=stream).answer(REQUEST)
    assert draft.text == GOOD and len(fake_openai.requests) == 2


@STREAMING
def test_500_gives_up_after_the_retries(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.enqueue(error(500), error(500), error(500))
    with pytest.raises(LLMError, match=r"server error \(500, tried 3 times\)") as e:
        local(fake_openai, stream=stream).answer(REQUEST)
    assert e.value.retryable and len(fake_openai.requests) == 3
    assert "--backend extractive" in str(e.value)


@pytest.mark.parametrize(
    ("status", "words"),
    [(401, "RA_OPENAI_API_KEY"), (404, "ollama list"), (400, "lower --top-k")],
)
def test_client_errors_say_what_to_do_and_are_not_retried(
    fake_openai: FakeOpenAI, status: int, words: str
) -> None:
    fake_openai.enqueue(error(status, "context length exceeded"))
    with pytest.raises(LLMError, match=words) as e:
        local(fake_openai).answer(REQUEST)
    assert not e.value.retryable and len(fake_openai.requests) == 1


@STREAMING
def test_a_timeout_is_retryable(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.enqueue(hang())
    with pytest.raises(LLMError, match=r"did not answer within 0\.5 s") as e:
        local(fake_openai, stream=stream, timeout_s=0.5, max_retries=0).answer(REQUEST)
    assert e.value.retryable


def test_an_unreachable_server_says_to_start_it() -> None:
    with FakeOpenAI() as server:
        base_url = server.base_url
    answerer = OpenAIAnswerer(base_url=base_url, model="m", timeout_s=2.0, max_retries=0)
    with pytest.raises(LLMError, match="is it running") as e:
        answerer.answer(REQUEST)
    assert e.value.retryable


# ---------------------------------------------------------------------------- history
def test_history_goes_as_earlier_turns_in_both_backends(
    fake_openai: FakeOpenAI, fake_claude: FakeClaude
) -> None:
    history = (
        Turn("What is DLA?", "A growth process [Witten and Sander, 1981]."),
        Turn("Who  proposed it?", ""),
    )
    request = AnswerRequest(REQUEST.question, REQUEST.passages, history)
    expected = [
        {"role": "user", "content": "What is DLA?"},
        {"role": "assistant", "content": "A growth process [Witten and Sander, 1981]."},
        {"role": "user", "content": "Who proposed it?"},
        {"role": "assistant", "content": prompts.REFUSAL_TEXT},
    ]
    fake_openai.enqueue(reply(GOOD), reply(GOOD))
    local(fake_openai).answer(request)
    system, *earlier, question = fake_openai.requests[0]["messages"]
    assert system["role"] == "system" and earlier == expected
    assert "Passage 1" in question["content"]
    note = RepairNote("[X, 1999]", "claim", "unknown_source", "no such paper")
    local(fake_openai).repair(request, Draft("claim [X, 1999].", "m", "openai"), [note])
    assert fake_openai.requests[1]["messages"][1:5] == expected

    fake_claude.enqueue(claude_fake.answer(GOOD), claude_fake.answer(GOOD))
    claude = ClaudeAnswerer("test-key", model="c", base_url=fake_claude.base_url, timeout_s=5.0)
    claude.answer(request)
    *earlier, question = fake_claude.requests[0]["messages"]
    assert earlier == expected and question["content"][0]["type"] == "search_result"
    claude.repair(request, Draft("claim [X, 1999].", "c", "anthropic"), [note])
    assert fake_claude.requests[1]["messages"][:4] == expected


# ---------------------------------------------------------------------------- pure helpers
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A is so [Witten and Sander, 1981]. B is so. C is so [Dean and Ghemawat, 2004].", 2 / 3),
        ("Nothing cited here. Nor here.", 0.0),
        ("All cited [Witten and Sander, 1981].", 1.0),
        ("", None),
    ],
)
def test_citation_coverage(text: str, expected: float | None) -> None:
    assert citation_coverage(text) == expected


def test_tidy_leaves_a_good_answer_alone_and_knows_an_uncited_one() -> None:
    assert tidy(GOOD, REQUEST.passages) == tidy(GOOD, REQUEST.passages, finished=True)
    assert tidy(GOOD, REQUEST.passages).notes == ()
    assert tidy("[1-300] and [2020]", REQUEST.passages).text == "and [2020]"  # not passages
    thought = tidy(
        "<think>The user wants D. [1] says 1.71.</think>\n\nD is 1.71 [1].", REQUEST.passages
    )
    assert thought.text == "D is 1.71 [Witten and Sander, 1981]."
    assert thought.notes[0] == "the model's reasoning (<think>...</think>) was removed"
    assert tidy("<think>Still thinking about [1]", REQUEST.passages).text == ""
    assert cites_nothing("D is 1.71 [12]. E is 2.", REQUEST.passages)
    assert not cites_nothing("D is 1.71 [Foo, 2001].", REQUEST.passages)  # an invented label
    assert not cites_nothing("D [Dean and Ghemawat, 2004; Foo, 2001].", REQUEST.passages)


# ---------------------------------------------------------------------------- the whole pipeline
DEMO_DLA = "Lindqvist and Haddad, 2021"
DLA_CLAIM = "DLA clusters in two dimensions have a fractal dimension of about 1.71"
DLA_QUESTION = "What fractal dimension do DLA clusters have in 2D?"


@pytest.fixture(scope="module")
def demo_lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("demo")
    lib = Library.open(folder / "lib")
    lib.ingest(demo.build_demo(folder / "src"))
    yield lib
    store_mod.close(lib.root / "catalog.duckdb")


def test_pipeline_a_hallucinated_label_is_repaired(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(
        reply(f"{DLA_CLAIM} [Witten and Sander, 1981]."), reply(f"{DLA_CLAIM} [{DEMO_DLA}].")
    )
    answer = ask(demo_lib, DLA_QUESTION, answerer=local(fake_openai))
    assert answer.repaired and answer.mode == "answer"
    assert [c.status for c in answer.citations] == [VERIFIED]
    assert "[Witten and Sander, 1981]" in fake_openai.requests[1]["messages"][-1]["content"]
    assert answer.coverage == 1.0 and answer.backend == "openai"
    assert any("not given: [Witten and Sander, 1981]" in n for n in answer.notes)
    logged = demo_lib.store.run(answer.id)
    assert logged["coverage"] == 1.0 and logged["notes"] == list(answer.notes)


def test_pipeline_a_label_still_wrong_after_repair_is_flagged_and_logged(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    bad = f"{DLA_CLAIM} [{DEMO_DLA}]. Walkers also escape in 3D [Nobody, 1999]."
    fake_openai.enqueue(reply(bad), reply(bad))
    answer = ask(demo_lib, DLA_QUESTION, answerer=local(fake_openai))
    statuses = {c.mention.marker: c.status for c in answer.citations}
    assert statuses == {f"[{DEMO_DLA}]": VERIFIED, "[Nobody, 1999]": "unknown_source"}
    assert "[Nobody, 1999]" in answer.answer and not answer.repaired  # kept, visibly flagged
    logged = demo_lib.store.run(answer.id)
    assert [c["status"] for c in logged["citations"]] == [VERIFIED, "unknown_source"]
    assert any("[Nobody, 1999]" in n for n in logged["notes"])


def test_pipeline_numeric_markers_are_mapped_then_verified(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    passages = demo_lib.state.index.retrieve(DLA_QUESTION, 8)
    request = _request(demo_lib.state, DLA_QUESTION, passages)
    number = next(i for i, p in enumerate(request.passages, 1) if p.label == DEMO_DLA)
    fake_openai.enqueue(reply(f"{DLA_CLAIM} [{number}]."))
    answer = ask(demo_lib, DLA_QUESTION, answerer=local(fake_openai), top_k=8)
    assert answer.answer == f"{DLA_CLAIM} [{DEMO_DLA}]."
    assert [c.status for c in answer.citations] == [VERIFIED] and not answer.repaired
    assert answer.notes and "numeric markers" in answer.notes[0]


@STREAMING
def test_pipeline_a_fenced_json_answer_is_unwrapped_and_verified(
    demo_lib: Library, fake_openai: FakeOpenAI, stream: bool
) -> None:
    wrapped = "```json\n" + json.dumps({"answer": f"{DLA_CLAIM} [{DEMO_DLA}]."}) + "\n```"
    fake_openai.enqueue(reply(wrapped))
    answer = ask(demo_lib, DLA_QUESTION, answerer=local(fake_openai, stream=stream))
    assert answer.answer == f"{DLA_CLAIM} [{DEMO_DLA}]." and answer.mode == "answer"
    assert [c.status for c in answer.citations] == [VERIFIED]
    assert answer.to_dict()["notes"][:2] == [
        "the answer was wrapped in a Markdown code fence: unwrapped",
        "the answer was written as JSON: its text was taken out",
    ]


def test_pipeline_no_citations_at_all_is_refused_and_logged(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(reply(f"{DLA_CLAIM}."), reply(f"{DLA_CLAIM}. It is a fractal."))
    answer = ask(demo_lib, DLA_QUESTION, answerer=local(fake_openai))
    assert answer.mode == "refuse" and answer.citations == () and answer.coverage is None
    assert answer.answer == prompts.REFUSAL_TEXT
    logged = demo_lib.store.run(answer.id)
    assert logged["draft"] == f"{DLA_CLAIM}. It is a fractal."  # withheld, for the audit trail
    assert logged["notes"] == [
        "the answer cited no passage: asked once more to cite",
        "it still cites none: refused",
    ]


def test_pipeline_sends_the_conversation_to_the_server(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    earlier = Turn("What is DLA?", f"A growth process of random walkers [{DEMO_DLA}].")
    fake_openai.enqueue(reply(f"{DLA_CLAIM} [{DEMO_DLA}]."))
    answer = ask(demo_lib, "And its fractal dimension in 2D?", answerer=local(fake_openai),
                 history=(earlier,))  # fmt: skip
    assert answer.mode == "answer"
    _, user, assistant, _question = fake_openai.requests[0]["messages"]
    assert (user["content"], assistant["content"]) == (earlier.question, earlier.answer)


def test_pipeline_coverage_counts_uncited_sentences(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(reply(f"{DLA_CLAIM} [{DEMO_DLA}]. Fractals are everywhere in nature."))
    answer = ask(demo_lib, DLA_QUESTION, answerer=local(fake_openai))
    assert answer.mode == "answer" and answer.coverage == 0.5
    assert answer.to_dict()["coverage"] == 0.5


# ---------------------------------------------------------------------------- the judge
ITEMS = (
    JudgeItem(0, "DLA clusters have D of about 1.71", DLA.label, (DLA.text,)),
    JudgeItem(3, "The master never pings workers", MAPREDUCE.label, (MAPREDUCE.text,)),
)


def test_the_judge_sends_every_item_in_one_call_and_reads_the_rulings(
    fake_openai: FakeOpenAI,
) -> None:
    rulings = [
        {"id": 0, "verdict": "supports", "quote": DLA.text, "reason": "states 1.71"},
        {"id": 3, "verdict": "contradicts", "quote": MAPREDUCE.text, "reason": "it pings"},
        {"id": 9, "verdict": "supports"},  # an id it was not asked about: dropped
    ]
    thinking = "<think>Claim 0 matches [1.71]; claim 3 is the opposite.</think>\n"
    fake_openai.enqueue(reply(thinking + "```json\n" + json.dumps(rulings) + "\n```"))
    out = local(fake_openai).judge(ITEMS)
    assert out == (
        Ruling(0, "supports", DLA.text, "states 1.71"),
        Ruling(3, "contradicts", MAPREDUCE.text, "it pings"),
    )
    (body,) = fake_openai.requests
    assert not body.get("stream") and body["temperature"] == 0
    system, user = body["messages"]
    assert system == {"role": "system", "content": prompts.JUDGE_SYSTEM}
    assert user["content"] == judge_prompt(ITEMS)
    assert local(fake_openai).judge(()) == () and len(fake_openai.requests) == 1


def test_a_garbled_or_failed_judgement_settles_nothing(fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(reply("Both claims look fine to me."), error(500), error(500))
    assert local(fake_openai).judge(ITEMS) == ()
    with pytest.raises(LLMError, match="server error") as e:
        local(fake_openai, max_retries=1).judge(ITEMS)
    assert e.value.retryable


def test_the_judge_lifts_an_open_citation_through_second_opinion(
    demo_lib: Library, fake_openai: FakeOpenAI
) -> None:
    """An uncertain citation of the demo library, judged by the OpenAI-compatible server: its
    quote is found in the cited paper, so check/judging.py lifts it to verified."""
    state = demo_lib.state
    (checked,) = check_text(demo_lib, f"{DLA_CLAIM} [{DEMO_DLA}].").citations
    assert checked.status == VERIFIED and checked.evidence is not None
    open_one = replace(checked, status=UNCERTAIN)
    quote = checked.evidence.text
    fake_openai.enqueue(reply(json.dumps([{"id": 0, "verdict": "supports", "quote": quote}])))
    (judged,) = second_opinion(
        [open_one], local(fake_openai), state.index.chunks_of, lambda k: state.papers[k].label
    )
    assert judged.status == VERIFIED and "lifted from uncertain" in judged.judge
    assert "llama-test" in judged.judge
    (body,) = fake_openai.requests
    assert DLA_CLAIM in body["messages"][1]["content"]


# ---------------------------------------------------------------------------- settings, CLI
def test_the_registry_lists_the_backend_and_settings_configure_it(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ANSWERERS["openai"].needs == "RA_OPENAI_BASE_URL"
    assert not ANSWERERS["openai"].is_configured()
    with pytest.raises(LLMError, match="RA_OPENAI_BASE_URL"):
        make_answerer("openai", model="m")
    monkeypatch.setenv("RA_OPENAI_BASE_URL", fake_openai.base_url)
    assert default_backend() == "openai"  # the only backend whose setting is present
    with pytest.raises(LLMError, match="set RA_MODEL"):
        get_answerer("openai")  # Claude's default model fits no local server
    monkeypatch.setenv("RA_MODEL", "qwen2.5:7b-instruct")
    answerer = get_answerer()
    assert isinstance(answerer, OpenAIAnswerer)
    assert (answerer.model, answerer.base_url) == ("qwen2.5:7b-instruct", fake_openai.base_url)
    monkeypatch.setenv("RA_OPENAI_MODEL", "llama3.1:8b")  # both backends configured at once
    monkeypatch.setenv("RA_OPENAI_API_KEY", "sk-local")
    s = load_settings()
    assert (s.model_for("openai"), s.model_for("anthropic")) == (
        "llama3.1:8b",
        "qwen2.5:7b-instruct",
    )
    assert s.answerer_options("openai").api_key == "sk-local"
    assert s.answerer_options("anthropic").api_key is None


def test_cli_ask_backend_openai(
    demo_lib: Library, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("RA_OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("RA_MODEL", "llama-cli")
    fake_openai.enqueue(reply(f"{DLA_CLAIM} [{DEMO_DLA}]."))
    args = ["--library", str(demo_lib.root), "--json", "ask", DLA_QUESTION, "--backend", "openai"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["backend"], out["model"], out["coverage"]) == ("openai", "llama-cli", 1.0)
    assert [c["status"] for c in out["citations"]] == [VERIFIED] and out["notes"] == []
    assert fake_openai.requests[0]["model"] == "llama-cli"


# ---------------------------------------------------------------------------- every backend
CORPUS_QUESTION = "What is a straggler in a MapReduce computation?"


@pytest.fixture(scope="module")
def corpus_lib(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = Library.open(tmp_path_factory.mktemp("corpus") / "lib")
    lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "library.bib"])
    yield lib
    store_mod.close(lib.root / "catalog.duckdb")


@pytest.mark.parametrize("backend", ["anthropic", "openai", "extractive"])
def test_every_backend_gives_citations_that_each_carry_a_verdict(
    corpus_lib: Library, fake_claude: FakeClaude, fake_openai: FakeOpenAI, backend: str
) -> None:
    """The models' fakes answer with what the offline answerer writes from the same passages:
    real sentences of the corpus, cited with the labels the model was given."""
    passages = corpus_lib.state.index.retrieve(CORPUS_QUESTION, 8)
    written = ExtractiveAnswerer().answer(_request(corpus_lib.state, CORPUS_QUESTION, passages))
    assert not written.refused
    answerer: object
    if backend == "anthropic":
        fake_claude.enqueue(claude_fake.answer(written.text), claude_fake.answer(written.text))
        answerer = ClaudeAnswerer("test-key", model="claude-test", base_url=fake_claude.base_url)
    elif backend == "openai":
        fake_openai.enqueue(reply(written.text), reply(written.text))
        answerer = local(fake_openai)
    else:
        answerer = ExtractiveAnswerer()
    answer = ask(corpus_lib, CORPUS_QUESTION, answerer=answerer, top_k=8)  # type: ignore[arg-type]
    assert answer.mode == "answer" and answer.backend == backend
    assert answer.citations and all(c.status in STATUSES for c in answer.citations)
    assert any(c.status == VERIFIED for c in answer.citations)
    assert all(c.reason or c.status == VERIFIED for c in answer.citations)
    assert answer.coverage is not None and answer.coverage > 0
    logged = corpus_lib.store.run(answer.id)
    assert len(logged["citations"]) >= len(answer.citations)


def test_the_apps_selector_lists_each_backend_with_its_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert views.backend_option("extractive", "") == "Offline extractive answerer"
    assert (
        views.backend_option("openai", "") == "OpenAI-compatible server (local model) (not set up)"
    )
    monkeypatch.setenv("RA_OPENAI_BASE_URL", "http://localhost:11434/v1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("RA_OPENAI_MODEL", "llama3.1:8b")
    s = load_settings()
    shown = [views.backend_option(name, s.model_for(name)) for name in ANSWERERS]
    assert shown == [
        "Offline extractive answerer",
        f"Claude (Anthropic) · {DEFAULT_MODEL}",
        "OpenAI-compatible server (local model) · llama3.1:8b",
    ]
    assert views.backend_note("openai", "") == (
        True, "OpenAI-compatible server (local model) needs a model: set RA_MODEL and restart."
    )  # fmt: skip
    caption = views.run_caption({"backend": "openai", "model": "m", "id": "a", "coverage": 0.5,
                                 "notes": ["x", "y"]})  # fmt: skip
    assert "50% of sentences cited · 2 fixes to the model's output" in caption
