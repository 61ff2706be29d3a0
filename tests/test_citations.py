"""citations.py: finding author-year mentions, their claims, and stripping markers."""

from __future__ import annotations

import json
import sys
import unicodedata
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research_assistant.check.claims import claim_span, claim_text, strip_markers
from research_assistant.check.mentions import find_mentions
from research_assistant.results import Mention


class W(NamedTuple):
    """An expected work: every Mention field but the offsets (checked against the text)."""

    marker: str
    first: str
    year: str | None
    second: str = ""
    et_al: bool = False
    locator: str = ""
    malformed: str = ""


def got(m: Mention) -> W:
    return W(m.marker, m.first_author, m.year, m.second_author, m.et_al, m.locator, m.malformed)


NBSP = "\u00a0"

CASES: list[tuple[str, list[W]]] = [
    # the plain bracket forms
    ("as shown [Smith, 2020].", [W("[Smith, 2020]", "Smith", "2020")]),
    ("x [Smith et al., 2020].", [W("[Smith et al., 2020]", "Smith", "2020", et_al=True)]),
    ("x [Smith et al, 2020].", [W("[Smith et al, 2020]", "Smith", "2020", et_al=True)]),
    ("x [Smith et al 2020].", [W("[Smith et al 2020]", "Smith", "2020", et_al=True)]),
    ("x [Smith *et al.*, 2020].", [W("[Smith *et al.*, 2020]", "Smith", "2020", et_al=True)]),
    ("x [Smith _et al._, 2020].", [W("[Smith _et al._, 2020]", "Smith", "2020", et_al=True)]),
    ("x [Smith et\nal., 2020].", [W("[Smith et\nal., 2020]", "Smith", "2020", et_al=True)]),
    (
        f"x [Smith{NBSP}et{NBSP}al.,{NBSP}2020].",
        [W(f"[Smith{NBSP}et{NBSP}al.,{NBSP}2020]", "Smith", "2020", et_al=True)],
    ),
    ("x [Smith and Jones, 2020].", [W("[Smith and Jones, 2020]", "Smith", "2020", "Jones")]),
    ("x [Smith & Jones, 2020].", [W("[Smith & Jones, 2020]", "Smith", "2020", "Jones")]),
    (
        "x [Smith, Jones and Lee, 2020].",
        [W("[Smith, Jones and Lee, 2020]", "Smith", "2020", "Jones")],
    ),
    (
        "x [Smith, Jones, & Lee, 2020].",
        [W("[Smith, Jones, & Lee, 2020]", "Smith", "2020", "Jones")],
    ),
    ("x [Smith 2020].", [W("[Smith 2020]", "Smith", "2020")]),
    ("x [Smith,2020].", [W("[Smith,2020]", "Smith", "2020")]),
    ("x [Smith, 2020a].", [W("[Smith, 2020a]", "Smith", "2020a")]),
    ("x [Smith et al., 2019b].", [W("[Smith et al., 2019b]", "Smith", "2019b", et_al=True)]),
    # several works in one bracket, and adjacent brackets
    (
        "x [Smith, 2020; Lee, 2021].",
        [
            W("[Smith, 2020; Lee, 2021]", "Smith", "2020"),
            W("[Smith, 2020; Lee, 2021]", "Lee", "2021"),
        ],
    ),
    (
        "x [Smith et al., 2020;Lee & Kim, 2021; Wu, 2019a]",
        [
            W("[Smith et al., 2020;Lee & Kim, 2021; Wu, 2019a]", "Smith", "2020", et_al=True),
            W("[Smith et al., 2020;Lee & Kim, 2021; Wu, 2019a]", "Lee", "2021", "Kim"),
            W("[Smith et al., 2020;Lee & Kim, 2021; Wu, 2019a]", "Wu", "2019a"),
        ],
    ),
    (
        "x [Smith, 2020][Brown, 2021].",
        [W("[Smith, 2020]", "Smith", "2020"), W("[Brown, 2021]", "Brown", "2021")],
    ),
    (
        "x [Smith, 2020a, b].",
        [W("[Smith, 2020a, b]", "Smith", "2020a"), W("[Smith, 2020a, b]", "Smith", "2020b")],
    ),
    (
        "x [Smith, 2019, 2021].",
        [W("[Smith, 2019, 2021]", "Smith", "2019"), W("[Smith, 2019, 2021]", "Smith", "2021")],
    ),
    # locators
    (
        "x [Smith et al., 2020a, p. 5].",
        [W("[Smith et al., 2020a, p. 5]", "Smith", "2020a", et_al=True, locator="p. 5")],
    ),
    (
        "x [Smith, 2020, pp. 3-4].",
        [W("[Smith, 2020, pp. 3-4]", "Smith", "2020", locator="pp. 3-4")],
    ),
    ("x [Smith, 2020, Eq. 3].", [W("[Smith, 2020, Eq. 3]", "Smith", "2020", locator="Eq. 3")]),
    ("x [Smith, 2020, Fig. 2].", [W("[Smith, 2020, Fig. 2]", "Smith", "2020", locator="Fig. 2")]),
    (
        "x [Smith, 2020, Table 1].",
        [W("[Smith, 2020, Table 1]", "Smith", "2020", locator="Table 1")],
    ),
    (
        "x [Smith, 2020, Sect. 4].",
        [W("[Smith, 2020, Sect. 4]", "Smith", "2020", locator="Sect. 4")],
    ),
    (
        "x [Smith, 2020, chap. 2].",
        [W("[Smith, 2020, chap. 2]", "Smith", "2020", locator="chap. 2")],
    ),
    ("x (Smith, 2020: 45).", [W("(Smith, 2020: 45)", "Smith", "2020", locator="45")]),
    ("x [Smith 2020 p. 7].", [W("[Smith 2020 p. 7]", "Smith", "2020", locator="p. 7")]),
    # particles, compound and non-Latin names
    ("x [van der Berg, 2018].", [W("[van der Berg, 2018]", "van der Berg", "2018")]),
    ("x [de Gennes, 1979].", [W("[de Gennes, 1979]", "de Gennes", "1979")]),
    ("x [O'Neil, 2016].", [W("[O'Neil, 2016]", "O'Neil", "2016")]),
    ("x [O’Neil, 2016].", [W("[O’Neil, 2016]", "O’Neil", "2016")]),
    ("x [García-López, 2015].", [W("[García-López, 2015]", "García-López", "2015")]),
    ("x [Lennard-Jones, 1924].", [W("[Lennard-Jones, 1924]", "Lennard-Jones", "1924")]),
    (
        "x [McDermott et al., 2019].",
        [W("[McDermott et al., 2019]", "McDermott", "2019", et_al=True)],
    ),
    ("x [d'Alembert, 1747].", [W("[d'Alembert, 1747]", "d'Alembert", "1747")]),
    ("x [Le Cun et al., 1998].", [W("[Le Cun et al., 1998]", "Le Cun", "1998", et_al=True)]),
    (
        "x [von Neumann & Morgenstern, 1944].",
        [W("[von Neumann & Morgenstern, 1944]", "von Neumann", "1944", "Morgenstern")],
    ),
    ("x [Ångström, 1862].", [W("[Ångström, 1862]", "Ångström", "1862")]),
    ("x [Иванов и др., 2019].", []),  # a Russian "et al." is not understood: no guess
    ("x [Иванов, 2019].", [W("[Иванов, 2019]", "Иванов", "2019")]),
    ("x [王, 2020].", [W("[王, 2020]", "王", "2020")]),
    ("x [田中 et al., 2018].", [W("[田中 et al., 2018]", "田中", "2018", et_al=True)]),
    ("x [Παπαδόπουλος, 2017].", [W("[Παπαδόπουλος, 2017]", "Παπαδόπουλος", "2017")]),
    # corporate authors
    (
        "x [World Health Organization, 2021].",
        [W("[World Health Organization, 2021]", "World Health Organization", "2021")],
    ),
    ("x [NIRAS A/S, 2019].", [W("[NIRAS A/S, 2019]", "NIRAS A/S", "2019")]),
    (
        "x (Food and Agriculture Organization of the United Nations, 2020).",
        [
            W(
                "(Food and Agriculture Organization of the United Nations, 2020)",
                "Food and Agriculture Organization of the United Nations",
                "2020",
            )
        ],
    ),
    ("x [IPCC, 2021].", [W("[IPCC, 2021]", "IPCC", "2021")]),
    # parenthetical citations
    ("x (Smith, 2020).", [W("(Smith, 2020)", "Smith", "2020")]),
    ("x (Smith 2020).", [W("(Smith 2020)", "Smith", "2020")]),
    (
        "x (Smith et al., 2020; Lee, 2021).",
        [
            W("(Smith et al., 2020; Lee, 2021)", "Smith", "2020", et_al=True),
            W("(Smith et al., 2020; Lee, 2021)", "Lee", "2021"),
        ],
    ),
    ("x (see Smith, 2020).", [W("(see Smith, 2020)", "Smith", "2020")]),
    ("x (See Smith, 2020).", [W("(See Smith, 2020)", "Smith", "2020")]),
    ("x (e.g., Smith, 2020).", [W("(e.g., Smith, 2020)", "Smith", "2020")]),
    ("x (cf. van der Berg, 2018).", [W("(cf. van der Berg, 2018)", "van der Berg", "2018")]),
    (
        "x (see also the review by Smith, 2020).",
        [W("(see also the review by Smith, 2020)", "Smith", "2020")],
    ),
    (
        "x (Smith, 2020, Jones, 2021).",
        [
            W("(Smith, 2020, Jones, 2021)", "Smith", "2020"),
            W("(Smith, 2020, Jones, 2021)", "Jones", "2021"),
        ],
    ),
    ("x (Smith, 2020, for a review).", [W("(Smith, 2020, for a review)", "Smith", "2020")]),
    ("x (Smith, 2020, p. 12).", [W("(Smith, 2020, p. 12)", "Smith", "2020", locator="p. 12")]),
    ("x (WHO, 2021).", [W("(WHO, 2021)", "WHO", "2021")]),
    ("x [Smith, J., 2020].", [W("[Smith, J., 2020]", "Smith", "2020")]),
    (
        "x (Smith, 2020), (Lee, 2021).",
        [W("(Smith, 2020)", "Smith", "2020"), W("(Lee, 2021)", "Lee", "2021")],
    ),
    (
        "x (see, e.g., Smith and Jones 2020)",
        [W("(see, e.g., Smith and Jones 2020)", "Smith", "2020", "Jones")],
    ),
    # narrative citations
    ("Smith et al. [2020] showed it.", [W("Smith et al. [2020]", "Smith", "2020", et_al=True)]),
    ("Smith et al. (2020) showed it.", [W("Smith et al. (2020)", "Smith", "2020", et_al=True)]),
    ("Smith (2020) showed it.", [W("Smith (2020)", "Smith", "2020")]),
    ("as argued by Smith (2020).", [W("Smith (2020)", "Smith", "2020")]),
    ("Smith and Jones (2020) found it.", [W("Smith and Jones (2020)", "Smith", "2020", "Jones")]),
    (
        "then van der Berg et al. (2018a, p. 3) found",
        [
            W(
                "van der Berg et al. (2018a, p. 3)",
                "van der Berg",
                "2018a",
                et_al=True,
                locator="p. 3",
            )
        ],
    ),
    ("Smith *et al.* (2020) showed it.", [W("Smith *et al.* (2020)", "Smith", "2020", et_al=True)]),
    ("Smith's (2020) model", [W("Smith's (2020)", "Smith", "2020")]),
    # malformed: looks like a citation, no usable year or author
    (
        "x [Smith, in press].",
        [W("[Smith, in press]", "Smith", None, malformed="no year (in press)")],
    ),
    ("x [Smith, n.d.].", [W("[Smith, n.d.]", "Smith", None, malformed="no date (n.d.)")]),
    ("x (Smith, n.d.).", [W("(Smith, n.d.)", "Smith", None, malformed="no date (n.d.)")]),
    (
        "x (Smith et al., forthcoming).",
        [
            W(
                "(Smith et al., forthcoming)",
                "Smith",
                None,
                et_al=True,
                malformed="no year (forthcoming)",
            )
        ],
    ),
    ("x [, 2020].", [W("[, 2020]", "", "2020", malformed="no author")]),
    ("x [Smith et al.].", [W("[Smith et al.]", "Smith", None, et_al=True, malformed="no year")]),
    (
        "x [Smith, 2020; Jones].",
        [
            W("[Smith, 2020; Jones]", "Smith", "2020"),
            W("[Smith, 2020; Jones]", "Jones", None, malformed="no year"),
        ],
    ),
    # APA 7 and Chicago author-date forms (tests/data/citation_forms_dev.jsonl has them all)
    (
        "x (Department of Veterans Affairs, n.d., 2017a).",
        [
            W(
                "(Department of Veterans Affairs, n.d., 2017a)",
                "Department of Veterans Affairs",
                None,
                malformed="no date (n.d.)",
            ),
            W(
                "(Department of Veterans Affairs, n.d., 2017a)",
                "Department of Veterans Affairs",
                "2017a",
            ),
        ],
    ),
    (
        "Zhou (n.d., in press) found it.",
        [
            W("Zhou (n.d., in press)", "Zhou", None, malformed="no date (n.d.)"),
            W("Zhou (n.d., in press)", "Zhou", None, malformed="no year (in press)"),
        ],
    ),
    (
        "x (Camus, 1942/2012, p. 3).",
        [W("(Camus, 1942/2012, p. 3)", "Camus", "2012", locator="p. 3")],
    ),
    (
        "x (Hoover [1972] 1984, 76).",
        [W("(Hoover [1972] 1984, 76)", "Hoover", "1984", locator="76")],
    ),
    (
        "x (World Health Organization [WHO], 2020).",
        [W("(World Health Organization [WHO], 2020)", "World Health Organization", "2020")],
    ),
    (
        "National Institute of Mental Health (NIMH, 2003) data.",
        [
            W(
                "National Institute of Mental Health (NIMH, 2003)",
                "National Institute of Mental Health",
                "2003",
            ),
        ],
    ),
    (
        "x (“Understanding Sensory Memory,” 2018).",
        [W("(“Understanding Sensory Memory,” 2018)", "Understanding Sensory Memory", "2018")],
    ),
    (
        "x (A. Smith, 2018; M. J. Smith, 2022).",
        [
            W("(A. Smith, 2018; M. J. Smith, 2022)", "Smith", "2018"),
            W("(A. Smith, 2018; M. J. Smith, 2022)", "Smith", "2022"),
        ],
    ),
    (
        "x (O. Baston, personal communication, October 11, 2017).",
        [W("(O. Baston, personal communication, October 11, 2017)", "Baston", "2017")],
    ),
    (
        "x (Aalto 2000a; b).",
        [W("(Aalto 2000a; b)", "Aalto", "2000a"), W("(Aalto 2000a; b)", "Aalto", "2000b")],
    ),
    (
        "x (Chen et al., 2021; 2023a).",
        [
            W("(Chen et al., 2021; 2023a)", "Chen", "2021", et_al=True),
            W("(Chen et al., 2021; 2023a)", "Chen", "2023a", et_al=True),
        ],
    ),
    (
        "x (Harris, 2009, as cited in Lewis, 2019).",
        [
            W("(Harris, 2009, as cited in Lewis, 2019)", "Harris", "2009"),
            W("(Harris, 2009, as cited in Lewis, 2019)", "Lewis", "2019"),
        ],
    ),
    (
        "Miller (1953, as cited in Agrios, 2005) found it.",
        [
            W("Miller (1953, as cited in Agrios, 2005)", "Miller", "1953"),
            W("Miller (1953, as cited in Agrios, 2005)", "Agrios", "2005"),
        ],
    ),
    ("M. J. Smith (2022) found it.", [W("M. J. Smith (2022)", "Smith", "2022")]),
    (
        "Kapoor, Bloom, Montez, et al. (2017) found it.",
        [W("Kapoor, Bloom, Montez, et al. (2017)", "Kapoor", "2017", "Bloom", et_al=True)],
    ),
    (
        "Jones, Baker, and Smith (1990) found it.",
        [W("Jones, Baker, and Smith (1990)", "Jones", "1990", "Baker")],
    ),
    ("Jones et al.'s (1990) sample", [W("Jones et al.'s (1990)", "Jones", "1990", et_al=True)]),
    ("He et al. (2016) trained it.", [W("He et al. (2016)", "He", "2016", et_al=True)]),
    (
        "Richardson says (2020, 75) that",
        [W("Richardson says (2020, 75)", "Richardson", "2020", locator="75")],
    ),
    (
        "East Carolina University (2020) found it.",
        [W("East Carolina University (2020)", "East Carolina University", "2020")],
    ),
    (
        "- **Goldman Sachs (2023)**: AI could",
        [W("Goldman Sachs (2023)", "Goldman Sachs", "2023")],
    ),
    (
        "Suliman (2018), Gutiérrez (2012), and Medina and Reyes (2019) examined it.",
        [
            W("Suliman (2018)", "Suliman", "2018"),
            W("Gutiérrez (2012)", "Gutiérrez", "2012"),
            W("Medina and Reyes (2019)", "Medina", "2019", "Reyes"),
        ],
    ),
    # an answer's links in parentheses: the whole parenthesis is the marker
    (
        "x ([Smith et al., 2020](https://x.org)).",
        [W("([Smith et al., 2020](https://x.org))", "Smith", "2020", et_al=True)],
    ),
    (
        "x ([Lee, 2021](https://a.org); [Wu, 2019](https://b.org)).",
        [
            W("([Lee, 2021](https://a.org); [Wu, 2019](https://b.org))", "Lee", "2021"),
            W("([Lee, 2021](https://a.org); [Wu, 2019](https://b.org))", "Wu", "2019"),
        ],
    ),
    ("x (GQA, [Ainslie et al., 2023](https://a.org)).", []),  # a link in prose is a link
    ("Einstein (1905) and Bohr (1913) were right.", []),  # lone names beside nothing cited
    ("Hurricane Katrina (2005) devastated it.", []),
    ("The Beatles (1969) released it.", []),
    ("results (n = 2020) here", []),
    # not citations
    ("numbered [1] style", []),
    ("numbered [1-3] style", []),
    ("numbered [12, 14] style", []),
    ("quoted [sic] text", []),
    ("interval [0.5, 1.0] here", []),
    ("a period (2019-2021) here", []),
    ("a period (2019–2021) here", []),
    ("founded (1998) alone", []),
    ("in Berlin (1998) alone", []),
    ("a range [2019-2021] here", []),
    ("a [link to Smith 2020](https://example.org/smith2020) here", []),
    ("a [Smith, 2020](https://example.org) link", []),
    ("a reference [text][ref] link", []),
    ("- [ ] open task 2020", []),
    ("- [x] done task 2020", []),
    ("code `[Smith, 2020]` span", []),
    ("code ``x [Smith, 2020] y`` span", []),
    ("```\n[Smith, 2020]\n(Lee, 2021)\n```\n", []),
    ("`` a ` b `` [Smith, 2020] `", [W("[Smith, 2020]", "Smith", "2020")]),
    ("`a` [Smith, 2020] `b`", [W("[Smith, 2020]", "Smith", "2020")]),
    ("`a\n\n[Smith, 2020] `b`", [W("[Smith, 2020]", "Smith", "2020")]),
    ("~~~python\nf(Smith, 2020)\n~~~", []),
    ("significant (p < 0.05) here", []),
    ("sample (n = 20) here", []),
    ("as plotted (Fig. 2) here", []),
    ("values (see Table 3) here", []),
    ("mail (smith2020@example.org) me", []),
    ("url https://example.org/page_(Smith,_2020) here", []),
    ("happened (In 2019) here", []),
    ("dated (March 2020) here", []),
    ("prose (Smith 2020 showed that) here", []),
    ("editorial [Smith] insert", []),
    ("an image ![Smith, 2020](fig.png) here", []),
    ("a year [2020] alone", []),
    ("the virus (COVID-19, 2020) here", []),
    ("as listed (Table 2, 2020) here", []),
    ("The Treaty of Versailles (1919) ended it", []),
    # a lone name before a past form that does not end in -ed
    ("Thoma (2018) built a benchmark", [W("Thoma (2018)", "Thoma", "2018")]),
    ("Berlin (1998) was a city", []),
    # three authors without the serial comma; a place before a list is no author
    (
        "Wellawatte, Seshadri and White (2022) explain",
        [W("Wellawatte, Seshadri and White (2022)", "Wellawatte", "2022", "Seshadri")],
    ),
    (
        "In Paris, Smith and Jones (2020) found",
        [W("Smith and Jones (2020)", "Smith", "2020", "Jones")],
    ),
    # "and colleagues" is et al. in words; German cue words
    ("by Gal and colleagues (2009), it", [W("Gal and colleagues (2009)", "Gal", "2009", "", True)]),
    ("Laut Thoma (2015) gilt es", [W("Thoma (2015)", "Thoma", "2015")]),
    # two-word names on both sides of "and": compound surnames (or given names written out)
    (
        "Rodriguez Montoya and Matos Chassin (2009) show it",
        [
            W(
                "Rodriguez Montoya and Matos Chassin (2009)",
                "Rodriguez Montoya",
                "2009",
                "Matos Chassin",
            )
        ],
    ),
    ("a disputed period (Kim, 2020-2021) here", []),
    # a lone name before its year, then any verb in the present tense or a perfect: a citation
    # ("as Godfrey (1983) reviews" in the TIMP paper), also after "follow" and "unlike"
    ("Okafor (2017) analyses the corpus.", [W("Okafor (2017)", "Okafor", "2017")]),
    ("Lindqvist (2008) denoises images.", [W("Lindqvist (2008)", "Lindqvist", "2008")]),
    ("Ruiz (2018) has shown that it holds.", [W("Ruiz (2018)", "Ruiz", "2018")]),
    ("We follow Okafor (2017) here.", [W("Okafor (2017)", "Okafor", "2017")]),
    ("as Godfrey (1983) reviews.", [W("Godfrey (1983)", "Godfrey", "1983")]),
    ("We use the loss as in Okafor (2017).", [W("Okafor (2017)", "Okafor", "2017")]),
    ("Building on Okafor (2017), we add one.", [W("Okafor (2017)", "Okafor", "2017")]),
    ("It beats that of Okafor (2017).", [W("Okafor (2017)", "Okafor", "2017")]),
    ("Okafor (2017) has since been replicated.", [W("Okafor (2017)", "Okafor", "2017")]),
    ("Okafor (2017) had already said so.", [W("Okafor (2017)", "Okafor", "2017")]),
    # ... but not a word in -s that is no verb, nor after a place's preposition
    ("Okafor (2017) corpus statistics are given below.", []),
    ("In Berlin (1998) protests erupted.", []),
    ("The Treaty of Versailles (1919) ended it.", []),
    # no bracket at all, as language models write: with "et al." only, and not a reference entry
    (
        "As shown by Okafor et al., 2017, it holds.",
        [W("Okafor et al., 2017", "Okafor", "2017", et_al=True)],
    ),
    ("(as Werner et al. 2002 did)", [W("Werner et al. 2002", "Werner", "2002", et_al=True)]),
    ("Okafor et al. 2011, ApJ, 741, 90", []),
    ("Okafor et al. 2017, AJ, submitted", []),
    ("In Proc. Language Resources and Evaluation, 2006, pp. 4-8.", []),
    ("We met in Berlin (1998) as planned.", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_find_mentions(text: str, expected: list[W]) -> None:
    mentions = find_mentions(text)
    assert [got(m) for m in mentions] == expected
    for m in mentions:
        assert text[m.start : m.end] == m.marker
        if m.year:
            assert m.year_number == int(m.year[:4])
            assert m.year_suffix == m.year[4:]


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 60


def test_mentions_are_in_order_with_offsets_in_the_original_text() -> None:
    text = "First (Lee, 2021) then\n```\n[Code, 2000]\n```\nlast [Smith et al., 2020; Wu, 2019]."
    mentions = find_mentions(text)
    assert [m.first_author for m in mentions] == ["Lee", "Smith", "Wu"]
    assert mentions[1].marker == mentions[2].marker == "[Smith et al., 2020; Wu, 2019]"
    assert mentions[1].start == text.index("[Smith")
    assert [m.start for m in mentions] == sorted(m.start for m in mentions)


def test_nested_parenthesis_and_bracket_yield_one_marker() -> None:
    text = "as reviewed (see [Smith, 2020]) and [see (Lee, 2021)]"
    assert [m.marker for m in find_mentions(text)] == ["[Smith, 2020]", "(Lee, 2021)"]


PARAGRAPH = (
    "Smith et al. showed this (Fig. 2) in 2020 [Smith et al., 2020]. "
    "The effect vanishes at low temperature [Lee, 2021]. "
    "Water boils at 100 C [Brown, 2019], while ice melts at 0 C [Kim & Park, 2018]; "
    "both are textbook facts (see Jones, 2017). No citation here."
)


@pytest.mark.parametrize(
    ("marker", "claim"),
    [
        ("[Smith et al., 2020]", "Smith et al. showed this (Fig. 2) in 2020."),
        ("[Lee, 2021]", "The effect vanishes at low temperature."),
        ("[Brown, 2019]", "Water boils at 100 C"),
        ("[Kim & Park, 2018]", "ice melts at 0 C"),
        ("(see Jones, 2017)", "both are textbook facts"),
    ],
)
def test_claim_text(marker: str, claim: str) -> None:
    mention = next(m for m in find_mentions(PARAGRAPH) if m.marker == marker)
    assert claim_text(PARAGRAPH, mention) == claim
    s, e = claim_span(PARAGRAPH, mention.start, mention.end)
    assert s <= mention.start and mention.end <= e


def test_claim_of_a_marker_that_starts_its_sentence_is_the_sentence_before() -> None:
    text = "Water boils at 100 C. [Smith, 2020] Ice melts at 0 C [Lee, 2021]."
    first, second = find_mentions(text)
    assert claim_text(text, first) == "Water boils at 100 C."
    assert claim_text(text, second) == "Ice melts at 0 C"


def test_adjacent_markers_share_one_claim() -> None:
    text = "Alpha is large [Smith, 2020][Jones, 2019]; beta is small [Lee, 2021]."
    claims = [claim_text(text, m) for m in find_mentions(text)]
    assert claims == ["Alpha is large", "Alpha is large", "beta is small"]


def test_a_leading_marker_claims_the_clause_after_it() -> None:
    text = "As shown by [Smith, 2020], X increases, whereas Y is flat [Lee, 2021]."
    first, second = find_mentions(text)
    assert "X increases" in claim_text(text, first)
    assert claim_text(text, second) == "Y is flat"


def test_narrative_claims_keep_the_names() -> None:
    text = "Smith et al. (2020) showed that X holds, and Lee (2021) found that Y fails."
    first, second = find_mentions(text)
    assert claim_text(text, first) == "Smith et al. showed that X holds"
    assert claim_text(text, second) == "Lee found that Y fails."


def test_claims_stay_in_their_paragraph_and_locators_do_not_split() -> None:
    text = "Intro text.\n\nSee Sect. 4 and Eq. 2 for details [Smith, 2020, Sect. 4].\n\nNext."
    (m,) = find_mentions(text)
    assert claim_text(text, m) == "See Sect. 4 and Eq. 2 for details."


def test_claim_of_a_caller_built_mention_strips_its_marker() -> None:
    text = "Cats purr {Smith 2020}. Dogs bark."
    start = text.index("{")
    m = Mention("{Smith 2020}", start, start + 12, "Smith", year="2020")
    assert claim_text(text, m) == "Cats purr."


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        (
            PARAGRAPH,
            "Smith et al. showed this (Fig. 2) in 2020. The effect vanishes at low "
            "temperature. Water boils at 100 C, while ice melts at 0 C; both are textbook facts. "
            "No citation here.",
        ),
        ("A [Smith, 2020], [Lee, 2021], B.", "A, B."),
        ("[Smith, 2020] starts a line.\n[Lee, 2021] and another.", "starts a line.\nand another."),
        ("Ends a line [Smith, 2020]\nnext", "Ends a line\nnext"),
        ("Smith et al. (2020) showed it.", "Smith et al. showed it."),
        ("Nothing to strip.  Keep  spacing.", "Nothing to strip.  Keep  spacing."),
        ("x (Smith, 2020) ; y", "x; y"),
    ],
)
def test_strip_markers(text: str, stripped: str) -> None:
    assert strip_markers(text) == stripped


