"""How well a sentence fits what a question asks, beyond sharing its words (pure).

The value a question asks for ("how long", "how many", "which year") and whether a sentence
states it; the question's values that a sentence states in other words ("1 TB" and "1
terabyte"); names the library never mentions; question words the library spells another way
("licence" and "license"). The extractive answerer scores sentences with these.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import replace

from research_assistant.answer.asking import RATE, Asked
from research_assistant.quantities import Quantity, agree, quantities
from research_assistant.terms import term_list, terms

__all__ = [
    "names_unknown",
    "near_forms",
    "quantities_of",
    "respelled",
    "stated_terms",
    "value_fit",
]

# The fit of a number that is near the counted thing, or anywhere in the sentence, when the
# question names no unit (development questions, docs/BENCHMARKS.md "Answers that answer").
VALUE_NEARBY, VALUE_ANY = 0.6, 0.3
CACHE = 160_000

# Endings written two ways in English that the house stemmer leaves apart ("licence" and
# "license", "defence" and "defense", "anaemia" and "anemia"): tried on a question term the
# library never uses, both ways.
_VARIANTS = (("enc", "ens"), ("ae", "e"), ("oe", "e"), ("ll", "l"), ("ogu", "og"))
# Two stems are forms of one word when they share all but the last letter of the shorter and
# at least this many ("respond" and "respons", "detect" and "detector"): the stemmer leaves
# some derived forms apart.
NEAR_FORM_PREFIX = 5


@functools.lru_cache(maxsize=CACHE)
def quantities_of(text: str) -> tuple[Quantity, ...]:
    return quantities(text)


def value_fit(asked: Asked, text: str) -> float:
    """How well the sentence states the value asked for: 1 when a number stands beside the
    thing counted or in the unit asked, less when it only holds some number, 0 when none (a
    number the question itself gives, or a year when no year is asked, does not count)."""
    if not asked.value:
        return 1.0
    if asked.rate and not RATE.search(text):
        return 0.0  # "queries per second" is not answered by "50 queries"
    asked_numbers = {q.value for q in quantities_of(asked.question)}
    best = 0.0
    lowered = text.lower()
    counted: set[str] = set()  # the counted things a number stands beside
    for q in quantities_of(text):
        year_like = q.unit == "" and q.value.is_integer() and 1900 <= q.value <= 2099
        if asked.value == "year":
            best = max(best, 1.0 if year_like else 0.0)
            continue
        if q.value in asked_numbers or year_like:
            continue
        if q.unit in asked.units:
            return 1.0
        if set(asked.counted) & q.role:
            counted |= set(asked.counted) & q.role
            continue
        if asked.units:
            continue  # "how long" is answered by a time, not by "1 terabyte" or "44%"
        best = max(best, VALUE_NEARBY if any(c in lowered for c in asked.counted) else VALUE_ANY)
    if counted:  # "how many languages and paragraphs": a number beside each fits best
        return VALUE_NEARBY + (1 - VALUE_NEARBY) * len(counted) / len(set(asked.counted))
    return best


def stated_terms(
    question: str, texts: Iterable[tuple[tuple[int, int], str]]
) -> dict[tuple[int, int], frozenset[str]]:
    """The question's terms each sentence (by its order key) states as a value: "1 TB" in the
    question is covered by "1 terabyte" in a sentence (the number reader compares values and
    units)."""
    with_units = [q for q in quantities_of(question) if q.unit]
    if not with_units:
        return {}
    out = {}
    for order, text in texts:
        found = quantities_of(text)
        got = frozenset(
            t for q in with_units if any(agree(q, e) for e in found) for t in terms(q.text)
        )
        if got:
            out[order] = got
    return out


def names_unknown(asked: Asked, vocabulary: Mapping[str, float]) -> bool:
    """True when the question names something ("Hadoop", "GPT-3") that no chunk of the library
    mentions: then the library cannot answer it, however much of the rest it covers."""
    if not vocabulary:
        return False
    return not names_known(asked, vocabulary)


def names_known(asked: Asked, vocabulary: Container[str]) -> bool:
    """True when ``vocabulary`` (a library's or a paper's terms) holds every name the
    question uses."""
    return all(_known(name, vocabulary) for name in asked.names)


def _known(name: tuple[str, ...], vocabulary: Container[str]) -> bool:
    """The library knows a name when it has the whole word, or one of its two or more parts
    ("Lemaitre-Tolman" written with another dash, or its accent garbled by the PDF)."""
    whole, *parts = name
    words = [p for p in parts if not p.isdigit()]
    return whole in vocabulary or (len(words) >= 2 and any(p in vocabulary for p in words))


def respelled(asked: Asked, vocabulary: Mapping[str, float]) -> Asked:
    """The question with each term the library never uses replaced by a spelling of it the
    library does use ("licenc" -> "licens"); unchanged without a vocabulary."""
    if not vocabulary:
        return asked
    own = tuple(dict.fromkeys(_respell(t, vocabulary) for t in asked.terms))
    earlier = tuple(dict.fromkeys(_respell(t, vocabulary) for t in asked.earlier))
    if own == asked.terms and earlier == asked.earlier:
        return asked
    return replace(asked, terms=own, earlier=tuple(t for t in earlier if t not in own))


def _respell(term: str, vocabulary: Mapping[str, float]) -> str:
    if term in vocabulary:
        return term
    for a, b in _VARIANTS:
        for old, new in ((a, b), (b, a)):
            if old in term:
                other = term.replace(old, new)
                if other in vocabulary:
                    return other
    return term


def near_forms(wanted: Iterable[str], have: Iterable[str]) -> dict[str, frozenset[str]]:
    """For each wanted term, the other terms of ``have`` that are forms of the same word."""
    by_prefix: dict[str, set[str]] = {}
    for u in have:
        if len(u) >= NEAR_FORM_PREFIX:
            by_prefix.setdefault(u[:NEAR_FORM_PREFIX], set()).add(u)
    out = {}
    for t in wanted:
        if len(t) < NEAR_FORM_PREFIX or t.isdigit():
            continue
        found = frozenset(
            u
            for u in by_prefix.get(t[:NEAR_FORM_PREFIX], ())
            if u != t and _shared(t, u) >= max(NEAR_FORM_PREFIX, min(len(t), len(u)) - 1)
        )
        if found:
            out[t] = found
    return out


def _shared(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


# "large language model (LLM)", "named-entity (NE) recognizer": a short form defined in
# parentheses after the words whose initials it takes.
_DEFINED = re.compile(r"((?:[^\W\d_]+[\s-]+){1,8})\(([A-Z]{2,6})s?\)")


@functools.lru_cache(maxsize=CACHE // 8)
def abbreviations(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The short forms a passage defines, each with the terms of its long form: a sentence
    that writes "LLM" covers "language model" of a question."""
    out = []
    for m in _DEFINED.finditer(text):
        short = m.group(2)
        words = re.split(r"[\s-]+", m.group(1).strip())[-len(short) :]
        if len(words) == len(short) and all(
            w[:1].lower() == c.lower() for w, c in zip(words, short, strict=True)
        ):
            long, key = terms(" ".join(words)), term_list(short)
            if long and key:
                out.append((key[0], long))
    return tuple(out)


