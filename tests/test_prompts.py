"""Prompts as Claude receives them: every placeholder filled, the closed world of labels and
passages, the refusal it is told to give recognised, the citation form it is shown parsed.

The request is read off the local fake Messages API (tests/fake_claude.py), so these tests see
exactly what ClaudeAnswerer sends, not what a template would give on its own.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from research_assistant.answer import prompts
from research_assistant.answer.base import (
    AnswerRequest,
    Draft,
    RepairNote,
    SourcePassage,
    is_refusal,
)
from research_assistant.answer.claude import ClaudeAnswerer
from research_assistant.check.mentions import find_mentions
from tests.fake_claude import FakeClaude, answer


def source(label: str, key: str, page: int, n: int, text: str) -> SourcePassage:
    return SourcePassage(label, key, f"Title of {key}", page, f"{key}:{page}:{n}", text)


PASSAGES = (
    source("Witten and Sander, 1981", "witten1981", 2, 0, "DLA clusters have D = 1.71."),
    source("Dean and Ghemawat, 2004", "dean2004", 3, 1, "The master pings every worker."),
    source("Witten and Sander, 1981", "witten1981", 3, 2, "The clusters are open and branched."),
    source("van der Berg et al., 2019a", "berg2019", 1, 0, "Heat stress lowers kernel weight."),
)
LABELS = ["Witten and Sander, 1981", "Dean and Ghemawat, 2004", "van der Berg et al., 2019a"]
QUESTION = "What fractal dimension do DLA clusters have in 2D?"


def claude(server: FakeClaude, **options: Any) -> ClaudeAnswerer:
    return ClaudeAnswerer(
        "test-key", model="claude-test", base_url=server.base_url, max_retries=0, **options
    )


def sent_texts(body: dict[str, Any]) -> list[str]:
    """Every text Claude was sent: the system prompt and all text of all turns."""
    texts = [body["system"]]
    for message in body["messages"]:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks:
            if block["type"] == "text":
                texts.append(block["text"])
            elif block["type"] == "search_result":
                texts.extend(part["text"] for part in block["content"])
    return texts


def label_lines(text: str) -> list[str]:
    return re.findall(r"^- \[(.+)\]$", text, flags=re.MULTILINE)


@pytest.mark.parametrize("use_citations", [True, False])
def test_the_question_turn_holds_every_passage_and_each_label_once(
    fake_claude: FakeClaude, use_citations: bool
) -> None:
    fake_claude.enqueue(answer("DLA clusters have D = 1.71 [Witten and Sander, 1981]."))
    claude(fake_claude, use_citations=use_citations).answer(AnswerRequest(QUESTION, PASSAGES))
    body = fake_claude.requests[0]
    texts = sent_texts(body)
    assert not [t for t in texts if "{" in t or "}" in t]  # every placeholder was filled
    user = "\n".join(texts[1:])
    assert label_lines(user) == LABELS  # the closed world: distinct labels, retrieval order
    assert QUESTION in user
    for p in PASSAGES:
        assert p.text in user
    if not use_citations:  # inline passages are headed by their label and page
        for p in PASSAGES:
            assert f"[{p.label}] {p.title}, p. {p.page}\n{p.text}" in user
    else:  # search results carry the label as their title
        titles = [b["title"] for b in body["messages"][0]["content"] if "title" in b]
        assert titles == [p.label for p in PASSAGES]


def test_braces_in_a_question_reach_claude_verbatim(fake_claude: FakeClaude) -> None:
    question = "Is {x} in the set {a, b} of {0}?"
    fake_claude.enqueue(answer(prompts.REFUSAL_TEXT))
    claude(fake_claude).answer(AnswerRequest(question, PASSAGES[:1]))
    (question_turn,) = [t for t in sent_texts(fake_claude.requests[0]) if "Question:" in t]
    assert question in question_turn
    assert question_turn.count("{") == question.count("{")


def test_the_repair_turn_names_each_failure_and_fills_every_placeholder(
    fake_claude: FakeClaude,
) -> None:
    fake_claude.enqueue(answer("DLA clusters have D = 1.71 [Witten and Sander, 1981]."))
    draft = Draft("DLA clusters have D = 1.71 [Witten, 1999].", "claude-test", "anthropic")
    notes = [
        RepairNote("[Witten, 1999]", "DLA clusters\n  have D = 1.71", "unknown_source", "no 1999"),
        RepairNote("[Dean and Ghemawat, 2004]", "Workers vote", "unsupported", "not on p. 3"),
    ]
    claude(fake_claude).repair(AnswerRequest(QUESTION, PASSAGES), draft, notes)
    texts = sent_texts(fake_claude.requests[0])
    assert not [t for t in texts if "{" in t or "}" in t]
    follow_up = texts[-1]
    assert label_lines(follow_up) == LABELS
    problems = re.findall(r'^- (\[.+?\]) in "(.+)": (\w+) \((.+)\)$', follow_up, re.MULTILINE)
    assert problems == [
        ("[Witten, 1999]", "DLA clusters have D = 1.71", "unknown_source", "no 1999"),
        ("[Dean and Ghemawat, 2004]", "Workers vote", "unsupported", "not on p. 3"),
    ]


def quoted_refusals() -> list[str]:
    """The sentences the prompts tell Claude to reply with when the library has no answer."""
    found = [
        *re.findall(r'nothing else: "([^"]+)"', prompts.SYSTEM_PROMPT),
        *re.findall(r'reply with exactly: "([^"]+)"', prompts.REPAIR_PROMPT),
    ]
    assert len(found) == 2
    return found


@pytest.mark.parametrize("refusal", quoted_refusals(), ids=["system", "repair"])
def test_the_refusal_claude_is_told_to_give_is_recognised(
    fake_claude: FakeClaude, refusal: str
) -> None:
    assert is_refusal(refusal)
    fake_claude.enqueue(answer(refusal))
    assert claude(fake_claude).answer(AnswerRequest(QUESTION, PASSAGES)).refused


@pytest.mark.parametrize(
    ("reply", "refused"),
    [
        (prompts.REFUSAL_TEXT, True),
        (prompts.REFUSAL_TEXT.lower().rstrip("."), True),
        (prompts.REFUSAL_TEXT + " It covers DLA and MapReduce only.", True),
        (prompts.REFUSAL_TEXT + " DLA has D = 1.71 [Witten and Sander, 1981].", False),
        ("DLA clusters have D = 1.71 [Witten and Sander, 1981].", False),
        ("In short: " + prompts.REFUSAL_TEXT, False),  # an answer that quotes it, not a refusal
    ],
)
def test_is_refusal(reply: str, refused: bool) -> None:
    assert is_refusal(reply) is refused


def test_the_citation_form_claude_is_shown_is_one_the_checker_reads() -> None:
    (example,) = re.findall(r'for example: "(.+?)"', " ".join(prompts.SYSTEM_PROMPT.split()))
    (mention,) = find_mentions(example)
    assert (mention.first_author, mention.et_al, mention.year) == ("Smith", True, "2020a")
    assert example.rstrip(".").endswith(mention.marker)


def test_prompts_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(prompts.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__"}
