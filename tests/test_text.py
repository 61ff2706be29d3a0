"""text.py: folding, line-end hyphens, particles, numbers and sentence spans."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research_assistant import text
from research_assistant.text import LINE_HYPHEN, PARTICLES, fold, numbers, sentences


def keeps_marks(base: str) -> bool:
    """A letter of a script whose marks make another letter: any but Latin, Greek, Cyrillic."""
    script = unicodedata.name(base, "").partition(" ")[0]
    return unicodedata.category(base).startswith("L") and script not in {
        "LATIN",
        "GREEK",
        "CYRILLIC",
    }


def reference_fold(s: str) -> str:
    """The straightforward form that fold() replaces for speed (translate tables, decompose
    everything, one character at a time): both must agree."""
    s = text.normalize_space(s).translate(text._SPECIAL)
    kept, base = [], ""
    for ch in unicodedata.normalize("NFKD", s):
        if not unicodedata.category(ch).startswith("M"):
            base = ch
        elif not (base and keeps_marks(base)):
            continue  # an accent on a Latin, Greek or Cyrillic letter, or on no letter
        kept.append(ch)
    s = "".join(kept).casefold()
    s = s.translate(text._APOSTROPHES).translate(text._DASHES).translate(text._SPECIAL)
    return " ".join(unicodedata.normalize("NFC", s).split())


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        (
            "Plain ASCII, with  double spaces and `quotes`.",
            "plain ascii, with double spaces and 'quotes'.",
        ),
        ("García-López, Schrödinger, Łukasiewicz", "garcia-lopez, schrodinger, lukasiewicz"),
        ("Ørsted, Æsir, straße", "orsted, aesir, strasse"),
        ("O\u2019Neil \u2013 the ﬁrst\u00a0test", "o'neil - the first test"),
        ("中文 текст Ελληνικά", "中文 текст ελληνικα"),
        # accents on Latin, Greek and Cyrillic letters go, composed or not
        ("é", "e"),
        ("e\u0301", "e"),
        ("Å", "a"),
        ("\u212b", "a"),  # ANGSTROM SIGN
        ("ö", "o"),
        ("Ἀθῆναι, ΐ", "αθηναι, ι"),
        ("Йошкар-Ола", "иошкар-ола"),
        ("Ǣ, Ð, Þ", "ae, d, th"),  # the letters NFKD leaves alone are mapped after decomposing
        # marks on no letter go: a PDF's spacing diaeresis, a negated sign
        ("Schro¨dinger", "schro dinger"),
        ("a ≠ b", "a = b"),
        # marks that make another letter stay, composed: kana, Devanagari, Hangul, Hebrew
        ("ば", "ば"),
        ("は\u3099", "ば"),  # decomposed dakuten: the same letter
        ("ﾊﾞｶ", "バカ"),  # half-width kana with a half-width voiced mark
        ("हिन्दी, क़", "हिन्दी, \u0915\u093c"),  # nukta letters stay decomposed in NFC
        ("한국어 \u1112\u1161\u11ab", "한국어 한"),  # conjoining jamo compose to a syllable
        ("שָׁלוֹם", "שָׁלוֹם"),
    ],
)
def test_fold(raw: str, folded: str) -> None:
    assert fold(raw) == folded == reference_fold(raw)
    assert fold(folded) == folded


def test_fold_distinguishes_letters_that_differ_by_a_mark_outside_latin() -> None:
    assert fold("ば") != fold("は") and fold("क़") != fold("क")
    assert fold("é") == fold("e") and fold("й") == fold("и")


def test_fold_agrees_with_the_reference_on_every_character_below_u10000() -> None:
    """Each character after a space (a mark there has no letter to sit on), 500 to a call."""
    chars = [chr(c) for c in range(0x10000) if not 0xD800 <= c < 0xE000]
    for i in range(0, len(chars), 500):
        line = " ".join(chars[i : i + 500])
        if fold(line) != reference_fold(line):
            assert [c for c in chars[i : i + 500] if fold(c) != reference_fold(c)] == []
            assert fold(line) == reference_fold(line)


def test_the_mark_and_accent_tables_cover_all_of_unicode() -> None:
    """fold() looks for marks only in text._MARK_PLANES and for precomposed letters only below
    U+10000; a Unicode version that adds either elsewhere must fail here."""
    marks, precomposed = [], []
    for c in range(0x110000):
        ch = chr(c)
        if unicodedata.category(ch).startswith("M"):
            marks.append(c)
        elif c > 0xFFFF and unicodedata.decomposition(ch)[:1] not in ("", "<"):
            base = unicodedata.normalize("NFD", ch)[0]  # a canonical decomposition
            if not (unicodedata.category(base).startswith("M") or keeps_marks(base)):
                precomposed.append(ch)
    assert text._mark_code_points() == marks
    # the astral ones are marks (Chakma, Grantha vowel signs), letters that keep their marks
    # (Kaithi), or musical symbols that NFKC never composes
    assert [ch for ch in precomposed if unicodedata.normalize("NFKC", ch) == ch] == []
    _, bases = text._first_pass()
    assert bases["é"] == "e" and bases["≠"] == "=" and "ば" not in bases


@given(st.text(max_size=200))
def test_fold_agrees_with_the_reference_on_any_text(s: str) -> None:
    assert fold(s) == reference_fold(s)
    assert fold(fold(s)) == fold(s)


MARKED_TEXT = st.text(
    st.characters(categories=("Mn", "Mc", "Me", "Lu", "Ll", "Lo", "Nd", "Zs", "Sm", "Po")),
    max_size=60,
)


@settings(max_examples=300)
@given(MARKED_TEXT)
def test_fold_agrees_with_the_reference_on_text_dense_with_marks(s: str) -> None:
    """Random text rarely puts a mark after a letter; this draws marks as often as letters."""
    assert fold(s) == reference_fold(s)
    assert fold(fold(s)) == fold(s)


def test_line_end_hyphens_are_found_but_not_compounds_or_minus() -> None:
    assert LINE_HYPHEN.sub("", "automati-\ncally and par-  \n  allelize") == (
        "automatically and parallelize"
    )
    assert (
        LINE_HYPHEN.sub("", "state-of-the-art, 10-\n20 and x - y")
        == "state-of-the-art, 10-\n20 and x - y"
    )


# LINE_HYPHEN's definition: the look-behind first, as it reads (LINE_HYPHEN matches the hyphen
# first, for speed, and must find the same spans).
_LINE_HYPHEN_AS_READ = re.compile(r"(?<=[^\W\d_])-[ \t]*\n\s*(?=[^\W\d_])")


@settings(max_examples=500)
@given(st.text(alphabet="ab1_é- \t\n", max_size=16))
def test_line_hyphen_finds_what_its_definition_finds(s: str) -> None:
    assert [m.span() for m in LINE_HYPHEN.finditer(s)] == [
        m.span() for m in _LINE_HYPHEN_AS_READ.finditer(s)
    ]


def test_particles_are_lower_case_name_parts() -> None:
    assert {"van", "von", "de", "der", "op", "ibn"} <= PARTICLES
    assert all(p == p.lower() for p in PARTICLES)


@pytest.mark.parametrize(
    ("raw", "found"),
    [("1.71 and 1,000", ["1.71", "1000"]), ("\u22122.5 and 3,5", ["-2.5", "3.5"]), ("v1.2x", [])],
)
def test_numbers(raw: str, found: list[str]) -> None:
    assert numbers(raw) == found


def test_sentences_keep_abbreviations_inside() -> None:
    got = sentences("As shown (Fig. 2) by Smith et al. it rises. See Sect. 4 now. Done? Yes.")
    assert got == [
        "As shown (Fig. 2) by Smith et al. it rises.",
        "See Sect. 4 now.",
        "Done?",
        "Yes.",
    ]


def test_saved_unicode_tables_are_what_text_computes() -> None:
    """unicode_tables.py (make unicode-tables) spares every process 0.15 s: it must hold what
    computed_tables() makes now, for the Unicode version this Python has."""
    from research_assistant import unicode_tables as saved

    assert unicodedata.unidata_version == saved.UNIDATA_VERSION, "run make unicode-tables"
    computed = text.computed_tables()
    assert computed == (saved.FIRST_PASS, saved.FIRST_PASS_TABLE, saved.DROPPED_MARKS, saved.MARKS)
    assert text._tables() == computed  # the saved ones are the ones used
