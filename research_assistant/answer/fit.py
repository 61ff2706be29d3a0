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

from research_assistant.agreement import agree
from research_assistant.answer.asking import METHOD_OPENING, RATE, Asked
from research_assistant.quantities import Quantity, quantities
from research_assistant.terms import term_list, terms
from research_assistant.text import STOPWORDS

__all__ = [
    "asks_definition",
    "asks_mechanism",
    "define_fit",
    "kind_fit",
    "names_unknown",
    "near_forms",
    "quantities_of",
    "respelled",
    "stated_terms",
    "value_fit",
    "why_fit",
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


# Numbers that name a part of the paper or of the study, not a value: "in Study 2", "Table 3".
_LABEL_NUMBER = re.compile(
    r"\b(?:study|table|figure|fig\.|section|sec\.|experiment|appendix|eq\.|equation|chapter|"
    r"phase|step|stage|round|condition|model|group|version)\s+(\d+)\b(?![.,]\d)",
    re.IGNORECASE,
)
# "(N=10)", "n = 881": the size of a sample, a count of the people counted.
_SAMPLE_SIZE = re.compile(r"(?<![\w=])[Nn]\s*=\s*\d")
_PEOPLE = frozenset(
    "partic subjec people person users user respon patien volunt studen annota "
    "resear adults childr interv".split()
)  # ``Asked.counted`` is 6-letter prefixes
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.IGNORECASE)


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
    if set(asked.counted) & _PEOPLE and _SAMPLE_SIZE.search(text):
        return 1.0  # "How many participants ...": "a lab study (N=10)"
    best = 0.0
    lowered = text.lower()
    counted: set[str] = set()  # the counted things a number stands beside
    labels = {m.group(1) for m in _LABEL_NUMBER.finditer(text)}
    # "how many machines" is a count: "30 MB/s" or "1 hour" near "machine" does not answer it
    count_only = asked.value == "number" and not asked.units and _HOW_MANY.search(asked.question)
    for q in quantities_of(text):
        year_like = q.unit == "" and q.value.is_integer() and 1900 <= q.value <= 2099
        if asked.value == "year":
            best = max(best, 1.0 if year_like else 0.0)
            continue
        if q.value in asked_numbers or year_like or (q.unit == "" and q.text in labels):
            continue
        if count_only and q.unit not in ("", "%", "x"):
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
# "bag-of-words (BoW)" too: a short form may hold small letters, its first and one more capital.
# Found from the parenthesis back (the words run is searched only where a short form stands:
# 14 times faster than one pattern over the passage, 1.1 ms a passage at 10,000 papers).
_SHORT_FORM = re.compile(r"\(([A-Z][A-Za-z]{1,5})\)")
_WORDS_BEFORE = re.compile(r"(?:[^\W\d_]+[\s-]+){1,8}\Z")
_LOOK_BACK = 400  # characters: more than 8 words


