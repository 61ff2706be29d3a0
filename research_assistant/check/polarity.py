"""What similarity cannot see: negation, direction and names (pure).

"Backup tasks shorten the sort" and "backup tasks lengthen the sort" share almost every word;
so do "X outperforms Y" and "X underperforms Y", and "does" and "does not". These checks read
the claim and the passage as words and report a contradiction; the verifier never lets a
similarity score override one.

A direction word of the claim is contradicted by an opposite in the passage (``lexicon``: curated
pairs, the poles of a scale, opposites by form) that is attached to what the claim's word is
attached to: the content words near both are compared, so that "fewer bytecodes ... more
opportunities" contradicts "more bytecodes", while "negative sampling" says nothing of "positive
PMI weighting". Names are read in ``names``, swapped comparisons in ``reversal``.
"""

from __future__ import annotations

from typing import NamedTuple

from research_assistant.check.lexicon import (
    CURATED,
    SAME,
    direction_stems,
    finding_stems,
    opposites_of,
    word_opposites,
    words_of,
)
from research_assistant.check.names import names_in
from research_assistant.check.negation import (
    SOFT_NEGATION,
    WIDE_SCOPE,
    negated_by,
    negated_in,
    negation_word,
)
from research_assistant.check.reversal import COMPARATIVES, reversed_sides
from research_assistant.quantities import NUMBER_WORDS
from research_assistant.terms import stem
from research_assistant.text import STOPWORDS

__all__ = [
    "Reading",
    "conflict_of",
    "finding_senses",
    "may_conflict",
    "names_in",
    "stems_of",
    "unstated",
]

_DIRECTIONS = direction_stems()
_ATTACH = 5  # content words either side of a direction word that say what it is about
_MIN_FORM = 5  # letters of a word whose opposite by form ("unstable") is looked for


class _Flip(NamedTuple):
    """A direction word of a claim and what would say it the other way round."""

    pos: int
    stem: str
    curated: frozenset[str]  # opposite stems that contradict where loosely attached
    broad: frozenset[str]  # opposite stems that contradict where closely attached
    forms: frozenset[str]  # opposite words by form ("unstable"), closely attached
    form_stems: frozenset[str]  # their stems, long enough to say the same in another form
    # ("avoid" for the "avoidable" of "unavoidable"; not "use" for the "useful" of "useless")
    at: int  # content words before it (what it is attached to is read only when needed)


def _content(words: list[str], stems: list[str]) -> tuple[list[str], list[int]]:
    """The content stems in order (no stopwords, no direction words), and per word how many
    of them stand before it: distances count content words, not "the" and "of"."""
    content: list[str] = []
    before: list[int] = []
    for w, x in zip(words, stems, strict=True):
        before.append(len(content))
        if w not in STOPWORDS and (len(w) > 2 or w.isdigit()) and x not in _DIRECTIONS:
            content.append(x)
    return content, before


def _near(content: list[str], at: int, reach: int = _ATTACH) -> dict[str, int]:
    """Content stems within ``reach`` content words of a non-content word with ``at`` content
    words before it, by distance."""
    near: dict[str, int] = {}
    for k in range(max(0, at - reach), min(len(content), at + reach)):
        d = at - k if k < at else k - at + 1
        if d < near.get(content[k], reach + 1):
            near[content[k]] = d
    return near


_JOINS = frozenset({"or", "and", "nor", "to", "versus", "vs"})


def _both_ways(words: list[str], stems: list[str], i: int, opposite: frozenset[str]) -> bool:
    """Whether the word is joined to its opposite ("higher or lower", "rise and fall", "from
    low to high"): the claim states no direction on that scale."""
    after = i + 2 < len(words) and words[i + 1] in _JOINS and stems[i + 2] in opposite
    before = i >= 2 and words[i - 1] in _JOINS and stems[i - 2] in opposite
    return after or before


