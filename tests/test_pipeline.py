"""ask() and check_text() on the demo library with scripted answerers: verdicts, repair, refusal,
logging, export, and consistency while another thread ingests."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from research_assistant import demo
from research_assistant import store as store_mod
from research_assistant.errors import ResearchAssistantError
from research_assistant.library import Library
from research_assistant.models import Passage
from research_assistant.pipeline import ask, check_text, export, warm
from research_assistant.results import Answer
from tests.fakes import ScriptedAnswerer

DLA = "Lindqvist and Haddad, 2021"
DLA_CLAIM = "DLA clusters in two dimensions have a fractal dimension of about 1.71"


@pytest.fixture(scope="module")
def demo_lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("demo")
    lib = Library.open(folder / "lib")
    lib.ingest(demo.build_demo(folder / "src"))
    return lib


def test_warm_prepares_what_the_first_question_and_change_read(demo_lib: Library) -> None:
    """The app's warm-up thread: afterwards the library.bib text and the matching keys of
    every paper come from the caches (the first ingest into a big library does not make them)."""
    from research_assistant.bib.write import entry
    from research_assistant.ingest import matching

    entry.cache_clear()
    matching._entry_keys.cache_clear()
    warm(demo_lib)
    papers = demo_lib.papers()
    assert entry.cache_info().currsize >= len(papers) > 0
    assert matching._entry_keys.cache_info().currsize >= 1
    before = entry.cache_info().misses
    demo_lib._write_bib(papers)
    assert entry.cache_info().misses == before  # every entry was warm


def test_a_good_answer_is_verified_logged_and_referenced(demo_lib: Library) -> None:
    fake = ScriptedAnswerer(f"{DLA_CLAIM} [{DLA}].")
    pieces: list[str] = []
    steps: list[str] = []
    answer = ask(demo_lib, "What fractal dimension do DLA clusters have in 2D?", answerer=fake,
                 user="ann", on_text=pieces.append, on_step=steps.append)  # fmt: skip
    assert answer.mode == "answer" and "".join(pieces).strip() == answer.answer
    assert [c.status for c in answer.citations] == ["verified"]
    c = answer.citations[0]
    assert c.paper_key == "lindqvistDiffusionlimitedAggregationHow2021"
    assert c.evidence is not None and "1.71" in c.evidence.text
    assert [r.key for r in answer.references] == [c.paper_key]
    # the answerer saw only retrieved passages, each with its paper's label
    request = fake.history[0][1]
    assert request.passages and DLA in {p.label for p in request.passages}
    assert {p.chunk_id for p in request.passages} == {p.chunk.chunk_id for p in answer.retrieved}
    assert any("Checking" in s for s in steps)
    logged = demo_lib.store.run(answer.id)
    assert logged["user"] == "ann" and logged["citations"][0]["status"] == "verified"
    d = answer.to_dict()
    assert set(d) >= {"id", "question", "mode", "answer", "citations", "references", "retrieved"}
    assert set(d["retrieved"][0]) == {"chunk_id", "paper_key", "page", "score"}


def test_a_hallucinated_citation_is_repaired(demo_lib: Library) -> None:
    fake = ScriptedAnswerer(
        f"{DLA_CLAIM} [Witten and Sander, 1981]. It has dimension 1.71 [Okafor, 2020a].",
        f"{DLA_CLAIM} [{DLA}].",
    )
    answer = ask(demo_lib, "What fractal dimension do DLA clusters have in 2D?", answerer=fake)
    kinds = [h[0] for h in fake.history]
    assert kinds == ["answer", "repair"]
    notes = fake.history[1][2]
    assert {n.marker for n in notes} == {"[Witten and Sander, 1981]", "[Okafor, 2020a]"}
    assert all(n.reason for n in notes)
    assert answer.repaired and [c.status for c in answer.citations] == ["verified"]


def test_a_citation_still_wrong_after_repair_is_flagged_not_dropped(demo_lib: Library) -> None:
    bad = f"{DLA_CLAIM} [{DLA}]. Percolation on the square lattice starts at 0.9 [Okafor, 2020a]."
    fake = ScriptedAnswerer(bad, bad)
    answer = ask(demo_lib, "What fractal dimension do DLA clusters have in 2D?", answerer=fake)
    statuses = {c.mention.marker: c.status for c in answer.citations}
    assert statuses[f"[{DLA}]"] == "verified"
    assert statuses["[Okafor, 2020a]"] != "verified"
    assert "[Okafor, 2020a]" in answer.answer  # kept, visibly flagged by its status
    logged = demo_lib.store.run(answer.id)
    assert len(logged["citations"]) == 2


def test_no_supported_claim_means_refuse(demo_lib: Library) -> None:
    fake = ScriptedAnswerer("The moon is made of cheese [Foo, 1999].", "Still cheese [Foo, 1999].")
    answer = ask(demo_lib, "What is the moon made of?", answerer=fake)
    assert answer.mode == "refuse" and answer.citations == ()
    # the withheld draft's citations are still logged
    rows = demo_lib.store.query("SELECT status FROM citation_log WHERE run_id = ?", [answer.id])
    assert rows and {r[0] for r in rows} == {"unknown_source"}


def test_an_answerer_refusal_and_an_empty_question(demo_lib: Library) -> None:
    answer = ask(demo_lib, "Anything about volcanoes?", answerer=ScriptedAnswerer("REFUSE"))
    assert answer.mode == "refuse"
    with pytest.raises(ResearchAssistantError):
        ask(demo_lib, "   ", answerer=ScriptedAnswerer())


def test_the_offline_extractive_answerer_end_to_end(demo_lib: Library) -> None:
    answer = ask(
        demo_lib, "What fractal dimension do DLA clusters have in 2D?", backend="extractive"
    )
    assert answer.mode == "answer" and answer.backend == "extractive"
    assert answer.citations and all(c.status for c in answer.citations)
    assert any(c.status == "verified" and "1.71" in c.claim for c in answer.citations)


def test_check_text_and_export(demo_lib: Library) -> None:
    text = (
        f"{DLA_CLAIM} [{DLA}]. The dimension is 1.9 [{DLA}]. "
        "Brownian motion was explained in 1905 [Einstein, 1905]. Maybe [Okafor, 2020]."
    )
    checked = check_text(demo_lib, text, user="rev")
    assert [c.status for c in checked.citations] == [
        "verified", "unsupported", "unknown_source", "ambiguous",
    ]  # fmt: skip
    assert checked.to_dict()["summary"] == {
        "verified": 1, "unsupported": 1, "unknown_source": 1, "ambiguous": 1,
    }  # fmt: skip
    md = export(demo_lib, checked.id, "md")
    assert "unsupported" in md and "1.71" in md
    html = export(demo_lib, checked.id, "html")
    assert html.lstrip().lower().startswith("<!doctype html") and "<script" not in html
    bib = export(demo_lib, checked.id, "bib")
    assert "lindqvistDiffusionlimitedAggregationHow2021" in bib and "okafor" not in bib.lower()
    with pytest.raises(ResearchAssistantError):
        export(demo_lib, "nope", "md")
    with pytest.raises(ResearchAssistantError):
        export(demo_lib, checked.id, "docx")


# A question that the demo library answers and that the MapReduce paper, once ingested, also
# matches: the retrieval of the two catalog generations differs, so a mix would show.
MIXED_QUESTION = "fractal dimension of DLA clusters; what does the master do when a worker fails"


def test_sixteen_threads_ask_while_another_ingests(
    tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each answer comes from one library state: its generation, its retrieved chunks and its
    references all belong to the catalog before the ingest or to the one after, never both.

    The 16 askers ask once before the ingest, once across it, once after it. The second ask of
    each is held between retrieving (from the old index) and answering until the ingest has
    swapped in the new state, so every one of them straddles the swap: an ask() that read the
    library state twice would mix the two generations here every time, not by luck."""
    lib = Library.open(tmp_path / "lib")
    lib.ingest(demo.build_demo(tmp_path / "src"))
    before = lib.state
    errors: list[BaseException] = []
    phases: list[list[Answer]] = [[], [], []]  # before, across, after the ingest
    all_retrieved = threading.Barrier(17)  # the 16 second asks and the ingest
    ingested = threading.Event()
    holding = threading.local()
    retrieve_old = before.index.retrieve

    def retrieve_and_hold(query: str, top_k: int = 8) -> list[Passage]:
        found = retrieve_old(query, top_k)
        if getattr(holding, "on", False):  # once per second ask (the checker retrieves too)
            holding.on = False
            all_retrieved.wait()
            ingested.wait()
        return found

    monkeypatch.setattr(before.index, "retrieve", retrieve_and_hold)

    def asker() -> None:
        try:
            phases[0].append(ask(lib, MIXED_QUESTION, backend="extractive"))
            holding.on = True
            phases[1].append(ask(lib, MIXED_QUESTION, backend="extractive"))
            phases[2].append(ask(lib, MIXED_QUESTION, backend="extractive"))
        except BaseException as e:
            errors.append(e)
            all_retrieved.abort()  # the others stop waiting and fail too, instead of hanging

    def ingest() -> None:
        try:
            all_retrieved.wait()
            lib.ingest([corpus / "map-reduce.pdf"])
        except BaseException as e:
            errors.append(e)
        finally:
            ingested.set()

    threads = [threading.Thread(target=asker) for _ in range(16)]
    threads.append(threading.Thread(target=ingest))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    after = lib.state
    assert before.generation != after.generation
    states = {s.generation: s for s in (before, after)}
    retrieval = {
        before.generation: [p.chunk.chunk_id for p in phases[0][0].retrieved],
        after.generation: [p.chunk.chunk_id for p in phases[2][0].retrieved],
    }
    assert retrieval[before.generation] != retrieval[after.generation]
    assert [a.generation for a in phases[0] + phases[1]] == [before.generation] * 32
    assert [a.generation for a in phases[2]] == [after.generation] * 16
    for a in phases[0] + phases[1] + phases[2]:
        state = states[a.generation]
        assert [p.chunk.chunk_id for p in a.retrieved] == retrieval[a.generation]
        assert {p.chunk.chunk_id for p in a.retrieved} <= {
            c.chunk_id for c in state.index.all_chunks()
        }
        assert {(r.key, r.label) for r in a.references} <= {
            (k, p.label) for k, p in state.papers.items()
        }
        assert a.to_dict()["generation"] == a.generation
    assert lib.store.count("runs") == 48
    store_mod.close(lib.root / "catalog.duckdb")


