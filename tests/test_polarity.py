"""polarity.py: the contradictions a similarity score cannot see."""

from __future__ import annotations

import pytest

from research_assistant.check.polarity import conflict_of, names_in, stems_of, unstated
from research_assistant.text import fold


@pytest.mark.parametrize(
    ("claim", "passage", "kind"),
    [
        ("Backup tasks increase the run time.", "Backup tasks decrease the run time.", "direction"),
        ("The network performs poorly.", "The network performs well.", "direction"),
        ("cbow vectors outperform count", "cbow vectors underperform count", "direction"),
        ("The effect is significant.", "The effect is not significant.", "negation"),
        ("The effect is not significant.", "The effect is significant.", "negation"),
        ("Metabolites rose under stress.", "Metabolites fell under stress.", "direction"),
        ("Backup tasks shorten the sort.", "Backup tasks shorten the sort.", ""),
        ("The sort takes longer without backups.", "The sort takes longer when disabled.", ""),
        # roles swapped around a comparative
        ("count vectors outperform cbow vectors", "cbow vectors outperform count ones", "reversal"),
        (
            "tracing is faster than interpretation",
            "interpretation is faster than tracing",
            "reversal",
        ),
        ("cbow outperforms count", "cbow is outperformed by count", "reversal"),  # passive
        ("cbow outperforms count", "count is outperformed by cbow", ""),
        ("tracing is faster than interpretation", "interpretation is slower than tracing", ""),
        ("The solver fails to converge.", "The solver converges quickly.", "negation"),
        ("Backups let the sort finish sooner.", "The sort takes longer with backups.", "direction"),
        # both ways in the passage: the one attached to the claim's words decides
        (
            "more bytecodes means lower dispatch cost",
            "fewer bytecodes means lower dispatch cost, and bigger bytecode implementations "
            "give the compiler more opportunities",
            "direction",
        ),
        (
            "faster workers process more tasks",
            "faster workers process more tasks, while slow machines idle",
            "",
        ),
        # a broad opposite (a pole of a scale) counts where it is attached to the same words
        (
            "The dark matter becomes relativistic very late.",
            "It becomes relativistic very early.",
            "direction",
        ),
        (
            "Quicker workers handle more tasks.",
            "The master moves work off machines with slow disks in the cluster; so faster "
            "workers handle more tasks.",
            "",
        ),
        (
            "Adding acceptors diminishes solubility.",
            "Adding acceptors increases solubility.",
            "direction",
        ),
        # opposites by form
        (
            "The solution is stable at high load.",
            "The solution is unstable at high load.",
            "direction",
        ),
        (
            "The particles are relativistic at decoupling.",
            "The particles are non-relativistic at decoupling.",
            "direction",
        ),
        ("Models overestimate the mass.", "Models underestimate the mass.", "direction"),
        # a claim stating both ways, or using an opposite itself, states no direction there
        (
            "Metabolites were 1.5 fold higher or lower under heat.",
            "Metabolites were lower under heat.",
            "",
        ),
        # "without" negates only where the passage negates the same words
        (
            "Larger patches come without better accuracy.",
            "Larger patches do not improve accuracy.",
            "",
        ),
        (
            "Without backup tasks the sort runs longer.",
            "With backups disabled the sort runs longer.",
            "",
        ),
        # "barely" negates like "not"
        (
            "Moving a few points barely shifts the centers.",
            "Moving a few points should not change the centers.",
            "",
        ),
    ],
)
def test_conflicts(claim: str, passage: str, kind: str) -> None:
    assert conflict_of(fold(claim), fold(passage)).split(":")[0] == kind


def test_names_skip_sentence_openers_and_keep_systems() -> None:
    assert names_in("The MapReduce library runs on GFS at Google.") == (
        "MapReduce",
        "GFS",
        "Google",
    )
    assert names_in("However, results hold.") == ()
    # a number's unit is no name the paper must write: it may write "2.16Ghz" or "25 s"
    assert names_in("It ran on a 2,160 MHz Intel Core 2 processor.") == ("Intel", "Core")
    # a German sentence capitalises every noun: only a marked word is a name there
    german = names_in("Die Laufzeit betrug unter fünfundzwanzig Sekunden für den DBLP-Datensatz.")
    assert german == ("DBLP-Datensatz",)
    assert names_in("The MHz band was used.") == ("MHz",)  # no number: a name


