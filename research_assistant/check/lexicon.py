"""Which words state a direction, and which words state the opposite one (pure).

Four sources, from the most to the least certain:

- **Curated pairs** (``_PAIRS``): opposites that contradict where they stand even loosely near
  what the claim's word is about ("longer" for "sooner", "underperform" for "outperform").
- **Poles of a scale** (``_SCALES``): every word of one pole of amount, speed, quality or sign
  opposes every word of the other ("diminish" for "grow", "improve" for "worse"), with the
  comparative and superlative forms of each adjective made by rule ("earlier", "earliest").
- **Opposites by form**: "stable"/"unstable", "relevant"/"irrelevant", "linear"/"non-linear",
  "overestimate"/"underestimate", "upstream"/"downstream", "useful"/"useless", "enabled"/"disabled".
- **Exclusive alternatives** (``_EXCLUSIVE``): "coarse"/"fine", "input"/"output", "first"/
  "second"; not directions (they stay words a direction is about), but one said for the other
  changes the finding.

The last three are broad, so they contradict only where they are closely attached to what the
claim's word is attached to (``polarity`` compares the words around both). Phrasal verbs
("speeds up") are read as one word (``PHRASAL``). No wordnet ships inside a wheel that needs no
download (NLTK's, TextBlob's and wn's data are fetched at run time, which the product never
does), so the scales are written out here in base forms and grown by rule ("adding" and "added"
too: the stemmer makes them "ad", not "add"). ``words_of`` reads a text's words for all this.
"""

from __future__ import annotations

import functools
import re

from research_assistant.terms import stem

__all__ = [
    "CURATED",
    "PARTICLES",
    "PHRASAL",
    "SAME",
    "direction_stems",
    "finding_stems",
    "opposites_of",
    "word_opposites",
    "words_of",
]

# Curated opposite pairs (stemmed below); contradictions wherever they stand.
_PAIRS = [
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
    ("activate", "inhibit"), ("speedup", "slowdown"), ("cheaper", "costlier"), ("busy", "idle"),
    ("known", "unknown"),
    # German, for the claims and papers written in it
    ("steigt", "sinkt"), ("steigen", "sinken"), ("stieg", "sank"), ("gestiegen", "gesunken"),
    ("erhöht", "verringert"), ("erhöht", "senkt"), ("besser", "schlechter"),
    ("mehr", "weniger"), ("größer", "kleiner"), ("höher", "niedriger"),
    ("schneller", "langsamer"), ("zunehmend", "abnehmend"), ("zunahme", "abnahme"),
]  # fmt: skip

# Scales with two poles: base forms; adjectives get their -er/-est forms by rule.
_SCALES = [
    (
        "increase rise grow raise boost enhance expand climb soar elevate amplify augment "
        "exceed maximize many high large big greater greatest growth expansion augmentation "
        "enhancement increment surge",
        "decrease reduce lower fall drop decline shrink diminish lessen slash dip attenuate "
        "suppress minimize few little low small reduction decrement shrinkage contraction",
    ),
    (
        "fast quick soon rapid early accelerate speedup shorten",
        "slow late delay decelerate slowdown lengthen",
    ),
    (
        "good well improve outperform superior beat surpass benefit help success succeed win "
        "effective advantage enhance",
        "bad badly poorly degrade worsen underperform inferior impair harm hurt failure lose "
        "ineffective disadvantage deteriorate deterioration degradation trail lag",
    ),
    ("positive positively", "negative negatively"),
    ("strong strengthen", "weak weaken"),
    ("long", "short"),
    ("heavy", "light"),
    ("wide broad", "narrow"),
    ("deep", "shallow"),
    ("thick dense rich", "thin sparse poor"),
    ("near close", "far distant"),
    ("hot warm", "cold cool"),
    ("easy simple", "hard difficult complex"),
    ("cheap", "expensive costly"),
    ("common frequent ubiquitous widespread prevalent", "rare"),
    ("young", "old"),
    ("upper", "lower"),
    ("explicit", "implicit"),
    ("major", "minor minimal negligible"),
    ("full", "empty"),
    ("true", "false"),
    ("accept", "reject"),
    ("include", "exclude"),
    ("present", "absent"),
    ("promote activate", "inhibit"),
    ("abundant plentiful ample", "scarce"),
    ("often frequently usually commonly", "rarely seldom"),
    ("dynamic", "static"),
    ("global", "local"),
    ("inside internal inner", "outside external outer"),
    ("presence", "absence"),
    ("majority", "minority"),
    ("online", "offline"),
    # general opposites added after reading tests/data/verification_dev7.jsonl (in-sample)
    ("safe harmless", "dangerous unsafe risky harmful hazardous"),
    ("balanced even uniform", "skewed unbalanced imbalanced uneven lopsided"),
]
# Exclusive alternatives rather than directions: one of a pair said where the paper says the
# other changes what is claimed ("coarse-grained queries" for "fine-grained queries", "read from
# remote machines" for "from local disks"). Broad: they contradict only where closely attached.
# Written for the flips of tests/data/verification_dev5.jsonl (in-sample).
_EXCLUSIVE = [
    ("coarse", "fine"), ("remote", "local"), ("first", "second"), ("first", "last"),
    ("second", "third"), ("second", "last"), ("input", "output"), ("train", "test"),
    ("training", "test"), ("prefix", "suffix"), ("left", "right"),
    ("generative", "discriminative"), ("precision", "recall"),
    ("classification", "regression"), ("encoder", "decoder"), ("synchronous", "asynchronous"),
]  # fmt: skip
# Adjectives compared by -er/-est (made by rule below), and the irregular ones.
_ADJECTIVES = frozenset(
    "high large big heavy wide broad low small light narrow fast quick soon rapid early slow "
    "late long short strong weak deep shallow thick dense rich thin sparse poor near close "
    "hot warm cold cool easy simple hard cheap rare young old full empty".split()
)
_IRREGULAR = {"good": "better best", "bad": "worse worst", "well": "better best",
              "many": "more most", "far": "farther farthest", "little": "less least",
              "few": "fewer fewest"}  # fmt: skip