def _flips_of(words: list[str], stems: list[str], before: list[int]) -> tuple[_Flip, ...]:
    """The claim's words that something could say the other way round."""
    out = []
    own = set(stems)
    for i, (w, s) in enumerate(zip(words, stems, strict=True)):
        if w in _BOUND_WORDS and words[i + 1 : i + 2] == ["than"] and _number(words, i + 2):
            continue  # "more than one thousand NEOs": a bound on a number (quantities)
        curated, broad = opposites_of(s)
        if _both_ways(words, stems, i, curated | broad):  # "higher or lower"
            continue
        # an opposite the claim uses itself ("more bytecodes means lower cost") contradicts
        # nothing in a passage that uses it too
        curated, broad = curated - own, broad - own
        forms = word_opposites(w) if len(w) >= _MIN_FORM and w not in STOPWORDS else frozenset()
        if curated or broad or forms:
            form_stems = frozenset(x for x in map(stem, forms) if len(x) >= _MIN_FORM)
            out.append(_Flip(i, s, curated, broad, forms, form_stems, before[i]))
    return tuple(out)


_BOUND_WORDS = frozenset({"more", "less", "fewer"})


def _number(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` begins a number ("1000", "one thousand", "a dozen")."""
    w = words[i] if i < len(words) else ""
    return w[:1].isdigit() or w in NUMBER_WORDS or (w == "a" and words[i + 1 : i + 2] == ["dozen"])


class Reading:
    """A text read once for these checks: its words, their stems, and the stems a negation
    governs. The checker keeps one per passage sentence, so a check reads only its claim."""

    __slots__ = (
        "_content",
        "_flips",
        "_keys",
        "negated",
        "soft_negated",
        "stem_set",
        "stems",
        "word_set",
        "words",
    )

    def __init__(self, folded: str) -> None:
        self.words = words_of(folded)
        self.stems = [stem(w) for w in self.words]
        self.stem_set = set(self.stems)
        self.word_set = set(self.words)
        self.negated = negated_in(folded, self.words)
        self.soft_negated = negated_in(folded, self.words, SOFT_NEGATION)
        self._flips: tuple[_Flip, ...] | None = None
        self._keys: tuple[frozenset[str], ...] = (frozenset(), frozenset(), frozenset())
        self._content: tuple[list[str], list[int]] | None = None

    @property
    def content(self) -> tuple[list[str], list[int]]:
        if self._content is None:
            self._content = _content(self.words, self.stems)
        return self._content

    @property
    def flips(self) -> tuple[_Flip, ...]:
        """Its direction words with their opposites (read for claims only, once)."""
        if self._flips is None:
            flips = _flips_of(self.words, self.stems, self.content[1])
            stems = frozenset().union(*(f.curated | f.broad for f in flips))
            forms = frozenset().union(*(f.forms for f in flips))
            self._keys = (stems, forms, frozenset().union(*(f.form_stems for f in flips)))
            self._flips = flips
        return self._flips

    def may_oppose_stems(self, stems: set[str]) -> bool:
        self.flips  # noqa: B018 -- fills _keys
        return not self._keys[0].isdisjoint(stems) or bool(self._keys[1])

    def may_oppose(self, p: Reading) -> bool:
        """Whether the passage holds any opposite of the claim's direction words: most
        sentences hold none, and are passed over at the cost of two set intersections."""
        self.flips  # noqa: B018 -- fills _keys
        stems, words, form_stems = self._keys
        return (
            not stems.isdisjoint(p.stem_set)
            or not words.isdisjoint(p.word_set)
            or not form_stems.isdisjoint(p.stem_set)
        )


def _read(text: str | Reading) -> Reading:
    return text if isinstance(text, Reading) else Reading(text)


def may_conflict(claim: Reading, passage_stems: set[str]) -> bool:
    """Whether the passage holds an opposite of a direction word of the claim, or shares one of
    its comparatives: worth reading in full with ``conflict_of``."""
    if claim.stem_set & passage_stems & COMPARATIVES:
        return True
    if not claim.may_oppose_stems(passage_stems):
        return False
    return any(
        (f.curated | f.broad) & passage_stems
        or (f.forms and ({stem(w) for w in f.forms} | f.form_stems) & passage_stems)
        for f in claim.flips
    )


def finding_senses(claim: Reading) -> frozenset[str]:
    """Every stem that states one of the claim's finding words (the word, or one of its sense):
    a passage holding none of them does not state the finding."""
    findings = finding_stems()
    out: set[str] = set()
    for s in claim.stem_set & findings:
        out |= _senses(s)
    return frozenset(out)


def _senses(s: str) -> set[str]:
    same = {x for o in CURATED.get(s, ()) for x in CURATED.get(o, ())}
    return same | SAME.get(s, set()) | {s}


def unstated(claim: str | Reading, passage_stems: set[str]) -> tuple[str, ...]:
    """The claim's finding words ("more", "negative", "outperform") that the passage states
    neither as written nor by a word of the same sense (one sharing an opposite: "reduce" for
    "decrease"): a passage without them is on the topic but does not state the finding. A
    bound on a number ("more than 100") is the number check's."""
    reading = _read(claim)
    findings = finding_stems()
    if not reading.stem_set & findings:
        return ()
    words = reading.words
    out: list[str] = []
    seen: set[str] = set()
    for i, (w, s) in enumerate(zip(words, reading.stems, strict=True)):
        if s not in findings or s in passage_stems or s in seen:
            continue
        seen.add(s)
        if words[i + 1 : i + 2] == ["than"] and words[i + 2 : i + 3] and words[i + 2][0].isdigit():
            continue
        if w + "_" in passage_stems:  # the passage uses the very word, as a name ("the reduce
            continue  # phase" for "map and reduce pieces"): the claim may use it so too
        if not _senses(s) & passage_stems:
            out.append(w)
    return tuple(out)


def stems_of(folded: str) -> set[str]:
    """The stems of every word of a folded text (stopwords kept: "more", "not")."""
    return Reading(folded).stem_set


def conflict_of(
    claim: str | Reading,
    passage: str | Reading,
    *,
    attached: bool = False,
    beside: Reading | None = None,
) -> str:
    """Why the passage contradicts the claim ("negation: passage not", "direction: faster vs
    slower" (the claim's word, the passage's), "reversal: than: A vs B"), else "". Each side is
    a folded text or its Reading. ``attached``: the passage is a sentence beside the one of its
    window closest to the claim (``beside``), where an opposite must be closely attached."""
    c, p = _read(claim), _read(passage)
    cw, pw = c.words, p.words
    claim_stems, passage_stems = c.stem_set, p.stem_set
    shared = claim_stems & passage_stems
    claim_neg = c.negated & shared or c.soft_negated & p.negated & shared
    passage_neg = p.negated & shared or p.soft_negated & c.negated & shared
    # the other side denies one of the same words, further from its negation
    if claim_neg and not passage_neg and claim_neg & negated_by(pw, scope=WIDE_SCOPE):
        claim_neg = set()
    if passage_neg and not claim_neg and passage_neg & negated_by(cw, scope=WIDE_SCOPE):
        passage_neg = set()
    if bool(claim_neg) != bool(passage_neg):
        side = "passage" if passage_neg else "claim"
        return f"negation: {side} {negation_word(pw if passage_neg else cw)}"
    reversal = reversed_sides((c.words, c.stems), (p.words, p.stems), shared)
    for f in c.flips if c.may_oppose(p) else ():
        other = _opposed(f, c, p, attached, beside)
        if other.startswith("non") and f.stem in c.negated:
            continue  # "not personalised" says what "non-personalized" says
        if other:
            if reversal:  # "B is slower than A" for "A is faster than B": the same finding
                return ""
            return f"direction: {cw[f.pos]} vs {other}"
    return f"reversal: {reversal}" if reversal else ""


def _opposed(
    f: _Flip, c: Reading, p: Reading, attached: bool = False, beside: Reading | None = None
) -> str:
    """The passage's word that says the claim's direction word ``f`` the other way round, else
    "". It must stand near the words the claim's word is attached to: loosely for a curated
    opposite where the passage does not also state the claim's way, closely for a broad one;
    and more closely than the claim's way, in the passage and in the window's sentence closest
    to the claim (``beside``; ``attached``: the passage is such a neighbouring sentence)."""
    opposite = (f.curated | f.broad) & p.stem_set
    forms = f.forms & p.word_set
    if f.form_stems & p.stem_set:
        forms |= {w for w, x in zip(p.words, p.stems, strict=True) if x in f.form_stems}
    if not opposite and not forms:
        return ""
    # the claim's way: its word itself when the passage uses it, else one of the same sense
    # (but not one the claim uses for something else: "the [Expand] action" for "increases")
    same = SAME.get(f.stem, set()) - c.stem_set
    ours = {f.stem} if f.stem in p.stem_set else same & p.stem_set
    head = _head(c, f.pos)
    if head and all(
        (h := _head(p, j)) and h != head
        for j, (w, x) in enumerate(zip(p.words, p.stems, strict=True))
        if x in opposite or w in forms
    ):
        return ""  # "negative sampling" for "positive PMI": each qualifies something else
    around = frozenset(_near(c.content[0], f.at))
    if ours or attached or not f.curated & p.stem_set:
        theirs = _attached(p, opposite, forms, around)
        bar = _LOOSELY if f.curated & p.stem_set and not ours else _ATTACHED
        if theirs < bar or theirs <= _attached(p, ours, frozenset(), around):
            return ""
        if beside is not None:  # the sentence of the window closest to the claim
            way = {f.stem} if f.stem in beside.stem_set else same & beside.stem_set
            if theirs <= _attached(beside, way, frozenset(), around):
                return ""
        if _kin_closer(f, c, p, opposite):
            return ""  # "small, equivalent to an increase of matter" for "small, equivalent to
            # adding matter": the opposite says what another word of the claim says
    elif _attached(p, f.curated, frozenset(), around) < _LOOSELY:
        return ""  # "negative sampling" says nothing of "positive PMI weighting"
    return next(w for w, x in zip(p.words, p.stems, strict=True) if x in opposite or w in forms)


_KIN_REACH = 2  # content words either side that tell which of two claim words is meant


def _kin_closer(f: _Flip, c: Reading, p: Reading, opposite: frozenset[str]) -> bool:
    """Whether the passage's ``opposite`` word stands closer to the words right beside another
    word of the claim, of its own sense and with no opposite, than to those beside ``f``: it
    says what that word says ("equivalent to an increase of matter" for "small ...,
    equivalent to adding matter")."""
    content, before = c.content
    mine = _attached(
        p, opposite, frozenset(), frozenset(_near(content, f.at, _KIN_REACH)), _KIN_REACH
    )
    for k, x in enumerate(c.stems):
        # a word of one sense only ("adding"): one with an opposite of its own ("lowering")
        # is read for itself, and a claim stating both ways may have them swapped
        if k != f.pos and x not in _DIRECTIONS and SAME.get(x, set()) & opposite:
            near = frozenset(_near(content, before[k], _KIN_REACH))
            if _attached(p, opposite, frozenset(), near, _KIN_REACH) > mine:
                return True
    return False


def _head(r: Reading, i: int) -> str:
    """The content word right after word ``i`` (what an adjective or verb qualifies), or ""."""
    if i + 1 >= len(r.words):
        return ""
    w, x = r.words[i + 1], r.stems[i + 1]
    return x if w not in STOPWORDS and len(w) > 2 and x not in _DIRECTIONS else ""


# How closely an opposite must stand to the words the claim's word is attached to: the sum of
# 1/distance (in content words, up to 5) of the words they share. Chosen on the development
# claims: one shared word next to it, or two a few words away; a curated opposite, half that.
_ATTACHED = 0.75
_LOOSELY = 0.5


def _attached(
    p: Reading,
    stems: set[str] | frozenset[str],
    words: frozenset[str],
    around: frozenset[str],
    reach: int = _ATTACH,
) -> float:
    """How closely the passage's best-attached word among ``stems`` or ``words`` stands to the
    words ``around`` (each shared word counts 1/distance in content words)."""
    best = 0.0
    content, before = p.content
    for j, (w, x) in enumerate(zip(p.words, p.stems, strict=True)):
        if x in stems or w in words:
            near = _near(content, before[j], reach)
            best = max(best, sum(1 / d for t, d in near.items() if t in around))
    return best
