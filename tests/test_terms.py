"""terms.py: the one tokeniser and stemmer of the checker and the answerer."""

from __future__ import annotations

import threading

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
