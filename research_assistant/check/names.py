"""Names a claim uses (pure): systems, methods, places, people; a name the cited paper never
uses is a contradiction no similarity may override."""

from __future__ import annotations

import functools
import re

from research_assistant.quantities import quantities
from research_assistant.terms import german
from research_assistant.units import is_unit

__all__ = ["long_form", "named_years", "names_in", "spelt_out"]

# Capitalised words that are not names: sentence openers, months, common nouns in titles.
_NOT_NAMES = frozenset(
    "the a an this that these those we our in on at for with by from as it its they their "
    "however moreover furthermore thus therefore although while when where which because since "
    "table figure fig section eq equation appendix january february march april may june july "
    "august september october november december i ii iii iv and or but if "
    # German scale words, capitalised as nouns are: "19 Tausend" is a number, read as one
    "hundert tausend million millionen milliarde milliarden billion billionen mio mrd".split()
)
# ... and codes of a capital and digits ("W84", "H100", "T5"): a changed code is a changed name
_NAME = re.compile(
    r"\b(?:[A-Z][a-z]*[A-Z][\w-]*|[A-Z]{2,}[\w-]*|[A-Z][a-z]+(?:-[A-Z][a-z]+)?|[A-Z]\d[\w-]*)\b"
)


def names_in(claim: str) -> tuple[str, ...]:
    """Names the claim uses (systems, methods, places, people; not its sentence opener). In a
    German claim, where every noun has a capital ("Laufzeit", "Abfolge"), only a word with a
    capital past its first letter or a digit is a name ("DYCOS", "CORA-Datensatz", "v4")."""
    out = []
    units: list[str] | None = None  # the units the number reader reads in the claim
    in_german = german(claim)
    for m in _NAME.finditer(claim):
        word = m.group()
        starts_sentence = m.start() == 0 or claim[: m.start()].rstrip().endswith((".", ":", "!"))
        mixed = any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)
        if word.lower() in _NOT_NAMES or ((starts_sentence or in_german) and not mixed):
            continue
        if is_unit(word):
            if units is None:
                units = [q.text for q in quantities(claim) if q.unit]
            if any(text.endswith(word) for text in units):
                continue  # "2,160 MHz", "fünfundzwanzig Sekunden": a number's unit, not a name
        out.append(word)
    return tuple(dict.fromkeys(out))


def spelt_out(name: str, folded: str) -> bool:
    """Whether an acronym of the claim ("SVD") is spelt out in a folded passage ("singular value
    decomposition"): the writer may abbreviate what the paper writes in full."""
    pattern = _spelling(name)
    return pattern is not None and pattern.search(folded) is not None


def long_form(name: str, text: str) -> str:
    """The words of a passage that spell out the acronym ``name`` as a name is spelt: each word
    capitalised ("Singular Value Decomposition") or the acronym after it in parentheses; else
    "". Loose spellings ("size of the vocabulary, d") are not read as the acronym."""
    pattern = _spelling(name)
    if pattern is None:
        return ""
    for m in re.finditer(pattern.pattern, text, re.I):
        words = m.group().replace("-", " ").split()
        named = all(w[:1].isupper() for w in words)
        if named or re.match(rf"\s*\({re.escape(name)}s?\)", text[m.end() : m.end() + 12]):
            return m.group()
    return ""


@functools.lru_cache(maxsize=4096)
def _spelling(name: str) -> re.Pattern[str] | None:
    if not (2 <= len(name) <= 6 and name.isalpha() and name.isupper()):
        return None
    words = r"[\s-]+".join(re.escape(c) + r"\w*" for c in name.lower())
    return re.compile(rf"\b{words}")


# "AVE 2008", "SemEval 2010", "CLEF-2008": a year that is part of a name (an event, a dataset):
# a word of two capitals or more before it (one bounded run: linear on any input).
_NAMED_YEAR = re.compile(r"\b([A-Z][A-Za-z]{1,30})[\s-]((?:19|20)\d\d)\b")


def named_years(claim: str) -> tuple[tuple[str, str], ...]:
    """(name with its year, the year) for each year the claim writes as part of a name."""
    return tuple(
        (m.group(), m.group(2))
        for m in _NAMED_YEAR.finditer(claim)
        if sum(c.isupper() for c in m.group(1)) >= 2
    )
