"""The evaluation: the acceptance figures of the offline answerer over the real corpus, the
aggregation on a tiny scripted case, the question-set format, and the `eval --json` output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from research_assistant import store as store_mod
from research_assistant.cli import main
from research_assistant.errors import ResearchAssistantError
from research_assistant.evaluate import (
    EvalReport,
    EvalRow,
    Question,
    evaluate,
    load_questions,
    parse_questions,
    score_answer,
    states,
)
from research_assistant.library import Library
from research_assistant.models import Chunk, Passage
from research_assistant.results import Answer, Citation, Mention

sys.path.insert(0, str(Path(__file__).resolve().parent / "data"))
import labelled_set

QUESTIONS = Path(__file__).resolve().parent / "data" / "questions.jsonl"
MORE = QUESTIONS.with_name("questions_more.jsonl")
DEV3 = QUESTIONS.with_name("questions_dev3.jsonl")
HELDOUT_QUESTIONS_V10 = QUESTIONS.parent / "heldout" / "questions_v10.jsonl"
HELDOUT_QUESTIONS_V11 = QUESTIONS.parent / "heldout" / "questions_v11.jsonl"
HELDOUT_QUESTIONS_V12 = QUESTIONS.parent / "heldout" / "questions_v12.jsonl"
HELDOUT_QUESTIONS_V13 = QUESTIONS.parent / "heldout" / "questions_v13.jsonl"
HELDOUT_QUESTIONS_V14 = QUESTIONS.parent / "heldout" / "questions_v14.jsonl"


@pytest.fixture(scope="module")
def corpus_lib(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = Library.open(tmp_path_factory.mktemp("eval") / "lib")
    lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "library.bib"])
    yield lib
    store_mod.close(lib.root / "catalog.duckdb")


@pytest.fixture(scope="module")
def report(corpus_lib: Library) -> EvalReport:
    return evaluate(corpus_lib, load_questions(QUESTIONS), backend="extractive")


# ----------------------------------------------------------------------------- the question set
def test_the_question_set_is_labelled_against_the_corpus(corpus: Path) -> None:
    questions = load_questions(QUESTIONS)
    assert len(questions) >= 30
    assert sum(not q.answerable for q in questions) >= 6
    bib = (corpus / "library.bib").read_text(encoding="utf-8")
    keys = {k for q in questions for k in q.answer_paper_keys}
    assert all(f"{{{k}," in bib for k in keys)
    assert len(keys) >= 15  # spread across the papers
    assert all(q.answer_hint for q in questions if q.answerable)


def test_every_hint_is_on_a_page_of_an_answering_paper(corpus_lib: Library) -> None:
    assert labelled_set.hints_missing(corpus_lib, load_questions(QUESTIONS)) == []


# ----------------------------------------------------------------------------- acceptance
def test_answerable_questions_cite_a_paper_that_holds_the_answer(report: EvalReport) -> None:
    rate = report.cites_answer_rate
    assert rate is not None
    assert rate >= 0.9, [r.id for r in report.answerable if not r.cites_answer_paper]


def test_every_citation_shown_carries_a_verdict(report: EvalReport) -> None:
    assert report.citations > 0
    assert report.status_share == 1.0
    assert report.unflagged_unverified == 0


def test_every_unanswerable_question_is_refused(report: EvalReport) -> None:
    assert report.refusal_rate_unanswerable == 1.0, [
        (r.id, r.answer) for r in report.unanswerable if not r.refused
    ]


def test_retrieval_finds_a_holding_paper(report: EvalReport) -> None:
    assert report.retrieval_hit_rate is not None and report.retrieval_hit_rate >= 0.9


def test_the_answer_states_the_answer(report: EvalReport) -> None:
    """Floor at the development figure (in-sample: docs/BENCHMARKS.md, "Answers that answer")."""
    assert report.hint_rate is not None and report.hint_rate >= 0.75
    assert report.all_verified_rate == 1.0


@pytest.fixture(scope="module")
def more(corpus_lib: Library) -> EvalReport:
    return evaluate(corpus_lib, load_questions(MORE), backend="extractive")


def test_more_kinds_of_question(more: EvalReport) -> None:
    """The development questions of issue 12 by kind (in-sample floors, docs/BENCHMARKS.md):
    library questions each list a verified answer paper, follow-ups asked after their previous
    question are answered from the right paper, unanswerable ones refused."""
    kinds = more.by_kind()
    assert kinds["library"]["cites_answer_paper"] == kinds["library"]["questions"]
    assert kinds["followup"]["cites_answer_paper"] >= 4
    assert kinds["numeric"]["cites_answer_paper"] == kinds["numeric"]["questions"]
    assert kinds["names_authors"]["cites_answer_paper"] == kinds["names_authors"]["questions"]
    assert kinds["unanswerable"]["refused"] >= 15  # of 16
    assert more.status_share == 1.0 and more.unflagged_unverified == 0
    assert more.hint_rate is not None and more.hint_rate >= 0.70  # 28/39 (QUESTIONS_DEV3.md)


# ----------------------------------------------------------------------------- held out
@pytest.mark.parametrize(
    ("path", "cites", "states", "refused", "missing"),
    [
        # heldout/questions_v10.jsonl (V10.md), written blind in the eleventh session and
        # measured once (8646907): 44/53 cite a verified answer paper, 16/47 state the hint
        # word for word (27/47 by a blind grader, docs/grading/), 7/10 unanswerable refused;
        # one hint (ho10-q-58, not read) is on its PDF page but not in the chunks ingest writes
        (HELDOUT_QUESTIONS_V10, 44, 16, 7, 1),
        # heldout/questions_v11.jsonl (V11.md), written blind in the twelfth session and
        # measured once on its final code (45bc279; no answerer change in that session): 43/53,
        # 24/47, 7/10; one hint (not read) is not in the chunks either
        (HELDOUT_QUESTIONS_V11, 43, 24, 7, 1),
        # heldout/questions_v12.jsonl (V12.md), written blind in the thirteenth session (four
        # numeric hints from table rows), measured on the code before that session (6771e0f):
        # 41/53, 9/47, 9/10; at its end (tables read as tables): 41/53, 10/47, 9/10; two hints
        # (not read) are not in the chunks ingest writes
        (HELDOUT_QUESTIONS_V12, 41, 10, 9, 2),
        # heldout/questions_v13.jsonl (V13.md), written blind in the fifteenth session and
        # measured on the code before it (9e2a82a, with this session's measure of a stated
        # hint) and at its end: 43/53, 17/47, 5/10 each time; every hint is in the chunks
        (HELDOUT_QUESTIONS_V13, 43, 17, 5, 0),
        # heldout/questions_v14.jsonl (V14.md), written blind later in the fifteenth session and
        # measured on 9e2a82a (with the new measure) and on its final code: 35/53, 18/47, 7/10
        # both times; every hint is in the chunks
        (HELDOUT_QUESTIONS_V14, 35, 18, 7, 0),
    ],
    ids=["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth"],
)
def test_later_heldout_questions_never_tuned_on(
    corpus_lib: Library, path: Path, cites: int, states: int, refused: int, missing: int
) -> None:
    """The held-out questions at their first measurement, every chip with a verdict. A floor,
    not a target: they chose nothing. A hint missing from the chunks cannot count as stated."""
    questions = load_questions(path)
    assert len(labelled_set.hints_missing(corpus_lib, questions)) <= missing
    held = evaluate(corpus_lib, questions, backend="extractive")
    assert held.cites_answer_rate is not None
    assert held.cites_answer_rate >= cites / len(held.answerable)
    assert sum(r.hint_found is True for r in held.answerable) >= states
    assert held.refused_unanswerable >= refused
    assert held.status_share == 1.0 and held.unflagged_unverified == 0


# ----------------------------------------------------------------------------- the third set
def test_the_third_set_is_labelled_against_the_corpus(corpus_lib: Library) -> None:
    """tests/data/QUESTIONS_DEV3.md: 53 questions of eight kinds, every hint on a page of its
    paper, at least eight unanswerable ones."""
    questions = load_questions(DEV3)
    kinds = {q.kind for q in questions}
    assert len(questions) >= 40 and len(kinds) == 8
    assert sum(q.kind == "unanswerable" for q in questions) >= 8
    assert all(q.previous for q in questions if q.kind == "followup")
    assert labelled_set.hints_missing(corpus_lib, questions) == []


@pytest.fixture(scope="module")
def dev3(corpus_lib: Library) -> EvalReport:
    return evaluate(corpus_lib, load_questions(DEV3), backend="extractive")


def test_the_third_set_floors(dev3: EvalReport) -> None:
    """In-sample floors at the figures of tests/data/QUESTIONS_DEV3.md (40/43 cite a verified
    answer paper, 31/40 state the hint, 5/10 unanswerable refused, every chip verified; 8/10
    with a gate that was taken out: it refused answerable questions on held-out sets)."""
    assert dev3.cites_answer_rate is not None and dev3.cites_answer_rate >= 0.9
    assert dev3.hint_rate is not None and dev3.hint_rate >= 0.75
    assert dev3.refused_unanswerable >= 5
    assert dev3.status_share == 1.0 and dev3.unflagged_unverified == 0
    assert dev3.all_verified_rate == 1.0


def test_eval_runs_are_logged_as_the_eval_user(corpus_lib: Library, report: EvalReport) -> None:
    rows = corpus_lib.store.query("SELECT count(*) FROM runs WHERE username = 'eval'", [])
    assert rows[0][0] >= len(report.rows)


def test_unknown_answer_keys_are_an_error(corpus_lib: Library) -> None:
    questions = [Question("q", "What is DLA?", ("noSuchPaper2020",))]
    with pytest.raises(ResearchAssistantError, match="noSuchPaper2020"):
        evaluate(corpus_lib, questions)


def test_cli_eval_json(
    corpus_lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q.jsonl"
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], lines[-1]]) + "\n", encoding="utf-8")
    assert main(["--library", str(corpus_lib.root), "--json", "eval", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"backend", "model", "top_k", "aggregates", "rows"}
    assert out["backend"] == "extractive" and out["top_k"] == 8
    assert set(out["aggregates"]) >= {
        "questions", "answerable", "unanswerable", "retrieval_hit_rate",
        "cites_answer_paper_rate", "verified_share", "status_share", "unflagged_unverified",
        "refused_unanswerable", "false_refusals",
    }  # fmt: skip
    assert out["aggregates"]["questions"] == 2 == len(out["rows"])
    row = out["rows"][0]
    assert set(row) >= {"id", "question", "answerable", "mode", "retrieval_hit",
                        "cites_answer_paper", "statuses", "cited_keys", "unflagged"}  # fmt: skip


# ----------------------------------------------------------------------------- aggregation
def _citation(marker: str, start: int, key: str | None, status: str) -> Citation:
    mention = Mention(marker, start, start + len(marker), marker[1:].split(",")[0], year="2020")
    return Citation(mention, status, paper_key=key)


def _answer(text: str, citations: tuple[Citation, ...], retrieved: tuple[str, ...]) -> Answer:
    passages = tuple(
        Passage(Chunk(f"{k}:p1:{i}", k, 1, 0, 10, "text"), 1.0) for i, k in enumerate(retrieved)
    )
    mode = "answer" if citations else "refuse"
    return Answer("id", "q", mode, text, citations, (), passages)  # type: ignore[arg-type]


def _cited(text: str, *cites: tuple[str, str | None, str]) -> tuple[str, tuple[Citation, ...]]:
    return text, tuple(_citation(m, text.index(m), k, s) for m, k, s in cites)


def test_score_answer_on_a_scripted_case() -> None:
    q = Question("q1", "What is D?", ("a2020",), "about 1.71")
    text, cites = _cited(
        "D is about 1.71 [Ann, 2020]. It grows [Bo, 2020].",
        ("[Ann, 2020]", "a2020", "verified"),
        ("[Bo, 2020]", "b2020", "unsupported"),
    )
    row = score_answer(q, _answer(text, cites, ("b2020", "a2020", "b2020")))
    assert row.retrieved_keys == ("b2020", "a2020") and row.retrieval_hit
    assert row.cites_answer_paper and row.hint_found is True
    assert (row.citations, row.verified, row.with_status, row.unflagged) == (2, 1, 2, 0)


def test_a_holding_paper_cited_but_not_verified_does_not_count() -> None:
    q = Question("q1", "What is D?", ("a2020",))
    text, cites = _cited("D is 3 [Ann, 2020].", ("[Ann, 2020]", "a2020", "unsupported"))
    row = score_answer(q, _answer(text, cites, ("a2020",)))
    assert row.retrieval_hit and not row.cites_answer_paper and row.hint_found is None


def test_a_marker_without_a_citation_object_is_counted_unflagged() -> None:
    q = Question("q1", "What is D?", ("a2020",))
    text, cites = _cited(
        "D is 1.71 [Ann, 2020]. It is 2 [Cy, 2021]. Odd [He et al., 2025].",
        ("[Ann, 2020]", "a2020", "verified"),
    )
    row = score_answer(q, _answer(text, cites, ("a2020",)))
    assert row.unflagged == 2  # "[Cy, 2021]" found by the citation finder, "[He ...]" by regex


def test_report_aggregates() -> None:
    def row(qid: str, answerable: bool, mode: str, hit: bool, cites: bool, statuses: tuple[str, ...], unflagged: int = 0) -> EvalRow:  # fmt: skip
        keys = ("a",) * len(statuses)
        return EvalRow(qid, qid, answerable, mode, ("a",), hit, cites, statuses, keys, unflagged)

    rows = (
        row("1", True, "answer", True, True, ("verified", "unsupported")),
        row("2", True, "answer", True, False, ("not_retrieved", "")),
        row("3", True, "refuse", False, False, ()),
        row("4", True, "answer", True, True, ("verified",), unflagged=1),
        row("5", False, "refuse", False, False, ()),
        row("6", False, "answer", False, False, ("verified",)),
    )
    report = EvalReport("scripted", "s-1", 8, rows)
    a = report.aggregates()
    assert (a["questions"], a["answerable"], a["unanswerable"]) == (6, 4, 2)
    assert a["retrieval_hit_rate"] == 0.75 and a["cites_answer_paper_rate"] == 0.5
    assert a["citations"] == 6 and a["verified_share"] == 0.5
    assert a["status_share"] == round(5 / 6, 4)
    assert a["unflagged_unverified"] == 2  # one status missing, one marker without a citation
    assert (a["refused_unanswerable"], a["refusal_rate_unanswerable"]) == (1, 0.5)
    assert a["false_refusals"] == 1
    empty = EvalReport("scripted", "s-1", 8, ()).aggregates()
    assert empty["retrieval_hit_rate"] is None and empty["verified_share"] is None


# ----------------------------------------------------------------------------- the file format
@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{not json"], "not valid JSON"),
        (["[1, 2]"], "JSON object"),
        (['{"question": "Why?", "answer_paper_keys": []}'], "id"),
        (['{"id": "a", "question": " ", "answer_paper_keys": []}'], "question"),
        (['{"id": "a", "question": "Why?", "answer_paper_keys": "k"}'], "answer_paper_keys"),
        (['{"id": "a", "question": "Why?", "answer_paper_keys": []}'] * 2, "used twice"),
        (["", "# only a comment"], "no questions"),
    ],
)
def test_bad_question_files_name_the_line(lines: list[str], message: str) -> None:
    with pytest.raises(ResearchAssistantError, match=message):
        parse_questions(lines, "q.jsonl")


def test_load_questions_skips_blanks_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        '# a comment\n\n{"id": 7, "question": " Why? ", "answer_paper_keys": ["k"]}\n',
        encoding="utf-8",
    )
    assert load_questions(path) == (Question("7", "Why?", ("k",)),)
    with pytest.raises(ResearchAssistantError, match="Cannot read"):
        load_questions(tmp_path / "missing.jsonl")


def test_a_hint_copied_across_a_line_break_is_found_in_the_joined_answer() -> None:
    """A hint copied from a page keeps its line-break hyphen ("a tempo- rary file"); the
    answer joins the word, and still states it."""
    answer = "Typically the application writes to a temporary file and renames it [Dean, 2004]."
    assert states(answer, "writes to a tempo- rary ﬁle")
    assert states("It is state-of-the-art.", "state-of-the- art")
    assert not states(answer, "writes to a permanent file")


def test_a_hint_is_stated_without_the_papers_own_citation_marks() -> None:
    """The answerer drops a paper's citation marks and writes dashes as "-": a hint copied with
    them is still stated, and a different value is still not."""
    answer = "For NE recognition, we use StanfordNER for English and SPPC for German [Wang, 2008]."
    assert states(answer, "SPPC (Neumann and Piskorski, 2002) for German")
    assert states("We also use Grobid for parsing PDFs.", "We also use Grobid [36] for parsing")
    assert states("the RTE system (Tera - Textual Entailment)", "RTE system (Tera – Textual")
    assert not states(answer, "SPPC (Neumann and Piskorski, 2002) for English")
