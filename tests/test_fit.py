"""How a sentence fits what a question asks: values, respelled terms, unknown names."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from research_assistant.answer.asking import analyse
from research_assistant.answer.fit import (
    VALUE_NEARBY,
    abbreviations,
    how_fit,
    names_known,
    names_unknown,
    respelled,
    stated_terms,
    value_fit,
)
from research_assistant.terms import term_list, terms


@pytest.mark.parametrize(
    ("question", "sentence", "fit"),
    [
        ("How long did the sort take?", "The entire computation takes 891 seconds.", 1.0),
        ("How long did the sort take?", "The program sorts about 1 terabyte of data.", 0.0),
        ("How many machines were used?", "The cluster had approximately 1800 machines.", 1.0),
        ("How many machines were used?", "We ran the program 3 times.", 0.3),
        ("How does the master detect failures?", "The master pings every worker.", 1.0),
        ("In which year was it released?", "The package was released in 2007.", 1.0),
        ("In which year was it released?", "It has 12 modules.", 0.0),
    ],
)
def test_the_value_asked_for(question: str, sentence: str, fit: float) -> None:
    assert value_fit(analyse(question), sentence) == pytest.approx(fit)


def test_a_number_beside_each_thing_counted_fits_best() -> None:
    asked = analyse("How many languages and paragraphs does the dataset contain?")
    both = value_fit(asked, "It contains 1000 paragraphs of 235 languages.")
    one = value_fit(asked, "The dataset contains 235 000 paragraphs of 140 code points.")
    assert both == 1.0 and VALUE_NEARBY <= one < both


def test_a_value_of_the_question_is_covered_by_the_same_value_in_other_words() -> None:
    got = stated_terms("How long did the sort of 1 TB take?", [((0, 1), "It sorts 1 terabyte.")])
    assert got == {(0, 1): frozenset(term_list("1 TB"))}
    assert stated_terms("How does it work?", [((0, 1), "It sorts 1 terabyte.")]) == {}


def test_a_term_the_library_spells_another_way_is_respelled() -> None:
    vocabulary = {t: 1.0 for t in term_list("released under the GNU General Public License")}
    asked = respelled(analyse("Under which licence is the package released?"), vocabulary)
    assert "licens" in asked.terms and "licenc" not in asked.terms
    assert respelled(asked, {}) is asked


def test_a_name_the_library_never_mentions() -> None:
    vocabulary = {t: 1.0 for t in term_list("MapReduce runs on a cluster of machines")}
    assert names_unknown(analyse("How does Hadoop run MapReduce?"), vocabulary)
    assert not names_unknown(analyse("How does MapReduce run?"), vocabulary)
    assert not names_unknown(analyse("How does Hadoop run?"), {})


def test_a_rate_is_answered_only_by_a_rate() -> None:
    asked = analyse("How many queries per second can the system serve?")
    assert value_fit(asked, "The test set holds 50 queries.") == 0.0
    assert value_fit(asked, "It serves about 200 queries per second.") > 0


def test_a_paper_knows_the_names_its_passages_hold() -> None:
    asked = analyse("Which GPU trained the classifiers on WiLI-2018?")
    assert not names_known(asked, set(term_list("WiLI-2018 has 235 languages")))
    assert names_known(asked, set(term_list("WiLI-2018 classifiers trained on a GPU")))


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("PaSa is a large language model (LLM) agent.", "llm", "large language model"),
        ("Information from the named-entity (NE) recognizer is used.", "ne", "named entity"),
        ("The Minor Planet Center (MPCs) assigned it.", "mpc", "Minor Planet Center"),
    ],
)
def test_short_forms_a_passage_defines(text: str, short: str, long: str) -> None:
    assert dict(abbreviations(text))[short] == frozenset(term_list(long))


def test_parentheses_that_define_nothing() -> None:
    assert abbreviations("We ran it on the cluster (CTIO) at night.") == ()
    assert abbreviations("No short forms here.") == ()


_ONE_PATTERN = re.compile(r"((?:[^\W\d_]+[\s-]+){1,8})\(([A-Z][A-Za-z]{1,5})\)")


def _by_one_pattern(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The definition: one pattern over the passage (what the search from each parenthesis
    back must find)."""
    out = []
    for m in _ONE_PATTERN.finditer(text):
        written = m.group(2)
        for short in (written, written[:-1] if written.endswith("s") else ""):
            if sum(c.isupper() for c in short) < 2:
                continue
            words = re.split(r"[\s-]+", m.group(1).strip())[-len(short) :]
            if len(words) == len(short) and all(
                w[:1].lower() == c.lower() for w, c in zip(words, short, strict=True)
            ):
                long, key = terms(" ".join(words)), term_list(short)
                if long and key:
                    out.append((key[0], long))
                break
    return tuple(out)


def test_short_forms_are_found_as_the_one_pattern_finds_them(corpus: Path) -> None:
    """Every page of the corpus and hard cases (a hyphen before the parenthesis, two in a row,
    a plural, letters outside ASCII, a digit inside the words)."""
    texts = ["a b- (AB)", "(AB)(CD) word word (WW)", "Named-Entity Recognizer (NER)s", "x y z (XYZs)",
             "über Ärger (ÜÄ) and Über Ärger (ÜÄ)", "3D model (DM)", "one two\n(OT)", "a_b c (AC)"]  # fmt: skip
    for pdf in sorted(corpus.glob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            texts += [page.get_text() for page in doc]
    found = 0
    for text in texts:
        want = _by_one_pattern(text)
        assert abbreviations.__wrapped__(text) == want, text[:200]
        found += len(want)
    assert found >= 50  # the corpus does define short forms, so the comparison means something


@pytest.mark.parametrize(
    ("question", "sentence", "fit"),
    [
        ("How does it work?", "It works by replacing f with a smoother function.", 1.25),
        ("How does it work?", "In each iteration the image is zoomed.", 1.25),
        ("How does it work?", "The technique is called DeepDream.", 0.75),
        ("How does it work?", "However, in order to use it, one needs an algorithm.", 0.75),
        ("How does it work?", "The master keeps a table of workers.", 1.0),
        ("What is it?", "It works by replacing f with a smoother function.", 1.0),
    ],
)
def test_a_how_question_wants_a_step(question: str, sentence: str, fit: float) -> None:
    assert how_fit(question, sentence) == pytest.approx(fit)