# ---- Claude through the whole pipeline: the real SDK against the local fake Messages API ----
from research_assistant.errors import LLMError  # noqa: E402
from tests.fake_claude import FakeClaude, answer, cite, error  # noqa: E402


@pytest.fixture
def claude_env(fake_claude: FakeClaude, monkeypatch: pytest.MonkeyPatch) -> FakeClaude:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")  # a dummy: the fake server checks nothing
    monkeypatch.setenv("RA_ANTHROPIC_BASE_URL", fake_claude.base_url)
    monkeypatch.setenv("RA_MODEL", "claude-test")
    monkeypatch.setenv("RA_LLM_MAX_RETRIES", "1")
    return fake_claude


QUESTION = "What fractal dimension do DLA clusters have in 2D?"


def test_claude_good_cited_answer(demo_lib: Library, claude_env: FakeClaude) -> None:
    claude_env.enqueue(answer((f"{DLA_CLAIM} [{DLA}].", [cite("D ≈ 1.71", index=0)])))
    pieces: list[str] = []
    result = ask(demo_lib, QUESTION, user="ann", on_text=pieces.append)  # backend from the key
    assert (result.backend, result.model, result.mode) == ("anthropic", "claude-test", "answer")
    assert len(pieces) > 1 and [c.status for c in result.citations] == ["verified"]
    sent = claude_env.requests[0]
    blocks = [b for b in sent["messages"][0]["content"] if b["type"] == "search_result"]
    assert blocks and all(b["citations"] == {"enabled": True} for b in blocks)
    assert DLA in {b["title"] for b in blocks}
    row = demo_lib.store.query(
        "SELECT backend, model, username, status FROM citation_log WHERE run_id = ?", [result.id]
    )
    assert row == [("anthropic", "claude-test", "ann", "verified")]


