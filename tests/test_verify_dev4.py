"""The fourth development claim set (tests/data/verification_dev4.jsonl: 54 claims over 11
corpus papers, written from the PDFs before any rule below was tried), through check_text on
the ingested corpus; and the rules that tuning on it added, one by one.

Floors, not targets, and in-sample: these claims chose the rules below. Measured before them
(2026-11-23): 42 / 54, 4 leaks, 21 / 27 paraphrases verified (43 / 54 and 22 / 27 once
dev4-paraphrase-09 was given its second page: the paper prints the sentence on p. 1 and p. 4).
After: 49 / 54, no leak, 25 / 27. Left wrong: two paraphrases (one says "hypothesis" and "text"
where the paper writes H and T; one whose true sentence is outranked by a sentence on other
frameworks that says "not on the database") and three two-part claims left uncertain, not
unsupported (none verified).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research_assistant import Library
from research_assistant.check.passages import Paper, Prepared, paper_of, rare_name, sentences_of
from research_assistant.check.polarity import conflict_of, stems_of, unstated
from research_assistant.check.scored import Support
from research_assistant.check.support import _read_names
from research_assistant.models import Chunk

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

DEV4 = Path(__file__).parent / "data" / "verification_dev4.jsonl"


def test_dev4_claims_keep_their_floors(claims_library: Library) -> None:
    rows = labelled_set.load_set(DEV4)
    assert len(rows) >= 50 and len({r["paper_key"] for r in rows}) >= 10
    outcomes, table = labelled_set.scored_table(claims_library, DEV4, "dev4")
    good = sum(g for g, _ in table.values())
    assert good / len(outcomes) >= 0.9  # 49 / 54 measured (in-sample)
    assert labelled_set.leaked(outcomes) == []
    assert table["paraphrase"][0] >= 25  # of 27
    assert table["flipped"][0] == table["flipped"][1]
    for group in ("number_words (false)", "number_notation (false)"):
        assert table[group][0] == table[group][1], group


def test_a_footnote_mark_after_a_full_stop_ends_the_sentence() -> None:
    text = (
        "Users trust a model they understand.^17 Explaining predictions helps ensure the model "
        "is not learning spurious correlations.^18,19 Two infamous examples are networks that "
        "learned to recognize horses by a watermark."
    )
    sents = [x.text for x in sentences_of(Prepared(text))]
    assert len(sents) == 3
    assert sents[0].endswith("understand.^17") and sents[2].startswith("Two infamous")


@pytest.mark.parametrize(
    ("claim", "passage", "kind"),
    [
        # "not only X but also Y" states both
        (
            "the noise depends on the database as well as on the function",
            "the noise is determined not only by the function but also by the database",
            "",
        ),
        (
            "the noise is determined only by the function, not by the database",
            "the noise is determined not only by the function but also by the database",
            "negation",
        ),
        # "unknown" and "unclear" deny what they are said of, before them
        (
            "nobody knows the temperature of the dark matter",
            "the temperature of the dark matter is entirely unknown",
            "",
        ),
        (
            "the temperature of the dark matter is well known",
            "the temperature of the dark matter is entirely unknown",
            "negation",
        ),
        # the sides of a comparison, counted in content words, may be one letter
        (
            "the approach starts with processing T, since it is usually textually shorter than H",
            "the approach starts with processing H, since it is usually textually shorter than T",
            "reversal",
        ),
        # MapReduce's "reduce" names a task, not a direction
        (
            "faster workers end up handling more of the tasks",
            "There are M map tasks and R reduce tasks to assign; each one gets a reduce task.",
            "",
        ),
        (
            "backup tasks reduce the completion time",
            "backup tasks increase the completion time",
            "direction",
        ),
        # an opposite by form in another form: "avoid" for the "avoidable" of "unavoidable"
        (
            "XAI makes that trade-off unavoidable in property prediction",
            "XAI provides a way to avoid that trade-off in property prediction",
            "direction",
        ),
        # an opposite that says what another word of the claim, of one sense only, says
        (
            "the statistics have a small but perceptible effect, equivalent to adding matter",
            "the statistics have a small albeit perceptible effect, equivalent to an increase "
            "of matter",
            "",
        ),
        (
            "adding backup tasks reduces the completion time",
            "adding backup tasks increases the completion time",
            "direction",
        ),
    ],
)
def test_conflicts_found_in_tuning_on_dev4(claim: str, passage: str, kind: str) -> None:
    found = conflict_of(claim.lower(), passage.lower())
    assert found.startswith(kind) if kind else found == ""


def test_a_bigger_length_states_a_longer_one() -> None:
    claim = "Tibetan paragraphs are far longer than those of any other language"
    passage = "Tibetan has an average count of characters per paragraph which is far bigger"
    assert unstated(claim.lower(), stems_of(passage.lower())) == ()
    assert unstated(claim.lower(), stems_of("the paragraphs are short")) == ("longer",)


def _paper(*texts: str) -> Paper:
    return paper_of([Chunk(f"ner:{i}", "ner", 1, 0, len(t), t) for i, t in enumerate(texts)])


def test_a_name_the_paper_uses_in_passing_must_be_in_the_evidence() -> None:
    texts = (
        "Additional information from a named-entity recognizer is also considered.",
        "For NE recognition, we use StanfordNER for English and SPPC for German.",
        "The AVE system validates answers. The AVE system is an RTE system.",
        "The AVE system was tested on English and German.",
        "We compare the AVE system with last year's.",
    )
    paper = _paper(*texts)
    assert rare_name("StanfordNER", paper)
    assert not rare_name("AVE", paper)  # the paper's subject, in most passages
    assert not rare_name("Minipar", paper)  # never used: the name check's, not this one's
    general = Support(0.5, Chunk("ner:0", "ner", 1, 0, len(texts[0]), texts[0]), texts[0])
    read = _read_names(general, ("StanfordNER", "AVE"), paper)
    assert read.unstated == ("StanfordNER",)  # uncertain, not verified
    assert _read_names(general, ("Minipar",), paper).conflict == "name"
