"""The model judge: a second opinion on the citations the offline checker cannot settle, through
check_text on corpus papers, with the real anthropic SDK against the local fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research_assistant import Library, check_text
from research_assistant.answer.base import JudgeItem, judge_prompt, parse_rulings
from research_assistant.answer.claude import ClaudeAnswerer
from research_assistant.check.judging import ACTIONS, action_of
from research_assistant.results import Citation
from tests.fake_claude import FakeClaude, answer, error, hang

GFS = (
    "The Google File System splits files into 64 MB chunks and usually keeps 3 replicas of "
    "every chunk on separate machines [Dean and Ghemawat, 2004]."
)
GFS_QUOTE = (
    "GFS divides each file into 64 MB blocks, and stores several copies of each block "
    "(typically 3 copies) on different machines."
)
MORE_CYCLES = (  # flipped: the paper's native traces take 9 cycles a bytecode, the interpreter 35
    "Gal et al. (2009) estimate that a bytecode costs more cycles when run on a native trace "
    "than in the interpreter."
)
SIXTY = (  # the paper says 44%: a number contradiction found offline, never sent to the judge
    "Without backup tasks the sort program takes sixty percent longer to complete "
    "[Dean and Ghemawat, 2004]."
)
PINGS = "The master pings every worker periodically [Dean and Ghemawat, 2004]."
STRAGGLERS = (  # true, in other words than the paper's: the checker does not find it stated
    "Slow stragglers near the end of a job are handled by launching duplicate copies of the "
    "unfinished work [Dean and Ghemawat, 2004]."
)
BACKUP_QUOTE = (
    "When a MapReduce operation is close to completion, the master schedules backup executions "
    "of the remaining in-progress tasks."
)


@pytest.fixture(scope="module")
def lib(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Library:
    library = Library.open(tmp_path_factory.mktemp("judge") / "library")
    library.ingest(
        [
            corpus / "map-reduce.pdf",
            corpus / "compressed.tracemonkey-pldi-09.pdf",
            corpus / "library.bib",
        ]
    )
    return library


def judge(fake: FakeClaude, **options: float) -> ClaudeAnswerer:
    settings = {"max_retries": 0, "timeout_s": 5.0, **options}
    return ClaudeAnswerer(
        "test-key",
        model="claude-judge",
        base_url=fake.base_url,
        **settings,  # type: ignore[arg-type]
    )


def rulings(*rows: dict[str, object]) -> str:
    return "Here are my rulings:\n```json\n" + json.dumps(list(rows)) + "\n```"


def give(fake: FakeClaude, *rows: dict[str, object]) -> None:
    """The fake server's next reply: these rulings."""
    fake.enqueue(answer(rulings(*rows)))


def sent_claims(fake: FakeClaude) -> str:
    (request,) = fake.requests
    return str(request["messages"][0]["content"])


def by_claim(citations: tuple[Citation, ...], start: str) -> Citation:
    return next(c for c in citations if c.claim.startswith(start))


def test_offline_verdicts_that_the_judge_may_settle(lib: Library) -> None:
    """The premise of the tests below: what the checker says with no judge."""
    statuses = [c.status for c in check_text(lib, f"{GFS} {MORE_CYCLES} {SIXTY}").citations]
    assert statuses == ["partial", "uncertain", "unsupported"]


