"""binding.py: two roles a passage exchanges between its clauses."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from research_assistant.check.binding import clauses, crossed, exchanged, settle, window_conflict
from research_assistant.terms import stem


@pytest.mark.parametrize(
    ("claim", "passage", "fires"),
    [
        # the two roles exchanged between the clauses
        (
            "English parsing depends on the treebank, while German parsing benefits from SMEs.",
            "German parsing depends on the treebank, while English parsing benefits from SMEs.",
            True,
        ),
        (
            "Prefixes are attached on the left, and suffixes are attached on the right.",
            "Suffixes are attached on the left, and prefixes are attached on the right.",
            True,
        ),
        # ... across two sentences of the passage
        (
            "The crawler stresses recall, whereas the ranker stresses precision.",
            "The crawler stresses precision. The ranker stresses recall.",
            True,
        ),
        # the same binding said in other words and another order: no exchange
        (
            "English parsing depends on the treebank, while German parsing benefits from SMEs.",
            "For German parsing SMEs are a benefit; English parsing depends on the treebank.",
            False,
        ),
        # a passive keeps each role with its clause
        (
            "The mapper writes intermediate files, and the reducer reads final outputs.",
            "Intermediate files are written by the mapper; final outputs are read by the reducer.",
            False,
        ),
        # an exchange of modifiers between two clauses
        (
            "Realistic queries are long, and fine-grained labels are rare.",
            "Fine-grained queries are long, and realistic labels are rare.",
            True,
        ),
        # guard: the words exchanged stand within three words of each other, as in a phrase
        # told in another order ("realistic, fine-grained queries")
        ("Cats sleep; dogs bark.", "Cats bark; dogs sleep.", False),
        (
            "Cats sleep all through the day; dogs bark at night.",
            "Cats bark all through the day; dogs sleep at night.",
            True,
        ),
        # "than" splits no clause: a double flip ("B is slower than A") states the same finding
        (
            "the tracing compiler runs faster than the baseline interpreter on loops",
            "the baseline interpreter runs slower than the tracing compiler on loops",
            False,
        ),
        # "whose" opens a clause; "key/value pair" names both of a pair, a role of neither
        (
            "Each line is a key/value pair whose key is the contents of the line and whose "
            "value is its offset in the file.",
            "Each line is a key/value pair: the key is the offset in the file and the value is "
            "the contents of the line.",
            True,
        ),
        (
            "Each line is a key/value pair whose key is its offset in the file and whose value "
            "is the contents of the line.",
            "Each line is a key/value pair: the key is the offset in the file and the value is "
            "the contents of the line.",
            False,
        ),
        # a bound is a role of its own: "> 23" and "< 23" exchanged between two clauses
        (
            "The DECam result and the re-detection estimates agree well for H > 23 and diverge "
            "only for H < 23.",
            "Our result agrees moderately well with these re-detection results for H < 23, but "
            "the two results diverge for H > 23, where their number of re-detections is small.",
            True,
        ),
        (
            "The DECam result and the re-detection estimates agree well for H < 23 and diverge "
            "for H > 23.",
            "Our result agrees moderately well with these re-detection results for H < 23, but "
            "the two results diverge for H > 23, where their number of re-detections is small.",
            False,
        ),
        # German function words bind nothing (this read as "mit" with "auf" exchanged)
        (
            "DYCOS benötigte auf einem einzelnen Kern eines Xeon-Servers mit 2.5 GHz für DBLP "
            "weniger als 25 s Laufzeit und für CORA weniger als 5 s.",
            "Des Weiteren betrug die Ausführungszeit auf einem Kern eines Intel Xeon 2.5 GHz "
            "Servers mit 32 GB RAM für den DBLP-Datensatz unter 25 s, für den CORA-Datensatz "
            "sogar unter 5 s. Dabei wurde eine für CORA eine Klassifikationsgüte von 82 %–84 % und "
            "auf den DBLP-Daten von 61 %–66 % erreicht.",
            False,
        ),
        # one clause only: nothing to exchange
        ("German parsing depends on the treebank.", "The treebank depends on German.", False),
        # a fronted phrase belongs to its clause
        (
            "In the first stage, nouns are decomposed; in the second stage, adjectives are.",
            "In the first stage, adjectives are decomposed; in the second stage, nouns are.",
            True,
        ),
    ],
)
def test_crossed(claim: str, passage: str, fires: bool) -> None:
    assert (crossed(claim, passage) is not None) is fires


def test_a_parenthetical_citation_is_no_clause() -> None:
    assert clauses("Nouns come first (Lin, 1998), and verbs come last.") == (
        frozenset({stem("nouns"), stem("come"), stem("first")}),
        frozenset({stem("verbs"), stem("come"), stem("last")}),
    )


def test_the_conflict_quotes_the_words_as_written() -> None:
    found = exchanged(
        "prefixes are attached on the left, and suffixes are attached on the right",
        "suffixes are attached on the left, and prefixes are attached on the right",
    )
    assert found.startswith("binding: ")
    assert set(found.removeprefix("binding: ").replace("~", ", ").split(", ")) <= {
        "prefixes",
        "suffixes",
        "left",
        "right",
        "attached",
    }


@dataclass(frozen=True)
class _Span:
    span: str
    score: float
    conflict: str = ""
    chunk: object | None = "chunk"


def test_settle_reads_the_span_to_show_and_picks_again() -> None:
    claim = "prefixes are attached on the left, and suffixes are attached on the right"
    crossed_span = _Span("Suffixes are attached on the left, and prefixes on the right.", 0.9)
    clean = _Span("Prefixes are attached on the left; suffixes on the right.", 0.7)
    read: list[str] = []

    def pick(spans: list[_Span]) -> _Span:
        best = max((s for s in spans if not s.conflict), key=lambda s: s.score)
        read.append(best.span)
        return best

    got = settle([crossed_span, clean], claim, pick, lambda s, why: replace(s, conflict=why))
    assert got == clean and len(read) == 2
    assert window_conflict(claim, crossed_span.span).startswith("binding")


def test_a_bound_is_quoted_as_written() -> None:
    claim = "The results agree for H > 23, and they diverge for H < 23."
    passage = "The results agree for H < 23, and they diverge for H > 23."
    assert exchanged(claim, passage) == "binding: > 23~agree, < 23~diverge"