# Words of one sense only (never opposed), so that a passage stating one states the other.
_SAME_ONLY = [
    "increase jump add up",
    "decrease cut down",
    "improve boost enhance",  # "boosts performance" states "improves performance"
    "long big large",  # "far bigger" states "longer" of a length (characters per paragraph)
]


def _forms(word: str) -> list[str]:
    """A base word with its comparative and superlative forms (by rule, for adjectives)."""
    if word in _IRREGULAR:
        return [word, *_IRREGULAR[word].split()]
    if word not in _ADJECTIVES:
        return [word]
    if word.endswith("e"):
        return [word, word + "r", word + "st"]
    if word.endswith("y") and word[-2] not in "aeiou":
        return [word, word[:-1] + "ier", word[:-1] + "iest"]
    if (
        len(word) <= 4
        and word[-1] not in "aeiouwy"
        and word[-2] in "aeiou"
        and word[-3] not in "aeiou"
    ):
        return [word, word + word[-1] + "er", word + word[-1] + "est"]  # big, bigger
    return [word, word + "er", word + "est"]


def _inflected(word: str) -> list[str]:
    """A base word with its -ing and -ed forms: the stemmer leaves "adding" and "added" as
    "ad", apart from "add"."""
    base = word[:-1] if word.endswith("e") else word
    return [word, base + "ing", base + "ed"]


def _stems(words: str) -> set[str]:
    return {
        stem(i)
        for w in words.split()
        for f in _forms(w)
        for i in (_inflected(f) if w not in _ADJECTIVES and w not in _IRREGULAR else [f])
    }


CURATED: dict[str, set[str]] = {}
for _a, _b in _PAIRS:
    CURATED.setdefault(stem(_a), set()).add(stem(_b))
    CURATED.setdefault(stem(_b), set()).add(stem(_a))

_SCALE_OPPOSITE: dict[str, set[str]] = {}
SAME: dict[str, set[str]] = {}
for _up, _down in _SCALES:
    _u, _d = _stems(_up), _stems(_down)
    for _s in _u:
        _SCALE_OPPOSITE.setdefault(_s, set()).update(_d - _u)
        SAME.setdefault(_s, set()).update(_u)
    for _s in _d:
        _SCALE_OPPOSITE.setdefault(_s, set()).update(_u - _d)
        SAME.setdefault(_s, set()).update(_d)
# Kept apart from the directions: these words still count as what a direction word is about
# ("raises the first two peaks"), and as the heads it qualifies.
_EXCLUSIVE_OPPOSITE: dict[str, set[str]] = {}
for _a, _b in _EXCLUSIVE:
    _EXCLUSIVE_OPPOSITE.setdefault(stem(_a), set()).add(stem(_b))
    _EXCLUSIVE_OPPOSITE.setdefault(stem(_b), set()).add(stem(_a))
for _group in _SAME_ONLY:
    _g = _stems(_group)
    _key = stem(_group.split()[0])
    for _s in _g:
        SAME.setdefault(_s, set()).update(SAME.get(_key, set()) | _g)


@functools.lru_cache(maxsize=50_000)
def opposites_of(s: str) -> tuple[frozenset[str], frozenset[str]]:
    """The stems opposing the stem ``s``: (curated ones, broad ones)."""
    curated = CURATED.get(s, set())
    broad = _SCALE_OPPOSITE.get(s, set()) | _EXCLUSIVE_OPPOSITE.get(s, set())
    return frozenset(curated), frozenset(broad - curated)


def direction_stems() -> frozenset[str]:
    """Every stem that states a direction (has an opposite)."""
    return frozenset(CURATED) | frozenset(_SCALE_OPPOSITE)