def test_the_judge_lifts_with_a_quote_found_in_the_paper(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": GFS_QUOTE, "reason": "p. 5"})
    result = check_text(lib, f"{GFS} {SIXTY} {PINGS}", judge=judge(fake_claude))
    gfs, sixty, pings = result.citations
    assert gfs.status == "verified" and gfs.evidence is not None and gfs.evidence.page == 5
    assert "lifted from partial" in gfs.judge and "claude-judge" in gfs.judge
    assert "confirmed by the model judge" in gfs.reason
    # one batched call holding only what the checker could not settle
    sent = sent_claims(fake_claude)
    assert "Claim 0" in sent and "64 MB" in sent
    assert "sixty percent" not in sent and "pings" not in sent
    assert (sixty.status, sixty.judge, pings.status, pings.judge) == (
        "unsupported",
        "",
        "verified",
        "",
    )
    logged = lib.store.run(result.id)
    assert logged is not None and "lifted from partial" in logged["citations"][0]["judge"]


def test_the_judge_lowers_a_claim_it_finds_contradicted(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(
        fake_claude,
        {
            "id": 0,
            "verdict": "contradicts",
            "quote": "Native traces take about 9 cycles per bytecode",
            "reason": "native traces take 9 cycles, the interpreter 35",
        },
    )
    (c,) = check_text(lib, MORE_CYCLES, judge=judge(fake_claude)).citations
    assert c.status == "unsupported" and "lowered from uncertain" in c.judge
    assert "contradicts this: native traces take 9 cycles" in c.reason


def test_no_lift_when_the_quote_is_not_in_the_paper(lib: Library, fake_claude: FakeClaude) -> None:
    invented = "GFS keeps three replicas of every 64 MB chunk on separate racks."
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": invented})
    (c,) = check_text(lib, GFS, judge=judge(fake_claude)).citations
    assert c.status == "partial" and "not lifted: its quote is not in the cited passages" in c.judge


def test_no_lift_when_the_quote_lacks_the_claims_numbers(
    lib: Library, fake_claude: FakeClaude
) -> None:
    quote = "GFS divides each file into 64 MB blocks"  # in the paper, but not the 3 copies
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": quote})
    (c,) = check_text(lib, GFS, judge=judge(fake_claude)).citations
    assert c.status == "partial" and "the claim's numbers are not in its quote" in c.judge


def test_a_failed_judge_leaves_the_offline_verdict(lib: Library, fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(error(500))
    gfs, more = check_text(lib, f"{GFS} {MORE_CYCLES}", judge=judge(fake_claude)).citations
    assert (gfs.status, more.status) == ("partial", "uncertain")
    assert "unavailable" in gfs.judge and "offline verdict stands" in more.judge


def test_a_judge_that_times_out_leaves_the_offline_verdict(
    lib: Library, fake_claude: FakeClaude
) -> None:
    fake_claude.enqueue(hang())
    (c,) = check_text(lib, GFS, judge=judge(fake_claude, timeout_s=0.5)).citations
    assert c.status == "partial" and "did not judge within 0.5 s" in c.judge


def test_a_garbled_reply_settles_nothing(lib: Library, fake_claude: FakeClaude) -> None:
    fake_claude.enqueue(answer("I think the first claim is fine."))
    (c,) = check_text(lib, GFS, judge=judge(fake_claude)).citations
    assert c.status == "partial" and "gave no ruling" in c.judge


def test_rulings_parse_only_known_ids_and_verdicts() -> None:
    reply = rulings(
        {"id": 1, "verdict": "Supports", "quote": "a  quoted\nspan", "reason": "ok"},
        {"id": 7, "verdict": "supports"},
        {"id": 2, "verdict": "probably"},
        {"id": 1, "verdict": "contradicts"},
    )
    (r,) = parse_rulings(reply, [1, 2])
    assert (r.id, r.verdict, r.quote, r.reason) == (1, "supports", "a quoted span", "ok")
    assert parse_rulings("no json here", [1]) == ()
    assert parse_rulings("[not json]", [1]) == ()


def test_the_prompt_carries_every_claim_and_its_passages() -> None:
    text = judge_prompt(
        [
            JudgeItem(0, "X rises.", "Smith, 2020", ("first passage", "second passage")),
            JudgeItem(3, "Y falls.", "Jones, 2019", ("third passage",)),
        ]
    )
    for part in ("Claim 0 (cites Smith, 2020): X rises.", "second passage", "Claim 3", "Jones"):
        assert part in text


def test_with_every_the_judge_reads_verified_citations_and_may_turn_them_yellow(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(
        fake_claude,
        {"id": 0, "verdict": "supports", "quote": GFS_QUOTE, "reason": "p. 5"},
        {"id": 2, "verdict": "not_enough", "reason": "no schedule is given"},
    )
    gfs, sixty, pings = check_text(
        lib, f"{GFS} {SIXTY} {PINGS}", judge=judge(fake_claude), judge_every=True
    ).citations
    sent = sent_claims(fake_claude)
    assert "Claim 0" in sent and "Claim 2" in sent and "pings" in sent
    system = str(fake_claude.requests[0]["system"])  # a part stated is not the claim stated
    assert "every part of it" in system and "state only part of it" in system
    assert "sixty percent" not in sent  # a contradiction found offline is never sent
    assert gfs.status == "verified" and "lifted from partial" in gfs.judge
    assert pings.status == "uncertain" and "lowered from verified" in pings.judge
    assert "does not find this stated" in pings.reason and "no schedule is given" in pings.reason
    assert sixty.status == "unsupported" and sixty.judge == ""


def test_without_every_a_plainly_verified_citation_is_not_sent(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(fake_claude, {"id": 0, "verdict": "not_enough"})
    (gfs, pings) = check_text(lib, f"{GFS} {PINGS}", judge=judge(fake_claude)).citations
    assert "pings" not in sent_claims(fake_claude)
    assert (gfs.status, pings.status, pings.judge) == ("partial", "verified", "")


def test_with_every_a_claim_in_other_words_is_read_and_may_be_lifted(
    lib: Library, fake_claude: FakeClaude
) -> None:
    """An unsupported claim the checker found no contradiction for is one it did not find
    stated: with ``every``, the judge reads it and, quoting the paper, makes it verified; one
    it found contradicted is still never sent."""
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": BACKUP_QUOTE, "reason": "p. 6"})
    straggler, sixty = check_text(
        lib, f"{STRAGGLERS} {SIXTY}", judge=judge(fake_claude), judge_every=True
    ).citations
    sent = sent_claims(fake_claude)
    assert "Claim 0" in sent and "stragglers" in sent and "sixty percent" not in sent
    assert straggler.status == "verified" and "lifted from unsupported" in straggler.judge
    assert straggler.evidence is not None and straggler.evidence.page == 6
    assert (sixty.status, sixty.conflict, sixty.judge) == ("unsupported", "number", "")


GREP_RATE = (  # true (over 30 GB/s, p. 8): the nearest passage is the sort's, which says 13 GB/s
    "The grep program's input rate peaks above 30,000 MB/s [Dean and Ghemawat, 2004]."
)
GREP_QUOTE = "peaks at over 30 GB/s when 1764 workers have been assigned"


def test_a_number_the_passage_lacks_is_no_contradiction_and_is_judged(
    lib: Library, fake_claude: FakeClaude
) -> None:
    """A claim's number its nearest passage does not state, where that passage gives none in
    its role (the sort's rate is not the grep's), is not found rather than contradicted: with
    ``every`` the judge reads it, and lifts it with a quote that states the number."""
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": GREP_QUOTE, "reason": "p. 8"})
    rate, sixty = check_text(
        lib, f"{GREP_RATE} {SIXTY}", judge=judge(fake_claude), judge_every=True
    ).citations
    assert "30,000 MB/s" in sent_claims(fake_claude) and "sixty" not in sent_claims(fake_claude)
    assert rate.status == "verified" and "lifted from unsupported" in rate.judge
    assert rate.evidence is not None and rate.evidence.page == 8
    assert sixty.conflict == "number"  # the paper's 44% stands in its role


def test_a_lift_needs_the_claims_number_in_the_quote(lib: Library, fake_claude: FakeClaude) -> None:
    quote = "The Y-axis shows the rate at which the input data is scanned"  # no number
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": quote})
    (rate,) = check_text(lib, GREP_RATE, judge=judge(fake_claude), judge_every=True).citations
    assert (rate.status, rate.conflict) == ("unsupported", "")
    assert "the claim's numbers are not in its quote" in rate.judge


def test_the_offline_contradiction_is_kept_in_the_citations_json(lib: Library) -> None:
    straggler, sixty = check_text(lib, f"{STRAGGLERS} {SIXTY}").citations
    assert (straggler.status, straggler.conflict) == ("unsupported", "")
    assert sixty.to_dict()["conflict"] == "number"
    assert Citation.from_dict(sixty.to_dict()).conflict == "number"


def test_without_every_a_claim_not_found_stated_is_not_sent(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(fake_claude, {"id": 0, "verdict": "not_enough"})
    gfs, straggler = check_text(lib, f"{GFS} {STRAGGLERS}", judge=judge(fake_claude)).citations
    assert gfs.status == "partial"  # sent: left in the middle
    assert "stragglers" not in sent_claims(fake_claude)
    assert (straggler.status, straggler.judge) == ("unsupported", "")


def test_with_every_a_verified_claim_found_contradicted_is_lowered(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(fake_claude, {"id": 0, "verdict": "contradicts", "reason": "only on a timeout"})
    (c,) = check_text(lib, PINGS, judge=judge(fake_claude), judge_every=True).citations
    assert c.status == "unsupported" and "lowered from verified" in c.judge
    assert "contradicts this: only on a timeout" in c.reason


def test_claims_are_judged_ten_to_a_call_and_a_failed_call_spares_the_others(
    lib: Library, fake_claude: FakeClaude
) -> None:
    text = " ".join([PINGS] * 12)
    give(fake_claude, *({"id": i, "verdict": "supports", "quote": ""} for i in range(10)))
    fake_claude.enqueue(error(500))
    citations = check_text(lib, text, judge=judge(fake_claude), judge_every=True).citations
    first, second = (str(r["messages"][0]["content"]) for r in fake_claude.requests)
    assert first.count("Claim ") == 10 and second.count("Claim ") == 2
    assert all(c.status == "verified" and "supports" in c.judge for c in citations[:10])
    assert all(c.status == "verified" and "unavailable" in c.judge for c in citations[10:])


def test_a_manuscript_gets_the_same_second_opinion(
    lib: Library, fake_claude: FakeClaude, tmp_path: Path
) -> None:
    from research_assistant.manuscript import outputs
    from research_assistant.reviewing import check_manuscript

    draft = tmp_path / "draft.md"
    draft.write_text(f"# Draft\n\n{GFS} {PINGS}\n", encoding="utf-8")
    give(
        fake_claude,
        {"id": 0, "verdict": "supports", "quote": GFS_QUOTE, "reason": "p. 5"},
        {"id": 1, "verdict": "not_enough", "reason": "no schedule is given"},
    )
    checked = check_manuscript(lib, draft, judge=judge(fake_claude), judge_every=True)
    gfs, pings = (c.citation for c in checked.citations)
    assert gfs.status == "verified" and "lifted from partial" in gfs.judge
    assert pings.status == "uncertain" and "lowered from verified" in pings.judge
    logged = lib.store.run(checked.id)
    assert logged is not None
    assert [c["status"] for c in logged["citations"]] == ["verified", "uncertain"]
    report = outputs.render_report(checked, ".html").decode("utf-8")
    assert report.count("second opinion: model judge (claude-judge)") == 2
    offline = check_manuscript(lib, draft)  # no judge: no call, the offline verdicts
    assert [c.citation.status for c in offline.citations] == ["partial", "verified"]
    assert len(fake_claude.requests) == 1


def test_the_log_keeps_what_the_judge_did_to_each_citation(
    lib: Library, fake_claude: FakeClaude
) -> None:
    give(
        fake_claude,
        {"id": 0, "verdict": "supports", "quote": GFS_QUOTE, "reason": "p. 5"},
        {"id": 1, "verdict": "contradicts", "reason": "9 cycles against 35"},
        {"id": 3, "verdict": "supports", "quote": "", "reason": "said"},
    )
    text = f"{GFS} {MORE_CYCLES} {SIXTY} {PINGS}"
    result = check_text(lib, text, judge=judge(fake_claude), judge_every=True)
    rows = lib.store.query(
        "SELECT status, judge FROM citation_log WHERE run_id = ? ORDER BY idx", [result.id]
    )
    assert [(status, action_of(said)) for status, said in rows] == [
        ("verified", "lifted"),
        ("unsupported", "lowered"),
        ("unsupported", ""),  # a contradiction found offline: never sent
        ("verified", "kept"),
    ]
    assert {a for a in (action_of(c.judge) for c in result.citations)} <= {*ACTIONS, ""}
    fake_claude.enqueue(error(500))
    (failed,) = check_text(lib, GFS, judge=judge(fake_claude)).citations
    assert action_of(failed.judge) == "unavailable"
    give(fake_claude)
    (silent,) = check_text(lib, GFS, judge=judge(fake_claude)).citations
    assert action_of(silent.judge) == "no ruling"


def test_the_judges_opinion_is_shown_escaped_in_the_app_and_the_exports(
    lib: Library, fake_claude: FakeClaude
) -> None:
    from research_assistant.pipeline import export
    from research_assistant.web import render

    hostile = "<img src=x onerror=alert(1)> *not* stated"  # a model's reason is untrusted text
    give(fake_claude, {"id": 0, "verdict": "not_enough", "reason": hostile})
    result = check_text(lib, PINGS, judge=judge(fake_claude), judge_every=True)
    (c,) = result.citations
    assert "lowered from verified" in render.tooltip(c)  # plain text: the chip's title
    shown = render.evidence_html(c, lib.paper(c.paper_key or ""), str)
    assert "model judge (claude-judge): not_enough" in shown
    assert "<img" not in shown and "&lt;img" in shown
    html = export(lib, result.id, "html")
    assert "second opinion: model judge" in html and "<img" not in html
    assert "second opinion: model judge" in export(lib, result.id, "md")


def test_a_models_answer_gets_a_second_opinion_on_every_citation_when_asked(
    lib: Library, fake_claude: FakeClaude
) -> None:
    from research_assistant.pipeline import ask

    question = "How does the MapReduce master notice that a worker has failed?"
    claude = judge(fake_claude, use_citations=False)
    fake_claude.enqueue(answer(PINGS))
    give(fake_claude, {"id": 0, "verdict": "supports", "reason": "p. 3"})
    kept = ask(lib, question, answerer=claude, judge_every=True)
    assert kept.mode == "answer" and len(fake_claude.requests) == 2
    (c,) = kept.citations
    assert c.status == "verified" and action_of(c.judge) == "kept"
    fake_claude.enqueue(answer(PINGS))
    give(fake_claude, {"id": 0, "verdict": "not_enough", "reason": "no"})
    doubted = ask(lib, question, answerer=claude, judge_every=True)
    assert doubted.mode == "refuse"  # no citation the model also finds stated: withheld
    assert any("judge confirmed no citation" in n for n in doubted.notes)
    logged = lib.store.run(doubted.id)
    assert logged is not None and logged["draft"].startswith("The master pings")
    fake_claude.enqueue(answer(PINGS))
    plain = ask(lib, question, answerer=claude, judge_every=False)
    assert plain.mode == "answer" and plain.citations[0].judge == ""
    assert len(fake_claude.requests) == 5  # no judging call without it


def test_verify_on_the_command_line_asks_the_configured_judge(
    lib: Library,
    fake_claude: FakeClaude,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from research_assistant import store as store_mod
    from research_assistant.cli import main

    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")  # a dummy: the fake checks nothing
    monkeypatch.setenv("RA_ANTHROPIC_BASE_URL", fake_claude.base_url)
    monkeypatch.setenv("RA_MODEL", "claude-judge")
    monkeypatch.setenv("RA_LLM_MAX_RETRIES", "0")
    give(fake_claude, {"id": 0, "verdict": "supports", "quote": GFS_QUOTE, "reason": "p. 5"})
    draft = tmp_path / "draft.md"
    draft.write_text(GFS, encoding="utf-8")
    store_mod.close(lib.root / "catalog.duckdb")  # the CLI opens the library itself
    args = ["--library", str(lib.root), "--json", "verify", str(draft), "--judge", "anthropic"]
    assert main(args) == 0
    (c,) = json.loads(capsys.readouterr().out)["citations"]
    assert c["status"] == "verified" and "lifted from partial" in c["judge"]
    assert len(fake_claude.requests) == 1


def test_judge_every_on_the_command_line_needs_a_judge(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from research_assistant import store as store_mod
    from research_assistant.cli import main

    draft = tmp_path / "draft.md"
    draft.write_text(PINGS, encoding="utf-8")
    store_mod.close(lib.root / "catalog.duckdb")  # the CLI opens the library itself
    for command in ("verify", "check-manuscript"):
        assert main(["--library", str(lib.root), command, str(draft), "--judge-every"]) != 0
        assert "--judge-every needs --judge" in capsys.readouterr().err
