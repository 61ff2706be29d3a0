"""A curator's correction of a paper's metadata: bib.edit checks it, the library saves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research_assistant import store as store_mod
from research_assistant.bib.edit import Correction, corrected
from research_assistant.bib.parse import parse_bib_file
from research_assistant.errors import BibtexError, PermissionDeniedError
from research_assistant.library import Library
from research_assistant.models import Paper
from research_assistant.roles import CURATOR, MEMBER, User

ADA = User("ada", "Ada", CURATOR)
MAPREDUCE = Correction(
    title="MapReduce: Simplified Data Processing on Large Clusters",
    authors="Dean, Jeffrey and Ghemawat, Sanjay",
    year="2004",
    venue="OSDI",
    doi="https://doi.org/10.1145/1327452.1327492",
)


def test_a_correction_replaces_the_typed_fields() -> None:
    paper = Paper(key="k", title="Untitled", metadata="inferred", fields=(("journal", "old"),))
    new = corrected(paper, MAPREDUCE)
    assert new.title == MAPREDUCE.title and new.year == 2004 and new.venue == "OSDI"
    assert [a.family for a in new.authors] == ["Dean", "Ghemawat"]
    assert new.doi == "10.1145/1327452.1327492"  # normalised
    assert dict(new.fields) == {"journal": "OSDI", "doi": "10.1145/1327452.1327492"}
    assert corrected(paper, Correction("T", "Smith, J", "")).year is None


@pytest.mark.parametrize(
    ("fix", "message"),
    [
        (Correction("  ", "Dean, J", "2004"), "title is empty"),
        (Correction("T", "  ", "2004"), "No author"),
        (Correction("T", "Dean, J", "20o4"), "not a year"),
        (Correction("T", "Dean, J", "99999"), "not a year"),
        (Correction("T", "Dean, J", "2004", doi="doi: not one"), "not a DOI"),
        (Correction("x" * 1001, "Dean, J", "2004"), "over 1000 characters"),
    ],
)
def test_a_correction_that_cannot_be_used_says_which_field(fix: Correction, message: str) -> None:
    with pytest.raises(BibtexError, match=message):
        corrected(Paper(key="k", title="x"), fix)


def test_the_library_saves_a_correction_in_the_catalog_and_library_bib(
    tmp_path: Path, corpus: Path
) -> None:
    lib = Library.open(tmp_path / "lib")
    lib.ingest([corpus / "P14-1059.pdf"])  # no BibTeX entry: title and authors inferred
    (paper,) = lib.papers()
    assert paper.metadata == "inferred"
    with pytest.raises(PermissionDeniedError, match="curators"):
        lib.correct_metadata(paper.key, MAPREDUCE, User("bob", "Bob", MEMBER))
    new = lib.correct_metadata(paper.key, MAPREDUCE, ADA)
    assert new.label == "Dean and Ghemawat, 2004" and new.pdf == paper.pdf
    store_mod.close(tmp_path / "lib" / "catalog.duckdb")
    again = Library.open(tmp_path / "lib").paper(paper.key)  # from the catalog
    assert again is not None and again.title == MAPREDUCE.title and again.year == 2004
    entries = parse_bib_file(tmp_path / "lib" / "library.bib").papers
    assert [(e.key, e.title, e.year) for e in entries] == [(paper.key, MAPREDUCE.title, 2004)]
    runs = Library.open(tmp_path / "lib").store.query(
        "SELECT username, report FROM ingest_runs ORDER BY started_at DESC LIMIT 1"
    )
    assert runs[0][0] == "ada" and json.loads(runs[0][1])["action"] == "correct_metadata"
