"""terms.py: the one tokeniser and stemmer of the checker and the answerer."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_assistant import terms as terms_module
from research_assistant.terms import stem, terms


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("failures", "failure"),
        ("organisation", "organization"),
        ("analysed", "analyzed"),
        ("behaviour", "behavior"),
        ("centre", "center"),
        ("dimensions", "dimension"),
        ("parallelized", "parallelizes"),
    ],
)
def test_forms_of_one_word_meet(a: str, b: str) -> None:
    assert terms(a) == terms(b)


def test_compounds_possessives_line_breaks_and_footnote_marks() -> None:
    assert terms("diffusion-limited") >= {stem("diffusion"), stem("limited")}
    assert terms("MapReduce's model") == terms("MapReduce model")
    assert terms("automati-\ncally parallel") == terms("automatically parallel")
    assert stem("timp") in terms("TIMP1 fits")
    assert terms("the results of the study") == frozenset()  # asking words carry nothing


def test_stemming_is_safe_across_threads() -> None:
    words = [f"running{i}" for i in range(2000)]
    out: list[frozenset[str]] = []

    def work() -> None:
        out.append(terms(" ".join(words)))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({frozenset(o) for o in out}) == 1


@given(st.text(alphabet="abcdeilnorstuyzg", min_size=1, max_size=14))
def test_the_spelling_fast_path_changes_no_stem(word: str) -> None:
    """stem() skips the British-to-American patterns for words that cannot match them: the
    result must be what applying every pattern gives."""
    spelled = word
    for pattern, repl in terms_module._SPELLING:
        spelled = pattern.sub(repl, spelled)
    assert stem(word) == terms_module._stemmer().stemWord(spelled)


def _whole_text_terms(text: str) -> list[str]:
    """The definition terms.term_list keeps: the words of the whole folded text, each stemmed."""
    from research_assistant.text import LINE_HYPHEN, fold

    words = terms_module._WORD.findall(fold(LINE_HYPHEN.sub("", text)))
    return [t for w in words for t in terms_module._word_terms(w)]


# Letters, marks that fold drops or composes, symbols NFKC turns into letters or spaces ("™",
# "¨"), apostrophes and hyphens of every kind, line-end hyphens, and whitespace of every kind.
_TRICKY = st.sampled_from(
    [
        *"aeiKkSsz0129", "a-\n", "e- \n", *"é\u0301\u0308\u0327İıßΩ\u2126\u212aﬁﬂ™½²℃¨ſ",
        *"'’‘`´-‐‑–—", " ", "\n", "\t", "\u00a0", "\u2009", "\u200b", "-\n", "- \n  ",
    ]
)  # fmt: skip


@given(st.lists(_TRICKY, max_size=40).map("".join))
def test_piecewise_terms_equal_the_whole_texts_terms(text: str) -> None:
    """terms() folds and splits each whitespace-free piece on its own (cached): on any text it
    must give what folding the whole text and finding its words gives, in the same order."""
    assert terms_module.term_list(text) == _whole_text_terms(text)


@given(st.text(max_size=60))
def test_piecewise_terms_equal_on_any_unicode(text: str) -> None:
    assert terms_module.term_list(text) == _whole_text_terms(text)


def test_piecewise_terms_equal_on_the_corpus(corpus: Path) -> None:
    """Every page of the corpus PDFs, as the ingest reads them."""
    from research_assistant.ingest.pdf import read_pdf

    pages = [p.text for pdf in sorted(corpus.glob("*.pdf")) for p in read_pdf(pdf).pages]
    assert len(pages) > 200
    assert all(terms_module.term_list(t) == _whole_text_terms(t) for t in pages)