def test_explanations_quote_the_words_as_written() -> None:
    claim, passage = fold("Bosons raise the third peak."), fold("The third peak is reduced.")
    assert conflict_of(claim, passage) == "direction: raise vs reduced"
    assert conflict_of(fold("It is not stable."), fold("It is stable.")) == "negation: claim not"


def test_a_finding_the_passage_does_not_state() -> None:
    """A passage on the topic that does not say which way it goes does not verify a claim."""
    on_topic = stems_of(fold("A bytecode costs 26 cycles when run natively."))
    assert unstated(fold("A bytecode costs more cycles natively."), on_topic) == ("more",)
    same_sense = stems_of(fold("The sort program takes 44% longer."))
    assert unstated(fold("The sort runs slower without backups."), same_sense) == ()
    bound = fold("The library holds more than 100 papers.")  # a bound: the number check's
    assert unstated(bound, stems_of(fold("It holds 120 papers."))) == ()


def test_phrasal_verbs_state_a_direction() -> None:
    claim = fold("Partial combining slows down certain operations.")
    assert conflict_of(claim, fold("Partial combining speeds up certain operations.")).startswith(
        "direction"
    )
    assert unstated(fold("Recovery is faster."), stems_of(fold("It speeds up recovery."))) == ()


def test_need_not_is_does_not_need() -> None:
    """ "need not be rerun" denies what "do not need to be re-executed" denies (dev3-paraphrase-03);
    dropping the "not" is still a contradiction."""
    passage = "completed reduce tasks do not need to be re-executed"
    assert conflict_of("completed reduce tasks need not be rerun", passage) == ""
    assert conflict_of("completed reduce tasks need to be rerun", passage).startswith("negation")


def test_a_denial_of_the_same_words_further_from_its_negation() -> None:
    """Both sides deny the same thing, one with its negation further from the words
    (dev3-paraphrase-07, dev5-paraphrase-05); a denial on one side only still contradicts."""
    passage = "the order of the decision and rationale does not affect the selector's performance"
    claim = "the order of decision and rationale makes no difference to how well it performs"
    assert conflict_of(claim, passage) == ""
    assert conflict_of("the order of decision and rationale affects its performance", passage)
    verb = "the root node of t is not necessary to be a verb, it could be a noun"
    assert conflict_of("the root node of t need not be a verb", verb) == ""
    # a negation eight words away from any word the claim denies is no denial of it
    far = "the sort finishes in 891 seconds; no failures were seen among the 1800 workers"
    assert conflict_of("the sort does not finish in 891 seconds", far).startswith("negation")


@pytest.mark.parametrize(
    ("claim", "passage", "kind"),
    [
        ("most input data is read from remote machines", "most input data is read locally", "d"),
        ("the sort takes longer when backups are enabled", "it takes longer when disabled", "d"),
        ("participants preferred the first idea", "participants preferred the second idea", "d"),
        # each qualifies something else: "first" of the layer, "second" of the run
        ("the first layer is frozen during fine-tuning", "in the second run we froze nothing", ""),
    ],
)
def test_exclusive_alternatives_in_a_passage(claim: str, passage: str, kind: str) -> None:
    assert conflict_of(claim, passage).startswith("direction") is bool(kind)


@pytest.mark.parametrize(
    ("claim", "passage", "kind"),
    [
        # "not X but Y" states Y; "Y rather than X" and "Y instead of X" set X aside
        (
            "the back-reaction can be made to imitate dark matter rather than dark energy",
            "the back-reaction mimics not dark energy but dark matter",
            "",
        ),
        (
            "the year may be the date of the report rather than the year of the event",
            "the year might not be the year when the event happened, but the year of the report",
            "",
        ),
        ("the model uses dark matter instead of dark energy", "it uses not dark energy", ""),
        # what "but" affirms is no denial: a claim denying it is still contradicted
        (
            "the back-reaction does not mimic dark matter",
            "it mimics not energy but dark matter",
            "negation",
        ),
        # a bare "rather" or "instead" negates nothing
        ("the run was rather slow", "the run was not slow", "negation"),
    ],
)
def test_not_x_but_y_and_y_rather_than_x(claim: str, passage: str, kind: str) -> None:
    assert conflict_of(fold(claim), fold(passage)).split(":")[0] == kind


