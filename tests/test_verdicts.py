"""Verdicts on claims nobody tuned on, through check_text on the ingested corpus: the
observations of the verdicts issue as regressions, and the development and held-out claim sets
(tests/data/heldout/claims.jsonl was written before any tuning and never chose anything; its
floors below record what was measured, so that a change can only keep or raise them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research_assistant import Library, check_text

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

GROUPS = Path(__file__).parent / "data" / "verification_groups.jsonl"


def verdict(lib: Library, text: str) -> tuple[str, str]:
    (c,) = check_text(lib, text).citations
    return c.status, c.reason


def test_a_paraphrase_with_its_numbers_is_verified(claims_library: Library) -> None:
    status, _ = verdict(
        claims_library,
        "Sorting one terabyte of data with MapReduce takes 891 seconds including startup "
        "overhead [Dean and Ghemawat, 2004].",
    )
    assert status == "verified"


def test_a_changed_number_written_in_words_is_caught(claims_library: Library) -> None:
    true = "Without backup tasks the sort program takes forty-four percent longer to complete"
    false = "Without backup tasks the sort program takes sixty percent longer to complete"
    assert verdict(claims_library, f"{true} [Dean and Ghemawat, 2004].")[0] == "verified"
    status, reason = verdict(claims_library, f"{false} [Dean and Ghemawat, 2004].")
    assert status == "unsupported" and reason.startswith("the paper says 44%, not 60 percent")


def test_superscripts_are_read_as_powers(claims_library: Library) -> None:
    """The paper prints 10 with a raised 6.6; it reaches the chunks, claims and checks as 10^6.6."""
    texts = [
        c.text for c in claims_library.state.index.chunks_of("trillingSizeDistributionNear2017")
    ]
    assert any("10^6.6 NEOs larger than 10 meters" in t for t in texts)
    assert not any("106.6 NEOs" in t for t in texts)
    true = "We find that there are 10^6.6 NEOs larger than 10 meters [Trilling et al., 2017]."
    assert verdict(claims_library, true)[0] == "verified"
    words = "There are roughly four million NEOs larger than 10 meters [Trilling et al., 2017]."
    assert verdict(claims_library, words)[0] == "verified"  # 10^6.6 is 4.0 million
    status, reason = verdict(claims_library, true.replace("6.6", "7.6"))
    assert status == "unsupported" and reason.startswith("the paper says 10^6.6, not 10^7.6")


def test_the_explanation_names_the_number_in_the_same_role(claims_library: Library) -> None:
    status, reason = verdict(
        claims_library,
        "The WiLI benchmark covers 350 languages with 1000 paragraphs each [Thoma, 2018b].",
    )
    assert status == "unsupported" and reason.startswith("the paper says 235, not 350")


def test_a_flipped_finding_is_caught(claims_library: Library) -> None:
    status, _ = verdict(
        claims_library,
        "With backup tasks disabled, the sort program finishes 44% faster "
        "[Dean and Ghemawat, 2004].",
    )
    assert status == "unsupported"
    status, reason = verdict(
        claims_library,
        "A convolutional network trained for blind denoising performs poorly even compared to "
        "the other methods under non-blind conditions [Jain and Seung, 2008].",
    )
    assert status == "unsupported" and "other way" in reason


def test_a_role_reversal_is_caught_and_named(claims_library: Library) -> None:
    status, reason = verdict(
        claims_library,
        "When decomposing phrase vectors into their constituent words, count vectors "
        "consistently outperform cbow vectors [Dinu and Baroni, 2014].",
    )
    assert status == "unsupported" and "“cbow” outperform “count”, not" in reason


def test_a_passage_on_the_topic_that_does_not_state_the_finding_does_not_verify(
    claims_library: Library,
) -> None:
    status, reason = verdict(
        claims_library,
        "Gal et al. (2009) estimate that a bytecode costs more cycles when run on a native trace "
        "than in the interpreter.",
    )
    assert status == "uncertain" and "does not state “more”" in reason


def test_a_paraphrase_anchored_by_its_numbers_is_verified(claims_library: Library) -> None:
    """The paper's words differ ("unique objects that meet these criteria"); its two numbers,
    stated together, anchor the paraphrase."""
    status, _ = verdict(
        claims_library,
        "Trilling et al. (2017) note that of the 235 distinct NEOs passing their selection "
        "criteria, 97 were first found by their own survey.",
    )
    assert status == "verified"


def test_every_part_of_a_two_part_claim_must_hold(claims_library: Library) -> None:
    status, reason = verdict(
        claims_library,
        "The test set contains 100 images, and the CN2 networks add forty extra images from the "
        "Berkeley database to the FoE training set [Jain and Seung, 2008].",
    )
    assert status in ("partial", "unsupported") and "CN2" in reason


def scores(lib: Library, path: Path) -> tuple[float, list[str], dict[str, tuple[int, int]]]:
    outcomes = labelled_set.run_set(lib, labelled_set.load_set(path))
    table = labelled_set.accuracy(outcomes)
    for group, (good, n) in table.items():
        print(f"{path.name} {group:32} {good}/{n}")
    good = sum(g for g, _ in table.values())
    return good / len(outcomes), labelled_set.leaked(outcomes), table


def test_development_claims_in_sample(claims_library: Library) -> None:
    """verification.jsonl and verification_groups.jsonl chose the thresholds (in-sample)."""
    accuracy, leaked, table = scores(claims_library, labelled_set.DEVELOPMENT)
    assert leaked == [] and accuracy >= 0.98
    accuracy, leaked, table = scores(claims_library, GROUPS)
    # 139 / 149 measured (dev2- rows included). One known leak since tables are read as tables
    # (thirteenth session): "SemEAGAT has the best precision and F1 of all compared models, and
    # it also has the highest recall" is verified by "our SemEAGAT outperforms all the compared
    # models on P and F1", which the rows of Table 1 no longer dilute; the part "it also has the
    # highest recall" is not read against "exceeded by them on R" (it was uncertain at 0.40,
    # 0.02 under the threshold, before). Any other leak, or this one gone, fails here.
    assert accuracy >= 0.9 and leaked == ["dev-two_part_one_false-07"]
    assert table["paraphrase"][0] >= 42
    assert table["flipped"][0] >= 53
    assert table["number_words (false)"][0] == table["number_words (false)"][1]
    assert table["number_notation (false)"][0] == table["number_notation (false)"][1]
    assert table["wrong_paper"][0] == table["wrong_paper"][1]


def test_heldout_claims_never_tuned_on(claims_library: Library) -> None:
    """Floors measured once on the held-out set; see docs/BENCHMARKS.md. The sets v1-v5 (this
    test and the next four) are development data since the twelfth session (heldout/README.md):
    their floors are in-sample from then on."""
    accuracy, leaked, table = scores(claims_library, labelled_set.HELDOUT)
    assert accuracy >= HELDOUT_FLOOR and len(leaked) <= HELDOUT_LEAKS
    for group in ("author_not_in_library", "wrong_paper", "number_notation (false)"):
        assert table[group][0] == table[group][1], group


HELDOUT_FLOOR = 0.83  # measured 79 / 104 = 0.760, then 81 / 104 = 0.779 (2026-11-23); 87 / 104
# after the twelfth session, which retired the set to development (in-sample since)
HELDOUT_LEAKS = 4  # 5, 6 after the fourth session found a flipped claim's citation it missed, 5
# again after the fifth session's checker, 4 after the twelfth


def test_second_heldout_claims_never_tuned_on(claims_library: Library) -> None:
    """heldout/claims_v2.jsonl (V2.md), measured on 2026-11-23 at 538fe99: 66 / 93 with 6 leaks;
    after the third session's tuning on development claims, 66 / 93 with 7 leaks (the first
    and third sets gained), after the fourth session's 66 / 93 with 7 (its checks one leak fewer; its citation finding
    found a flipped claim's citation it had missed, which verifies: docs/BENCHMARKS.md).
    A floor, not a target."""
    accuracy, leaked, table = scores(claims_library, labelled_set.HELDOUT_V2)
    assert accuracy >= 0.74 and len(leaked) <= 7  # 69 / 93, 7 after the twelfth (in-sample)
    for group in ("author_not_in_library", "wrong_paper", "number_notation (false)"):
        assert table[group][0] == table[group][1], group


def test_third_heldout_claims_never_tuned_on(claims_library: Library) -> None:
    """heldout/claims_v3.jsonl (V3.md), written before the third session's tuning: 67 / 98 with
    9 leaks before it, 67 / 98 with 7 leaks after; 68 / 98 with 6 leaks after the fourth
    session's (docs/BENCHMARKS.md). A floor, not a target."""
    accuracy, leaked, table = scores(claims_library, labelled_set.HELDOUT_V3)
    assert accuracy >= 0.76 and len(leaked) <= 6  # 75 / 98, 6 after the twelfth (in-sample)
    for group in ("author_not_in_library", "wrong_paper", "number_notation (false)"):
        assert table[group][0] == table[group][1], group


