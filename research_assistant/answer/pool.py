"""The sentences an extractive answer may quote, gathered from the retrieved passages (pure):
each passage's usable sentences (``sentences.clean_sentences``) with their terms, kept once
when overlapping chunks repeat them, and for one that names its subject by pointing back ("This
model achieves ..."), the terms of the text before it."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from research_assistant.answer.base import SourcePassage
from research_assistant.answer.sentences import clean_sentences, piece_spans
from research_assistant.tables import row_text, tables
from research_assistant.terms import terms
from research_assistant.text import fold

__all__ = ["ANTECEDENT_SPAN", "SENTENCE_CACHE", "PoolSentence", "cached_terms", "pool"]

SENTENCE_CACHE = 20_000  # passages whose cleaned sentences are kept (about 10 MB)
# A sentence stating the value that names its subject by pointing back ("This model achieves a
# test set accuracy of 88.30 %") has it named up to six sentences before, usable or not (there
# "C. Character tf-idf Features and MLP Classifier ..."). Development (the three sets): one
# more hint stated (dev2-30), none lost; counting "This is ..." too lost dev2-01.
ANTECEDENT_SPAN = 6
TABLE_ROWS = 100_000  # a table row's place among a passage's sentences: after every sentence


@dataclass(frozen=True)
class PoolSentence:
    passage: SourcePassage
    order: tuple[int, int]  # (passage index, sentence index): the deterministic tie-break
    text: str  # as it appears in the answer, before its [Label]
    terms: frozenset[str]
    # "This model achieves 88.30 %": the terms of the sentences before it, usable or not (a
    # garbled heading may be what names "this model")
    antecedent: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=SENTENCE_CACHE)
def cached_terms(text: str) -> frozenset[str]:
    return terms(text)


def pool(passages: Sequence[SourcePassage]) -> list[PoolSentence]:
    """The usable sentences of the passages; a sentence two overlapping chunks (or two copies
    of a paper) share is kept once, in its best-ranked passage."""
    seen: set[str] = set()
    out = []
    for i, p in enumerate(passages):
        for k, text, folded, words, before in _sentences_of(p.text):
            if folded in seen:
                continue
            seen.add(folded)
            out.append(PoolSentence(p, (i, k), text, words, before))
    return out


@functools.lru_cache(maxsize=SENTENCE_CACHE)
def _sentences_of(
    text: str,
) -> tuple[tuple[int, str, str, frozenset[str], frozenset[str]], ...]:
    """A passage's usable sentences, folded, as terms, and for one that names its subject by
    pointing back ("This model ..."), the terms of the text before it: cleaning is most of an
    answer's cost, and the same chunks come back question after question."""
    spans: list[tuple[int, int]] = []
    out = []
    # the rows of a table whose caption or column heads say what its numbers are: after the
    # prose, with their own places (no prose sentence is their neighbour). A row says what its
    # label and heads name; its caption, like the words before a "This model ...", counts only
    # where the question asks for a value ("Table 2: Ablation study on ACE2005 ..." does not
    # make every row an answer to a question on ACE2005).
    if "\n" in text:
        rows = {row_text(r): r for t in tables(text) if t.named for r in t.rows}
        for n, (s, r) in enumerate(rows.items()):
            said = terms(" ".join((r.text, *r.heads)))
            out.append((TABLE_ROWS + n, s, fold(s), said, terms(r.caption) - said))
    for k, s in clean_sentences(text):
        before: frozenset[str] = frozenset()
        if k > 0 and _POINTS_BACK.match(s):
            spans = spans or piece_spans(text)
            before = terms(text[spans[max(0, k - ANTECEDENT_SPAN)][0] : spans[k - 1][1]])
        out.append((k, s, fold(s), terms(s), before))
    return tuple(out)


# "This model", "These networks": a thing named before ("This is similar ..." points back at
# a clause, not at a thing).
_POINTS_BACK = re.compile(
    r"(?:This|These)\s+(?!(?:is|are|was|were|has|have|had|can|could|will|would|may|might|"
    r"means|shows?|indicates?|suggests?|implies|allows?|leads?|results?|makes?|gives?|yields?)\b)"
    r"[a-z][a-z-]+\s"
)
