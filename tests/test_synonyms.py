"""WordNet synonyms as the checker's aliases: a paraphrase in other words is found, a sibling
is never a synonym, and the table is what its generator writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_assistant import Library, check_text
from research_assistant.check.synonyms import TABLE, synonyms_of, with_synonyms, write_table
from research_assistant.terms import stem


@pytest.mark.parametrize(
    ("word", "synonym"),
    [("divide", "split"), ("mistake", "error"), ("usually", "normally"), ("phase", "stage")],
)
def test_words_of_one_sense_are_synonyms_both_ways(word: str, synonym: str) -> None:
    assert stem(synonym) in synonyms_of(stem(word))
    assert stem(word) in synonyms_of(stem(synonym))


@pytest.mark.parametrize(
    ("word", "other"),
    [("precision", "recall"), ("map", "reduce"), ("increase", "decrease"), ("copy", "imitate")],
)
def test_siblings_opposites_and_rare_senses_are_no_synonyms(word: str, other: str) -> None:
    assert stem(other) not in synonyms_of(stem(word))


def test_the_table_is_symmetric_and_holds_no_short_stems() -> None:
    lines = [x for x in TABLE.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    assert len(lines) > 20_000
    table = {h: set(rest) for h, *rest in (x.split() for x in lines)}
    assert all(len(h) >= 3 and h in table.get(s, ()) for h, ss in table.items() for s in ss)


def test_a_synonym_in_a_sentence_stands_for_the_claims_term() -> None:
    aliases = with_synonyms({"split", "file"}, {"llm": frozenset({"larg", "languag"})})
    assert aliases["divid"] == frozenset({"split"})
    assert aliases["llm"] == frozenset({"larg", "languag"})  # an acronym's words are kept
    assert "file" not in aliases  # a claim's own term stands for itself


def test_write_table_reads_first_senses_from_wordnet_dict_files(tmp_path: Path) -> None:
    (tmp_path / "LICENSE.txt").write_text("WordNet Release 3.0\n", encoding="latin-1")
    (tmp_path / "index.sense").write_text(
        "chunk%1:23:00:: 00000001 1 3\n"
        "block%1:23:00:: 00000001 1 2\n"
        "lump%1:23:00:: 00000001 2 0\n"  # not the first sense of "lump": left out
        "divide%2:41:00:: 00000002 1 5\n"
        "split%2:41:00:: 00000002 1 4\n",
        encoding="latin-1",
    )
    noun = "00000001 23 n 03 chunk 0 block 0 lump 0 000 | a compact mass\n"
    (tmp_path / "data.noun").write_text("  1 This software ...\n" + noun, encoding="latin-1")
    (tmp_path / "data.verb").write_text("00000002 41 v 02 divide 0 split 0 000 | separate\n")
    (tmp_path / "data.adj").write_text("")
    (tmp_path / "data.adv").write_text("")
    out = tmp_path / "synonyms.txt"
    write_table(tmp_path, out)
    rows = [x for x in out.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    assert sorted(rows) == sorted(
        [
            f"{stem('block')} {stem('chunk')}",
            f"{stem('chunk')} {stem('block')}",
            f"{stem('divide')} {stem('split')}",
            f"{stem('split')} {stem('divide')}",
        ]
    )
    assert "# WordNet Release 3.0" in out.read_text(encoding="utf-8")  # the licence travels


def test_a_paraphrase_in_synonyms_is_verified_on_the_corpus(claims_library: Library) -> None:
    """The paper: "The accelerated expansion was originally motivated by supernova
    observations"; the claim says "first prompted" and "speeding up"."""
    claim = (
        "Evidence from supernovae first prompted the idea that the cosmic expansion is "
        "speeding up [Bolejko and Andersson, 2008]."
    )
    (c,) = check_text(claims_library, claim).citations
    assert c.status == "verified" and c.evidence is not None and c.evidence.page == 2
