"""What similarity cannot see: negation, direction and names (pure).

"Backup tasks shorten the sort" and "backup tasks lengthen the sort" share almost every word;
so do "X outperforms Y" and "X underperforms Y", and "does" and "does not". These checks read
the claim and the passage as words and report a contradiction; the verifier never lets a
similarity score override one.
"""

from __future__ import annotations

import re

from research_assistant.terms import stem
from research_assistant.text import STOPWORDS

__all__ = ["Reading", "conflict_of", "may_conflict", "names_in", "stems_of", "unstated"]

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_NEGATION = frozenset(
    "not no never none neither nor cannot can't don't doesn't didn't isn't aren't wasn't weren't "
    "won't unable nothing nobody".split()
)
_SCOPE = 4  # words after a negation that it governs
_FAIL = frozenset({"fail", "fails", "failed", "failing"})  # "fails to converge" negates
# Words that order two sides ("A outperforms B", "A is faster than B"): swapping the sides
# reverses the finding. "by" after one ("outperformed by") swaps them back.
_COMPARATIVES = frozenset(
    stem(w) for w in "outperform beat surpass exceed than superior inferior dominate prefer".split()
)
_SIDE = 6  # words either side of a comparative that name its two sides
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
    ("sooner", "later"), ("sooner", "longer"), ("sooner", "slower"), ("quicker", "slower"),
    ("shorten", "lengthen"), ("increase", "drop"), ("raise", "lower"), ("raise", "reduce"),
    ("boost", "reduce"), ("boost", "lower"), ("superior", "inferior"), ("maximize", "minimize"),
    ("expand", "contract"), ("strengthen", "weaken"), ("help", "hurt"), ("benefit", "harm"),
    ("advantage", "disadvantage"), ("efficient", "inefficient"), ("accurate", "inaccurate"),
    ("likely", "unlikely"), ("possible", "impossible"), ("include", "exclude"),
    ("present", "absent"), ("upregulate", "downregulate"), ("overexpress", "underexpress"),
    ("activate", "inhibit"), ("speedup", "slowdown"), ("cheaper", "costlier"),
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
        failed = w in _FAIL and i + 1 < len(words) and words[i + 1] == "to"
        if w in _NEGATION or w.endswith("n't") or failed:
            out.update(stem(x) for x in words[i + 1 : i + 1 + _SCOPE] if len(x) > 2)
    return out


class Reading:
    """A text read once for these checks: its words, their stems, and the stems a negation
    governs. The checker keeps one per passage sentence, so a check reads only its claim."""

    __slots__ = ("negated", "stem_set", "stems", "words")

    def __init__(self, folded: str) -> None:
        self.words = _words(folded)
        self.stems = [stem(w) for w in self.words]
        self.stem_set = set(self.stems)
        self.negated = _negated(self.words)


def _read(text: str | Reading) -> Reading:
    return text if isinstance(text, Reading) else Reading(text)


def _sides(
    words: list[str], stems: list[str], shared: set[str]
) -> list[tuple[set[str], set[str], set[str]]]:
    """Per comparative of the text: its stem and the shared content stems before and after."""
    out = []
    for i, s in enumerate(stems):
        if s not in _COMPARATIVES:
            continue
        before = {x for x in stems[max(0, i - _SIDE) : i] if x in shared}
        after = {x for x in stems[i + 1 : i + 1 + _SIDE] if x in shared}
        if i + 1 < len(words) and words[i + 1] == "by":  # passive: the sides swap
            before, after = after, before
        out.append(({s}, before - after, after - before))
    return out


def _reversed(claim: Reading, passage: Reading, shared: set[str]) -> str:
    """The comparative whose two sides the passage swaps ("B outperforms A" for "A outperforms
    B"), else ""."""
    if not claim.stem_set & _COMPARATIVES:
        return ""
    cw = claim.words
    shared = {s for s in shared if len(s) > 2 and s not in STOPWORDS and s not in _COMPARATIVES}
    claim_sides = _sides(cw, claim.stems, shared)
    if not claim_sides:
        return ""
    passage_sides = _sides(passage.words, passage.stems, shared)
    for mark, left, right in claim_sides:
        for other, pleft, pright in passage_sides:
            if mark == other and left & pright and right & pleft:
                ours, theirs = sorted(left & pright)[0], sorted(right & pleft)[0]
                word = _surface(cw, next(iter(mark)))
                return f"{word}: {_surface(cw, ours)} vs {_surface(cw, theirs)}"
    return ""