# Direction words that carry a finding (a change or a comparison), which a supporting passage
# must state; plain adjectives ("high", "strong") describe, and are left out.
_FINDINGS = (
    "increase decrease reduce lower rise fall drop grow shrink higher more fewer less larger "
    "smaller greater bigger faster slower longer shorter better worse improve degrade worsen "
    "outperform underperform positive negative exceed overestimate underestimate accelerate "
    "decelerate enhance impair promote inhibit sooner quicker shorten lengthen raise boost "
    "superior inferior upregulate downregulate diminish weaken strengthen hurt harm help benefit "
    "easier harder simpler"
)


@functools.cache
def finding_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in _FINDINGS.split())


# Phrasal verbs of a direction, read as one word: "speeds up" states "faster".
PHRASAL = {
    ("speed", "up"): "speedup",
    ("slow", "down"): "slowdown",
    ("go", "up"): "increase",
    ("goe", "up"): "increase",
    ("went", "up"): "increase",
    ("go", "down"): "decrease",
    ("goe", "down"): "decrease",
    ("went", "down"): "decrease",
    ("drive", "up"): "increase",
    ("drive", "down"): "decrease",
    ("ramp", "up"): "increase",
    ("push", "up"): "increase",
    ("bring", "down"): "decrease",
    ("lag", "behind"): "lag",  # "lags behind X": what it qualifies is X, not "behind"
    ("fall", "behind"): "lag",
    ("fell", "behind"): "lag",
    ("trail", "behind"): "lag",
}
PARTICLES = frozenset({"up", "down", "behind"})


# Opposites by form. "in-" and its kin negate adjectives only ("inform" is not "not form").
_NEGATING = ("un", "non", "in", "im", "ir", "il", "dis", "a")
_ADJECTIVE_ENDS = (
    "able", "ible", "ent", "ant", "ive", "al", "ar", "ic", "ous", "ate", "ect", "ete", "id",
    "ful", "ably", "ibly", "ently", "antly", "ively", "ally", "arly", "ically", "ously",
    "ately", "ectly", "etely",
)  # fmt: skip
# "enabled"/"disabled"
_SWAPS = (("over", "under"), ("up", "down"), ("upper", "lower"), ("inter", "intra"), ("en", "dis"))
_MIN_BASE = 5  # letters of the base word: "unlike" is not "not like"


@functools.lru_cache(maxsize=50_000)
def word_opposites(word: str) -> frozenset[str]:
    """Words that say the opposite of ``word`` by their form: "unstable" for "stable" and back,
    "underestimate" for "overestimate", "useless" for "useful"."""
    out: set[str] = set()
    if len(word) < _MIN_BASE or not word.isalpha():
        return frozenset()
    adjective = word.endswith(_ADJECTIVE_ENDS)
    for p in _NEGATING:
        if p in ("un", "non") or adjective:
            out.add(p + word)
        base = word[len(p) :]
        if (
            word.startswith(p)
            and len(base) >= _MIN_BASE
            and (p in ("un", "non") or base.endswith(_ADJECTIVE_ENDS))
        ):
            out.add(base)
    for a, b in _SWAPS:
        for x, y in ((a, b), (b, a)):
            if word.startswith(x) and len(word) - len(x) >= 4:
                out.add(y + word[len(x) :])
    if word.endswith("ful"):
        out.add(word[:-3] + "less")
    elif word.endswith("less") and len(word) >= 7:
        out.add(word[:-4] + "ful")
    return frozenset(out)


_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
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


# Verbs of a direction that English does not use as nouns: after a determiner or a one-letter
# name ("a reduce task", "R reduce tasks", MapReduce's operation) such a word names a thing.
_VERBS_ONLY = frozenset(
    "reduce improve enhance worsen degrade diminish lessen shrink accelerate decelerate "
    "outperform underperform minimize maximize shorten lengthen strengthen weaken".split()
)
# ("that", "these" and "one" are left out: "methods that reduce error" is a verb)
_DETERMINERS = frozenset("a an the each every its their our".split())


def _named(words: list[str]) -> list[str]:
    """The words with each verb-only direction word that stands as a name marked ("reduce_"):
    it states no direction."""
    return [
        w + "_"
        if w in _VERBS_ONLY and i and (words[i - 1] in _DETERMINERS or len(words[i - 1]) == 1)
        else w
        for i, w in enumerate(words)
    ]


def words_of(folded: str) -> list[str]:
    """The words of a folded text as the checks read them: irregular past forms made regular,
    "non-linear" and phrasal verbs ("speeds up") one word each, a verb-only direction word
    used as a name marked."""
    words = [_IRREGULAR.get(w, w) for w in _TOKEN.findall(folded)]
    if not _VERBS_ONLY.isdisjoint(words):
        words = _named(words)
    if "non" not in words and PARTICLES.isdisjoint(words):
        return words
    out: list[str] = []
    for w in words:
        if out and out[-1] == "non":  # "non-linear" is one word, the opposite of "linear"
            out[-1] = "non" + w
        elif out and w in PARTICLES and (stem(out[-1]), w) in PHRASAL:
            out[-1] = PHRASAL[stem(out[-1]), w]
        else:
            out.append(w)
    return out
