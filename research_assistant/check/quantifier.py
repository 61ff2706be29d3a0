"""How much of a set, and how many, said in words (pure).

"All four modified models perform worse" and "only one of the four modified models performs
worse" share every word; so do "a dynamic process that requires a few iterations" and "... can
require several thousand iterations". The number check compares values written as numbers; a
quantifier or a vague amount is read here, as a hard check:

- **Whole set against a part**: "all", "every", "each", "none" in one text, "k of N" (k < N),
  "only", "some", "one of" in the other, said of the same thing (the words right after them
  share a content word: "every one of the 26 benchmarks" and "9 of 26 benchmarks").
- **Vague amounts as ranges**: "a few" is 2 to 6, "several thousand" 2,000 to 9,999; a claim's
  vague amount contradicts a passage's amount of the same thing (vague or a number) that lies
  far outside it.

Kept apart from ``quantities`` (the number reader): a vague amount is never a value a passage
must state, only one a passage may contradict.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from research_assistant.terms import term_list

__all__ = ["Amount", "amounts", "contradicted"]

_SMALL = {w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())}
_SMALL |= {"ten": 10, "eleven": 11, "twelve": 12}
_COUNT = r"(\d+|" + "|".join(_SMALL) + r")"
# A part of a set: "9 of 26", "one of the four", "only two", "some of".
_K_OF_N = re.compile(rf"\b{_COUNT} (?:out )?of (?:the |these |those |all )?{_COUNT}\b")
# "only" of a set ("only the top layers", "only 9"), not of a verb ("not only improves")
_PART = re.compile(
    rf"(?<!not )\bonly(?= (?:the|a|an|some|{_COUNT[1:-1]})\b)|\b(?:some|not all|one of)\b"
)
# "every fifth timepoint", "every other line", "every 10th epoch": a rate, a part of the set
_EVERY_NTH = (
    r"(?! (?:other|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    r"\d+(?:st|nd|rd|th))\b)"
)
_WHOLE = re.compile(
    rf"(?<!at )(?<!after )(?<!above )\b(?:all(?! but)|every{_EVERY_NTH}|each|none)\b"
)
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
_NEXT_WORD = re.compile(r" [^\W\d_]")  # an amount's word follows it directly
_HEAD_WORDS = 4  # words after a quantifier that say what it counts
_WHOLE_BEFORE = re.compile(r"\b(?:every|each|all)\s*$")  # "every one of the 26": no part
_AFTER_WHOLE = re.compile(r"\s*(?:one )?of\b")  # "every one of the 26": still the whole set

# Vague amounts, as the range of values they admit.
_VAGUE = {
    "a couple of": (2, 3),
    "a few": (2, 6),
    "a handful of": (2, 6),
    "few": (2, 6),
    "several": (3, 9),
    "dozens of": (24, 144),
}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_VAGUE_RE = re.compile(
    r"\b(?:(?P<vague>"
    + "|".join(sorted(_VAGUE, key=len, reverse=True))
    + r")(?: (?P<scale>hundred|thousand|million|billion))?"
    + r"|(?P<plural>hundreds|thousands|millions|billions)(?: of)?"
    + r"|(?P<number>\d{1,3}(?:,\d{3})+|\d+))\b"
)
# A passage's amount this many times beyond a claim's vague range contradicts it: wide, so that
# "a few" (to 6) meets "10" and "several" (to 9) meets "20" (dev5 needed only "a few" against
# "several thousand"; not tuned)
_FAR = 3.0


class Amount(NamedTuple):
    """An amount of something: its words, the range of values it admits, what it counts."""

    text: str
    low: float
    high: float
    head: frozenset[str]
    vague: bool


def _head(text: str, end: int, skip: bool = True) -> frozenset[str]:
    """The content terms of the phrase right after a quantifier: past its determiners and
    numbers ("of the 26"; ``skip``), up to the next function word or number ("several epochs
    on 1000 images" counts epochs), at most ``_HEAD_WORDS`` words."""
    out: list[str] = []
    if not skip and not _NEXT_WORD.match(text, end):
        return frozenset()  # "in 2004, the authors": the number counts nothing
    for w in _WORD.findall(text, end):
        found = [] if w.isdigit() or w in _SMALL else term_list(w)
        if found:
            out += found
        elif out or not skip:
            break
        if len(out) >= _HEAD_WORDS:
            break
    return frozenset(out)


@functools.lru_cache(maxsize=1024)
def amounts(folded: str) -> tuple[Amount, ...]:
    """The amounts of a folded text: vague ones ("a few", "several thousand", "hundreds of")
    and numbers, each with what it counts."""
    out = []
    for m in _VAGUE_RE.finditer(folded):
        if m["number"]:
            value = float(m["number"].replace(",", ""))
            low, high, vague = value, value, False
        elif m["plural"]:
            scale = _SCALES[m["plural"].removesuffix("s")]
            low, high, vague = 2 * scale, 10 * scale - 1, True
        else:
            low, high = _VAGUE[m["vague"]]
            scale = _SCALES[m["scale"]] if m["scale"] else 1
            low, high, vague = low * scale, (high + 1) * scale - 1 if m["scale"] else high, True
        out.append(Amount(m.group(), low, high, _head(folded, m.end(), skip=False), vague))
    return tuple(out)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _SMALL[word]


def _parts(folded: str) -> list[tuple[str, frozenset[str], bool]]:
    """Each part of a set the text names, with what it counts and whether it is exclusive
    ("only one of the four", "9 of 26": the rest do not)."""
    out = []
    for m in _K_OF_N.finditer(folded):
        if not _WHOLE_BEFORE.search(folded, 0, m.start()) and _count(m[1]) < _count(m[2]):
            only = "only " if folded[: m.start()].endswith("only ") else ""
            out.append((only + m.group(), _head(folded, m.end()), True))
    for m in _PART.finditer(folded):
        if not _WHOLE_BEFORE.search(folded, 0, m.start()):
            out.append((m.group(), _head(folded, m.end()), m.group() == "only"))
    return out


def _wholes(folded: str) -> list[tuple[str, frozenset[str]]]:
    out = []
    for m in _WHOLE.finditer(folded):
        after = _AFTER_WHOLE.match(folded, m.end())
        out.append((m.group(), _head(folded, after.end() if after else m.end())))
    return out


def _whole_or_part(claim: str, passage: str) -> str:
    """A whole set in one text where the other names a part of the same thing."""
    claim_wholes, claim_parts = _wholes(claim), _parts(claim)
    if bool(claim_wholes) == bool(claim_parts):  # neither, or both: nothing to set against
        return ""
    passage_wholes, passage_parts = _wholes(passage), _parts(passage)
    if claim_wholes and not passage_wholes:
        for word, head in claim_wholes:
            for part, other, _ in passage_parts:
                if head & other:
                    return f"quantifier: {word} vs {part}"
    if claim_parts and not passage_parts:
        # "some of the models" is true where all are: only an exclusive part contradicts
        for part, head, exclusive in claim_parts:
            for word, other in passage_wholes:
                if exclusive and head & other:
                    return f"quantifier: {part} vs {word}"
    return ""


def contradicted(claim: str, passage: str) -> str:
    """Why the passage's quantifiers or amounts contradict the claim's ("quantifier: every vs 9
    of 26", "quantifier: a few vs several thousand": the claim's words, the passage's), else "".
    Both are folded texts."""
    found = _whole_or_part(claim, passage)
    if found:
        return found
    ours = [a for a in amounts(claim) if a.vague and a.head]
    if not ours:
        return ""
    theirs = [a for a in amounts(passage) if a.head]
    for a in ours:
        for b in theirs:
            far = b.low > a.high * _FAR or b.high * _FAR < a.low
            if far and a.head & b.head:
                return f"quantifier: {a.text} vs {b.text}"
    return ""
