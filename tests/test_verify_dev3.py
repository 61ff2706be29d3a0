"""The third development claim set (tests/data/verification_dev3.jsonl, 79 claims written from
the corpus PDFs before the rules below were tuned on them), through check_text on the ingested
corpus; and the rules that tuning added, one by one.

Floors, not targets: measured 56 / 79 with 13 leaks before the rules (2026-11-23), 68 / 79 with 5
leaks after (70 / 79 with a negation rule that was then taken out: it let flips through). The leaks left are flipped findings the checker cannot read yet (a swapped pair of
annotations, "is exceeded by them on R", swapped inequalities, a claim mixing two sentences of
one passage, "well known" where a clean passage on the topic outscores the one saying "unknown").
71 / 79 and 16 / 17 paraphrases after the rules tuned on tests/data/verification_dev4.jsonl
(tests/test_verify_dev4.py): "unknown" denies, "longer" is stated by "far bigger".
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research_assistant import Library
from research_assistant.agreement import agree, agrees_any
from research_assistant.check.lexicon import opposites_of
from research_assistant.check.names import long_form, names_in
from research_assistant.check.nearest import forms_share, value_forms
from research_assistant.check.passages import (
    Paper,
    Prepared,
    expand_acronyms,
    mentioned,
    paper_of,
    sentences_of,
)
from research_assistant.check.polarity import conflict_of
from research_assistant.models import Chunk
from research_assistant.quantities import quantities
from research_assistant.terms import stem, term_list

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

DEV3 = Path(__file__).parent / "data" / "verification_dev3.jsonl"


def test_dev3_claims_keep_their_floors(claims_library: Library) -> None:
    rows = labelled_set.load_set(DEV3)
    assert len(rows) >= 50 and len({r["paper_key"] for r in rows}) >= 12
    outcomes, table = labelled_set.scored_table(claims_library, DEV3, "dev3")
    good = sum(g for g, _ in table.values())
    assert good / len(outcomes) >= 0.89  # 71 / 79 measured
    assert len(labelled_set.leaked(outcomes)) <= 5
    assert table["paraphrase"][0] >= 16  # of 17
    assert table["flipped"][0] >= 19  # of 25
    assert table["number_words (true)"][0] >= 5  # of 6
    for group in (
        "two_part_one_false",
        "wrong_paper",
        "number_words (false)",
        "number_notation (false)",
        "number_notation (true)",
    ):
        assert table[group][0] == table[group][1], group


def test_a_code_of_letter_and_digits_is_a_name() -> None:
    assert "W48" in names_in("the observatory code W48 was assigned")
    assert "H100" in names_in("trained on 8 H100 GPUs")


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("a forty-five-minute interview", 2700.0, "s"),
        ("a 60-minute interview", 3600.0, "s"),
        ("the 4-meter Blanco telescope", 4.0, "m"),
        ("der Datensatz hat 8,07 · 10^5 Knoten", 807000.0, ""),
        ("eine Güte von 82,5 % erreicht", 82.5, "%"),
    ],
)
def test_numbers_joined_to_units_and_decimal_commas(text: str, value: float, unit: str) -> None:
    (q,) = quantities(text, small_words=True)
    assert q.value == pytest.approx(value) and q.unit == unit


def test_a_comma_list_and_a_model_number_are_not_decimals_or_values() -> None:
    assert [q.value for q in quantities("layers 1,5 and 7 of it")] == [1.0, 5.0, 7.0]
    assert quantities("as shown in model 5 and curve 6") == ()


def test_a_wide_range_states_no_value_inside_it() -> None:
    (claim,) = quantities("about 2.5 × 10^4 NEOs")
    wide, narrow = quantities("a range of 5000–100,000 and 20,500±3000 NEOs")
    assert not agree(claim, wide)
    assert agree(quantities("3 GB")[0], quantities("2-4 GB of memory")[0])
    assert not agree(claim, narrow)


@pytest.mark.parametrize(("word", "opposite"), [("busy", "idle"), ("major", "minimal")])
def test_new_opposites(word: str, opposite: str) -> None:
    curated, broad = opposites_of(stem(word))
    assert stem(opposite) in curated | broad


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "the cache does not improve accuracy",
            "the cache improves accuracy and it does not need tuning",
        ),
        (
            "stragglers do not slow down the computation",
            "stragglers slow down the computation, which is not surprising",
        ),
    ],
)
def test_a_negation_elsewhere_in_the_passage_does_not_excuse_a_flipped_one(
    claim: str, passage: str
) -> None:
    """A rule tried in tuning let two negated sides pass ("makes no difference to how well it
    performs" against "does not affect its performance" are one denial); it let these flipped
    findings through, so it was taken out: negation stays a hard check."""
    assert conflict_of(claim, passage).startswith("negation")


def test_an_acronym_is_spelt_out_as_a_name() -> None:
    text = "apply PMI weighting and Singular Value Decomposition to reduce the space"
    assert long_form("SVD", text) == "Singular Value Decomposition"
    assert long_form("SVD", "the size of the vocabulary, d, is") == ""
    assert long_form("SVD", "a singular value decomposition (SVD) of it") != ""


def test_a_share_to_three_digits_agrees_with_a_percent_column() -> None:
    (share,) = quantities("a precision of 0.807")
    assert agrees_any(share, quantities("SemEAGAT 80.7 73.2", small_words=True))
    (short,) = quantities("a ratio of 0.5")
    assert not agrees_any(short, quantities("50 items", small_words=True))


def test_numbers_in_words_pick_the_chunk_that_writes_them_in_digits() -> None:
    forms = value_forms(quantities("five thousand queries and 1,256,683 parameters"))
    assert forms_share(forms, "the model encounters 5,000 queries") == 0.5
    assert forms_share(forms, "5 000 queries; this network has 1 256 683 parameters") == 1.0
    assert value_forms(quantities("3 layers")) == ()  # a short number is in every chunk


def test_a_heading_glued_to_a_sentence_is_split_off() -> None:
    text = "4.8\nStatus Information\nThe master runs an internal HTTP server\nand exports pages."
    sents = [x.text for x in sentences_of(Prepared(text))]
    assert sents[-1] == "The master runs an internal HTTP server\nand exports pages."


def _paper(*texts: str) -> Paper:
    return paper_of([Chunk(f"acr:{i}", "acr", 1, 0, len(t), t) for i, t in enumerate(texts)])


def test_acronyms_the_claim_or_the_paper_spells_out() -> None:
    paper = _paper(
        "We apply Singular Value Decomposition to it.",
        "The Ultra Light Bosonic Dark Matter (ULBDM) is cold. The ULBDM temperature is unknown.",
        "English and Italian phrases (En-It).",
    )
    want, aliases = expand_acronyms("cut to 300 dimensions with SVD", frozenset({"svd"}), paper)
    assert "svd" not in want and {"singular", "decomposit"} <= want
    claim = "ultra light bosonic dark matter"
    want, aliases = expand_acronyms(claim, frozenset(term_list(claim)), paper)
    assert set(aliases) == {"ulbdm"}
    assert mentioned("English-Italian", paper)
    assert not mentioned("English-German", paper)


def test_a_german_scale_word_is_a_number_not_a_name() -> None:
    """German capitalises nouns: "19 Tausend" is 19,000, not a name the paper must use."""
    names = names_in("Der Graph hat 8,07 · 10^5 Knoten, von denen etwa 19 Tausend beschriftet sind")
    assert "Tausend" not in names
    assert "Millionen" not in names_in("Corpus X has 2 Millionen Wörter (in German)")


def test_in_a_german_claim_only_marked_words_are_names() -> None:
    """Every German noun has a capital: "Laufzeit" is no name the paper must use; "DYCOS",
    "CORA-Datensatz" and "Xeon-Servers"... only a capital past the first letter or a digit
    makes a name there. An English claim keeps its capitalised names."""
    claim = (
        "DYCOS benötigte laut Thoma (2015) auf einem Kern eines Servers mit 2.5 GHz für DBLP "
        "weniger als 25 s Laufzeit und für den CORA-Datensatz weniger als 5 s."
    )
    names = names_in(claim)
    assert "Laufzeit" not in names and "Servers" not in names
    assert {"DYCOS", "DBLP", "CORA-Datensatz"} <= set(names)
    assert "Jeremiah" in names_in("The system accepted a rondo as the name of Jeremiah's march.")