def may_conflict(claim_stems: set[str], passage_stems: set[str]) -> bool:
    """Whether the passage holds an opposite of a direction word of the claim, or shares one of
    its comparatives: worth reading in full with ``conflict_of``."""
    if claim_stems & passage_stems & _COMPARATIVES:
        return True
    return any((o := _OPPOSITE.get(s)) and o & passage_stems for s in claim_stems)


# Direction words that carry a finding (a change or a comparison), which a supporting passage
# must state; superlatives and adjectives ("best", "high", "strong") describe, and are left out.
_FINDINGS = frozenset(
    stem(w)
    for w in (
        "increase decrease reduce lower rise fall drop grow shrink higher more fewer less larger "
        "smaller greater bigger faster slower longer shorter better worse improve degrade worsen "
        "outperform underperform positive negative exceed overestimate underestimate accelerate "
        "decelerate enhance impair promote inhibit sooner quicker shorten lengthen raise boost "
        "superior inferior upregulate downregulate"
    ).split()
)


# Words of one sense: a passage stating any of them states the finding of a claim using another
# ("the sort ran 44% longer" is stated by "took 44% more time"... only as far as listed here).
_SENSES = [
    "increase rise grow gain raise boost higher more larger greater bigger enhance exceed expand "
    "climb jump soar elevate amplify add up",
    "decrease reduce lower fall drop decline shrink less fewer smaller cut diminish lessen slash "
    "dip attenuate suppress down",
    "faster quicker sooner speedup accelerate shorter shorten",
    "slower longer later slowdown decelerate lengthen",
    "better improve outperform superior beat surpass enhance exceed",
    "worse degrade worsen underperform inferior impair hurt",
]
_SAME: dict[str, set[str]] = {}
for _group in _SENSES:
    _stems = {stem(w) for w in _group.split()}
    for _s in _stems:
        _SAME.setdefault(_s, set()).update(_stems)


def unstated(claim: str | Reading, passage_stems: set[str]) -> tuple[str, ...]:
    """The claim's finding words ("more", "negative", "outperform") that the passage states
    neither as written nor by a word of the same sense (one sharing an opposite: "reduce" for
    "decrease"): a passage without them is on the topic but does not state the finding. A
    bound on a number ("more than 100") is the number check's."""
    reading = _read(claim)
    if not reading.stem_set & _FINDINGS:
        return ()
    words = reading.words
    out: list[str] = []
    seen: set[str] = set()
    for i, (w, s) in enumerate(zip(words, reading.stems, strict=True)):
        if s not in _FINDINGS or s in passage_stems or s in seen:
            continue
        seen.add(s)
        if words[i + 1 : i + 2] == ["than"] and words[i + 2 : i + 3] and words[i + 2][0].isdigit():
            continue
        same = {x for o in _OPPOSITE.get(s, ()) for x in _OPPOSITE.get(o, ())}
        same |= _SAME.get(s, set())
        if not same & passage_stems:
            out.append(w)
    return tuple(out)


def stems_of(folded: str) -> set[str]:
    """The stems of every word of a folded text (stopwords kept: "more", "not")."""
    return Reading(folded).stem_set


def conflict_of(claim: str | Reading, passage: str | Reading) -> str:
    """Why the passage contradicts the claim ("negation: passage not", "direction: faster vs
    slower" (the claim's word, the passage's), "reversal: than: A vs B"), else "". Each side is
    a folded text or its Reading."""
    c, p = _read(claim), _read(passage)
    cw, pw = c.words, p.words
    claim_stems, passage_stems = c.stem_set, p.stem_set
    shared = claim_stems & passage_stems
    claim_neg = c.negated & shared
    passage_neg = p.negated & shared
    if bool(claim_neg) != bool(passage_neg):
        side = "passage" if passage_neg else "claim"
        return f"negation: {side} {_negation_word(pw if passage_neg else cw)}"
    reversal = _reversed(c, p, shared)
    for s in sorted(claim_stems - passage_stems):
        opposite = _OPPOSITE.get(s)
        if opposite and opposite & passage_stems:
            if reversal:  # "B is slower than A" for "A is faster than B": the same finding
                return ""
            other = sorted(opposite & passage_stems)[0]
            return f"direction: {_surface(cw, s)} vs {_surface(pw, other)}"
    return f"reversal: {reversal}" if reversal else ""


def _surface(words: list[str], s: str) -> str:
    """The word as written whose stem is ``s``: explanations quote words, not stems."""
    return next((w for w in words if stem(w) == s), s)


def _negation_word(words: list[str]) -> str:
    for i, w in enumerate(words):
        if w in _NEGATION or w.endswith("n't"):
            return w
        if w in _FAIL and words[i + 1 : i + 2] == ["to"]:
            return f"{w} to"
    return "not"


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