def test_claude_hallucination_is_repaired(demo_lib: Library, claude_env: FakeClaude) -> None:
    claude_env.enqueue(
        answer(f"{DLA_CLAIM} [Witten and Sander, 1981]."),
        answer(f"{DLA_CLAIM} [{DLA}]."),
    )
    result = ask(demo_lib, QUESTION)
    assert result.repaired and [c.status for c in result.citations] == ["verified"]
    follow_up = claude_env.requests[1]["messages"][-1]["content"]
    assert "[Witten and Sander, 1981]" in follow_up and "unknown_source" in follow_up


def test_claude_still_wrong_after_repair_is_flagged_and_logged(
    demo_lib: Library, claude_env: FakeClaude
) -> None:
    wrong = f"{DLA_CLAIM} [{DLA}]. The square lattice percolates at 0.9 [Okafor, 2020a]."
    claude_env.enqueue(answer(wrong), answer(wrong))
    result = ask(demo_lib, QUESTION)
    flagged = [c for c in result.citations if c.status != "verified"]
    assert result.mode == "answer" and flagged and flagged[0].mention.marker == "[Okafor, 2020a]"
    assert flagged[0].reason  # shown to the user with the chip
    logged = demo_lib.store.query(
        "SELECT status FROM citation_log WHERE run_id = ? ORDER BY idx", [result.id]
    )
    assert [r[0] for r in logged] == [c.status for c in result.citations]


@pytest.mark.parametrize("status", [529, 500])
def test_claude_overloaded_gives_a_retryable_error(
    demo_lib: Library, claude_env: FakeClaude, status: int
) -> None:
    claude_env.enqueue(error(status), error(status))
    with pytest.raises(LLMError) as caught:
        ask(demo_lib, QUESTION)
    assert caught.value.retryable and "extractive" in str(caught.value)
