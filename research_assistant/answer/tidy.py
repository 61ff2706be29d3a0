"""What a weak model writes, made checkable: unwrapped, its numeric markers mapped, its unfinished
sentence dropped, and every change noted (pure: stdlib and the package's pure modules only).

Small local models break the citation rules in a few common ways: they think aloud first
(``<think>...</think>``, removed), wrap the answer in a
Markdown fence or a JSON object (``mentions`` never reads inside code, so nothing would be
checked), cite passages by their number (``[1]``, ``[Passage 2]``, ``[1, 3]``) instead of their
label, cite labels they were not given, and stop mid-sentence at the token limit. ``tidy`` repairs
the first, maps the second to the labels of the passages the prompt numbered (the verifier then
checks the mapped citation against that paper, so a wrong mapping is flagged, never shown as
verified), notes the third (the verifier flags them and the repair round asks again), and drops
the unfinished sentence of the fourth. Each change is returned as a note the pipeline logs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from research_assistant.answer.base import SourcePassage, allowed_labels

__all__ = ["Tidied", "cites_nothing", "tidy", "without_thinking"]

# The keys a model puts its answer under when it answers in JSON against the rules.
_ANSWER_KEYS = ("answer", "text", "response", "content", "output", "result")
# A whole answer inside one Markdown fence: ```lang\n...\n``` (closing fence optional: cut).
_FENCED = re.compile(r"\A\s*(`{3,}|~{3,})[\w+-]*[ \t]*\n(?P<body>.*?)(?:\n\s*\1\s*)?\Z", re.S)
# A reasoning model's thoughts before its answer (Qwen3, DeepSeek-R1 on servers that inline them);
# unclosed: the model was cut while still thinking, and there is no answer.
_THINKING = re.compile(r"\A\s*<think>.*?(?:</think>|\Z)", re.S)
# A numeric marker: [1], [1, 3], [2-4], [Passage 2], [Source #1]; at most 3 digits per number.
_NUM = r"\d{1,3}"
_NUMERIC = re.compile(
    rf"\[\s*(?:(?:passage|source|document|doc|ref|reference|context)\s*#?\s*)?"
    rf"(?P<nums>{_NUM}(?:\s*(?:[,;]|[-\u2013])\s*{_NUM})*)\s*\]",
    re.IGNORECASE,
)
_RANGE = re.compile(rf"({_NUM})\s*[-\u2013]\s*({_NUM})")
_BRACKET = re.compile(r"\[([^\[\]\n]{1,200})\]")
_YEAR = re.compile(r"(?:1[5-9]|20)\d\d")
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*(?=\s|\Z)")
_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+([.,;:!?])")
_DOUBLE_SPACE = re.compile(r"(?<=\S)[ \t]{2,}")
MAX_RANGE = 20  # "[1-300]" is not a citation of 300 passages


@dataclass(frozen=True)
class Tidied:
    text: str
    notes: tuple[str, ...] = ()


def tidy(text: str, passages: Sequence[SourcePassage], *, finished: bool = True) -> Tidied:
    """``text`` unwrapped, numeric markers mapped to labels, an unfinished last sentence dropped
    (when ``finished`` is False: the model stopped at its token limit or the stream ended early),
    with a note for each change and for each label the passages do not have."""
    notes: list[str] = []
    text = _unwrap(text.strip(), notes)
    text = _map_numbers(text, passages, notes)
    if not finished:
        text = _drop_unfinished(text, notes)
    allowed = set(allowed_labels(passages))
    invented = [
        f"[{part.strip()}]"
        for m in _BRACKET.finditer(text)
        for part in m.group(1).split(";")
        if part.strip() not in allowed and _YEAR.search(part)
    ]
    if invented:
        shown = ", ".join(dict.fromkeys(invented))
        notes.append(f"cites labels it was not given: {shown} (checked, and flagged if wrong)")
    return Tidied(text, tuple(notes))


def cites_nothing(text: str, passages: Sequence[SourcePassage]) -> bool:
    """True when no bracket holds an allowed label or anything with a year: the text has no
    citation to check (an invented label is a citation: the checker flags it, repair fixes it)."""
    allowed = set(allowed_labels(passages))
    return not any(
        part.strip() in allowed or _YEAR.search(part)
        for m in _BRACKET.finditer(text)
        for part in m.group(1).split(";")
    )


def without_thinking(text: str) -> str:
    """``text`` without a reasoning model's leading ``<think>...</think>`` block."""
    thought = _THINKING.match(text)
    return text[thought.end() :].strip() if thought else text


def _unwrap(text: str, notes: list[str]) -> str:
    thought = _THINKING.match(text)
    if thought:
        text = text[thought.end() :].strip()
        notes.append("the model's reasoning (<think>...</think>) was removed")
    fenced = _FENCED.match(text)
    if fenced:
        text = fenced.group("body").strip()
        notes.append("the answer was wrapped in a Markdown code fence: unwrapped")
    if text[:1] in "{[" and text[-1:] in "}]":
        try:
            data = json.loads(text)
        except ValueError:
            return text
        found = _json_text(data)
        if found is not None:
            notes.append("the answer was written as JSON: its text was taken out")
            return found.strip()
    return text


def _json_text(data: object) -> str | None:
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        for key in _ANSWER_KEYS:
            if isinstance(data.get(key), str):
                return str(data[key])
        strings = [v for v in data.values() if isinstance(v, str)]
        return max(strings, key=len) if strings else None
    if isinstance(data, list) and data and all(isinstance(v, str) for v in data):
        return " ".join(data)
    return None


def _numbers(spec: str) -> list[int] | None:
    out: list[int] = []
    for part in re.split(r"\s*[,;]\s*", spec.strip()):
        span = _RANGE.fullmatch(part)
        if span:
            low, high = int(span.group(1)), int(span.group(2))
            if not 0 < high - low < MAX_RANGE:
                return None
            out.extend(range(low, high + 1))
        else:
            out.append(int(part))
    return out


def _map_numbers(text: str, passages: Sequence[SourcePassage], notes: list[str]) -> str:
    mapped: list[str] = []
    dropped: list[str] = []

    def replace(m: re.Match[str]) -> str:
        numbers = _numbers(m.group("nums"))
        if not numbers or not all(1 <= n <= len(passages) for n in numbers):
            dropped.append(m.group(0))
            return ""
        labels = dict.fromkeys(passages[n - 1].label for n in numbers)
        mapped.append(m.group(0))
        return "[" + "; ".join(labels) + "]"

    out = _NUMERIC.sub(replace, text)
    if mapped:
        shown = ", ".join(dict.fromkeys(mapped))
        notes.append(f"numeric markers {shown} mapped to the labels of the passages they number")
    if dropped:
        shown = ", ".join(dict.fromkeys(dropped))
        notes.append(f"markers {shown} number no passage (a paper's own citations?): removed")
        out = _DOUBLE_SPACE.sub(" ", _SPACE_BEFORE_PUNCT.sub(r"\1", out)).strip()
    return out


def _drop_unfinished(text: str, notes: list[str]) -> str:
    ends = list(_SENTENCE_END.finditer(text))
    kept = text[: ends[-1].end()] if ends else ""
    if kept.strip() != text.strip():
        notes.append("the model stopped mid-sentence: the unfinished sentence was dropped")
    return kept.strip()
