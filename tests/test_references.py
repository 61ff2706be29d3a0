"""references.py: APA-like reference lists and the Markdown / HTML / BibTeX exports."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from research_assistant.bib.write import to_bibtex
from research_assistant.models import Name, Paper
from research_assistant.report.references import (
    STATUS_STYLE,
    build_references,
    format_reference,
    to_html,
    to_markdown,
)
from research_assistant.results import (
    AMBIGUOUS,
    MALFORMED,
    NOT_RETRIEVED,
    STATUSES,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Citation,
    Evidence,
    Mention,
)

SMITH_A = Paper(
    "smithA2020",
    "Deep {Learning} for cells",
    (Name("Smith", "John Paul"), Name("Jones", "Anna B."), Name("Lee", "C.")),
    2020,
    "Smith et al., 2020a",
    venue="Nature Methods",
    doi="10.1000/xyz(1)",
    fields=(("volume", "17"), ("number", "3"), ("pages", "1-9")),
)
BERG = Paper(
    "berg2019", "Particles", (Name("Berg", "Anna", von="van der"),), 2019, "van der Berg, 2019"
)
WHO = Paper(
    "who2021",
    "Guidance",
    (Name("World Health Organization", corporate=True),),
    2021,
    "World Health Organization, 2021",
    url="https://who.int/x",
)
ADAMS = Paper(
    "adams2001",
    "Towels",
    (Name("Adams", "Douglas"), Name("Jean-Luc", "Jean-Paul")),
    2001,
    "Adams and Jean-Luc, 2001",
    entry_type="book",
)
PAPERS = {p.key: p for p in (SMITH_A, BERG, WHO, ADAMS)}


@pytest.mark.parametrize(
    ("paper", "expected"),
    [
        (
            SMITH_A,
            "Smith, J. P., Jones, A. B., & Lee, C. (2020a). Deep Learning for cells. "
            "Nature Methods, 17(3), 1-9. https://doi.org/10.1000/xyz(1)",
        ),
        (BERG, "van der Berg, A. (2019). Particles."),
        (WHO, "World Health Organization. (2021). Guidance. https://who.int/x"),
        (ADAMS, "Adams, D., & Jean-Luc, J.-P. (2001). Towels."),
        (Paper("t", "No authors here", (), None), "No authors here. (n.d.)."),
    ],
)
def test_format_reference(paper: Paper, expected: str) -> None:
    assert format_reference(paper) == expected


def test_more_than_twenty_authors_are_elided_apa_style() -> None:
    names = tuple(Name(f"Author{i:02d}", "X") for i in range(25))
    text = format_reference(Paper("big", "Big", names, 2022, "Author00 et al., 2022"))
    assert "Author18, X., ... Author24, X. (2022)" in text and "Author19" not in text


def cite(
    key: str | None,
    status: str,
    start: int,
    marker: str = "[m]",
    page: int = 0,
    claim: str = "a claim",
    evidence: str = "the quote",
) -> Citation:
    m = Mention(marker, start, start + len(marker), "Smith", year="2020")
    ev = Evidence(f"{key}:{page}:0", page, evidence) if page else None
    return Citation(m, status, key, claim=claim, evidence=ev, reason=f"because {status}")


def test_build_references_sorts_and_collects_verdicts() -> None:
    cs = [
        cite("who2021", VERIFIED, 0, page=2),
        cite("smithA2020", UNSUPPORTED, 10, page=4),
        cite(None, UNKNOWN_SOURCE, 20),
        cite("smithA2020", VERIFIED, 30, page=4),
        cite("berg2019", NOT_RETRIEVED, 40),
        cite("adams2001", VERIFIED, 50, page=7),
        cite("missing", VERIFIED, 60, page=1),
    ]
    refs = build_references(cs, PAPERS)
    # sorted by family name without particles: Adams, Berg (van der), Smith, World...
    assert [r.key for r in refs] == ["adams2001", "berg2019", "smithA2020", "who2021"]
    smith = refs[2]
    assert smith.statuses == (UNSUPPORTED, VERIFIED) and smith.pages == (4,)
    assert smith.doi == "10.1000/xyz(1)" and smith.label == "Smith et al., 2020a"
    assert refs[1].statuses == (NOT_RETRIEVED,) and refs[1].pages == ()


def test_status_style_is_complete_and_distinct() -> None:
    assert set(STATUS_STYLE) == set(STATUSES)
    symbols = [s for s, _ in STATUS_STYLE.values()]
    assert len(set(symbols)) == len(symbols)


TEXT = "Cells divide [Smith et al., 2020a]. Heights vary [Smith, 1999; van der Berg, 2019]. End."


def text_citations() -> list[Citation]:
    a = TEXT.index("[Smith et al.")
    b = TEXT.index("[Smith, 1999")
    mb = TEXT[b : TEXT.index("]", b) + 1]
    return [
        cite("smithA2020", VERIFIED, a, "[Smith et al., 2020a]", 3, "Cells divide."),
        cite(None, UNKNOWN_SOURCE, b, mb, claim="Heights vary."),
        cite("berg2019", UNSUPPORTED, b, mb, 5, "Heights vary.", "Heights are constant."),
    ]


def test_markdown_marks_every_citation() -> None:
    cs = text_citations()
    md = to_markdown(TEXT, cs, build_references(cs, PAPERS), title="Summary")
    assert md.startswith("# Summary\n")
    assert "[Smith et al., 2020a] ✅." in md
    assert "[Smith, 1999; van der Berg, 2019] ❓ unknown source ⚠ unsupported." in md
    refs = md.split("## References")[1].split("## Verification appendix")[0]
    assert "van der Berg, A. (2019). Particles. — ⚠ (p. 5)" in refs
    appendix = md.split("## Verification appendix")[1]
    assert appendix.count("\n1. ") + appendix.count("\n2. ") + appendix.count("\n3. ") == 3
    assert "**unknown source**" in appendix and "**unsupported**" in appendix
    assert "evidence (p. 5): > Heights are constant." in appendix


def test_markdown_with_no_citations() -> None:
    md = to_markdown("Plain text.", [], [])
    assert "Plain text." in md and "No library paper was cited" in md


HOSTILE = '<script>alert("x")</script>'


def test_html_escapes_everything_untrusted() -> None:
    evil = Paper(
        "evil",
        f"Title {HOSTILE}",
        (Name(f"Eve{HOSTILE}", "E."),),
        2020,
        f"Eve{HOSTILE}, 2020",
        venue=HOSTILE,
        doi='10.1/"><script>x</script>',
        url="javascript:alert(1)",
    )
    m = Mention(f"[Eve{HOSTILE}, 2020]", 0, 10, "Eve", year="2020")
    c = Citation(
        m,
        UNSUPPORTED,
        "evil",
        claim=f"claim {HOSTILE}",
        evidence=Evidence("evil:1:0", 1, f"quote {HOSTILE}"),
        reason=HOSTILE,
    )
    text = f"{HOSTILE} body"
    page = to_html(text, [c], build_references([c], {"evil": evil}), title=HOSTILE)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page.lower()
    hrefs = re.findall(r'href="([^"]*)"', page)
    assert hrefs and all(h.startswith("https://doi.org/10.1/%22%3E%3Cscript") for h in hrefs)
    assert "&lt;script&gt;" in page


def test_html_chips_legend_and_doi_link() -> None:
    cs = text_citations()
    page = to_html(TEXT, cs, build_references(cs, PAPERS))
    for status in (VERIFIED, UNSUPPORTED, UNKNOWN_SOURCE, AMBIGUOUS, MALFORMED, NOT_RETRIEVED):
        assert f'class="chip {status}"' in page  # the legend shows every verdict
    body = page.split('<div class="text">')[1].split("</div>")[0]
    assert body.count('class="chip') == 3  # no citation is dropped from the text
    assert '<a href="https://doi.org/10.1000/xyz(1)">' in page


def test_bibtex_of_cited_papers_leaves_out_local_fields() -> None:
    local = replace(SMITH_A, files=("/home/me/smith.pdf",), fields=(*SMITH_A.fields, ("file", "x")))
    shared = to_bibtex([local, WHO], local=False)
    assert shared.startswith("@article{smithA2020,") and "who2021" in shared
    assert "author = {Smith, John Paul and Jones, Anna B. and Lee, C.}" in shared
    assert "author = {{World Health Organization}}" in shared
    assert "doi = {10.1000/xyz(1)}" in shared
    assert "file" not in shared and "smith.pdf" not in shared
    assert "file = {/home/me/smith.pdf}" in to_bibtex([local])  # library.bib keeps it
