"""render.py: the pure HTML of chips, answers, legend and references; escaping first."""

from __future__ import annotations

import re

import pytest

from research_assistant.models import Name, Paper
from research_assistant.results import (
    STATUSES,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Citation,
    Evidence,
    Mention,
    Reference,
)
from research_assistant.web import render

EVIL = '<script>alert("x")</script>'
PAPER = Paper(
    key="smith2020",
    title='Growth <b>of</b> "fractals"',
    authors=(Name("Smith", "Jane"),),
    year=2020,
    label="Smith, 2020",
)


def cite(
    text: str,
    marker: str,
    status: str = VERIFIED,
    key: str | None = "smith2020",
    evidence: str = "clusters grow as fractals",
    first_author: str = "Smith",
    year: str = "2020",
) -> Citation:
    start = text.index(marker)
    return Citation(
        mention=Mention(marker, start, start + len(marker), first_author, year=year),
        status=status,
        paper_key=key,
        claim="Clusters are fractals.",
        evidence=Evidence("c1", 3, evidence) if evidence else None,
        reason=f"{status} because",
    )


def test_every_status_has_a_distinct_colour_and_symbol() -> None:
    assert set(render.STATUS_COLOURS) == set(STATUSES) == set(render.STATUS_HELP)
    assert len({fg for fg, _ in render.STATUS_COLOURS.values()}) == len(STATUSES)
    assert len({render.status_symbol(s) for s in STATUSES}) == len(STATUSES)


def test_legend_lists_every_verdict() -> None:
    legend = render.legend_html()
    for status in STATUSES:
        assert f"ra-chip ra-{status}" in legend
        assert render.status_label(status) in legend


def test_answer_replaces_each_marker_with_its_chip() -> None:
    text = "Clusters are fractals [Smith, 2020]. The Moon is cheese [Doe, 1999]."
    cites = [
        cite(text, "[Smith, 2020]"),
        cite(text, "[Doe, 1999]", UNKNOWN_SOURCE, key=None, evidence=""),
    ]
    out = render.answer_html(text, cites, {"smith2020": PAPER})
    assert out.startswith("<div") and out.endswith("</div>")
    assert "\n\n" not in out  # one raw HTML block for Markdown
    assert out.count("ra-chip") == 2
    assert re.search(r'ra-verified"[^>]*title="[^"]*p\. 3: “clusters grow as fractals”', out)
    assert "ra-unknown_source" in out
    assert out.index("Clusters are fractals") < out.index("ra-verified") < out.index("Moon")
    assert "[Smith, 2020]" in out and out.count("[Smith, 2020]") == 1


def test_one_bracket_naming_several_works_gets_one_chip_per_work() -> None:
    text = "Both grow [Smith, 2020; Doe, 1999]."
    marker = "[Smith, 2020; Doe, 1999]"
    cites = [
        cite(text, marker),
        cite(text, marker, UNKNOWN_SOURCE, key=None, first_author="Doe", year="1999"),
    ]
    out = render.answer_html(text, cites, {"smith2020": PAPER})
    assert "Smith, 2020</span>; " in out and "Doe, 1999</span>]" in out
    assert out.count("ra-chip") == 2


def test_offsets_that_do_not_match_the_text_fall_back_to_a_search() -> None:
    text = "Clusters are fractals [Smith, 2020]."
    shifted = Citation(
        mention=Mention("[Smith, 2020]", 0, 13, "Smith", year="2020"), status=VERIFIED
    )
    lost = Citation(mention=Mention("[Gone, 2001]", 0, 12, "Gone", year="2001"), status=UNSUPPORTED)
    out = render.answer_html(text, [shifted, lost])
    assert "Clusters are fractals <span" in out
    assert "Other citations:" in out and "Gone, 2001" in out


@pytest.mark.parametrize("field", ["text", "marker", "title", "evidence", "reference", "doi"])
def test_untrusted_strings_are_escaped(field: str) -> None:
    text = f"Claim {EVIL} here [Smith, 2020]." if field == "text" else "Claim [Smith, 2020]."
    marker = "[Smith, 2020]"
    if field == "marker":
        text = f"Claim [{EVIL}, 2020]."
        marker = f"[{EVIL}, 2020]"
    paper = Paper(key="smith2020", title=EVIL if field == "title" else "T", label="Smith, 2020")
    c = cite(text, marker, evidence=EVIL if field == "evidence" else "quote")
    ref = Reference(
        key="smith2020",
        label="Smith, 2020",
        text=EVIL if field == "reference" else "Smith (2020).",
        doi='10.1/x"><script>alert(1)</script>' if field == "doi" else "",
        statuses=(VERIFIED,),
        pages=(3,),
    )
    out = render.answer_html(text, [c], {"smith2020": paper}) + render.references_html([ref])
    assert "<script" not in out
    assert "&lt;script&gt;" in out or "%3Cscript%3E" in out


