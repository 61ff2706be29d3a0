"""What similarity cannot see: negation, direction and names (pure).

"Backup tasks shorten the sort" and "backup tasks lengthen the sort" share almost every word;
so do "X outperforms Y" and "X underperforms Y", and "does" and "does not". These checks read
the claim and the passage as words and report a contradiction; the verifier never lets a
similarity score override one.
"""

from __future__ import annotations

import re

from research_assistant.terms import stem

__all__ = ["conflict_of", "names_in"]

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_NEGATION = frozenset(
    "not no never none neither nor cannot can't don't doesn't didn't isn't aren't wasn't weren't "
    "won't unable nothing nobody".split()
)
_SCOPE = 4  # words after a negation that it governs
# Opposite directions, as words (stemmed below); each contradicts the words paired with it.
_OPPOSITES = [
    ("increase", "decrease"), ("increase", "reduce"), ("increase", "lower"), ("rise", "fall"),
    ("rise", "drop"), ("grow", "shrink"), ("gain", "loss"), ("higher", "lower"),
    ("more", "fewer"), ("more", "less"), ("larger", "smaller"), ("greater", "smaller"),
    ("greater", "less"), ("bigger", "smaller"), ("faster", "slower"), ("longer", "shorter"),
    ("better", "worse"), ("improve", "degrade"), ("improve", "worsen"),
    ("outperform", "underperform"), ("above", "below"), ("before", "after"),
    ("earlier", "later"), ("most", "least"), ("maximum", "minimum"), ("positive", "negative"),
    ("positively", "negatively"), ("strong", "weak"), ("stronger", "weaker"), ("high", "low"),
    ("success", "failure"), ("accept", "reject"), ("accelerate", "decelerate"),
    ("wider", "narrower"), ("heavier", "lighter"), ("older", "younger"), ("exceed", "below"),
    ("overestimate", "underestimate"), ("warm", "cool"), ("hotter", "colder"),
    ("easier", "harder"), ("cheaper", "expensive"), ("simpler", "complex"), ("well", "poorly"),
    ("good", "bad"), ("best", "worst"), ("enhance", "impair"), ("promote", "inhibit"),
    ("support", "contradict"), ("agree", "disagree"), ("consistent", "inconsistent"),
    ("significant", "insignificant"), ("stable", "unstable"), ("above", "under"),
    ("win", "lose"), ("faster", "longer"), ("quicker", "longer"), ("slower", "shorter"),
]  # fmt: skip
_OPPOSITE: dict[str, set[str]] = {}
for _a, _b in _OPPOSITES:
    _OPPOSITE.setdefault(stem(_a), set()).add(stem(_b))
    _OPPOSITE.setdefault(stem(_b), set()).add(stem(_a))
# Irregular past forms the stemmer leaves alone.
_IRREGULAR = {
    "rose": "rise",
    "risen": "rise",
    "fell": "fall",
    "fallen": "fall",
    "grew": "grow",
    "grown": "grow",
    "shrank": "shrink",
    "shrunk": "shrink",
    "won": "win",
    "lost": "lose",
}
# Capitalised words that are not names: sentence openers, months, common nouns in titles.
_NOT_NAMES = frozenset(
    "the a an this that these those we our in on at for with by from as it its they their "
    "however moreover furthermore thus therefore although while when where which because since "
    "table figure fig section eq equation appendix january february march april may june july "
    "august september october november december i ii iii iv and or but if".split()
)
_NAME = re.compile(r"\b(?:[A-Z][a-z]*[A-Z][\w-]*|[A-Z]{2,}[\w-]*|[A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")


def _words(folded: str) -> list[str]:
    return [_IRREGULAR.get(w, w) for w in _TOKEN.findall(folded)]


def _negated(words: list[str]) -> set[str]:
    """Stems of the content words a negation governs."""
    out: set[str] = set()
    for i, w in enumerate(words):
        if w in _NEGATION or w.endswith("n't"):
            out.update(stem(x) for x in words[i + 1 : i + 1 + _SCOPE] if len(x) > 2)
    return out


def conflict_of(folded_claim: str, folded_passage: str) -> str:
    """Why the passage contradicts the claim ("negation", "direction: X vs Y"), else ""."""
    cw, pw = _words(folded_claim), _words(folded_passage)
    claim_stems = {stem(w) for w in cw}
    passage_stems = {stem(w) for w in pw}
    shared = claim_stems & passage_stems
    claim_neg = _negated(cw) & shared
    passage_neg = _negated(pw) & shared
    if bool(claim_neg) != bool(passage_neg):
        return "negation"
    for s in claim_stems - passage_stems:
        opposite = _OPPOSITE.get(s)
        if opposite and opposite & passage_stems:
            other = sorted(opposite & passage_stems)[0]
            return f"direction: {s} vs {other}"
    return ""


def names_in(claim: str) -> tuple[str, ...]:
    """Names the claim uses (systems, methods, places, people; not its sentence opener)."""
    out = []
    for m in _NAME.finditer(claim):
        word = m.group()
        starts_sentence = m.start() == 0 or claim[: m.start()].rstrip().endswith((".", ":", "!"))
        mixed = any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)
        if word.lower() in _NOT_NAMES or (starts_sentence and not mixed):
            continue
        out.append(word)
    return tuple(dict.fromkeys(out))
