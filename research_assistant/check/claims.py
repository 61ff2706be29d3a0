"""The claim a citation supports: its sentence, or its clause when the sentence cites several
works, with the markers stripped. The one claim extractor: the pipeline, Check text and the
labelled sets all use ``claim_text``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from research_assistant.check.mentions import NO_SPLIT, OPENERS, find_mentions
from research_assistant.results import Mention
from research_assistant.text import content_words, sentence_spans

__all__ = ["claim_span", "claim_text", "strip_markers"]

CLAIM_WINDOW = 3000  # characters either side of a marker searched for its sentence
_CLAUSE = re.compile(r";|, +(?=(?:and|while|whereas|but|although|though)\b)")
_LEAD = re.compile(r"[\s,;:]*(?:(?:and|while|whereas|but|although|though)\b\s*)?")


def strip_markers(text: str, mentions: Sequence[Mention] | None = None) -> str:
    """``text`` without its citation markers, whitespace tidied at each cut. A narrative
    citation keeps its names: "Smith et al. (2020) showed" becomes "Smith et al. showed"."""
    if mentions is None:
        mentions = find_mentions(text)
    cuts = sorted({(m.start, m.end) for m in mentions if text[m.start : m.end] == m.marker})
    cut = next(c for c in "\x00\ue000\ue001\ue002\ufffe" if c not in text)
    pieces, pos = [], 0
    for s, e in cuts:
        if s < pos:
            continue
        if text[s] not in "[(":  # a narrative marker keeps its names; a bracketless one too
            bracket = max(text.rfind("(", s, e), text.rfind("[", s, e))
            if bracket >= 0:
                s = bracket
            elif text[s].isalpha():  # "Zhou et al., 2021": its year goes, its names stay
                comma = text.rfind(",", s, e)
                s = comma if comma >= 0 else max(text.rfind(" ", s, e), s)
        pieces += [text[pos:s], cut]
        pos = e
    pieces.append(text[pos:])
    joined = "".join(pieces)

    def tidy(m: re.Match[str]) -> str:
        after, before = joined[m.end() : m.end() + 1], joined[m.start() - 1 : m.start()]
        if after in ("", "\n") or after in ".,;:!?)]" or before in ("", "\n"):
            return ""
        return " " if " " in m.group() or "\t" in m.group() else ""

    return re.sub(f"[ \t]*{cut}(?:[ \t,;]*{cut})*[ \t]*", tidy, joined)


def claim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence holding the marker at [start, end), or its clause when the sentence carries
    several markers. A marker opening its sentence ("... found. [Smith, 2020]") cites the one
    before."""
    if not 0 <= start < end <= len(text):
        return start, end
    lo = text.rfind("\n\n", max(0, start - CLAIM_WINDOW), start)
    lo = max(0, start - CLAIM_WINDOW) if lo < 0 else lo + 2
    hi = text.find("\n\n", end, end + CLAIM_WINDOW)
    hi = min(len(text), end + CLAIM_WINDOW) if hi < 0 else hi
    found = {(m.start + lo, m.end + lo) for m in find_mentions(text[lo:hi])}
    spans = sorted({sp for sp in found if sp[1] <= start or sp[0] >= end} | {(start, end)})
    masked, pos = [], lo
    for s, e in spans:  # markers become opaque: nothing inside one can end a sentence
        edge = text[s] in "[(" and e - s > 1
        fill = text[s] + "X" * (e - s - 2) + text[e - 1] if edge else "X" * (e - s)
        masked += [text[pos:s], fill]
        pos = e
    window = "".join([*masked, text[pos:hi]])
    sentences = _sentences(window)
    idx = next((n for n, (s, e) in enumerate(sentences) if s <= start - lo < e), None)
    if idx is None:
        return start, end
    s0, e0 = sentences[idx][0] + lo, sentences[idx][1] + lo
    groups = _groups(text, [sp for sp in spans if s0 <= sp[0] < e0])
    g = next(n for n, (gs, ge) in enumerate(groups) if gs <= start < ge)
    gs, ge = groups[g]
    if g == 0 and text[start] in "[(" and not text[s0:gs].strip() and idx > 0:
        return sentences[idx - 1][0] + lo, ge
    if len(groups) == 1:
        return min(s0, start), max(e0, end)
    cs = groups[g - 1][1] if g else s0
    for b in _CLAUSE.finditer(window, cs - lo, gs - lo):
        cs = b.end() + lo
    lead = _LEAD.match(text, cs, gs)
    cs = min(lead.end() if lead else cs, start)
    ce = ge
    if not content_words(text[cs:gs]):  # "As shown by [A, 2020], X rises": take the clause on
        nxt = groups[g + 1][0] if g + 1 < len(groups) else e0
        after = _CLAUSE.search(window, ge - lo, nxt - lo)
        ce = nxt if after is None else after.start() + lo
        while ce > ge and text[ce - 1] in " \t\n,":
            ce -= 1
    return cs, ce


def _sentences(text: str) -> list[tuple[int, int]]:
    """text.sentence_spans, re-joined after "(Fig. 2)" or "Sect. 4", which it splits."""
    out: list[tuple[int, int]] = []
    for s, e in sentence_spans(text):
        last = text[out[-1][0] : out[-1][1]].rsplit(None, 1)[-1] if out else ""
        core = last.lstrip(OPENERS).rstrip(".").lower()
        if last.endswith(".") and (core in NO_SPLIT or (len(core) == 1 and core.isalpha())):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _groups(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent markers ("[A, 2020][B, 2021]", "[A, 2020], [B, 2021]") back one claim."""
    groups: list[tuple[int, int]] = []
    for s, e in spans:
        if groups and not text[groups[-1][1] : s].strip(" \t\n,;"):
            groups[-1] = (groups[-1][0], e)
        else:
            groups.append((s, e))
    return groups


def claim_text(text: str, mention: Mention) -> str:
    """The claim the mention supports, markers stripped, whitespace collapsed."""
    s, e = claim_span(text, mention.start, mention.end)
    sub = text[s:e]
    inside = list(find_mentions(sub))
    if s <= mention.start and mention.end <= e:
        ms, me = mention.start - s, mention.end - s
        if all(m.end <= ms or m.start >= me for m in inside):
            inside.append(Mention(mention.marker, ms, me, mention.first_author))
    return " ".join(strip_markers(sub, inside).split())
