"""answer/sentences.py: the sentences text extraction hides, recovered for quoting; garbled
ones still refused."""

from __future__ import annotations

import pytest

from research_assistant.answer.sentences import clean_sentences, piece_spans, strip_heading

# One piece of 80 words for the splitter: the full stops are followed by superscript citation
# numbers, not by a capital letter.
LONG = (
    "Users are more likely to trust and use predictions from a model if they can understand "
    "why the prediction was made.^17 Explaining predictions can help developers of models "
    "ensure the model is not learning spurious correlations.^18,19 Two infamous examples "
    "are, 1)neural networks that learned to recognize horses by looking for a photographer's "
    "watermark^20 and, 2)neural networks that predicted a diagnosis by looking at the font "
    "choice on the images.^21 That is worth knowing for every reader."
)


def _texts(text: str) -> list[str]:
    return [s for _, s in clean_sentences(text)]


def test_a_long_piece_is_cut_at_superscript_citations_that_end_sentences() -> None:
    assert _texts(LONG) == [
        "Users are more likely to trust and use predictions from a model if they can "
        "understand why the prediction was made.",
        "Explaining predictions can help developers of models ensure the model is not "
        "learning spurious correlations.",
        "Two infamous examples are, 1)neural networks that learned to recognize horses by "
        "looking for a photographer's watermark and, 2)neural networks that predicted a "
        "diagnosis by looking at the font choice on the images.",
        "That is worth knowing for every reader.",
    ]


def test_a_piece_short_enough_for_one_sentence_is_not_cut() -> None:
    text = "The model was trained once.^3 Then it was tested on new images of the same kind."
    assert len(piece_spans(text)) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "The fit has an R^2 of 0.93 across all of the runs we made.",
        "The number of nodes grows as 10^6.6 over the whole of the survey.",
    ],
)
def test_exponents_are_not_citation_marks(sentence: str) -> None:
    assert _texts(sentence) == [sentence]


def test_a_sentence_that_opens_a_list_is_quoted_as_a_statement() -> None:
    text = "There are only 9 languages in the dataset with at least 150 characters: Amharic"
    assert _texts(text) == []  # cut at a chunk's edge: no sentence
    assert _texts("We currently apply three backward filters for every recorded trace:") == [
        "We currently apply three backward filters for every recorded trace."
    ]


def test_a_caption_set_into_a_sentence_is_cut_out() -> None:
    text = (
        "We term model discovery the identification Figure 1: Model discovery is an "
        "iterative process of specification and validation. of a statistical model able to "
        "reproduce measurements."
    )
    assert _texts(text) == [
        "We term model discovery the identification of a statistical model able to "
        "reproduce measurements."
    ]


def test_a_sentence_merged_with_a_table_and_its_caption_is_refused() -> None:
    text = (
        "It is worth stressing the nature of the Input Output cbow count A.N A, N 0.36,0.61 "
        "0.20,0.41 Table 2: Accuracy of generation models at retrieving the words of phrases."
    )
    assert _texts(text) == []


def test_an_unbalanced_parenthesis_is_still_a_fragment() -> None:
    assert _texts("The system (which we built in 2019 runs on every worker machine.") == []
    assert _texts("The files were converted using ProteoWizard (Version 2) on one machine.")


def test_a_footnote_number_before_a_sentence_is_dropped() -> None:
    # (a heading after a section number is cut as before: tests/test_extractive.py)
    text = "2 If all the loops in a nest are type-stable, then nesting creates no duplication."
    assert strip_heading(text) == text[2:]


def test_a_footnote_number_glued_to_the_first_word_is_dropped() -> None:
    text = "1Sowohl für den DBLP als auch für den CORA-Datensatz wurde q = 10 gewählt."
    assert _texts(text) == [text[1:]]
    assert _texts("2D images are used in all of the experiments here.")  # a name, kept whole
    assert _texts("2D images are used in all of the experiments here.")[0].startswith("2D")
