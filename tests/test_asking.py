"""Reading a question: its terms, the value it asks for, names, library questions, follow-ups."""

from __future__ import annotations

import pytest

from research_assistant.answer.asking import (
    analyse,
    counted,
    is_follow_up,
    library_ask,
    names,
    question_terms,
    units_asked,
    wants_value,
)
from research_assistant.terms import term_list


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many parameters do the networks have?", "number"),
        ("How long did the sort take?", "number"),
        ("What percentage of the queries were answered?", "number"),
        ("By how much does PaSa beat Google?", "number"),
        ("What particle mass is assumed for the boson?", "number"),
        ("What test set accuracy does the classifier reach?", "number"),
        ("Combien de copies sont stockées ?", "number"),
        ("Wie lange dauerte die Ausführung?", "number"),
        ("In which year was the survey started?", "year"),
        ("When was the package released?", "year"),
        ("How does the master detect a failed worker?", ""),
        ("What is a straggler?", ""),
        ("Which camera and telescope were used for the size distribution?", ""),
    ],
)
def test_the_kind_of_value_asked_for(question: str, kind: str) -> None:
    assert wants_value(question) == kind


def test_the_thing_counted_and_the_unit_asked_in() -> None:
    assert counted("How many free parameters does it have?") == ("free", "parame")
    assert counted("What is the number of languages?") == ("langua",)
    assert counted("How many participants took part in the study?") == ("partic",)
    assert units_asked("How long did it take?") == {"s"}
    assert units_asked("What speedup does tracing give?") == {"x"}
    assert units_asked("What share of the papers was found?") == {"%"}
    assert units_asked("How does it work?") == frozenset()


def test_asking_words_are_not_what_a_question_is_about() -> None:
    terms = question_terms("How strongly does the paper say heat reduces yield?")
    assert "strong" not in " ".join(terms) and "paper" not in terms
    assert {"heat", "yield"} <= set(terms)


@pytest.mark.parametrize(
    "question",
    [
        "Selon les auteurs, quel est le rôle de la matière noire ?",
        "Welche Informationen nutzt der Algorithmus und wie?",
        "¿Qué es el efecto de la estadística de los bosones?",
    ],
)
def test_the_function_words_of_other_languages_are_not_what_a_question_is_about(
    question: str,
) -> None:
    terms = set(question_terms(question))
    assert not terms & set(term_list("les le la de der und el los es quel"))
    assert terms  # the content words stay


def test_names_are_the_words_written_with_capitals_or_digits() -> None:
    found = names("How many GPUs were used to train GPT-3 with fastText and Hadoop?")
    wholes = [n[0] for n in found]
    assert wholes == [*term_list("GPUs")[:1], "gpt3", "fasttext", "hadoop"]
    assert names("How does it work?") == ()
    assert names("Of the 235 objects, how many?") == ()  # a number is not a name


def test_german_nouns_are_no_names() -> None:
    # German writes every noun with a capital: only a capital past the first letter, or a
    # digit, makes a name there ("PaSa", "CORA-Datensatz")
    assert names("Wie tief darf der Crawler von PaSa ausgehend von der Nutzeranfrage suchen?") == (
        ("pasa",),
    )
    assert names("Wie lange dauerte DYCOS auf dem CORA-Datensatz?") == (
        ("dyco",),
        ("coradatensatz", "cora", "datensatz"),
    )
    assert names("Which Crawler does PaSa use?") == (("crawler",), ("pasa",))  # English


@pytest.mark.parametrize(
    ("question", "years", "topic"),
    [
        ("Which papers in my library were written by Martin Thoma?", (), ()),
        ("What papers from 2008 are in my library?", (2008,), ()),
        ("Which of my papers are about asteroids?", (), ("asteroid",)),
        ("Do I have any papers on differential privacy?", (), ("differenti", "privaci")),
    ],
)
def test_library_questions(question: str, years: tuple[int, ...], topic: tuple[str, ...]) -> None:
    ask = library_ask(question)
    assert ask is not None
    assert ask.years == years
    assert set(topic) <= set(ask.topic)


def test_author_names_of_a_library_question_are_not_its_topic() -> None:
    ask = library_ask("Which papers in my library were written by Martin Thoma?")
    assert ask is not None and "Thoma" in ask.names and "thoma" not in ask.topic


@pytest.mark.parametrize(
    "question",
    ["How does MapReduce handle stragglers?", "What did the papers in Table 2 report?"],
)
def test_other_questions_are_not_library_questions(question: str) -> None:
    assert library_ask(question) is None


def test_follow_ups_lean_on_the_turn_before() -> None:
    before = ["What f-measure did the DFKI runs reach at AVE 2008?"]
    assert is_follow_up("And what about the English run?", before)
    assert is_follow_up("How long did it take?", before)
    assert not is_follow_up("How long did it take?", [])  # nothing to follow
    assert not is_follow_up("Which telescope surveyed near-Earth objects?", before)
    asked = analyse("And what about the English run?", before)
    assert "english" in " ".join(asked.terms)
    assert {"dfki", "ave"} <= set(asked.earlier) and not set(asked.earlier) & set(asked.terms)


@pytest.mark.parametrize(
    "question",
    [
        "Why is it unsafe to scale privacy noise simply to how much a statistic changes?",
        "Can I follow how far along a running MapReduce job is from a web browser?",
        "Does the sort take how long it did in the first run?",
    ],
)
def test_a_why_or_whether_question_asks_no_value(question: str) -> None:
    assert analyse(question).value == ""


def test_how_long_is_the_thing_asks_no_time_unit() -> None:
    assert analyse("How long is the longest paragraph in the dataset?").units == frozenset()
    assert analyse("How long did the sort take?").units == {"s"}
    assert analyse("How long was the sort?").units == {"s"}
