"""The rules of issue 12's third pass: a paper that never names the kind of thing asked for
does not answer; a definition, a reason, a step and a count each lead the answer when asked
for; a short form with small letters ("BoW") stands for its long form."""

from __future__ import annotations

import pytest

from research_assistant.answer.asking import analyse, focus, units_asked
from research_assistant.answer.base import AnswerRequest, SourcePassage
from research_assistant.answer.extractive import ExtractiveAnswerer
from research_assistant.answer.fit import (
    DEFINE_FIT,
    WHY_FIT,
    abbreviations,
    define_fit,
    kind_fit,
    value_fit,
    why_fit,
)


def passage(key: str, text: str, n: int = 0) -> SourcePassage:
    label = f"{key.title()}, 2020"
    return SourcePassage(label, key, f"Title of {key}", 1, f"{key}:1:{n}", " ".join(text.split()))


def answer(question: str, *passages: SourcePassage) -> str:
    draft = ExtractiveAnswerer().answer(AnswerRequest(question, tuple(passages)))
    return "" if draft.refused else draft.text


# ------------------------------------------------------------------------ the kind asked for
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which rotation periods were measured for the NEOs?", ("rotat", "period")),
        ("What dropout rate was used for the perceptron?", ("dropout",)),  # "rate": a measure
        ("Which eye-tracking measures were recorded?", ("measur",)),  # a compound is left out
        ("What present-day temperature is assumed?", ()),
        ("What soil pH was used?", ("soil", "ph")),
        ("What is event detection?", ()),  # a definition: no kind named
        ("What did Dean and Ghemawat report?", ()),
        ("How many machines were used?", ()),
        ("What limits the speedup of MapReduce?", ()),  # a verb, then its object
        ("Which metabolites increase the most?", ("metabolit",)),
    ],
)
def test_the_words_naming_what_is_asked_for(question: str, expected: tuple[str, ...]) -> None:
    assert focus(question) == expected


NEO = passage(
    "trilling",
    """We analyzed data from the first year of a survey for near-Earth objects with the Dark
    Energy Camera. We measured the nightly detection efficiency of the survey for small
    near-Earth objects as a function of magnitude. The measured periods of the survey nights
    were short.""",
)


def test_a_word_of_a_reference_entry_does_not_name_the_kind() -> None:
    wheat = passage(
        "thomason",
        """Wheat plants were grown under heat stress in growth chambers at a relative humidity
        of 60 percent. Heat stress was initiated ten days after anthesis for the wheat plants.
        Zhang X. Proline and wheat under soil water deficits. Colloids Surf. 2006; 53: 113-119.""",
    )
    assert (
        answer("What soil moisture was used for growing the wheat plants under heat stress?", wheat)
        == ""
    )


# ------------------------------------------------------------------------ definitions, reasons
@pytest.mark.parametrize(
    ("question", "sentence", "fit"),
    [
        (
            "What is a guard in a trace?",
            "The trace encodes guards, which are checks that verify the types.",
            1 + DEFINE_FIT,
        ),
        (
            "What is a guard in a trace?",
            "The trunk trace contains a guard to which a branch was attached.",
            1.0,
        ),
        (
            "What is output perturbation?",
            "They employ a technique called output perturbation.",
            1 + DEFINE_FIT,
        ),
        (
            "What is a straggler?",
            "A straggler is a machine that takes an unusually long time.",
            1 + DEFINE_FIT,
        ),
        (
            "What is explainable AI?",
            "Explainable AI refers to tools that interpret models.",
            1 + DEFINE_FIT,
        ),
        (
            "How does a guard work?",
            "The trace encodes guards, which are checks.",
            1.0,
        ),  # not a definition
    ],
)
def test_a_what_is_question_wants_a_definition(question: str, sentence: str, fit: float) -> None:
    assert define_fit(question, sentence) == pytest.approx(fit)


@pytest.mark.parametrize(
    ("question", "sentence", "fit"),
    [
        (
            "Why are completed map tasks re-executed?",
            "They are re-executed because their output is on the failed disk.",
            1 + WHY_FIT,
        ),
        (
            "And why is GAT used?",
            "Our method is based on GAT since it weights the neighbours.",
            1 + WHY_FIT,
        ),
        (
            "Why are completed map tasks re-executed?",
            "Completed map tasks are re-executed on a failure.",
            1.0,
        ),
        ("What is re-executed?", "They are re-executed because their output is lost.", 1.0),
    ],
)
def test_a_why_question_wants_a_reason(question: str, sentence: str, fit: float) -> None:
    assert why_fit(question, sentence) == pytest.approx(fit)


def test_the_kinds_combine() -> None:
    q = "What is a guard in a trace?"
    s = "The trace encodes guards, which are checks that verify the types."
    assert kind_fit(q, s) == pytest.approx(define_fit(q, s))


GAL = passage(
    "gal",
    """The trunk trace contains a guard to which a branch trace was attached. The VM inserts a
    guard on the preemption flag at every loop edge of a trace. The LIR trace also encodes
    guards, which are checks that verify that the control flow and types are identical.""",
)


def test_the_sentence_that_defines_leads() -> None:
    assert answer("What is a guard in a trace?", GAL).startswith(
        "The LIR trace also encodes guards"
    )


# ------------------------------------------------------------------------ steps
PASA = passage(
    "he",
    """We build a synthetic academic search dataset, AutoScholarQuery, with fine-grained
    queries. To construct AutoScholarQuery, we began by collecting all papers published at
    ICLR 2023 and ICML 2023. For the Related Work section of each paper, we prompted GPT-4o to
    generate scholarly queries. The final dataset comprises 33,551 training instances.""",
)


