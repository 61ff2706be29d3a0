"""bibtex.py (and its helper names.py): real .bib exports from ../shared/corpus, edge tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research_assistant.bib.names import decode_latex, parse_name
from research_assistant.bib.parse import (
    BibResult,
    assign_labels,
    base_label,
    generate_key,
    parse_bib_file,
    parse_bibtex,
    parse_file_field,
    parse_names,
)
from research_assistant.bib.write import format_name, format_names, to_bibtex
from research_assistant.errors import BibtexError
from research_assistant.models import Name, Paper

# --- the corpus -------------------------------------------------------------------------------

# Measured, then checked against the files (SOURCES.md and grep):
# - entries == the number of "@type{" / "@type(" lines that are not @string/@comment/@preamble
#   (test_entry_count_matches_the_file checks this independently with a regex).
# - 873-legacy-ai: 988 entries, 14 duplicate keys (SOURCES.md) -> 974 papers. Problems: 14
#   duplicates + 236 entries using undefined @string macros (AIJ, IJCAI-75, ...) + 129 crossrefs
#   to proceedings missing from the file (130 crossref fields; the one to
#   journals/ai/NguyenDGSSK12 resolves) + 105 no year (mostly those crossref children) + 1 no
#   author + 1 entry with its keywords field twice = 486.
# - mendeley: 512 blocks; 21 keys used more than once (SOURCES.md), 25 later copies skipped
#   -> 487 papers; 37 entries written "@article{," get a generated key. 25 + 37 + 6 no year
#   + 5 no author = 73 problems.
# - big-whopping: 1241 entries, all kept; 70 without author or editor, 59 without year.
CORPUS_COUNTS = [
    # file, entries, papers, problems, {kind: count}
    ("library.bib", 19, 19, 0, {}),
    ("bib/jabref-complex.bib", 20, 20, 0, {}),
    ("bib/bbt-import-871-string-macro.bib", 1, 1, 0, {}),
    ("bib/bbt-import-1436-1-betterbibtex.bib", 506, 506, 0, {}),
    (
        "bib/bbt-export-big-whopping-library-biblatex.bib",
        1241,
        1241,
        129,
        {"author": 70, "year": 59},
    ),
    (
        "bib/bbt-import-873-legacy-ai.bib",
        988,
        974,
        486,
        {"duplicate": 14, "macro": 236, "crossref": 129, "year": 105, "author": 1, "field": 1},
    ),
    (
        "bib/bbt-import-mendeley.bib",
        512,
        487,
        73,
        {"duplicate": 25, "nokey": 37, "year": 6, "author": 5},
    ),
]
PROBLEM_KINDS = {
    "duplicate": "key is used again",
    "macro": "@string macros that are not defined",
    "crossref": "crossref '",
    "year": "no year",
    "author": "no author or editor",
    "nokey": "has no citation key",
    "field": "appears twice",
    "failed": "could not be read",
}


def kinds(result: BibResult) -> dict[str, int]:
    counts = {k: sum(pat in p.message for p in result.problems) for k, pat in PROBLEM_KINDS.items()}
    return {k: n for k, n in counts.items() if n}


@pytest.mark.parametrize(("name", "entries", "papers", "problems", "by_kind"), CORPUS_COUNTS)
def test_corpus_file_counts(
    corpus: Path, name: str, entries: int, papers: int, problems: int, by_kind: dict[str, int]
) -> None:
    result = parse_bib_file(corpus / name)
    assert (result.entries, len(result.papers), len(result.problems)) == (
        entries,
        papers,
        problems,
    )
    assert kinds(result) == by_kind
    assert all(p.source == Path(name).name and p.line > 0 for p in result.problems)
    keys = [p.key for p in result.papers]
    assert len(keys) == len(set(keys)) and all(keys)
    assert all(p.label == "" and p.metadata == "bibtex" for p in result.papers)


def test_every_corpus_bib_is_in_the_table(corpus: Path) -> None:
    found = {str(p.relative_to(corpus)) for p in corpus.glob("bib/*.bib")} | {"library.bib"}
    assert found == {row[0] for row in CORPUS_COUNTS}


@pytest.mark.parametrize("name", [row[0] for row in CORPUS_COUNTS])
def test_entry_count_matches_the_file(corpus: Path, name: str) -> None:
    text = (corpus / name).read_text(encoding="utf-8")
    blocks = re.findall(r"(?im)^[ \t]*@(?!string|comment|preamble)\w+[ \t]*[{(]", text)
    assert parse_bibtex(text).entries == len(blocks)


def test_duplicate_keys_are_reported_by_key_and_line(corpus: Path) -> None:
    result = parse_bib_file(corpus / "bib/bbt-import-873-legacy-ai.bib")
    dups = [p for p in result.problems if "used again" in p.message]
    assert len({p.key for p in dups}) == 14
    dean = next(p for p in dups if p.key == "dean85")
    assert dean.line == 5608  # the second @InProceedings{dean85 (the first is at 5601)
    assert "first at line 5601" in dean.message
    assert dean.message.startswith("bbt-import-873-legacy-ai.bib, line 5608, entry 'dean85'")
    kept = next(p for p in result.papers if p.key == "dean85")
    assert kept.entry_type == "techreport"  # the first one wins
    mendeley = parse_bib_file(corpus / "bib/bbt-import-mendeley.bib")
    assert len({p.key for p in mendeley.problems if "used again" in p.message}) == 21


# (key, author index, family, given, von, jr)
LIBRARY_NAMES = [
    ("hePaSaLLMAgent2025", 6, "E", "Weinan", "", ""),
    ("mullenTIMPRPackage2007", 1, "van Stokkum", "Ivo H. M.", "", ""),
    ("rodriguezmontoyaUltraLightBosonic2009", 0, "Rodriguez Montoya", "Ivan", "", ""),
    ("rodriguezmontoyaUltraLightBosonic2009", 1, "Matos Chassin", "Tonatiuh", "", ""),
    ("wangInformationSynthesisAnswer2008", 1, "Neumann", "Günter", "", ""),
    ("thomasonComparativePhysiologicalMetabolomics2018", 1, "Babar", "Md Ali", "", ""),
    ("changCiteSeeAugmentingCitations2023", 0, "Chang", "Joseph Chee", "", ""),
]


@pytest.mark.parametrize(("key", "index", "family", "given_", "von", "jr"), LIBRARY_NAMES)
def test_library_tricky_names(
    corpus: Path, key: str, index: int, family: str, given_: str, von: str, jr: str
) -> None:
    papers = {p.key: p for p in parse_bib_file(corpus / "library.bib").papers}
    assert papers[key].authors[index] == Name(family=family, given=given_, von=von, jr=jr)


def test_library_papers_and_labels(corpus: Path) -> None:
    result = parse_bib_file(corpus / "library.bib")
    papers = assign_labels(result.papers)
    by_key = {p.key: p for p in papers}
    assert len(papers) == 19 and result.problems == ()
    labels = [p.label for p in papers]
    assert len(set(labels)) == 19
    assert {p.label for p in papers if p.first_author == "Thoma"} == {
        "Thoma, 2015",
        "Thoma, 2016",
        "Thoma, 2018",
    }
    assert by_key["mullenTIMPRPackage2007"].label == "Mullen and van Stokkum, 2007"
    assert by_key["galTracebasedJustintimeType2009"].label == "Gal et al., 2009"
    assert len(by_key["galTracebasedJustintimeType2009"].authors) == 16
    thoma = by_key["thomaUberDieKlassifizierung2015"]
    assert thoma.title == "Über die Klassifizierung von Knoten in dynamischen Netzwerken mit Inhalt"
    assert thoma.arxiv_id == "1512.04469" and thoma.doi == "10.48550/arxiv.1512.04469"
    assert thoma.files == ("1512.04469.pdf",) and thoma.source == "library.bib:99"
    assert by_key["shenLayoutParserUnifiedToolkit2021"].files == ("odd/copy-protected.pdf",)
    pasa = by_key["hePaSaLLMAgent2025"]
    assert pasa.title == "PaSa: An LLM Agent for Comprehensive Academic Paper Search"
    assert (pasa.year, pasa.entry_type, pasa.venue) == (2025, "misc", "arXiv")
    assert dict(pasa.fields)["month"] == "January"
    assert "file" not in dict(pasa.fields)
    mapreduce = by_key["deanMapReduceSimplifiedData2004"]
    assert mapreduce.venue == (
        "6th Symposium on Operating Systems Design and Implementation (OSDI 2004)"
    )
    assert by_key["bolejkoApparentAverageAccelerations2008"].doi == "10.1088/1475-7516/2008/10/003"


def test_generated_keys_match_better_bibtex_on_library(corpus: Path) -> None:
    for paper in parse_bib_file(corpus / "library.bib").papers:
        assert generate_key(paper.authors, paper.year, paper.title, set()) == paper.key


def test_corporate_authors_in_double_braces(corpus: Path) -> None:
    path = corpus / "bib/bbt-export-big-whopping-library-biblatex.bib"
    papers = {p.key: p for p in parse_bib_file(path).papers}
    assert papers["FredensborgKommuneUSSERODA"].authors == (
        Name(family="Fredensborg Kommune", corporate=True),
        Name(family="NIRAS A/S", corporate=True),
    )
    assert papers["Velfaerdsministeriet2008HelhedsorienteretByfornyelse"].authors == (
        Name(family="Velfærdsministeriet", corporate=True),
    )
    mixed = papers["Jasanoff1995HandbookScience"].authors
    assert mixed == (
        Name(family="Jasanoff", given="Sheila"),
        Name(family="Society for Social Studies of Science", corporate=True),
    )
    # every `author = {{...` line of the file (181, SOURCES.md) starts with a corporate name
    first_corporate = [p for p in papers.values() if p.authors and p.authors[0].corporate]
    assert len(first_corporate) == path.read_text(encoding="utf-8").count("author = {{") == 181


def test_string_macro_file(corpus: Path) -> None:
    (paper,) = parse_bib_file(corpus / "bib/bbt-import-871-string-macro.bib").papers
    assert paper.key == "McDermott:72"
    assert paper.authors == (
        Name(family="McDermott", given="Drew V."),
        Name(family="Sussman", given="Gerald J."),
    )
    assert (paper.title, paper.year, paper.entry_type) == (
        "The CONNIVER Reference Manual",
        1972,
        "techreport",
    )
    assert paper.venue == "MIT Artificial Intelligence Laboratory"
    assert dict(paper.fields)["month"] == "May"
    assert base_label(paper.authors, paper.year) == "McDermott and Sussman, 1972"


def test_crossref_in_the_corpus_inherits_everything(corpus: Path) -> None:
    result = parse_bib_file(corpus / "bib/bbt-import-873-legacy-ai.bib")
    child = next(p for p in result.papers if p.key == "NguyenETAL:DiversityAIJ")
    assert child.title.startswith("Generating diverse plans to handle unknown")
    assert child.year == 2012 and child.authors[0] == Name(family="Nguyen", given="Tuan Anh")
    assert child.doi == "10.1016/j.artint.2012.05.005"  # from the inherited dx.doi.org URL


def test_jabref_file_names_and_accents(corpus: Path) -> None:
    papers = {p.key: p for p in parse_bib_file(corpus / "bib/jabref-complex.bib").papers}
    complex_names = papers["10250999"].authors
    assert complex_names[0] == Name(family="Hippel", given="Eric", von="von")
    assert complex_names[1] == Name(family="Reagle", given="Joseph M.", jr="Jr.")
    assert complex_names[3] == Name(family="Huevel", given="Johan A", von="van den", jr="Jr.")
    bostrom = papers["1137631"]
    assert bostrom.authors[0] == Name(family="Boström", given="Gustav")
    assert bostrom.authors[-1] == Name(family="Philippe Kruchten", given="Churchill")
    assert bostrom.files == (
        "/Volumes/iDisk/Freie Universität Berlin/Semester 9/Softwareprozesse/p11-bostrom.pdf",
    )
    assert bostrom.doi == "10.1145/1137627.1137631"
    assert papers["deBraga2001"].title.startswith("The postcranial anatomy of Procolophon (")


@pytest.mark.parametrize("name", [row[0] for row in CORPUS_COUNTS])
def test_to_bibtex_round_trip_on_corpus(corpus: Path, name: str) -> None:
    papers = parse_bib_file(corpus / name).papers
    again = parse_bibtex(to_bibtex(papers), "export.bib")
    assert [p.key for p in again.papers] == [p.key for p in papers]
    for before, after in zip(papers, again.papers, strict=True):
        assert (after.title, after.authors, after.year, after.others) == (
            before.title,
            before.authors,
            before.year,
            before.others,
        )
        assert (after.doi, after.arxiv_id, after.files, after.venue) == (
            before.doi,
            before.arxiv_id,
            before.files,
            before.venue,
        )
    assert not kinds(again).keys() - {"year", "author"}  # only what the source lacked


# --- names ------------------------------------------------------------------------------------

NAME_CASES = [
    ("E, Weinan", [Name("E", "Weinan")], False),
    ("{van Stokkum}, Ivo H. M.", [Name("van Stokkum", "Ivo H. M.")], False),
    ("von Hippel, Eric", [Name("Hippel", "Eric", von="von")], False),
    ("Ludwig van Beethoven", [Name("Beethoven", "Ludwig", von="van")], False),
    ("Reagle, Jr., Joseph M.", [Name("Reagle", "Joseph M.", jr="Jr.")], False),
    ("Rodriguez Montoya, Ivan", [Name("Rodriguez Montoya", "Ivan")], False),
    ('Neumann, G{\\"u}nter', [Name("Neumann", "Günter")], False),
    ("Bostr\\\"{o}m, Gustav and {\\O}stergaard, K.", [Name("Boström", "Gustav"),
                                                      Name("Østergaard", "K.")], False),
    # bibtexparser's own splitter returns "{O}zil" here, losing the accent
    ('Smith, J. and \\"{O}zil, M.', [Name("Smith", "J."), Name("Özil", "M.")], False),
    ("{World Health Organization}", [Name("World Health Organization", corporate=True)], False),
    (
        "{Fredensborg Kommune} and {NIRAS A/S}",
        [Name("Fredensborg Kommune", corporate=True), Name("NIRAS A/S", corporate=True)],
        False,
    ),
    ("{Bill and Melinda Gates Foundation}", [Name("Bill and Melinda Gates Foundation",
                                                  corporate=True)], False),
    ("Smith, John and others", [Name("Smith", "John")], True),
    ("Smith, John AND Doe, Jane", [Name("Smith", "John"), Name("Doe", "Jane")], False),
    ("Philippe Kruchten, Churchill", [Name("Philippe Kruchten", "Churchill")], False),
    ("{\\'E}mile Durkheim", [Name("Durkheim", "Émile")], False),
    ("", [], False),
    ("and", [Name("and")], False),
    (" , , ", [], False),
    ("Smith, , John", [Name("Smith", "John")], False),
    ("{unclosed, Name", [Name("unclosed, Name", corporate=False)], False),
]  # fmt: skip


@pytest.mark.parametrize(("value", "names", "others"), NAME_CASES)
def test_parse_names(value: str, names: list[Name], others: bool) -> None:
    assert parse_names(value) == (tuple(names), others)


@pytest.mark.parametrize(
    "name",
    [
        Name("Rodriguez Montoya", "Ivan"),
        Name("van Stokkum", "Ivo H. M."),
        Name("Hippel", "Eric", von="von"),
        Name("Huevel", "Johan A", von="van den", jr="Jr."),
        Name("World Health Organization", corporate=True),
        Name("Plato"),
        Name("Rodriguez Montoya"),
        Name("for", von="the Arts National Endowment"),  # a Mendeley mis-split, seen in corpus
        Name("Müller & Søn_50%", "Ä{x}"),
    ],
)
def test_format_name_reads_back(name: Name) -> None:
    assert parse_name(format_name(name)) == name


# --- LaTeX ------------------------------------------------------------------------------------

DECODE_CASES = [
    ('{\\"u}ber', "über"),
    ("Caract{\\'e}risation", "Caractérisation"),
    ("\\'{e}t\\'{e}", "été"),
    ('\\"{o}', "ö"),
    ("Fran\\c{c}ais", "Français"),
    ("Stra{\\ss}e", "Straße"),
    ("{\\o}re", "øre"),
    ("{{Si}} and {InGaN} nanowires", "Si and InGaN nanowires"),
    ("The {\\sc CONNIVER} Manual", "The CONNIVER Manual"),
    ("anatomy of \\textit{Procolophon}", "anatomy of Procolophon"),
    ("Fig.~3", "Fig. 3"),
    ("pp. 1--31", "pp. 1–31"),
    ("a---b", "a—b"),
    ("50% of R&D", "50% of R&D"),
    ("$\\alpha$-helix", "α-helix"),
    ("  many\n\tspaces ", "many spaces"),
    ("\\url{http://x.org/a_b}", "http://x.org/a_b"),
    ("{" * 3000 + "deep" + "}" * 3000, "deep"),
    ("\\emph{unclosed", "unclosed"),
    ("", ""),
]


@pytest.mark.parametrize(("latex", "text"), DECODE_CASES)
def test_decode_latex(latex: str, text: str) -> None:
    assert decode_latex(latex) == text


def test_file_field_is_never_decoded() -> None:
    (paper,) = parse_bibtex(
        "@article{k, author = {A, B}, year = 2020, title = {T},\n"
        '  file = {:C\\:/Users/x/Zotero/storage/AB_C/{\\"u}--paper%1.pdf:application/pdf}}'
    ).papers
    assert paper.files == ('C:/Users/x/Zotero/storage/AB_C/{\\"u}--paper%1.pdf',)


# --- parsing features -------------------------------------------------------------------------

FEATURES = r"""
% a free-text comment line
@preamble{"\newcommand{\noopsort}[1]{}"}
@comment{jabref-meta: databaseType:bibtex;}
@STRING{ aij = "Artificial Intelligence" }
@string(JAN2 = "Jan" # {uary})
Free text between entries, with an @ sign in it.

@ARTICLE{upper, AUTHOR = {Smith, John}, TITLE = "Mixed {C}ase", JOURNAL = aij,
  YEAR = 2001, MONTH = mar, PAGES = "1" # "--" # {9}}
@InProceedings(paren, author = {Doe, Jane}, title = {In (parens)}, year = {2002},
  booktitle = UNDEFINED # { Proceedings}, month = jan2)
@misc{nodate, author = {Nobody, A.}, title = {No year here}, year = {in press}}
@misc{noauthor, title = {Anonymous Work Title}, date = {2019-05-01}}
@book{edited, editor = {Editor, Ed and others}, title = {An Edited Book}, year = 1999}
@article{upper, author = {Other, Person}, title = {Same key again}, year = 2003}
@article{broken, author = {Unclosed, Brace, title = {Oops}, year = 2004
@article{after, author = {Late, Comer}, title = {Still read}, year = 2005}
@article{twice, author = {T, W}, title = {First}, title = {Second}, year = 2006}
@article{, author = {Key, Less}, title = {No Key At All}, year = 2007}
"""


def test_bibtex_features_in_one_file() -> None:
    result = parse_bibtex(FEATURES, "features.bib")
    papers = {p.key: p for p in result.papers}
    assert list(papers) == [
        "upper",
        "paren",
        "nodate",
        "noauthor",
        "edited",
        "after",
        "twice",
        "keyNoKeyAll2007",
    ]
    upper = papers["upper"]
    assert (upper.title, upper.venue, upper.year) == ("Mixed Case", "Artificial Intelligence", 2001)
    assert dict(upper.fields)["month"] == "March"
    assert dict(upper.fields)["pages"] == "1–9"
    assert upper.entry_type == "article" and upper.source == "features.bib:9"
    paren = papers["paren"]
    assert paren.title == "In (parens)" and paren.venue == "UNDEFINED Proceedings"
    assert dict(paren.fields)["month"] == "January"
    assert papers["nodate"].year is None
    assert papers["noauthor"].year == 2019 and papers["noauthor"].authors == ()
    assert papers["edited"].authors == (Name("Editor", "Ed"),) and papers["edited"].others
    assert papers["twice"].title == "First"
    assert result.entries == 10  # 8 papers + the duplicate "upper" + the broken one
    by_kind = {(p.line, p.key): p.message.split(": ", 1)[1] for p in result.problems}
    assert list(by_kind) == [
        (11, "paren"),
        (13, "nodate"),
        (14, "noauthor"),
        (16, "upper"),
        (17, "broken"),
        (19, "twice"),
        (20, ""),
    ]
    assert "UNDEFINED" in by_kind[(11, "paren")]
    assert "no year (it says 'in press')" in by_kind[(13, "nodate")]
    assert "no author or editor" in by_kind[(14, "noauthor")]
    assert "Anonymous Work Title, 2019" in by_kind[(14, "noauthor")]
    assert "first at line 9" in by_kind[(16, "upper")]
    assert "could not be read" in by_kind[(17, "broken")]
    assert "keyNoKeyAll2007" in by_kind[(20, "")]
    assert all(p.message.startswith(f"features.bib, line {p.line}") for p in result.problems)


def test_crossref_from_proceedings() -> None:
    text = """
@inproceedings{child, author = {Kid, A.}, title = {A Paper}, crossref = {PROC}, pages = {1--2}}
@proceedings{proc, title = {Proceedings of {AAAI}}, editor = {Chair, C.}, year = 1991,
  publisher = {AAAI Press}}
@inproceedings{orphan, author = {Lone, L.}, title = {Orphan}, crossref = {missing}, year = 2001}
"""
    result = parse_bibtex(text, "x.bib")
    child = result.papers[0]
    assert (child.title, child.year, child.venue) == ("A Paper", 1991, "Proceedings of AAAI")
    assert dict(child.fields)["editor"] == "Chair, C."
    assert dict(child.fields)["publisher"] == "AAAI Press"
    assert child.authors == (Name("Kid", "A."),)
    (problem,) = result.problems
    assert problem.key == "orphan" and "crossref 'missing' names no entry" in problem.message


@pytest.mark.parametrize(
    ("fields", "doi", "arxiv"),
    [
        ("doi = {https://doi.org/10.1000/ABC.Def}", "10.1000/abc.def", ""),
        ("doi = {http://dx.doi.org/10.1007/s00779-005-0347-6}", "10.1007/s00779-005-0347-6", ""),
        ("doi = {doi:10.1002/(SICI)1097}", "10.1002/(sici)1097", ""),
        ("doi = {not a doi}", "", ""),
        ("url = {https://doi.org/10.1000%2Fxyz}", "10.1000/xyz", ""),
        ("eprint = {arXiv:2101.00001}, archiveprefix = {arXiv}", "", "2101.00001"),
        ("eprint = {2101.00001}, eprinttype = {arxiv}", "", "2101.00001"),
        ("eprint = {2101.00001}, eprinttype = {jstor}", "", ""),
        ("url = {https://arxiv.org/pdf/hep-th/9901001v2.pdf}", "", "hep-th/9901001v2"),
        ("url = {https://arxiv.org/abs/1706.03762}", "", "1706.03762"),
        ("doi = {10.48550/arXiv.2501.10120}", "10.48550/arxiv.2501.10120", "2501.10120"),
    ],
)
def test_doi_and_arxiv(fields: str, doi: str, arxiv: str) -> None:
    (paper,) = parse_bibtex(f"@misc{{k, author={{A, B}}, year=2020, title={{T}}, {fields}}}").papers
    assert (paper.doi, paper.arxiv_id) == (doi, arxiv)


# --- the file field ---------------------------------------------------------------------------

FILE_CASES = [
    (":C\\:/Users/x/Zotero/storage/ABC/paper.pdf:application/pdf",
     ("C:/Users/x/Zotero/storage/ABC/paper.pdf",)),
    ("Full Text PDF:files/12/a.pdf:application/pdf;Snapshot:files/12/b.html:text/html",
     ("files/12/a.pdf", "files/12/b.html")),
    ("paper.pdf", ("paper.pdf",)),
    (":papers/a.pdf:PDF", ("papers/a.pdf",)),
    (":home/u/a.pdf:pdf", ("home/u/a.pdf",)),
    ("/home/u/Zotero/storage/X/a b.pdf", ("/home/u/Zotero/storage/X/a b.pdf",)),
    ("C:/Users/x/a.pdf", ("C:/Users/x/a.pdf",)),
    (":C:/Users/x/a.pdf:PDF", ("C:/Users/x/a.pdf",)),
    ("C\\:\\\\Users\\\\x\\\\a.pdf", ("C:\\Users\\x\\a.pdf",)),
    (":C$\\backslash$:$\\backslash$Users$\\backslash$a.pdf:pdf", ("C:\\Users\\a.pdf",)),
    ("a.pdf;a.pdf", ("a.pdf",)),
    ("", ()),
    (";;", ()),
]  # fmt: skip


@pytest.mark.parametrize(("value", "paths"), FILE_CASES)
def test_parse_file_field(value: str, paths: tuple[str, ...]) -> None:
    assert parse_file_field(value) == paths


# --- labels and keys --------------------------------------------------------------------------

SMITH, JONES, LEE = Name("Smith", "A."), Name("Jones", "B."), Name("Lee", "C.")

LABEL_CASES = [
    ([SMITH], 2020, False, "Smith, 2020"),
    ([SMITH, JONES], 2020, False, "Smith and Jones, 2020"),
    ([SMITH, JONES, LEE], 2020, False, "Smith et al., 2020"),
    ([SMITH], 2020, True, "Smith et al., 2020"),
    ([SMITH, JONES], None, False, "Smith and Jones, n.d."),
    ([Name("Hippel", "Eric", von="von")], 2005, False, "von Hippel, 2005"),
    ([Name("World Health Organization", corporate=True)], 2021, False,
     "World Health Organization, 2021"),
    ([], 2019, False, "Anonymous, 2019"),
]  # fmt: skip


@pytest.mark.parametrize(("authors", "year", "others", "label"), LABEL_CASES)
def test_base_label(authors: list[Name], year: int | None, others: bool, label: str) -> None:
    assert base_label(authors, year, others) == label


def test_base_label_without_authors_uses_title_words() -> None:
    assert base_label([], 2012, title="- Vi har: en plan for byen") == "Vi har en, 2012"


def paper(key: str, title: str, *authors: Name, year: int | None = 2020) -> Paper:
    return Paper(key=key, title=title, authors=authors, year=year)


def test_assign_labels_suffixes_by_title_and_keeps_order() -> None:
    papers = [
        paper("s3", "Zebra crossings", SMITH),
        paper("s1", "The Apples of Discord", SMITH),
        paper("other", "Unrelated", JONES),
        paper("s2", "bananas", SMITH),
        paper("nd1", "Second", LEE, year=None),
        paper("nd2", "First", LEE, year=None),
        paper("sj", "X", SMITH, JONES, year=2020),
        paper("s21", "Y", SMITH, year=2021),
    ]
    labelled = assign_labels(papers)
    assert [p.key for p in labelled] == [p.key for p in papers]
    assert [p.label for p in labelled] == [
        "Smith, 2020c",
        "Smith, 2020a",  # "The" is ignored when ordering: Apples < bananas < Zebra
        "Jones, 2020",
        "Smith, 2020b",
        "Lee, n.d.-b",
        "Lee, n.d.-a",
        "Smith and Jones, 2020",
        "Smith, 2021",
    ]
    assert papers[0].label == ""  # new objects; the input is untouched


def test_assign_labels_beyond_z() -> None:
    labels = [
        p.label for p in assign_labels(paper(f"k{i:02}", f"T{i:02}", SMITH) for i in range(28))
    ]
    assert labels[0] == "Smith, 2020a" and labels[25:] == [
        "Smith, 2020z",
        "Smith, 2020aa",
        "Smith, 2020ab",
    ]


@pytest.mark.parametrize(
    ("authors", "year", "title", "taken", "key"),
    [
        ([SMITH], 2020, "A Study of Things", set(), "smithStudyThings2020"),
        ([SMITH], 2020, "A Study of Things", {"smithStudyThings2020"}, "smithStudyThings2020a"),
        ([SMITH], 2020, "A Study", {"smithStudy2020", "smithStudy2020a"}, "smithStudy2020b"),
        ([Name("Müller", "J.")], 1999, "Über Ødegaard's æther", set(), "mullerUberOdegaardsAether1999"),
        ([Name("Hippel", "E.", von="von")], None, "Democratizing innovation", set(), "hippelDemocratizingInnovation"),
        ([Name("World Health Organization", corporate=True)], 2021, "Report", set(), "worldhealthorganizationReport2021"),
        ([], None, "", set(), "ref"),
        ([Name("海外")], 2019, "英语", set(), "2019"),
    ],
)  # fmt: skip
def test_generate_key(
    authors: list[Name], year: int | None, title: str, taken: set[str], key: str
) -> None:
    assert generate_key(authors, year, title, taken) == key


# --- files ------------------------------------------------------------------------------------


def test_parse_bib_file_latin1_fallback(tmp_path: Path) -> None:
    path = tmp_path / "old.bib"
    path.write_bytes(
        "@article{k, author = {Müller, Jörg}, title = {T}, year = 1990}".encode("latin-1")
    )
    (paper,) = parse_bib_file(path).papers
    assert paper.authors == (Name("Müller", "Jörg"),) and paper.source == "old.bib:1"


def test_parse_bib_file_utf16_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "win.bib"
    path.write_bytes("@article{k, author = {Ø, A}, title = {T}, year = 1990}".encode("utf-16"))
    assert parse_bib_file(path).papers[0].authors == (Name("Ø", "A"),)


def test_parse_bib_file_missing_raises_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BibtexError, match=r"Cannot read the BibTeX file nope\.bib"):
        parse_bib_file(tmp_path / "nope.bib")


def test_parse_bib_file_binary_raises(tmp_path: Path) -> None:
    path = tmp_path / "paper.bib"
    path.write_bytes(b"%PDF-1.7\x00\x01\x02 binary")
    with pytest.raises(BibtexError, match=r"paper\.bib is not a text file"):
        parse_bib_file(path)


def test_text_without_entries_is_reported() -> None:
    result = parse_bibtex("just some notes, not a bibliography", "notes.bib")
    assert (result.entries, result.papers) == (0, ())
    assert "no BibTeX entries" in result.problems[0].message
    assert parse_bibtex("") == BibResult(papers=(), problems=(), entries=0)


# --- properties -------------------------------------------------------------------------------

BIB_PIECES = [*'@{}()",=#%~\\$&_ \n\tabcAB01-ø', " and ", "@article", "@string", "author", '{\\"u}']
BIBLIKE = st.lists(st.sampled_from(BIB_PIECES), max_size=120).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), BIBLIKE))
def test_parse_bibtex_never_raises(text: str) -> None:
    result = parse_bibtex(text, "random.bib")
    assert len(result.papers) <= result.entries
    assert all(p.key for p in result.papers)
    again = parse_bibtex(to_bibtex(result.papers))
    assert [(p.key, p.title, p.authors, p.year) for p in again.papers] == [
        (p.key, p.title, p.authors, p.year) for p in result.papers
    ]


NAME_TEXT = st.text(alphabet="abcXYZ éØ.-'", min_size=1, max_size=12).map(
    lambda s: " ".join(s.split())
)


@settings(max_examples=300, deadline=None)
@given(NAME_TEXT, NAME_TEXT, st.sampled_from(["", "van", "de la"]), st.sampled_from(["", "Jr."]))
def test_format_name_round_trips(family: str, given_: str, von: str, jr: str) -> None:
    name = parse_name(format_name(Name(family or "X", given_, von, jr)))
    assert name is not None
    assert parse_name(format_name(name)) == name


# --- @string expansion limits (issue 10, finding 4) -------------------------------------------


def test_macros_expanding_past_the_value_limit_are_left_out_and_reported() -> None:
    from research_assistant.bib import fields

    text = "\n".join(
        ['@string{s0 = "ab"}']
        + [f"@string{{s{i} = s{i - 1} # s{i - 1}}}" for i in range(1, 30)]
        + ["@string{jn = {Physical Review E}}"]
        + ["@article{ok, author={A, B}, title={Fine}, journal=jn, year=2001}"]
        + ["@article{big, author={C, D}, title=s29, journal=jn, year=2002}"]
    )
    result = parse_bibtex(text, "x.bib")
    by_key = {p.key: p for p in result.papers}
    assert by_key["ok"].venue == "Physical Review E"
    assert by_key["big"].title == "" and by_key["big"].venue == "Physical Review E"
    messages = [p.message for p in result.problems]
    limit = f"{fields.MAX_VALUE_CHARS:,}"
    assert [m for m in messages if "@string s19 " in m and limit in m]  # the one that grew
    assert not [m for m in messages if "@string s20 " in m]  # its users are not reported again
    assert [m for m in messages if "entry 'big'" in m and "s29" in m and "title" in m]


def test_macro_text_in_one_file_has_a_total_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from research_assistant.bib import fields

    monkeypatch.setattr(fields, "MAX_MACRO_TEXT_CHARS", 1000)
    entries = [f"@misc{{k{i}, author={{A, B}}, title=t, year=2000}}" for i in range(20)]
    result = parse_bibtex('@string{t = "' + "x" * 100 + '"}\n' + "\n".join(entries))
    titled = [p.key for p in result.papers if p.title]
    assert titled == [f"k{i}" for i in range(10)] and len(result.papers) == 20
    assert (
        "1,000 characters (the limit for all macro text in one file)" in result.problems[0].message
    )


PLAIN_WORD = st.from_regex(r"[A-ZÁØÜ][A-Za-zéüøß.'’-]{0,8}", fullmatch=True)
PLAIN_PART = st.lists(PLAIN_WORD, min_size=1, max_size=3).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(PLAIN_PART, st.one_of(st.just(""), PLAIN_PART))
def test_plain_names_skip_the_parser_and_still_read_back(family: str, given_: str) -> None:
    """The fast path of format_name writes what trying the candidates would write (a family
    name of two words without a given name takes the slow path: "{Rodriguez Montoya}")."""
    from research_assistant.bib.write import _format_name

    name = Name(family, given_)
    assert format_name(name) == _format_name(name)
    assert parse_name(format_name(name)) == name


def test_a_given_name_holding_the_word_and_stays_one_author() -> None:
    names = (Name("Doe", "And Hans"), Name("Smith", "Jo"), Name("Roe", "AND"))
    read, others = parse_names(format_names(names))
    assert [n.family for n in read] == ["Doe", "Smith", "Roe"] and not others
    assert [n.given.casefold() for n in read] == ["and hans", "jo", "and"]  # {and}: case lost
