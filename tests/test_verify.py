"""verify.py: resolving mentions, scoring support, statuses, second-hand citations, and the
labelled verification set built from the real corpus (tests/data/verification.jsonl)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research_assistant import Library
from research_assistant.check import verify
from research_assistant.check.resolve import Resolver
from research_assistant.check.support import best_support
from research_assistant.check.verify import SUPPORT_THRESHOLD, check_citations, check_claim
from research_assistant.models import Chunk, Name, Paper, Passage
from research_assistant.results import (
    AMBIGUOUS,
    MALFORMED,
    NOT_RETRIEVED,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Citation,
    Mention,
)

sys.path.insert(0, str(Path(__file__).parent / "data"))
import labelled_set

PAPERS = [
    Paper("smithA2020", "Alpha", (Name("Smith", "John"),), 2020, "Smith, 2020a"),
    Paper("smithB2020", "Beta", (Name("Smith", "Jane"),), 2020, "Smith, 2020b"),
    Paper("berg2019", "Gamma", (Name("Berg", "Anna", von="van der"),), 2019, "van der Berg, 2019"),
    Paper("oneil2018", "Delta", (Name("O'Neil", "Cathy"),), 2018, "O'Neil, 2018"),
    Paper("garcia2017", "Eps", (Name("García-López", "Ana"),), 2017, "García-López, 2017"),
    Paper("schr2015", "Zeta", (Name("Schrödinger", "E."),), 2015, "Schrödinger, 2015"),
    Paper(
        "neumann2008",
        "Eta",
        (Name("Neumann", "G."), Name("Wang", "R.")),
        2008,
        "Neumann and Wang, 2008",
    ),
    Paper(
        "who2021",
        "Theta",
        (Name("World Health Organization", corporate=True),),
        2021,
        "World Health Organization, 2021",
    ),
    Paper(
        "leePark2019", "Iota", (Name("Lee", "A."), Name("Park", "B.")), 2019, "Lee and Park, 2019"
    ),
    Paper("leeKim2019", "Kappa", (Name("Lee", "C."), Name("Kim", "D.")), 2019, "Lee and Kim, 2019"),
    Paper("jonesSolo2010", "Lambda", (Name("Jones", "E."),), 2010, "Jones, 2010"),
    Paper(
        "jonesMany2010",
        "Mu",
        (Name("Jones", "F."), Name("Brown", "G."), Name("White", "H.")),
        2010,
        "Jones et al., 2010",
    ),
    Paper("gennes1979", "Nu", (Name("De Gennes", "P.-G."),), 1979, "De Gennes, 1979"),
    Paper(
        "thomason2018",
        "Xi",
        (Name("Thomason", "K."), Name("Babar", "M."), Name("E", "J.")),
        2018,
        "Thomason et al., 2018",
    ),
    Paper(
        "rodriguez2009",
        "Omicron",
        (Name("Rodriguez Montoya", "I."), Name("Matos Chassin", "T.")),
        2009,
        "Rodriguez Montoya and Matos Chassin, 2009",
    ),
]


def mention(first: str, year: str | None, second: str = "", et_al: bool = False, **kw) -> Mention:
    marker = kw.pop("marker", f"[{first}, {year}]")
    return Mention(
        marker, kw.pop("start", 0), kw.pop("end", len(marker)), first, second, et_al, year, **kw
    )


@pytest.mark.parametrize(
    ("first", "year", "second", "et_al", "expected"),
    [
        ("Smith", "2020a", "", False, ("smithA2020",)),
        ("Smith", "2020b", "", False, ("smithB2020",)),
        ("smith", "2020B", "", False, ("smithB2020",)),
        ("Smith", "2020", "", False, ("smithA2020", "smithB2020")),  # ambiguous without suffix
        ("Smith", "2020c", "", False, ()),
        ("Smith", "2021", "", False, ()),
        ("van der Berg", "2019", "", False, ("berg2019",)),
        ("Van der Berg", "2019", "", False, ("berg2019",)),
        ("Berg", "2019", "", False, ("berg2019",)),
        ("O'Neil", "2018", "", False, ("oneil2018",)),
        ("O\u2019Neil", "2018", "", False, ("oneil2018",)),
        ("ONeil", "2018", "", False, ("oneil2018",)),
        ("Garcia-Lopez", "2017", "", False, ("garcia2017",)),
        ("García López", "2017", "", False, ("garcia2017",)),
        ("Schroedinger", "2015", "", False, ("schr2015",)),  # transliteration
        ("Schrodinger", "2015", "", False, ("schr2015",)),
        ("Neuman", "2008", "", False, ("neumann2008",)),  # typo
        ("Neumann", "2008", "Wang", False, ("neumann2008",)),
        ("Neumann", "2008", "Smith", False, ()),  # a different two-author work
        ("World Health Organization", "2021", "", False, ("who2021",)),
        ("world health organisation", "2021", "", False, ("who2021",)),  # fuzzy, corporate
        ("Lee", "2019", "Park", False, ("leePark2019",)),
        ("Lee", "2019", "Kim", False, ("leeKim2019",)),
        ("Lee", "2019", "", False, ("leeKim2019", "leePark2019")),
        ("Jones", "2010", "", True, ("jonesMany2010",)),  # et al. breaks the tie
        ("Jones", "2010", "", False, ("jonesSolo2010",)),
        ("de Gennes", "1979", "", False, ("gennes1979",)),
        ("Gennes", "1979", "", False, ("gennes1979",)),
        ("Thomason", "2018", "", True, ("thomason2018",)),
        ("Thomas", "2018", "", False, ()),  # a different real name, not a typo
        ("Thoma", "2018", "", False, ()),
        ("Rodríguez-Montoya", "2009", "Matos Chassin", False, ("rodriguez2009",)),
        ("Rodriguez", "2009", "", False, ("rodriguez2009",)),
        ("Nobody", "2020", "", False, ()),
    ],
)
def test_resolver(first: str, year: str, second: str, et_al: bool, expected: tuple) -> None:
    assert Resolver(PAPERS).resolve(mention(first, year, second, et_al)) == expected


# Name pairs that chose NAME_MATCH_THRESHOLD: (written, library, same person?)
NAME_PAIRS = [
    ("neuman", "neumann", True),
    ("muller", "mueller", True),
    ("schroedinger", "schrodinger", True),
    ("ghemawatt", "ghemawat", True),
    ("stokum", "stokkum", True),
    ("raskhodnikowa", "raskhodnikova", True),
    ("chasin", "chassin", True),
    ("thomas", "thoma", False),
    ("gall", "gal", False),
    ("chang", "zhang", False),
    ("wong", "wang", False),
    ("smyth", "smith", False),
    ("deane", "dean", False),
    ("jaini", "jain", False),
]


@pytest.mark.parametrize(("written", "library", "same"), NAME_PAIRS)
def test_name_threshold_separates_the_labelled_pairs(
    written: str, library: str, same: bool
) -> None:
    """The Resolver (folding, particles, NAME_MATCH_THRESHOLD) finds the library's author from
    the name as written exactly when the pair is one person: as first and as second author."""
    first = Paper("k1", "T", (Name(library.title(), "A."),), 2000, f"{library.title()}, 2000")
    second = Paper(
        "k2",
        "U",
        (Name("Okafor", "B."), Name(library.title(), "A.")),
        2001,
        f"Okafor and {library.title()}, 2001",
    )
    resolver = Resolver([first, second])
    assert resolver.resolve(mention(written.title(), "2000")) == (("k1",) if same else ())
    as_second = mention("Okafor", "2001", second=written.title())
    assert resolver.resolve(as_second) == (("k2",) if same else ())


def chunk(key: str, page: int, text: str, i: int = 0) -> Chunk:
    return Chunk(f"{key}:{page}:{i}", key, page, 0, len(text), text)


def check_jones(claim: str, *pages: tuple[int, str]) -> Citation:
    """``claim`` cited as [Jones, 2010] and checked against that paper's (page, text) chunks."""
    key = "jonesSolo2010"
    chunks = {key: [chunk(key, page, text, i) for i, (page, text) in enumerate(pages)]}
    return check_claim(mention("Jones", "2010"), claim, Resolver(PAPERS), chunks.get)


