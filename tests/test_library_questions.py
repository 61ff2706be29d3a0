"""Library questions by kind of publication, span of years and month (answer/bib_filters.py),
and the seventh development set (tests/data/questions_dev7.jsonl: twelve library questions
written for these filters; its figures are in-sample)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from research_assistant.answer.asking import library_ask
from research_assistant.answer.bib_filters import BibFilters, bib_filters, paper_kind, paper_month
from research_assistant.models import Paper
from research_assistant.pipeline import ask

DEV7 = Path(__file__).resolve().parent / "data" / "questions_dev7.jsonl"


@pytest.mark.parametrize(
    ("question", "kinds", "since", "until", "months"),
    [
        ("Which of my papers are journal articles?", ("journal",), None, None, ()),
        ("Which of my papers were published in a journal?", ("journal",), None, None, ()),
        ("What preprints do I have?", ("preprint",), None, None, ()),
        ("Which papers appeared at workshops?", ("conference",), None, None, ()),
        ("Which papers are PhD theses?", ("thesis",), None, None, ()),
        ("Which papers support the thesis that noise helps?", (), None, None, ()),
        ("Which papers cite the book by Knuth?", (), None, None, ()),
        ("Which of my papers are books or book chapters?", ("book",), None, None, ()),
        ("Which papers were published before 2010?", (), None, 2009, ()),
        ("Which papers came out after 2020?", (), 2021, None, ()),
        ("Which papers are from 2012 or earlier?", (), None, 2012, ()),
        ("Which papers were published since 2015?", (), 2015, None, ()),
        ("Which papers are from between 2007 and 2009?", (), 2007, 2009, ()),
        ("Which papers are from 1998-2001?", (), 1998, 2001, ()),
        ("Which papers are from the 1990s?", (), 1990, 1999, ()),
        ("Which papers were published in October or in March?", (), None, None, (10, 3)),
        ("Which papers may be about privacy?", (), None, None, ()),  # "may" is no month here
        ("Which papers are from 2008?", (), None, None, ()),  # one year: LibraryAsk.years
    ],
)  # fmt: skip
def test_what_a_library_question_filters_on(
    question: str,
    kinds: tuple[str, ...],
    since: int | None,
    until: int | None,
    months: tuple[int, ...],
) -> None:
    found = bib_filters(question)
    assert (found.kinds, found.since, found.until, found.months) == (kinds, since, until, months)


def test_an_explicit_topic_narrows_a_filtered_list() -> None:
    asked = library_ask("Which journal articles in my library are about dark matter?")
    assert asked is not None and asked.bib.kinds == ("journal",)
    assert asked.about == ("dark", "matter")
    plain = library_ask("Which of my papers are journal articles?")
    assert plain is not None and plain.about == ()


def test_the_words_of_a_filter_are_no_topic_and_no_year() -> None:
    asked = library_ask("Which journal articles in my library are from 2008 or later?")
    assert asked is not None
    assert asked.bib.kinds == ("journal",) and asked.bib.since == 2008
    assert asked.years == () and asked.topic == ()
    assert library_ask("Which arXiv preprints are there?") is not None
    assert library_ask("What reports describe the heat stress?") is None  # not about the library
    assert not BibFilters()


def _paper(entry_type: str, **fields: str) -> Paper:
    return Paper(key="k", title="T", entry_type=entry_type, fields=tuple(fields.items()))


@pytest.mark.parametrize(
    ("paper", "kind"),
    [
        (_paper("article", journal="Journal of Statistical Software"), "journal"),
        (_paper("article", journal="arXiv e-prints"), "preprint"),
        (_paper("article", journal="JCAP", publisher="arXiv"), "journal"),  # published, with an eprint
        (_paper("misc", publisher="arXiv"), "preprint"),
        (_paper("misc", archiveprefix="arXiv"), "preprint"),
        (_paper("misc", howpublished="Blog post"), ""),
        (_paper("inproceedings", booktitle="Proceedings of CHI"), "conference"),
        (_paper("phdthesis", school="MIT"), "thesis"),
        (_paper("incollection", booktitle="A Handbook"), "book"),
        (_paper("techreport", institution="Google"), "report"),
    ],
)  # fmt: skip
def test_the_kind_of_an_entry(paper: Paper, kind: str) -> None:
    assert paper_kind(paper) == kind


@pytest.mark.parametrize(
    ("month", "number"),
    [("October", 10), ("oct", 10), ("6", 6), ("", None), ("13", None), ("Sept.", 9)],
)
def test_the_month_of_an_entry(month: str, number: int | None) -> None:  # fmt: skip
    assert paper_month(_paper("article", month=month)) == number


@pytest.mark.parametrize("line", DEV7.read_text(encoding="utf-8").splitlines())
def test_the_seventh_set_lists_exactly_its_papers(line: str, claims_library: Any) -> None:
    """In-sample: each question of questions_dev7.jsonl lists exactly the library papers it asks
    for, each with a verified citation of its own (2 of 15 before bib_filters)."""
    q = json.loads(line)
    answer = ask(claims_library, q["question"])
    verified = {c.paper_key for c in answer.citations if c.status == "verified"}
    assert answer.mode == "answer" and verified == set(q["answer_paper_keys"]), q["id"]
    assert all(c.status == "verified" for c in answer.citations)