def test_fourth_heldout_claims_never_tuned_on(claims_library: Library) -> None:
    """heldout/claims_v4.jsonl (V4.md), written at the start of the fourth session: 59 / 101
    with 16 leaks on the code before that session's checker changes, 66 / 101 with 13 leaks
    after (2026-11-23, docs/BENCHMARKS.md). A floor, not a target."""
    accuracy, leaked, table = scores(claims_library, labelled_set.HELDOUT_V4)
    assert accuracy >= 0.69 and len(leaked) <= 12  # 70 / 101, 12 after the twelfth (in-sample)
    for group in ("author_not_in_library", "wrong_paper"):
        assert table[group][0] == table[group][1], group


def test_fifth_heldout_claims_never_tuned_on(claims_library: Library) -> None:
    """heldout/claims_v5.jsonl (V5.md), written at the start of the fifth session: 62 / 101
    with 11 leaks on the code before that session's checker changes, 62 / 101 with 10 leaks
    after (2026-11-23, docs/BENCHMARKS.md). A floor, not a target."""
    accuracy, leaked, table = scores(claims_library, labelled_set.HELDOUT_V5)
    assert accuracy >= 0.66 and len(leaked) <= 9  # 67 / 101, 9 after the twelfth (in-sample)
    assert table["author_not_in_library"][0] == table["author_not_in_library"][1]