HEIGHT = chunk(
    "smithA2020",
    5,
    "We recruited 412 adults. The mean height of the participants was 1.78 m, measured in the "
    "morning. Response latency was 10 ms on average.",
)


def test_changed_number_is_not_supported() -> None:
    good = best_support("The mean height of the participants was 1.78 m.", [HEIGHT])
    bad = best_support("The mean height of the participants was 1.71 m.", [HEIGHT])
    assert good.score >= SUPPORT_THRESHOLD
    assert good.span == "The mean height of the participants was 1.78 m, measured in the morning."
    assert bad.conflict == "number"  # a contradiction, whatever the score
    assert [q.text for q in bad.missing] == ["1.71 m"]
    assert [q.text for q in bad.counterparts if q] == ["1.78 m"]
    assert bad.chunk is HEIGHT  # the nearest text is still shown


def test_changed_unit_is_not_supported() -> None:
    same = best_support("Response latency was 10 ms on average.", [HEIGHT])
    assert same.score >= SUPPORT_THRESHOLD and not same.conflict
    assert best_support("Response latency was 10 s on average.", [HEIGHT]).conflict == "number"


def test_span_is_verbatim_and_handles_pdf_hyphenation() -> None:
    text = "Intro text here.\nPrograms are automati-\ncally parallel-\nized on a large clus-\nter."
    sup = best_support(
        "Programs are automatically parallelized on a large cluster", [chunk("k", 1, text)]
    )
    assert sup.score >= SUPPORT_THRESHOLD
    assert sup.span in text and sup.span.startswith("Programs")