def test_strip_markers_uses_the_mentions_given() -> None:
    text = "One [Smith, 2020] two [Lee, 2021]."
    only_lee = [m for m in find_mentions(text) if m.first_author == "Lee"]
    assert strip_markers(text, only_lee) == "One [Smith, 2020] two."
    stale = Mention("[Other, 1999]", 4, 17, "Other", year="1999")  # offsets no longer match
    assert strip_markers(text, [stale]) == text


ALPHABET = st.sampled_from(
    [
        *"[]();,.&*_` \n\u00a0-'’",
        "et al.",
        "and ",
        "p. ",
        "n.d.",
        "in press",
        "see ",
        "Smith",
        "van der",
        "Lee",
        "王",
        "Ωmega",
        "é",
        "2020",
        "2021a",
        "19",
        "5",
        "```\n",
        "\n\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=80).map("".join) | st.text(max_size=200))
def test_random_text_never_crashes_and_offsets_slice(text: str) -> None:
    mentions = find_mentions(text)
    for before, after in pairwise(mentions):
        assert before.start == after.start or before.end <= after.start  # ordered, disjoint
    for m in mentions:
        assert text[m.start : m.end] == m.marker
        assert m.first_author or m.malformed
        s, e = claim_span(text, m.start, m.end)
        assert 0 <= s <= m.start and m.end <= e <= len(text)
        claim_text(text, m)
    strip_markers(text)


REALISTIC = (
    "Deep networks generalise well [Smith et al., 2020a, p. 5]; see also (Lee & Kim, 2021). "
    "Smith et al. (2019) showed that depth helps, whereas van der Berg (2018) disagreed. "
    "Results hold (p < 0.05, n = 20) as in Fig. 2 [World Health Organization, 2021][O’Neil, "
    "2016]. Numbered refs [1-3] and `code [X, 2000]` are ignored.\n\n"
)  # 6 mentions per copy


@pytest.mark.slow
def test_one_megabyte_of_realistic_text() -> None:
    copies = 1_000_000 // len(REALISTIC) + 1
    mentions = find_mentions(REALISTIC * copies)
    assert len(mentions) == 6 * copies
    assert len(strip_markers(REALISTIC * copies)) < len(REALISTIC) * copies


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        "[" * 500_000,
        "(" * 500_000,
        "(a, " * 200_000,
        "[Smith, " * 100_000,
        "(Smith 2020 " * 80_000,
        "`" * 300_000,
        "` `` ``` " * 100_000,
        "]" * 300_000 + ")" * 300_000,
        ("x" * 399 + "]") * 2500,
        "et al. (2020) " * 70_000,
    ],
    ids=[
        "brackets",
        "parens",
        "a-comma",
        "smith-comma",
        "unclosed",
        "ticks",
        "runs",
        "closers",
        "long",
        "etal",
    ],
)
def test_pathological_megabyte_completes(text: str) -> None:
    assert find_mentions(text) == ()