def test_tooltip_quotes_and_line_breaks_stay_inside_the_attribute() -> None:
    c = cite("A [Smith, 2020].", "[Smith, 2020]", evidence='He said "no"\nthen <left>')
    chip = render.citation_chip(c, PAPER)
    title = re.search(r'title="([^"]*)"', chip)
    assert title is not None
    assert "&quot;no&quot;" in title.group(1) and "&lt;left&gt;" in title.group(1)
    assert "&#10;" in title.group(1)  # title, page and quote on their own lines


def test_tooltip_names_verdict_title_page_and_quote() -> None:
    c = cite("A [Smith, 2020].", "[Smith, 2020]", evidence="x " * 400)
    tip = render.tooltip(c, PAPER).splitlines()
    assert tip[0].startswith("✅ verified")
    assert tip[1] == 'Growth <b>of</b> "fractals" (Smith, 2020)'  # plain text: escaped later
    assert tip[2].startswith("p. 3: “") and len(tip[2]) <= render.QUOTE_CHARS + 10


def test_references_link_only_doi_org_and_show_verdicts() -> None:
    ref = Reference(
        key="smith2020",
        label="Smith, 2020",
        text="Smith, J. (2020). Growth.",
        doi="10.1000/abc(1)",
        statuses=(VERIFIED, UNSUPPORTED),
        pages=(3, 4),
    )
    out = render.references_html([ref])
    assert 'href="https://doi.org/10.1000/abc(1)"' in out
    assert "ra-verified" in out and "ra-unsupported" in out
    assert "evidence p. 3, 4" in out
    assert render.references_html([]) == ""


def test_summary_counts_in_status_order() -> None:
    text = "A [Smith, 2020]. B [Smith, 2020b]. C [Doe, 1999]."
    cites = [
        cite(text, "[Doe, 1999]", UNKNOWN_SOURCE),
        cite(text, "[Smith, 2020]"),
        cite(text, "[Smith, 2020b]"),
    ]
    assert render.summary_text(cites) == "2 ✅ verified · 1 ❓ unknown source"
    assert render.summary_text([]) == ""


def test_paragraphs_survive_without_blank_lines() -> None:
    out = render.answer_html("First.\n\nSecond\nline.", [])
    assert "First.<br><br>Second<br>line." in out


@pytest.mark.parametrize(
    ("text", "inert"),
    [
        ("Smith_2020 [x](y)", "Smith\\_2020 \\[x\\]\\(y\\)"),
        (":red[alarm] $E=mc^2$", "\\:red\\[alarm\\] \\$E=mc^2\\$"),
        ("a\n\n  b", "a b"),
    ],
)
def test_md_makes_text_inert_for_widget_labels(text: str, inert: str) -> None:
    assert render.md(text) == inert
    assert render.md("one\ntwo_", lines=True) == "one  \ntwo\\_"


def test_the_evidence_of_a_citation_is_escaped_and_complete() -> None:
    c = cite(f"A {EVIL} [Smith, 2020].", "[Smith, 2020]", evidence=EVIL)
    c = Citation(**{**c.__dict__, "candidates": ("x1", "x2"), "via": "host2019", "claim": EVIL})
    out = render.evidence_html(c, PAPER, lambda key: f"<{key}>")
    assert "<script" not in out and "<b>of</b>" not in out and "<x1>" not in out
    assert "Could be: &lt;x1&gt;; &lt;x2&gt;" in out
    assert "Second-hand: cited near the evidence in &lt;host2019&gt;" in out
    assert "Evidence, page 3" in out and "Claim" in out and out.startswith("<div>")
    assert "\n\n" not in out  # one raw HTML block for Markdown
    assert "Evidence, page" not in render.evidence_html(
        cite("A [Smith, 2020].", "[Smith, 2020]", evidence=""), None, str
    )
    assert render.evidence_label(2, c) == "2 ✅ \\[Smith, 2020\\] p. 3"


def test_a_flagged_row_is_escaped() -> None:
    row = {"status": UNSUPPORTED, "marker": EVIL, "claim": EVIL, "evidence": EVIL,
           "page": 4, "score": 0.42}  # fmt: skip
    out = render.flagged_html(row, PAPER)
    assert "<script" not in out and "<b>of</b>" not in out
    assert "Closest evidence, page 4</strong> (score 0.42)" in out
    assert "Closest evidence" not in render.flagged_html({**row, "evidence": ""}, None)