def test_no_overlap_and_empty_inputs() -> None:
    assert best_support("Quantum chromodynamics of gluons", [HEIGHT]).chunk is None
    assert best_support("", [HEIGHT]).score == 0.0
    assert best_support("anything", []).chunk is None


def test_cache_follows_changed_chunk_text() -> None:
    first = chunk("k", 1, "Bananas are yellow fruit grown in the tropics.")
    assert best_support("Bananas are yellow fruit", [first]).score >= SUPPORT_THRESHOLD
    second = chunk("k", 1, "Apples are red fruit grown in orchards.")
    again = best_support("Bananas are yellow fruit", [second])
    assert again.score < SUPPORT_THRESHOLD or again.conflict


TEXT = "The mean height was 1.71 m [Smith, 2020a]. Nothing else."


def test_statuses_and_reasons() -> None:
    resolver = Resolver(PAPERS)
    chunks = {"smithA2020": [HEIGHT]}
    m = mention("Smith", "2020a", start=27, end=41)
    assert TEXT[m.start : m.end] == m.marker
    (c,) = check_citations(TEXT, [m], resolver, lambda k: chunks.get(k, []))
    assert c.status == UNSUPPORTED and c.paper_key == "smithA2020"
    assert c.claim == "The mean height was 1.71 m."
    assert c.reason == "the paper says 1.78 m, not 1.71 m (p. 5)"
    assert c.evidence is not None and c.evidence.page == 5 and "1.78" in c.evidence.text

    claim = "The mean height of the participants was 1.78 m"
    ok = check_claim(m, claim, resolver, chunks.get)
    assert ok.status == VERIFIED and ok.score >= SUPPORT_THRESHOLD and ok.claim == claim


def test_not_retrieved_and_retrieved_subset() -> None:
    resolver = Resolver(PAPERS)
    other = chunk("smithA2020", 9, "The mean height of the participants was 1.78 m.", 1)
    chunks = {"smithA2020": [HEIGHT, other]}
    m = mention("Smith", "2020a")
    claim = "The mean height of the participants was 1.78 m"
    c = check_claim(m, claim, resolver, chunks.get, retrieved={"x:1:0"})
    assert c.status == NOT_RETRIEVED and c.paper_key == "smithA2020" and "retrieved" in c.reason
    c = check_claim(m, claim, resolver, chunks.get, retrieved={other.chunk_id})
    assert c.status == VERIFIED and c.evidence is not None and c.evidence.page == 9