@functools.lru_cache(maxsize=CACHE // 8)
def abbreviations(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The short forms a passage defines, each with the terms of its long form: a sentence
    that writes "LLM" covers "language model" of a question."""
    out = []
    for m in _SHORT_FORM.finditer(text):
        run = _WORDS_BEFORE.search(text, max(0, m.start() - _LOOK_BACK), m.start())
        if run is None:
            continue
        written = m.group(1)
        for short in (written, written[:-1] if written.endswith("s") else ""):  # "LLMs"
            if sum(c.isupper() for c in short) < 2:
                continue
            words = re.split(r"[\s-]+", run.group().strip())[-len(short) :]
            if len(words) == len(short) and all(
                w[:1].lower() == c.lower() for w, c in zip(words, short, strict=True)
            ):
                long, key = terms(" ".join(words)), term_list(short)
                if long and key:
                    out.append((key[0], long))
                break
    return tuple(out)


# "How does X work?" asks for a step or a mechanism: a sentence that gives one ("works by",
# "we propose", "is repeated", "in each iteration") fits better than one that names the
# method or states the problem ("is called", "If ...", "However, in order to ..."). The cues
# were written while reading the development answer sentences; the weight was chosen on the
# development questions: 0.10 changed no answer, 0.15 stated one hint more, 0.25 and 0.35 two
# more (sample and aggregate, DeepDream's zooming), none lost, no refusal changed (it ranks,
# the gate does not read it).
HOW_FIT = 0.25
_HOW_ASKED = re.compile(METHOD_OPENING + r"|\band\s+how\b", re.I)
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


def asks_mechanism(question: str) -> bool:
    """True for a "How does X ...?" question: it asks for a step or a mechanism."""
    return bool(_HOW_ASKED.search(question))


def how_fit(question: str, text: str) -> float:
    """How well the sentence fits a "how" question: above 1 when it gives a step, below when
    it names the method or states the problem, 1 otherwise (and for other questions)."""
    if not _HOW_ASKED.search(question):
        return 1.0
    if _NOT_MECHANISM.search(text):
        return 1 - HOW_FIT
    return 1 + HOW_FIT if _MECHANISM.search(text) else 1.0


# "Why ...?" asks for a reason: a sentence that gives one ("because", "since its ability",
# "due to", "so that") fits better. The weight of ``HOW_FIT``; development (the three sets,
# tests/data/QUESTIONS_DEV3.md): with ``DEFINE_FIT`` it stated two more hints (the re-run map
# tasks, the guard), none lost; 0.4 for both changed nothing more.
WHY_FIT = 0.25
_WHY_ASKED = re.compile(r"^\s*(?:and\s+)?why\b", re.IGNORECASE)
_REASON = re.compile(
    r"\b(?:because|since|due\s+to|owing\s+to|as\s+a\s+result|so\s+that|in\s+order\s+to|"
    r"the\s+reason|therefore|thus|hence|caused\s+by|allows?|enables?|avoids?|prevents?)\b",
    re.IGNORECASE,
)
# "What is X?" asks for a definition: a sentence that defines X ("X, which are checks ...",
# "X is a ...", "called X", "X refers to", "defined as X", "X, defined as") fits better. Same
# weight, same data.
DEFINE_FIT = 0.25
_DEFINE_ASKED = re.compile(
    r"^\s*what\s+(?:is|are)\s+(?:a|an|the)?\s*([^\W\d_][\w\s-]{0,60}?)\s*\??\s*$",
    re.IGNORECASE,
)
_DEFINES = (
    r"{x}\w*\s*,?\s*(?:which|that)\s+(?:is|are)\b",
    r"{x}\w*\s*(?:\([^)]*\)\s*)?(?:is|are)\s+(?:a|an|the|defined|called|known)\b",
    r"\b(?:called|named|termed|known\s+as|defined\s+as)\s+(?:an?\s+|the\s+)?(?:\w+\s+){{0,2}}{x}",
    r"{x}\w*\s*(?:,\s*)?(?:refers?\s+to|means|denotes|i\.e\.|(?:is\s+)?defined\s+as)",
)


def why_fit(question: str, text: str) -> float:
    """Above 1 when a "why" question is answered by a sentence giving a reason; else 1."""
    if not _WHY_ASKED.search(question):
        return 1.0
    return 1 + WHY_FIT if _REASON.search(text) else 1.0


@functools.lru_cache(maxsize=CACHE // 8)
def _definition_pattern(question: str) -> re.Pattern[str] | None:
    m = _DEFINE_ASKED.match(question)
    if m is None:
        return None
    words = []
    for w in m.group(1).split():  # "a guard in a trace": the thing defined ends before "in"
        if w.lower() in STOPWORDS:
            break
        words.append(w)
    if not words:
        return None
    stem = term_list(words[-1])
    if stem and len(stem[0]) >= 3:  # its stem, less a letter: "guards", "guard", "guarded"
        x = r"\b" + re.escape(stem[0][: max(3, len(stem[0]) - 1)])
    elif len(words[-1]) >= 2:  # "AI", "RL": as written
        x = r"\b" + re.escape(words[-1])
    else:
        return None
    return re.compile("|".join(p.format(x=x) for p in _DEFINES), re.IGNORECASE)


def asks_definition(question: str) -> bool:
    """True for a "What is X?" question."""
    return _definition_pattern(question) is not None


def define_fit(question: str, text: str) -> float:
    """Above 1 when a "What is X?" question is answered by a sentence that defines X ("guards,
    which are checks that verify ..."); else 1."""
    pattern = _definition_pattern(question)
    if pattern is None:
        return 1.0
    return 1 + DEFINE_FIT if pattern.search(text) else 1.0


def kind_fit(question: str, text: str) -> float:
    """How well the sentence gives the kind of answer asked for: a step for "how", a reason
    for "why", a definition for "what is"."""
    return how_fit(question, text) * why_fit(question, text) * define_fit(question, text)
