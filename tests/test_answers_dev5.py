"""The fifth development set of issue 12 (tests/data/questions_dev5.jsonl, QUESTIONS_DEV5.md)
and the answerer changes measured on it: list items and footnote marks the sentence splitter
glues to a sentence, a measure word that qualifies a noun, a lead that points back with a bare
"This", a definition that goes on in the next sentence, "X, defined as".

The set's figures are in-sample (the set was read while looking for causes). The probe set
(questions_probe5.jsonl) was written after the changes and is only checked for its labels here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from research_assistant import store as store_mod
from research_assistant.answer.asking import wants_value
from research_assistant.answer.base import AnswerRequest, SourcePassage
from research_assistant.answer.extractive import ExtractiveAnswerer
from research_assistant.answer.fit import define_fit
from research_assistant.answer.sentences import clean_sentences, piece_spans
from research_assistant.evaluate import EvalReport, evaluate, load_questions, states
from research_assistant.library import Library
from research_assistant.pipeline import ask

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

DATA = Path(__file__).resolve().parent / "data"
DEV5, PROBE5 = DATA / "questions_dev5.jsonl", DATA / "questions_probe5.jsonl"


def passage(key: str, text: str) -> SourcePassage:
    return SourcePassage(f"{key.title()}, 2020", key, f"Title of {key}", 1, f"{key}:1:0", text)


def answer(question: str, *passages: SourcePassage) -> str:
    draft = ExtractiveAnswerer().answer(AnswerRequest(question, tuple(passages)))
    return "" if draft.refused else draft.text


# ------------------------------------------------------------------------ pure
def test_list_items_and_footnote_marks_end_sentences() -> None:
    text = (
        "The four strategies are as follows: • Linear Reading: A baseline that assumes users "
        "read papers linearly and select the first five citations. • Global Citation Count: A "
        "baseline where citations to the five most highly cited papers are selected. We apply "
        "it to k-SED (k-means) clustering and learning mixtures of Gaussians. ∗Part of the work "
        "was done while the authors were visiting. The vectors: \uf0b7 The word embedding: we use "
        "the word embedding pre-trained by Skip-gram on the NYT corpus."
    )
    pieces = [text[s:e] for s, e in piece_spans(text)]
    assert pieces[0] == "The four strategies are as follows:"
    kept = [s for _, s in clean_sentences(text)]
    assert (
        "Linear Reading: A baseline that assumes users read papers linearly and select the "
        "first five citations." in kept
    )
    assert "We apply it to k-SED (k-means) clustering and learning mixtures of Gaussians." in kept
    assert any(s.startswith("The word embedding: we use the word embedding") for s in kept)


def test_a_superscript_citation_number_is_left_to_the_splitter() -> None:
    """Cutting at "made.^17 Explaining" lost a paraphrased development question (QUESTIONS_DEV5)."""
    text = "Users trust a model they understand.^17 Explaining predictions helps developers."
    assert len(piece_spans(text)) == 1


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which mass spectrometer was used for it?", ""),  # "mass" qualifies "spectrometer"
        ("Which temperature sensor was used?", ""),
        ("Which error function is minimised?", ""),
        ("What particle mass is assumed for the boson?", "number"),
        ("What temperature did they use?", "number"),
        ("What is the mass of the boson?", "number"),
        ("What test set accuracy does the MLP reach?", "number"),
        ("What accuracy score did it get?", "number"),
    ],
)
def test_a_measure_word_before_a_noun_asks_no_value(question: str, value: str) -> None:
    assert wants_value(question) == value


def test_x_defined_as_defines_x() -> None:
    sentence = "This paper focuses on denoising, defined as the recovery of an underlying image."
    assert define_fit("What is image denoising?", sentence) > 1.0


GAL = passage(
    "gal",
    """Loops are compiled when they become hot. If the trace exits the loop with the same type
    map as on entry, the trace is reused. This is called a type-stable loop iteration. Type
    maps are kept per trace tree.""",
)
THOMA = passage(
    "thoma",
    """Digital text is the first form of natural communication which involved computers. The
    most simple language model which is of use is an n-gram model. This model makes use of
    sequences of the length n to model language. Refinements are discussed in NLP.""",
)


def test_a_lead_pointing_back_with_a_bare_this_comes_after_what_it_points_at() -> None:
    text = answer("What is a type-stable loop iteration?", GAL)
    assert text.startswith("If the trace exits the loop with the same type map as on entry")
    assert "This is called a type-stable loop iteration" in text


def test_a_definition_goes_on_in_the_sentence_about_the_thing_defined() -> None:
    text = answer("What is an n-gram model?", THOMA)
    assert text.startswith("The most simple language model")
    assert "This model makes use of sequences of the length n to model language" in text


# ------------------------------------------------------------------------ the corpus
@pytest.fixture(scope="module")
def corpus_lib(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = Library.open(tmp_path_factory.mktemp("dev5") / "lib")
    lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "library.bib"])
    yield lib
    store_mod.close(lib.root / "catalog.duckdb")


@pytest.mark.parametrize("path", [DEV5, PROBE5])
def test_the_sets_are_labelled_against_the_corpus(
    corpus: Path, corpus_lib: Library, path: Path
) -> None:
    questions = load_questions(path)
    assert len(questions) >= 15
    assert all(q.previous for q in questions if q.kind == "followup")
    bib = (corpus / "library.bib").read_text(encoding="utf-8")
    assert all(f"{{{k}," in bib for q in questions for k in q.answer_paper_keys)
    assert labelled_set.hints_missing(corpus_lib, questions) == []


@pytest.fixture(scope="module")
def dev5(corpus_lib: Library) -> EvalReport:
    return evaluate(corpus_lib, load_questions(DEV5), backend="extractive")


def test_the_fifth_set_floors(dev5: EvalReport) -> None:
    """In-sample floors under the figures after the changes (40/44 cite a verified answer
    paper, 31/41 state the hint, 3/7 unanswerable refused; before: 39/44, 25/41, 3/7)."""
    assert dev5.cites_answer_rate is not None and dev5.cites_answer_rate >= 0.88
    assert dev5.hint_rate is not None and dev5.hint_rate >= 0.70
    assert dev5.refused_unanswerable >= 3
    assert dev5.status_share == 1.0 and dev5.unflagged_unverified == 0


@pytest.mark.parametrize(
    "qid",
    [
        "dev5-q-17",  # a list item: the Linear Reading baseline
        "dev5-q-26",  # a list item: "does not currently trace recursion"
        "dev5-q-20",  # a list item opened by the Symbol font's bullet
        "dev5-q-41",  # "Which mass spectrometer": no mass asked for
        "dev5-q-15",  # "This model makes use of ..." goes on with the definition
        "dev5-q-11",  # "denoising, defined as ..."
    ],
)
def test_the_fifth_set_states_what_the_changes_made_it_state(dev5: EvalReport, qid: str) -> None:
    row = next(r for r in dev5.rows if r.id == qid)
    assert row.hint_found, row.answer


@pytest.mark.parametrize(
    ("question", "hint"),
    [
        ("What is a type-stable loop iteration?", "with the same type map as on entry"),
        (
            "To which clustering problem do Nissim, Raskhodnikova and Smith apply their "
            "sampling procedure?",
            "k-SED (k-means) clustering",
        ),
    ],
)
def test_fourth_set_questions_the_changes_answer(
    corpus_lib: Library, question: str, hint: str
) -> None:
    """dev4-q-09 (a bare "This is called ..." lead) and dev4-q-29 (a footnote mark glued to the
    sentence that answers)."""
    got = ask(corpus_lib, question, backend="extractive", user="test")
    assert got.mode == "answer" and states(got.answer, hint), got.answer