# ---------------------------------------------------------------- author-date forms, scored
# tests/data/citation_forms_dev.jsonl: author-date forms from the APA and Chicago manuals (as
# quoted by library guides), natbib renderings and public language-model outputs, one source URL
# a line; the finder is tuned on it. tests/data/heldout/citation_forms.jsonl was written by
# someone else and is only ever scored, never read for tuning.
# Print the figures: .venv/bin/python -m tests.test_citations [FILE.jsonl ...]

DATA = Path(__file__).parent / "data"
DEV_FORMS = DATA / "citation_forms_dev.jsonl"
HELDOUT_FORMS = DATA / "heldout" / "citation_forms.jsonl"


class Score(NamedTuple):
    precision: float
    recall: float
    matched: int
    found: int
    expected: int


def fold_name(name: str) -> str:
    """Case, accents, apostrophes, hyphens and stray punctuation do not matter."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    kept = "".join(c if c.isalnum() else " " if c.isspace() else "" for c in letters.casefold())
    return " ".join(kept.split())


def _spans(text: str, marker: str) -> list[tuple[int, int]]:
    spans, at = [], text.find(marker)
    while marker and at >= 0:
        spans.append((at, at + len(marker)))
        at = text.find(marker, at + 1)
    return spans


def score_forms(rows: list[dict[str, Any]]) -> Score:
    """Micro precision and recall over the works of every text: a found work counts when an
    expected one of the same text has its folded first author and year and a marker that
    overlaps the found marker's span."""
    matched = found = expected = 0
    for row in rows:
        text = row["text"]
        wanted = [
            (fold_name(e["first_author"]), e["year"], _spans(text, e["marker"]))
            for e in row["expected"]
        ]
        used = [False] * len(wanted)
        mentions = find_mentions(text)
        found += len(mentions)
        expected += len(wanted)
        for m in mentions:
            key = (fold_name(m.first_author), m.year)
            for i, (name, year, spans) in enumerate(wanted):
                overlaps = any(s < m.end and m.start < e for s, e in spans)
                if not used[i] and (name, year) == key and overlaps:
                    used[i] = True
                    matched += 1
                    break
    return Score(
        matched / found if found else 1.0,
        matched / expected if expected else 1.0,
        matched,
        found,
        expected,
    )