def test_a_how_question_gets_the_step_that_follows_the_lead() -> None:
    text = answer("How was AutoScholarQuery built from published papers?", PASA)
    assert text.startswith("To construct AutoScholarQuery")
    assert "we prompted GPT-4o" in text


# ------------------------------------------------------------------------ values
@pytest.mark.parametrize(
    ("question", "sentence", "fit"),
    [
        # "N=10" counts the participants; "Study 2" names a study, it is no value
        (
            "How many participants took part in the lab study?",
            "A controlled lab study (N=10) shows it works.",
            1.0,
        ),
        (
            "How many participants were in the field deployment?",
            "In Study 2, participants used the tool at home.",
            0.0,
        ),
        # a count is not answered by a size or a time near the counted thing
        (
            "How many machines were in the cluster?",
            "A machine with a bad disk slows from 30 MB/s to 1 MB/s.",
            0.0,
        ),
        (
            "How many machines were in the cluster?",
            "The cluster had approximately 1800 machines.",
            1.0,
        ),
        # a change asked "by how much" is stated as a share
        (
            "By how much did kernel weight fall when the temperature rose?",
            "Kernel weight was decreased by 85%.",
            1.0,
        ),
    ],
)
def test_values_that_answer_and_numbers_that_do_not(
    question: str, sentence: str, fit: float
) -> None:
    assert value_fit(analyse(question), sentence) == pytest.approx(fit)


def test_by_how_much_asks_for_a_share_or_a_factor() -> None:
    assert {"%", "x"} <= units_asked("By how much does it beat the baseline?")


# ------------------------------------------------------------------------ short forms
@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("The other is simply a Bag-of-Words (BoW) method.", "bow", {"bag", "word"}),
        ("Large language models (LLMs) are used.", "llm", {"larg", "languag", "model"}),
    ],
)
def test_short_forms_with_small_letters_or_a_plural(text: str, short: str, long: set[str]) -> None:
    assert dict(abbreviations(text))[short] == frozenset(long)


def test_a_word_in_parentheses_is_no_short_form() -> None:
    assert abbreviations("It was run on the cluster (Linux) at night.") == ()


def test_a_preposition_before_which_still_names_the_kind() -> None:
    assert focus("Under which licence is the package released?") == ("licenc",)


def test_the_sentence_naming_the_kind_asked_for_leads() -> None:
    timp = passage(
        "mullen",
        """TIMP is an R package for modeling multiway spectroscopic measurements and fitting
        them. The package is released on the archive network with its examples. It is freely
        available under the GNU General Public License for every platform.""",
    )
    text = answer("Under which licence is the TIMP R package released?", timp)
    assert text.startswith("It is freely available under the GNU General Public License")


# ------------------------------------------------------------------------ more rules
def test_a_method_question_with_a_how_many_inside_asks_no_value() -> None:
    assert analyse("How did the team measure how many objects it detected each night?").value == ""
    assert analyse("How many objects did the team detect each night?").value == "number"


def test_a_german_which_question_names_its_kind_by_its_capitalised_nouns() -> None:
    assert focus("Welche Eigenschaft von Graphen nutzt der DYCOS-Algorithmus aus?") == (
        "eigenschaft",
    )
    assert focus("Welche Informationen nutzt der DYCOS-Algorithmus?") == ("informationen",)


def test_a_german_abbreviation_does_not_end_the_sentence() -> None:
    from research_assistant.text import sentence_spans

    text = "DYCOS nutzt also die sog. Homophilie, d. h. die Eigenschaft, dass Knoten ähnlich sind."
    assert len(list(sentence_spans(text))) == 1


def test_this_model_is_named_sentences_before() -> None:
    """ "This model achieves 88.30 %" names the MLP only through the text before it, there a
    heading glued to a sentence."""
    wili = passage(
        "thoma",
        """All metrics are used from SciPy 1.0.0 [JOP+ ] C. Character tf-idf Features and MLP
        Classifier Character-based tf-idf features are computed for every paragraph. The
        resulting 2218 features are L2 normalized. A multilayer Perceptron with one hidden layer
        of 512 neurons is used as a classifier. The cross-entropy loss function and the Adam
        optimizer are used. The model is trained for 20 epochs with a mini-batch size of 32.
        This model achieves a test set accuracy of 88.30 % with 23 min of training.""",
    )
    text = answer("What test set accuracy does the MLP on character tf-idf features reach?", wili)
    assert "88.30 %" in text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a running head and page number glued to the front
        (
            "DECam: Size distribution of NEOs 7 In conclusion, omitting these objects does not "
            "introduce a significant error.",
            ["In conclusion, omitting these objects does not introduce a significant error."],
        ),
        # the axis ticks of a figure glued into a sentence
        ("Each machine had two processors and 20 40 60 80 100 Seconds of disk time here.", []),
        # a caption whose "Figure 2." label the splitter cut off
        (
            "Plotted as the number of W84 NEOs Figure 2. Histogram of transformed magnitudes "
            "for all NEOs detected in our survey.",
            ["Plotted as the number of W84 NEOs Figure 2."],
        ),
        # a reference to a figure ending a sentence is no caption label
        (
            "The results of the sort are shown in Figure 2. This indicates that backup tasks "
            "help a lot.",
            [
                "The results of the sort are shown in Figure 2.",
                "This indicates that backup tasks help a lot.",
            ],
        ),
        # digit groups are one number: "1 256 683 parameters" stays
        (
            "This network has 1 256 683 parameters in all.",
            ["This network has 1 256 683 parameters in all."],
        ),
    ],
)
def test_figure_residue_is_never_quoted(text: str, kept: list[str]) -> None:
    from research_assistant.answer.sentences import clean_sentences

    assert [s for _, s in clean_sentences(text)] == kept
