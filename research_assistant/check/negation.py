"""Which words a negation governs (pure): "does not need to be re-executed", "fails to
converge", "is entirely unknown"; and which do not negate ("not only X but also Y").

``polarity`` compares what a claim and a passage negate: a negation on one side only is a
contradiction that no similarity may override.
"""

from __future__ import annotations

import re

from research_assistant.check.lexicon import words_of
from research_assistant.terms import stem

__all__ = [
    "NEGATION",
    "SOFT_NEGATION",
    "WIDE_SCOPE",
    "negated_by",
    "negated_in",
    "negation_word",
]

NEGATION = frozenset(
    "not no never none neither nor cannot can't don't doesn't didn't isn't aren't wasn't weren't "
    "won't unable nothing nobody barely hardly scarcely".split()
)
_SCOPE = 4  # words after a negation that it governs
# A negation on one side only is a contradiction, unless the other side has a negation that
# reaches the same words within this many: "makes no difference to how well it performs" and
# "does not affect the Selector's performance", "need not be a verb" and "is not necessary to
# be a verb" deny the same thing in other words. Development claims (twelve sets): two true
# paraphrases verified, nothing else moved at 6, 8 or 10 words; at 14 a two-part claim leaks.
WIDE_SCOPE = 8
# Verbs that take "not" as modals do: "need not be rerun" is "does not need to be rerun"
_NOT_AFTER = frozenset({"need", "needs", "dare"})
_FAIL = frozenset({"fail", "fails", "failed", "failing"})  # "fails to converge" negates
# "not only X but also Y" states X and Y: no negation.
_NOT_ONLY = frozenset({"only", "just", "merely", "simply", "solely"})
# Adjectives that deny what they are said of, usually after it ("the temperature is entirely
# unknown"): they govern the words before them as well as after.
_DENYING = frozenset({"unknown", "unclear", "unavailable", "impossible", "infeasible", "absent"})
_BOUNDS = [["more", "than"], ["less", "than"], ["fewer", "than"]]
_CONTRAST = frozenset({"but", "rather", "instead"})  # "not X but Y": the scope ends before Y


def negated_by(
    words: list[str], negations: frozenset[str] | None = None, scope: int = _SCOPE
) -> set[str]:
    """Stems of the content words a negation governs (``negations``: other negating words;
    ``scope``: words after it)."""
    out: set[str] = set()
    for at, w in enumerate(words):
        i = at
        if negations is not None:
            hit = w in negations
        else:
            failed = w in _FAIL and i + 1 < len(words) and words[i + 1] == "to"
            hit = w in NEGATION or w.endswith("n't") or failed or w in _DENYING
            if (
                hit
                and (  # "not only X but also Y"; "no more than 17,029": a bound (quantities)
                    (w == "not" and words[i + 1 : i + 2] and words[i + 1] in _NOT_ONLY)
                    or words[i + 1 : i + 3] in _BOUNDS
                )
            ):
                hit = False
        if hit and w in _PAIRED:  # "rather than the year": the words after "than"
            hit = words[i + 1 : i + 2] == [_PAIRED[w]]
            i += 1
        if hit:
            governed = words[i + 1 : i + 1 + scope]
            for j, x in enumerate(governed):  # "not dark energy but dark matter": the words
                if x in _CONTRAST:  # after "but" are affirmed
                    governed = governed[:j]
                    break
            out.update(stem(x) for x in governed if len(x) > 2)
            if w in _DENYING:
                out.update(stem(x) for x in words[max(0, i - _SCOPE) : i] if len(x) > 2)
            if i and words[i - 1] in _NOT_AFTER and w == "not":
                out.add(stem(words[i - 1]))
    return out


_CLAUSE_END = re.compile(r"[,;:]\s")


def negated_in(folded: str, words: list[str], negations: frozenset[str] | None = None) -> set[str]:
    """``negated_by`` over ``words`` (the words of ``folded``), each negation's scope ending
    with its clause: "there are no compiled traces yet, so the trace monitor counts" does not
    deny the trace monitor; "CiteRead, which is not personalised, decorates the open paper"
    does not deny the open paper."""
    out = negated_by(words, negations)
    if not out or not _CLAUSE_END.search(folded):
        return out
    return set().union(*(negated_by(words_of(c), negations) for c in _CLAUSE_END.split(folded)))


# Words that negate what follows only sometimes ("without backup tasks" is a setting, not a
# denial): they count where the other side negates the same words ("without making accuracy
# better" states "does not improve accuracy"), and never make a contradiction on their own.
# "Y rather than X", "Y instead of X" set X aside: soft too ("the date of the report rather than
# the year" and "not the year ... but the year of the report" say one thing).
SOFT_NEGATION = frozenset({"without", "lack", "lacks", "lacking", "rather", "instead"})
_PAIRED = {"rather": "than", "instead": "of"}


def negation_word(words: list[str]) -> str:
    """The word that negates in ``words``, as written, for an explanation."""
    for i, w in enumerate(words):
        if w in NEGATION or w.endswith("n't") or w in _DENYING:
            return w
        if w in _FAIL and words[i + 1 : i + 2] == ["to"]:
            return f"{w} to"
    return "not"