def load_forms(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_dev_forms_are_sourced_and_well_formed() -> None:
    rows = load_forms(DEV_FORMS)
    assert len(rows) >= 80
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["style"] in ("apa", "chicago", "llm", "none")
        assert row["source"].startswith("http")
        assert bool(row["expected"]) == (row["style"] != "none")
        for e in row["expected"]:
            assert e["marker"] in row["text"]


def test_the_scorer_matches_author_year_and_marker() -> None:
    rows = [
        {
            "text": "As shown (Müller, 2020) and (Lee, 2019).",
            "expected": [
                {"marker": "(Müller, 2020)", "first_author": "MULLER", "year": "2020"},
                {"marker": "(Lee, 2019)", "first_author": "Lee", "year": "2018"},
            ],
        },
        {"text": "Nothing (p < 0.05) here.", "expected": []},
    ]
    assert score_forms(rows) == Score(0.5, 0.5, 1, 2, 2)


def test_dev_forms_precision_and_recall() -> None:
    score = score_forms(load_forms(DEV_FORMS))
    assert score.recall >= 0.95, score
    assert score.precision >= 0.95, score


def test_heldout_forms_keep_their_measured_floor() -> None:
    """The held-out set was written by someone else before any tuning and was never used for
    tuning: it was scored once, with the finder final, and its figures (119 of 122 found works
    right, 119 of 124 expected works found) are recorded here as a floor, not a target."""
    score = score_forms(load_forms(HELDOUT_FORMS))
    assert score.precision >= 119 / 122, score
    assert score.recall >= 119 / 124, score


def test_second_heldout_forms_keep_their_measured_floor() -> None:
    """heldout/citation_forms_v2.jsonl (CITATION_FORMS_V2.md: narrative citations with any verb,
    and traps), written blind in the tenth session and scored once before and once after that
    session's finder change: 62 of 64 found right and 62 of 90 expected found before, 77 of 80
    and 77 of 90 after. A floor, not a target."""
    score = score_forms(load_forms(HELDOUT_FORMS.with_name("citation_forms_v2.jsonl")))
    assert score.precision >= 77 / 80, score
    assert score.recall >= 77 / 90, score


def test_third_heldout_forms_keep_their_measured_floor() -> None:
    """heldout/citation_forms_v3.jsonl (CITATION_FORMS_V3.md: narrative, parenthetical and LLM
    forms, traps), written blind after the tenth session's two finder changes were made and
    scored once on each side: 86 of 88 found right and 86 of 103 expected found before them,
    87 of 92 and 87 of 103 after. A floor, not a target."""
    score = score_forms(load_forms(HELDOUT_FORMS.with_name("citation_forms_v3.jsonl")))
    assert score.precision >= 87 / 92, score
    assert score.recall >= 87 / 103, score


def test_fourth_heldout_forms_keep_their_measured_floor() -> None:
    """heldout/citation_forms_v4.jsonl (CITATION_FORMS_V4.md: the styles language models write,
    academic prose, reference-list traps), written blind after the tenth session's finder
    changes, scored once on each version: 118 of 119 found right and 118 of 128 found before
    the bracketless form, 122 of 123 and 122 of 128 after. A floor, not a target."""
    score = score_forms(load_forms(HELDOUT_FORMS.with_name("citation_forms_v4.jsonl")))
    assert score.precision >= 122 / 123, score
    assert score.recall >= 122 / 128, score


if __name__ == "__main__":
    for name in sys.argv[1:] or [str(DEV_FORMS)]:
        s = score_forms(load_forms(Path(name)))
        print(
            f"{name}: precision {s.precision:.3f} recall {s.recall:.3f} ({s.matched} matched, {s.found} found, {s.expected} expected)"
        )


def test_a_lone_name_before_a_year_counts_where_the_library_has_the_work() -> None:
    """'In Thoma (2016), ...' and 'Thoma (2015) empfiehlt' carry no sign of a citation the
    finder reads alone ('in Berlin (1998)' is a place); with ``known`` (the resolver, or a
    manuscript's reference list) they count where the work is known."""
    texts = [
        "In Thoma (2016), the name is traced back to a film.",
        "Thoma (2015) empfiehlt eine zehnfache Kreuzvalidierung.",
        "Nach Thoma (2015) kann DYCOS nur ein Label zuweisen.",
    ]
    for text in texts:
        assert find_mentions(text) == ()
        (m,) = find_mentions(text, known=lambda m: m.first_author == "Thoma")
        assert m.marker.startswith("Thoma (")
        assert find_mentions(text, known=lambda m: False) == ()
    assert find_mentions("In Berlin (1998), the wall fell.", known=lambda m: False) == ()
