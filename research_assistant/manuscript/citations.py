"""Pure: citations that name no author: numbers ("[12]", "[3–5, 9]", superscripts) and pandoc
keys ("[@smith2020; @lee2021, p. 4]", "@smith2020 says"). Author-year citations are found by
check/mentions.py, the one author-year finder.

Superscript numbers are read from the "^" that ingest/pdf.py writes before a raised run after a
word ("growth^3", "results.^4,5"); an exponent after a digit ("10^6") is never a citation.
"""

from __future__ import annotations

import re

from research_assistant.manuscript.model import KeyCite

__all__ = ["MAX_NUMBER", "MAX_RANGE", "labelled_cites", "numeric_cites", "pandoc_cites"]

MAX_RANGE = 100  # "[1–100]" is a range of citations
MAX_NUMBER = 999  # "[1990–2020]" is a span of years, not citations
_NUMBERS = r"\d{1,4}(?:\s*[-–—,;]\s*\d{1,4})*"
_BRACKETED = re.compile(rf"\[\s*({_NUMBERS})\s*\]")
_RAISED = re.compile(r"\^(\d{1,4}(?:[-–—\u2212,]\d{1,4})*)")
_PART = re.compile(r"(\d+)(?:\s*[-–—\u2212]\s*(\d+))?")
_PANDOC_GROUP = re.compile(r"\[([^\[\]\n]{0,400}@[^\[\]\n]{0,400})\]")
_PANDOC_KEY = re.compile(r"(?<![\w@.])-?@([A-Za-z0-9_][\w:.#$%&+?<>~/-]*)")


def _numbers(spec: str) -> tuple[int, ...] | None:
    out: list[int] = []
    for m in _PART.finditer(spec):
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if lo < 1 or hi < lo or hi - lo > MAX_RANGE or hi > MAX_NUMBER:
            return None
        out.extend(range(lo, hi + 1))
    return tuple(dict.fromkeys(out)) or None


def numeric_cites(text: str, end: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """(start, end, numbers) of each numeric citation in ``text[:end]``, in order."""
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for m in _BRACKETED.finditer(text, 0, end):
        if text[m.end() : m.end() + 1] == "(":  # a Markdown link "[1](url)"
            continue
        nums = _numbers(m.group(1))
        if nums:
            found.append((m.start(), m.end(), nums))
    for m in _RAISED.finditer(text, 0, end):
        before = text[max(0, m.start() - 2) : m.start()]
        if not before or not (
            before[-1].isalpha() or (before[-1] in ".,;:)]’”'\"" and before[:1].isalpha())
        ):
            continue  # after a digit: an exponent
        nums = _numbers(m.group(1).replace("\u2212", "-"))
        if nums:
            found.append((m.start(), m.end(), nums))
    return sorted(found)


def _key(raw: str) -> str:
    return raw.rstrip(".,;:?!")  # a key's last character is never punctuation in practice


def pandoc_cites(text: str) -> list[KeyCite]:
    """Each pandoc citation group "[@a; @b]" and each narrative "@key", in order."""
    out: list[KeyCite] = []
    taken: list[tuple[int, int]] = []
    for m in _PANDOC_GROUP.finditer(text):
        keys = tuple(_key(k.group(1)) for k in _PANDOC_KEY.finditer(m.group(1)))
        if keys:
            out.append(KeyCite(m.start(), m.end(), keys))
            taken.append(m.span())
    for k in _PANDOC_KEY.finditer(text):
        if any(s <= k.start() < e for s, e in taken):
            continue
        key = _key(k.group(1))
        out.append(
            KeyCite(k.start(), k.start() + 1 + len(key) + (k.group().startswith("-")), (key,))
        )
    return sorted(out, key=lambda c: c.start)


_GROUP = re.compile(r"\[([^\[\]\n]{1,300})\]")


def labelled_cites(text: str, end: int, labels: set[str]) -> list[KeyCite]:
    """Alpha-style citations "[Tho17a]", "[KB14, LM15a]" whose every label is one of the
    reference list's ``labels``."""
    out: list[KeyCite] = []
    for m in _GROUP.finditer(text, 0, end):
        parts = tuple(p.strip() for p in re.split(r"[,;]", m.group(1)))
        if parts and all(p in labels for p in parts):
            out.append(KeyCite(m.start(), m.end(), parts))
    return out