def test_malformed_unknown_ambiguous() -> None:
    resolver = Resolver(PAPERS)
    ms = [
        mention("Smith", None, malformed="n.d.", marker="[Smith, n.d.]"),
        mention("Nobody", "2020"),
        mention("Smith", "2020"),
        mention("Smith", "1999"),
    ]
    cs = [check_claim(m, "a claim", resolver, lambda k: []) for m in ms]
    assert [c.status for c in cs] == [MALFORMED, UNKNOWN_SOURCE, AMBIGUOUS, UNKNOWN_SOURCE]
    assert cs[2].candidates == ("smithA2020", "smithB2020")
    assert "smithA2020" in cs[2].reason and "a/b suffix" in cs[2].reason
    assert "2020" in cs[3].reason and "1999" in cs[3].reason
    assert all(c.paper_key is None for c in cs)


def test_claims_default_to_the_sentence_without_markers() -> None:
    text = "First sentence here. Heights were 1.78 m [Smith, 2020a; Jones, 2010] in adults. [Lee and Kim, 2019]"
    a = text.index("[Smith")
    b = text.index("]", a) + 1
    c = text.index("[Lee")
    ms = [
        mention("Smith", "2020a", start=a, end=b, marker=text[a:b]),
        mention("Jones", "2010", start=a, end=b, marker=text[a:b]),
        mention("Lee", "2019", "Kim", start=c, end=len(text), marker=text[c:]),
    ]
    cs = check_citations(text, ms, Resolver(PAPERS), lambda k: [])
    assert [x.claim for x in cs] == ["Heights were 1.78 m in adults."] * 3  # a lone marker


def test_second_hand_citation_sets_via() -> None:
    resolver = Resolver(PAPERS)
    citing = chunk(
        "leeKim2019",
        3,
        "Earlier work matters. Fractal aggregates grow by diffusion-limited aggregation of random "
        "walkers, as shown by Witten and Sander (1981). We build on it.",
    )
    unrelated = chunk(
        "jonesSolo2010", 2, "Fractal aggregates grow by diffusion-limited aggregation."
    )

    def search(query: str, k: int) -> list[Passage]:
        return [Passage(unrelated, 2.0), Passage(citing, 1.0)][:k]

    claim = "Fractal aggregates grow by diffusion-limited aggregation of random walkers"
    for first in ("Witten", "witten"):
        c = check_claim(
            mention(first, "1981", "Sander"), claim, resolver, lambda k: [], search=search
        )
        assert c.status == UNKNOWN_SOURCE and c.via == "leeKim2019" and c.paper_key is None
        assert c.reason == "not in your library; cited second-hand by Lee and Kim, 2019 (p. 3)"
        assert c.evidence is not None and c.evidence.chunk_id == citing.chunk_id
    c = check_claim(mention("Witten", "1982"), claim, resolver, lambda k: [], search=search)
    assert c.via is None  # the citing paper names a different year


def test_labelled_verification_set(claims_library: Library) -> None:
    """The development set, through check_text on the ingested corpus (in-sample: it chose
    SUPPORT_THRESHOLD)."""
    rows = labelled_set.load_set()
    groups = {r["group"] for r in rows}
    assert len(rows) >= 60 and groups == {
        "supported",
        "changed_number",
        "wrong_paper",
        "unknown_author",
        "ambiguous",
        "malformed",
    }
    outcomes = labelled_set.run_set(claims_library, rows)
    accuracy = labelled_set.accuracy(outcomes)
    for group, (good, n) in accuracy.items():
        print(f"{group:15} {good}/{n} = {good / n:.0%}")
    assert labelled_set.leaked(outcomes) == []
    good, n = accuracy["supported"]
    assert n >= 25 and good / n >= 0.9
    assert all(accuracy[g][0] == accuracy[g][1] for g in ("ambiguous", "malformed"))


def test_a_strongly_supported_first_part_does_not_carry_an_invented_second() -> None:
    text = (
        "The master runs an internal HTTP server and exports a set of status pages for human "
        "consumption. The status pages show the progress of the computation."
    )
    first = "The master runs an internal HTTP server that exports status pages"
    assert check_jones(first, (7, text)).status == VERIFIED
    both = f"{first}, and users can edit the input files through these pages"
    c = check_jones(both, (7, text))
    assert c.status in ("partial", UNSUPPORTED) and c.status != VERIFIED


