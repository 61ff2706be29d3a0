"""Index terms: the one tokeniser and stemmer that the checker and the answerer share.

A claim and the sentence that supports it must reduce to the same terms, or a true claim is
flagged: words broken at line ends are joined, possessives dropped ("MapReduce's"), hyphenated
compounds count whole and by part ("diffusion-limited"), a footnote digit glued to a word
("TIMP1") counts without it, British and American spellings meet ("organisation",
"organization"), and the Snowball English stemmer (PyStemmer, the compiled Snowball library:
"failures" and "failed" both become "fail") does the rest. This module is PyStemmer's only
importer.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable, Iterator
from itertools import chain

import Stemmer

from research_assistant.text import LINE_HYPHEN, STOPWORDS, fold

__all__ = [
    "FOREIGN_FUNCTION_WORDS",
    "FOREIGN_WORDS",
    "foreign",
    "german",
    "stem",
    "term_list",
    "terms",
]

_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
# British -> American endings; only consistency matters, both sides go through the same map.
_SPELLING = (
    (re.compile(r"is(ation|ations|ed|es|ing|er|ers)$"), r"iz\1"),
    (re.compile(r"ise$"), "ize"),
    (re.compile(r"ys(e|ed|es|ing)$"), r"yz\1"),
    (re.compile(r"(?<=\w{3})our(s|ed|ing|ite|ites|able)?$"), r"or\1"),
    (re.compile(r"(?<=\w{2})tre(s)?$"), r"ter\1"),
    (re.compile(r"ogue(s)?$"), r"og\1"),
)
_LOCAL = threading.local()  # Stemmer objects are not thread-safe: one per thread


def _stemmer() -> Stemmer.Stemmer:
    s = getattr(_LOCAL, "stemmer", None)
    if s is None:
        s = _LOCAL.stemmer = Stemmer.Stemmer("english")
    return s


# The endings _SPELLING can change: most words end otherwise and skip its six patterns.
_SPELLING_ENDS = (
    *(f"is{e}" for e in ("ation", "ations", "ed", "es", "ing", "er", "ers", "e")),
    *(f"ys{e}" for e in ("e", "ed", "es", "ing")),
    *(f"our{e}" for e in ("", "s", "ed", "ing", "ite", "ites", "able")),
    "tre", "tres", "ogue", "ogues",
)  # fmt: skip


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The stem of one folded word."""
    if word.endswith(_SPELLING_ENDS):
        for pattern, repl in _SPELLING:
            word = pattern.sub(repl, word)
    return str(_stemmer().stemWord(word))


def _pieces(word: str) -> list[str]:
    word = word.removesuffix("'s").strip("'")
    if "-" in word or "'" in word:
        parts = [p for p in re.split(r"['-]", word) if p]
        return ["".join(parts), *parts]
    if word[-1].isdigit() and word[0].isalpha():  # a footnote mark glued on: "TIMP1"
        return [word, word.rstrip("0123456789")]
    return [word]


@functools.lru_cache(maxsize=200_000)
def _word_terms(word: str) -> tuple[str, ...]:
    """The terms of one folded word (cached: a library's words repeat; 3x faster ingest)."""
    return tuple(
        stem(piece)
        for piece in _pieces(word)
        if not (len(piece) < 2 or piece.isdigit() or piece in STOPWORDS)
    )


@functools.lru_cache(maxsize=200_000)
def _token_terms(token: str) -> tuple[str, ...]:
    """The terms of one whitespace-free piece of text ("MapReduce's", "(Table", "10^6.6,")."""
    return tuple(chain.from_iterable(map(_word_terms, _WORD.findall(fold(token)))))


def _all_terms(text: str) -> Iterator[str]:
    # Folding, finding words and stemming go piece by piece between whitespace, each piece's
    # terms cached (a library's pieces repeat: chunking 2.3x faster than folding whole texts).
    # Equal to the words of the folded text: no word of it spans whitespace, and fold reads
    # nothing across whitespace (tests/test_terms.py compares the two on any text).
    # map and chain iterate in C: a Python loop over the words was a third of chunking's cost.
    return chain.from_iterable(map(_token_terms, LINE_HYPHEN.sub("", text).split()))


def term_list(text: str) -> list[str]:
    """The stemmed content terms of ``text`` in order (repeats kept)."""
    return list(_all_terms(text))


def terms(text: str) -> frozenset[str]:
    """The distinct stemmed content terms of ``text``."""
    return frozenset(_all_terms(text))


# The function words of French, German, Spanish and Italian: a question or claim in one of
# those languages, read against an English library, would weigh them most of all (they are rare
# or absent) and no sentence could cover them; against a German paper they match every sentence.
# fmt: off
FOREIGN_FUNCTION_WORDS = frozenset(term_list(
    "le la les de des du un une et est sont que qui quel quelle quels quelles dans pour par "
    "sur avec selon ce cette ces ils elle elles au aux ou où comment pourquoi quand ne pas "
    "son sa ses leur leurs der die das den dem des ein eine einen einem einer und ist sind "
    "wie welche welcher welches wer wo warum mit von zu im auf für bei aus nach über el los "
    "las del unos unas es son qué cuál cuáles cómo por para con sobre al se su sus lo il lo "
    "gli di della dei è sono che quale come nel peut peuvent pourrait pourraient doit doivent "
    "kann können wird werden wurde wurden puede pueden podría podrían può possono"
))
# fmt: on
FOREIGN_WORDS = 3  # a text with this many of those is not in English


def foreign(found: Iterable[str]) -> bool:
    """Whether terms (of a question or claim) are those of a text not in English."""
    return len(FOREIGN_FUNCTION_WORDS.intersection(found)) >= FOREIGN_WORDS


# Words of German among the languages read here: a text with a few of them is German, writes
# every noun with a capital ("Laufzeit", "Nutzeranfrage") and its number words in German.
_GERMAN = frozenset(
    "der die das den dem des und ist sind wie welche welcher welches wurde wurden nicht mit von "
    "für bei auf über unter wird werden eine einer sowie betrug beträgt".split()
)
_LOWER_WORD = re.compile(r"[^\W\d_]+")


def german(text: str, least: int = 3) -> bool:
    """Whether ``text`` holds at least ``least`` German function words (a question, short,
    needs fewer than a claim or a sentence)."""
    return len(_GERMAN.intersection(_LOWER_WORD.findall(text.lower()))) >= least