@pytest.mark.parametrize(
    ("path", "least_accuracy", "most_leaks", "wrong_paper_missed"),
    [
        # heldout/claims_v6.jsonl (V6.md), written at the start of the sixth session: 60 / 101
        # with 11 leaks on the code before that session's changes (237ac6d)
        (labelled_set.HELDOUT_V6, 0.59, 11, 0),
        # heldout/claims_v7.jsonl (V7.md), written at the start of the seventh session: 60 / 101
        # with 14 leaks on the code before that session's changes (31a011e)
        (labelled_set.HELDOUT_V7, 0.59, 14, 0),
        # heldout/claims_v8.jsonl (CLAIMS_V8.md), written in the eighth session and measured
        # once, on 8ac95b2: 56 / 101 with 14 leaks, wrong_paper 11 / 12
        (labelled_set.HELDOUT_V8, 0.55, 14, 1),
        # heldout/claims_v9.jsonl (CLAIMS_V9.md), written in the ninth session and measured
        # once, on cd59868: 50 / 101 with 16 leaks, wrong_paper 11 / 12
        (labelled_set.HELDOUT_V9, 0.49, 16, 1),
        # heldout/claims_v10.jsonl (CLAIMS_V10.md), written in the tenth session and measured
        # once, on the session's final checker: 60 / 101 with 13 leaks, wrong_paper 11 / 12;
        # after the thirteenth session's table reading (chosen on development claims, measured
        # once at its end, no row read): 60 / 101 with 14 leaks (docs/BENCHMARKS.md)
        (labelled_set.HELDOUT_V10, 0.59, 14, 1),
        # heldout/claims_v11.jsonl (CLAIMS_V11.md), written in the eleventh session and
        # measured once, on 9249f98: 58 / 101 with 9 leaks, wrong_paper 11 / 12; after the
        # twelfth session's checker (chosen on development claims): 59 / 101 with 10 leaks
        (labelled_set.HELDOUT_V11, 0.57, 10, 1),
        # heldout/claims_v12.jsonl (CLAIMS_V12.md), written blind in the twelfth session and
        # measured once on its final checker: 63 / 101 with 8 leaks, wrong_paper 11 / 12 (and
        # 63 / 101 with 8 on cce811a, the code before that session)
        (labelled_set.HELDOUT_V12, 0.62, 8, 1),
        # heldout/claims_v13.jsonl (CLAIMS_V13.md), written blind in the fourteenth session and
        # measured once on 04ee136 (the code before it) and once on its final checker: 60 / 101
        # with 8 leaks both times, wrong_paper 11 / 12
        (labelled_set.HELDOUT_V13, 0.59, 8, 1),
        # heldout/claims_v14.jsonl (CLAIMS_V14.md), written blind in the fifteenth session and
        # measured on 9e2a82a (the code before it) and on its final checker: 52 / 101 with 18
        # leaks each time, wrong_paper 11 / 12
        (labelled_set.HELDOUT_V14, 0.51, 18, 1),
        # heldout/claims_v15.jsonl (CLAIMS_V15.md), written blind later in the fifteenth session
        # and measured on 9e2a82a (57 / 101, 10 leaks) and on its final checker (58 / 101, 10
        # leaks), wrong_paper 11 / 12
        (labelled_set.HELDOUT_V15, 0.57, 10, 1),
    ],
    ids=[
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
    ],
)
def test_later_heldout_claims_never_tuned_on(
    claims_library: Library,
    path: Path,
    least_accuracy: float,
    most_leaks: int,
    wrong_paper_missed: int,
) -> None:
    """The held-out sets written in the sixth to fifteenth sessions, at their first
    measurement (2026-11-23, docs/BENCHMARKS.md). A floor, not a target."""
    accuracy, leaked, table = scores(claims_library, path)
    assert accuracy >= least_accuracy and len(leaked) <= most_leaks
    assert table["wrong_paper"][1] - table["wrong_paper"][0] <= wrong_paper_missed


def test_a_lone_narrative_name_of_a_library_work_is_checked(claims_library: Library) -> None:
    """'In Thoma (2016), ...' was no citation at all (the finder reads 'in Berlin (1998)' as a
    place): the sentence reached the reader with no verdict."""
    status, reason = verdict(
        claims_library,
        "In Thoma (2016), the name Inceptionism comes from the science-fiction movie Inception.",
    )
    assert status == "verified", reason
    assert check_text(claims_library, "In Berlin (1998), the wall had fallen.").citations == ()


def test_a_specific_number_finds_its_sentence_three_sentences_after_its_subject(
    claims_library: Library,
) -> None:
    """'This network has 1 256 683 parameters.' follows the MLP's description by three
    sentences; the claim's 1,256,683 was called 'the paper says 100 times'."""
    claim = (
        "In the WiLI paper, the character tf-idf MLP classifier has {} parameters [Thoma, 2018b]."
    )
    status, reason = verdict(claims_library, claim.format("1,256,683"))
    assert status == "verified", reason
    assert verdict(claims_library, claim.format("1,265,683"))[0] == "unsupported"