def test_a_part_contradicted_only_out_of_its_clause_does_not_sink_the_claim() -> None:
    """Splitting "we show how to compute X and apply it to such functions" leaves a first part
    that "we do not know how to compute X of cluster centers" seems to deny; the claim is the
    paper's sentence word for word, so no part of it is denied."""
    stated = (
        "We show how to compute or approximate the smooth sensitivity and apply our framework "
        "for a variety of such functions."
    )
    other = (
        "In general, we do not know how to compute or approximate smooth sensitivity of cluster "
        "centers."
    )
    assert check_jones(stated.rstrip("."), (2, stated), (9, other)).status == VERIFIED


def test_a_given_name_written_out_still_finds_the_author() -> None:
    """ "Cathy O'Neil and Jane Doe (2018)" is read as two two-word names; the resolver tries the
    last word of a first author it does not know as written."""
    resolver = Resolver(PAPERS)
    assert resolver.resolve(mention("Cathy O'Neil", "2018")) == ("oneil2018",)
    assert resolver.resolve(mention("Cathy Nobody", "2018")) == ()


def test_a_number_in_words_is_not_split_into_parts() -> None:
    """'eight hundred and fifty seconds' is one number, not the parts '... eight hundred' and
    'fifty seconds into the computation' (whose 50 s the paper would contradict)."""
    claim = "All of the writes finish about eight hundred and fifty seconds into the computation."
    assert verify._parts(claim) == [claim.rstrip(".")]
    assert (
        len(verify._parts("The master pings every worker and the workers send results back.")) == 2
    )


def test_a_claim_is_never_split_inside_the_cited_authors_names() -> None:
    """'Dinu and Baroni (2014) held out ...' was split at its 'and': the part 'Baroni held out
    200 phrases per type' was then not found, and a true claim came out partial."""
    claim = "Dinu and Baroni (2014) held out 200 phrases per type and searched among 20K nouns"
    assert verify._parts(claim, ("Dinu", "Baroni")) == [
        "Dinu (2014) held out 200 phrases per type",
        "searched among 20K nouns",
    ]
    assert verify._parts("Chang and colleagues (2023) imagine cards that surface notes", ()) == [
        "Chang (2023) imagine cards that surface notes"
    ]


def test_a_part_denied_only_where_the_claim_denies_it_too_says_nothing() -> None:
    """'X allows one to release the cost of clustering, but not the cluster centers' split
    leaves 'X allows one to release the cost of clustering', which the passage's 'but not
    cluster centers' seems to deny; the whole claim denies the same, so no part is denied."""
    text = (
        "The global sensitivity framework allows one to release the cost of clustering, but not "
        "cluster centers. Smooth sensitivity allows both."
    )
    claim = (
        "The global sensitivity framework allows one to release the cost of clustering, but not "
        "the cluster centers"
    )
    assert check_jones(claim, (2, text)).status == VERIFIED
    flipped = claim.replace("but not the cluster centers", "and the cluster centers as well")
    assert check_jones(flipped, (2, text)).status != VERIFIED


def test_a_year_in_a_name_is_no_number_to_find() -> None:
    """'the German AVE 2008 run' names an event: a passage on that run need not state 2008
    (the explanation was 'the paper says 1, not 2008'), where the paper writes 'AVE 2008'."""
    pages = (
        (1, "This paper describes our participation in AVE 2008."),
        (
            4,
            "In all, we submitted one run for English and one for German. The German run "
            "reached an f-measure of 0.61.",
        ),
    )
    claim = "In AVE 2008, the German run we submitted reached an f-measure of 0.61"
    c = check_jones(claim, *pages)
    assert c.status != UNSUPPORTED and "2008" not in c.reason, c.reason
    changed = claim.replace("0.61", "0.71")
    assert check_jones(changed, *pages).status == UNSUPPORTED


def test_a_denial_the_window_states_in_its_other_sentence() -> None:
    """The claim denies what the window's number sentence denies ('were not augmented
    (88.6%)'), while the sentence before it, sharing most words with the claim, says nothing
    either way: no contradiction."""
    text = (
        "During deployment, CiteSee processed and augmented inline citations in the papers "
        "participants had opened. On average, each paper contained 41.0 inline citations. As "
        "expected, the majority of inline citations were not augmented (88.6%)."
    )
    claim = (
        "On average a fraction of 0.886 of the inline citations in opened papers received no "
        "augmentation from CiteSee"
    )
    c = check_jones(claim, (11, text))
    assert c.conflict != "negation", c.reason
