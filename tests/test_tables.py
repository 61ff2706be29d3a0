"""The table reader (research_assistant.tables): rows, column heads and captions from the text
PDF extraction leaves, one cell a line; and what the checker and the answerer make of them."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from research_assistant import Library, ask, check_text
from research_assistant.check.sentences import split
from research_assistant.tables import row_text, tables

# A key/value table with its caption below it (ACM style), then prose.
KEY_VALUE = (
    "statistics about the resources the jobs used.\n"
    "Number of runs\n1,204\nMean run time\n42 secs\nDisk read\n3,120 GB\nDisk written\n88 GB\n"
    "Table 3: Batch runs in May 2019\n"
    "Figure 5 shows how the number of runs grew over the year.\n"
)
# Column heads and a caption of two lines above the rows (IEEE style), a first-column head.
MULTI_COLUMN = (
    "Table 2. Scores of the parsers on the test set of the\n"
    "treebank, by parser.\n"
    "Parser\nP\nR\nF1\n"
    "Alpha\n80.7\n73.2\n76.8\n"
    "Beta\n69.8\n70.9\n70.3\n"
    "Gamma\n73.0\n74.3\n73.6\n"
    "The results show that Alpha is the best parser.\n"
)


def test_a_key_value_table_reads_as_rows_with_the_caption_below() -> None:
    (table,) = tables(KEY_VALUE)
    assert [(r.label, r.cells) for r in table.rows] == [
        ("Number of runs", ("1,204",)),
        ("Mean run time", ("42 secs",)),
        ("Disk read", ("3,120 GB",)),
        ("Disk written", ("88 GB",)),
    ]
    assert table.caption == "Table 3: Batch runs in May 2019"
    assert table.named and table.rows[1].heads == ()
    row = table.rows[1]
    assert KEY_VALUE[row.start : row.end] == "Mean run time\n42 secs"
    assert row_text(row) == "Table 3: Batch runs in May 2019 - Mean run time 42 secs"


def test_column_heads_and_a_caption_of_two_lines_above_the_rows() -> None:
    (table,) = tables(MULTI_COLUMN)
    assert [r.label for r in table.rows] == ["Alpha", "Beta", "Gamma"]
    assert table.rows[1].cells == ("69.8", "70.9", "70.3")
    assert table.rows[1].heads == ("P", "R", "F1")
    # the label's full stop becomes a colon and the caption ends with none: one sentence
    assert row_text(table.rows[1]) == (
        "Table 2: Scores of the parsers on the test set of the treebank, by parser, "
        "columns P, R, F1 - Beta 69.8 70.9 70.3"
    )


def test_what_is_not_a_table() -> None:
    prose = "We ran the model\nten times and report\nthe mean of the runs\nin the text below.\n"
    assert tables(prose) == []
    axis = "0\n100\n200\nrate of motion\n15\n20\nmagnitude\n18\n20\nseconds\n0\n500\n"
    (ticks,) = tables(axis)
    assert not ticks.named  # read apart by the checker, never quoted by the answerer
    contents = "Contents\n1. Introduction\n2\n2. Methods\n4\n3. Results\n7\n4. Discussion\n9\n"
    assert tables(contents) == []
    two_rows = "Caption\nOne\n1\nTwo\n2\n"
    assert tables(two_rows) == []


def test_heads_of_two_lines_each_are_not_bound() -> None:
    text = (
        "Table 1: Results.\nSystem\nEstimated QA\nPerformance\nQA\nAccuracy\n"
        "run one\n0.21\n0.30\nrun two\n0.25\n0.31\nrun three\n0.19\n0.28\n"
    )
    (table,) = tables(text)
    assert table.caption == "Table 1: Results."
    assert all(r.heads == () for r in table.rows)


def test_a_hostile_page_of_many_lines_is_read_in_bounded_lines() -> None:
    text = "Label\n1\n" * 50_000
    found = tables(text)
    assert sum(len(t.rows) for t in found) <= 10_000


def test_the_checker_reads_each_row_apart_with_what_names_it() -> None:
    spans, rows = split(KEY_VALUE)
    texts = [KEY_VALUE[a:b] for a, b in spans]
    assert "Mean run time\n42 secs" in texts
    assert "Table 3: Batch runs in May 2019" in texts
    j = texts.index("Mean run time\n42 secs")
    assert rows[j].label == "Mean run time" and rows[j].cells == ("42 secs",)
    assert [texts[x] for x in rows[j].named] == ["Table 3: Batch runs in May 2019"]


# Through check_text on the corpus library: MapReduce's Table 1 (caption below, one value a
# row) and PaSa's Table 7 (heads above, three values a row).
TABLE_CLAIMS = [
    ("Google ran 29,423 MapReduce jobs in August 2004 [Dean and Ghemawat, 2004].", "verified"),
    (
        "MapReduce jobs run in August 2004 took 634 seconds on average to complete "
        "[Dean and Ghemawat, 2004].",
        "verified",
    ),
    (
        "The jobs run in August 2004 produced 758 TB of intermediate data "
        "[Dean and Ghemawat, 2004].",
        "verified",
    ),
    # the value of another row: the claim names "output data", whose cell is 193 TB
    (
        "The jobs run in August 2004 wrote 758 TB of output data [Dean and Ghemawat, 2004].",
        "unsupported",
    ),
    ("PPO training of the PaSa crawler ran for 250 total steps [He et al., 2025].", "verified"),
    ("PPO training of the PaSa crawler ran for 50 total steps [He et al., 2025].", "unsupported"),
    ("As a selector, GPT-4o reached a precision of 0.96 [He et al., 2025].", "verified"),
    # the value of another column: 0.69 is GPT-4o's recall
    ("As a selector, GPT-4o reached a precision of 0.69 [He et al., 2025].", "unsupported"),
]


@pytest.mark.parametrize(("claim", "expected"), TABLE_CLAIMS)
def test_claims_about_table_cells(claim: str, expected: str, claims_library: Library) -> None:
    (c,) = check_text(claims_library, claim).citations
    assert c.status == expected, c.reason


def test_a_wrong_cell_is_named_in_the_explanation(claims_library: Library) -> None:
    claim = (
        "MapReduce jobs run in August 2004 took 734 seconds on average to complete "
        "[Dean and Ghemawat, 2004]."
    )
    (c,) = check_text(claims_library, claim).citations
    assert c.status == "unsupported"
    assert c.reason.startswith("the paper says 634 secs, not 734 seconds"), c.reason


def test_the_offline_answerer_quotes_a_table_row(claims_library: Library) -> None:
    answer = ask(
        claims_library,
        "What was the average completion time of a MapReduce job at Google in August 2004?",
    )
    assert answer.mode == "answer"
    assert answer.answer.startswith(
        "Table 1: MapReduce jobs run in August 2004 - Average job completion time 634 secs "
        "[Dean and Ghemawat, 2004]."
    )
    assert all(c.status == "verified" for c in answer.citations)


def test_table_rows_do_not_crowd_out_a_sentence_that_answers(claims_library: Library) -> None:
    answer = ask(claims_library, "How many ACE2005 articles are used for training in SemEAGAT?")
    assert not answer.answer.startswith("Table"), answer.answer


def test_corpus_tables_are_read(corpus: Path) -> None:
    with pymupdf.open(corpus / "pasa.pdf") as doc:
        found = [t for page in doc for t in tables(page.get_text()) if t.named]
    selector = next(t for t in found if t.caption == "Table 7: Selector Evaluation.")
    gpt = selector.rows[0]
    assert (gpt.label, gpt.cells, gpt.heads) == (
        "GPT-4o",
        ("0.96", "0.69", "0.80"),
        ("Precision", "Recall", "F1"),
    )