def test_rather_than_and_instead_of_order_sides_alike() -> None:
    """'flatten the image rather than use the pixels' relations' swaps the sides of 'use the
    pixels' relations instead of flattening the image': the finding reversed."""
    claim = "networks flatten the image into a stream of numbers rather than exploiting the relationships of pixels"
    passage = "networks make use of relationships of the pixels instead of flattening the image to a stream of numbers"
    assert conflict_of(fold(claim), fold(passage)).startswith("reversal")
    same = "networks make use of relationships of the pixels rather than flattening the image"
    assert conflict_of(fold(same), fold(passage)) == ""


def test_a_negation_governs_its_own_clause_only() -> None:
    """'CiteRead, which is not personalised, decorates the open paper' denies no decoration."""
    claim = "CiteRead decorates the open paper with material from later papers"
    passage = "CiteRead, which is not personalised, decorates the open paper with material"
    assert conflict_of(fold(claim), fold(passage)) == ""
    denied = "CiteRead does not decorate the open paper"
    assert conflict_of(fold(claim), fold(denied)).startswith("negation")


def test_no_more_than_is_a_bound_not_a_denial() -> None:
    """'no more than 17,029 languages' bounds a number (the number reader's 'at most'); it
    denies nothing the passage must deny too."""
    claim = "the scheme can encode no more than 17,029 languages"
    assert conflict_of(fold(claim), fold("it can at most represent 17 029 languages")) == ""


def test_unavailable_and_impossible_deny_what_they_are_said_of() -> None:
    """'An implementation of the scaled error function is unavailable within R' states that R
    offers no such function (as 'unknown' and 'unclear' deny what they are said of)."""
    passage = "an implementation of the scaled error function is currently unavailable within R"
    assert conflict_of(fold("R offers no scaled error function"), fold(passage)) == ""
    said = "R offers a scaled error function"
    assert conflict_of(fold(said), fold(passage)).startswith("negation")


def test_a_bound_on_a_number_is_no_direction() -> None:
    """'more than one thousand NEOs' bounds a number: 'a small number of surveys' beside it in
    the passage does not say it the other way round."""
    claim = "more than one thousand NEOs are discovered every year"
    passage = "NEOs are found by a small number of surveys, and more than 1000 NEOs are discovered every year"
    assert conflict_of(fold(claim), fold(passage)) == ""
    assert conflict_of(fold("more memory is used"), fold("less memory is used")).startswith(
        "direction"
    )


def test_not_x_says_what_non_x_says() -> None:
    claim = "CiteRead, which is not personalised, decorates the paper"
    passage = "CiteRead is a non-personalized tool that decorates the paper"
    assert conflict_of(fold(claim), fold(passage)) == ""
    said = "CiteRead is a personalised tool that decorates the paper"
    assert conflict_of(fold(said), fold(passage)) != ""


def test_trailing_is_the_other_way_round_from_surpassing() -> None:
    claim = "PaSa-7b trails PaSa-GPT-4o by 30.36% in recall"
    passage = "PaSa-7b surpasses PaSa-GPT-4o by 30.36% in recall"
    assert conflict_of(fold(claim), fold(passage)).startswith("direction")
    german = "die Klassifikationsgüte steigt mit der Vokabulargröße"
    assert (
        conflict_of(fold(german), fold("die Klassifikationsgüte sinkt mit der Vokabulargröße"))
        != ""
    )


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "As the input is continuous, the problem was modeled as a classification task",
            "As the input is continuous, the problem was modeled as a regression task.",
        ),
        ("The model uses an encoder network here", "The model uses a decoder network here."),
        (
            "This trade off was chosen because exceptions are ubiquitous in JavaScript",
            "This design trade off was chosen, because exceptions are usually rare in JavaScript.",
        ),
    ],
)
def test_exclusive_alternatives_of_a_task_contradict(claim: str, passage: str) -> None:
    """One kind of task or component said for the other changes the finding; "ubiquitous" is
    the other pole of "rare"."""
    assert conflict_of(fold(claim), fold(passage)).startswith("direction")


def test_lagging_behind_says_the_other_way_of_outperforming() -> None:
    """'lags behind X' qualifies X (the particle is no head of its own)."""
    claim = "the CRF approach lags behind generative learning on image restoration tasks"
    passage = "the CRF approach can outperform generative learning on image restoration tasks"
    assert conflict_of(fold(claim), fold(passage)) == "direction: lag vs outperform"
    assert conflict_of(fold(claim), fold(claim.replace("lags", "falls"))) == ""