# "How does X work?" asks for a step or a mechanism: a sentence that gives one ("works by",
# "we propose", "is repeated", "in each iteration") fits better than one that names the
# method or states the problem ("is called", "If ...", "However, in order to ..."). The cues
# were written while reading the development answer sentences; the weight was chosen on the
# development questions: 0.10 changed no answer, 0.15 stated one hint more, 0.25 and 0.35 two
# more (sample and aggregate, DeepDream's zooming), none lost, no refusal changed (it ranks,
# the gate does not read it).
HOW_FIT = 0.25
_HOW_ASKED = re.compile(
    r"^\s*how\s+(?:does|do|did|can|could|is|are|was|were|should|would)\b|\band\s+how\b", re.I
)
_MECHANISM = re.compile(
    r"\b(?:we|it|they|the\s+\w+)\s+(?:propose|present|allow|introduce|develop|use|uses|apply|"
    r"applies|train|trains)\b|\bworks?\s+by\b"
    r"|\bby\s+\w+ing\b|\bis\s+(?:done|achieved|computed|obtained)\s+by\b|\bin\s+each\b"
    r"|\biterat|\bis\s+repeated\b|\bfirst\b.*\bthen\b",
    re.I,
)
_NOT_MECHANISM = re.compile(
    r"^(?:if|however|although|unfortunately|in\s+some\s+cases)\b|\b(?:is|are)\s+called\b"
    r"|\bone\s+needs\s+to\b|\bto\s+the\s+best\s+of\s+our\s+knowledge\b",
    re.I,
)


def how_fit(question: str, text: str) -> float:
    """How well the sentence fits a "how" question: above 1 when it gives a step, below when
    it names the method or states the problem, 1 otherwise (and for other questions)."""
    if not _HOW_ASKED.search(question):
        return 1.0
    if _NOT_MECHANISM.search(text):
        return 1 - HOW_FIT
    return 1 + HOW_FIT if _MECHANISM.search(text) else 1.0
