"""Evaluate ``ask`` on a labelled question set: retrieval, citations, verdicts, refusals.

A question set is JSON Lines, one question a line: ``{"id", "question", "answer_paper_keys"}``
(BibTeX keys of the papers that hold the answer; ``[]`` when the library does not answer it)
and an optional ``answer_hint`` (a phrase of the answering page, for the person writing the
set). Every question goes through the real ``pipeline.ask`` (retrieve, answer, verify, repair,
log as user ``eval``), so the figures are those a scientist would see. No framework imports:
everything reaches the index and the store through the library and the pipeline.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_assistant.answer.base import Answerer, Turn
from research_assistant.check.mentions import CITATION_LIKE, find_mentions, other_markers
from research_assistant.errors import ResearchAssistantError
from research_assistant.library import Library
from research_assistant.pipeline import ask, get_answerer
from research_assistant.results import STATUSES, VERIFIED, Answer
from research_assistant.settings import load_settings
from research_assistant.text import fold

__all__ = ["EvalReport", "EvalRow", "Question", "evaluate", "load_questions", "score_answer"]

EVAL_USER = "eval"  # the user name eval runs are logged under in the audit log
# A square bracket holding a year (the [Label] form answers use): a second look for citation
# markers, independent of the citation finder, so a marker it misses still counts as shown
# without a verdict. Parentheses are left to the finder: "(in 2019)" is no citation.


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answer_paper_keys: tuple[str, ...]
    answer_hint: str = ""
    kind: str = ""  # what the question tests (numeric, definition, library, followup, ...)
    previous: str = ""  # a follow-up: the question asked before it in the same conversation

    @property
    def answerable(self) -> bool:
        return bool(self.answer_paper_keys)


@dataclass(frozen=True)
class EvalRow:
    """The outcome of one question."""

    id: str
    question: str
    answerable: bool
    mode: str  # "answer" | "refuse"
    retrieved_keys: tuple[str, ...]  # papers of the retrieved chunks, in rank order, distinct
    retrieval_hit: bool  # a paper that holds the answer is among the retrieved ones
    cites_answer_paper: bool  # the answer cites one of them with a verified citation
    statuses: tuple[str, ...]  # the verdict of every citation shown, in order ("" if none)
    cited_keys: tuple[str, ...]  # the paper of every citation shown ("" if unresolved)
    unflagged: int  # citation markers shown without a verdict (must be 0)
    hint_found: bool | None = None  # the answer states the question's answer_hint (None: no hint)
    latency_ms: float = 0.0
    answer: str = ""
    kind: str = ""

    @property
    def refused(self) -> bool:
        return self.mode == "refuse"

    @property
    def citations(self) -> int:
        return len(self.statuses)

    @property
    def verified(self) -> int:
        return sum(s == VERIFIED for s in self.statuses)

    @property
    def with_status(self) -> int:
        return sum(s in STATUSES for s in self.statuses)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "answerable": self.answerable,
            "mode": self.mode,
            "retrieval_hit": self.retrieval_hit,
            "cites_answer_paper": self.cites_answer_paper,
            "statuses": list(self.statuses),
            "cited_keys": list(self.cited_keys),
            "retrieved_keys": list(self.retrieved_keys),
            "unflagged": self.unflagged,
            "hint_found": self.hint_found,
            "kind": self.kind,
            "latency_ms": round(self.latency_ms, 1),
            "answer": self.answer,
        }


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass(frozen=True)
class EvalReport:
    """Per-question rows and the aggregates; a share is None when its denominator is 0."""

    backend: str
    model: str
    top_k: int
    rows: tuple[EvalRow, ...]

    @property
    def answerable(self) -> tuple[EvalRow, ...]:
        return tuple(r for r in self.rows if r.answerable)

    @property
    def unanswerable(self) -> tuple[EvalRow, ...]:
        return tuple(r for r in self.rows if not r.answerable)

    @property
    def retrieval_hit_rate(self) -> float | None:
        """Answerable questions with a holding paper in the top k."""
        return _share(sum(r.retrieval_hit for r in self.answerable), len(self.answerable))

    @property
    def cites_answer_rate(self) -> float | None:
        """Answerable questions whose answer cites a holding paper, verified."""
        return _share(sum(r.cites_answer_paper for r in self.answerable), len(self.answerable))

    @property
    def citations(self) -> int:
        return sum(r.citations for r in self.rows)

    @property
    def verified_share(self) -> float | None:
        return _share(sum(r.verified for r in self.rows), self.citations)

    @property
    def status_share(self) -> float | None:
        """Citations shown that carry a verdict (must be 1.0)."""
        return _share(sum(r.with_status for r in self.rows), self.citations)

    @property
    def unflagged_unverified(self) -> int:
        """Citations shown with no verdict (must be 0): a marker in the answer text that no
        citation object covers, or a citation whose status is not one of DESIGN.md's. A
        non-verified citation with its status is flagged: the status is shown beside it."""
        return sum(r.unflagged + r.citations - r.with_status for r in self.rows)

    @property
    def hint_rate(self) -> float | None:
        """Answerable questions whose answer states the hint phrase: a stricter, informal look
        at whether the cited sentences say the answer, not just come from the right paper."""
        rows = [r for r in self.answerable if r.hint_found is not None]
        return _share(sum(bool(r.hint_found) for r in rows), len(rows))

    @property
    def all_verified_rate(self) -> float | None:
        """Answers (not refusals) whose every chip is green."""
        given = [r for r in self.rows if not r.refused and r.citations]
        return _share(sum(r.verified == r.citations for r in given), len(given))

    def by_kind(self) -> dict[str, dict[str, Any]]:
        """Per kind of question: how many, cited a verified answer paper, stated the hint,
        refused."""
        out: dict[str, dict[str, Any]] = {}
        for kind in dict.fromkeys(r.kind or "-" for r in self.rows):
            rows = [r for r in self.rows if (r.kind or "-") == kind]
            hinted = [r for r in rows if r.hint_found is not None]
            out[kind] = {
                "questions": len(rows),
                "cites_answer_paper": sum(r.cites_answer_paper for r in rows),
                "states_answer": sum(bool(r.hint_found) for r in hinted),
                "with_hint": len(hinted),
                "refused": sum(r.refused for r in rows),
            }
        return out

    @property
    def refused_unanswerable(self) -> int:
        return sum(r.refused for r in self.unanswerable)

    @property
    def refusal_rate_unanswerable(self) -> float | None:
        return _share(self.refused_unanswerable, len(self.unanswerable))

    @property
    def false_refusals(self) -> int:
        return sum(r.refused for r in self.answerable)

    def aggregates(self) -> dict[str, Any]:
        def rounded(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "questions": len(self.rows),
            "answerable": len(self.answerable),
            "unanswerable": len(self.unanswerable),
            "retrieval_hit_rate": rounded(self.retrieval_hit_rate),
            "cites_answer_paper_rate": rounded(self.cites_answer_rate),
            "citations": self.citations,
            "verified_share": rounded(self.verified_share),
            "status_share": rounded(self.status_share),
            "unflagged_unverified": self.unflagged_unverified,
            "refused_unanswerable": self.refused_unanswerable,
            "refusal_rate_unanswerable": rounded(self.refusal_rate_unanswerable),
            "false_refusals": self.false_refusals,
            "hint_rate": rounded(self.hint_rate),
            "all_verified_rate": rounded(self.all_verified_rate),
            "by_kind": self.by_kind(),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "model": self.model,
            "top_k": self.top_k,
            "aggregates": self.aggregates(),
            "rows": [r.to_dict() for r in self.rows],
        }


def _question(line: str, where: str) -> Question:
    try:
        d = json.loads(line)
    except json.JSONDecodeError as e:
        raise ResearchAssistantError(f"{where}: not valid JSON ({e.msg}): fix the line.") from e
    if not isinstance(d, dict):
        raise ResearchAssistantError(f"{where}: expected a JSON object per line.")
    qid, text, keys = d.get("id"), d.get("question"), d.get("answer_paper_keys")
    if not isinstance(qid, str | int) or not str(qid).strip():
        raise ResearchAssistantError(f'{where}: the question needs an "id".')
    if not isinstance(text, str) or not text.strip():
        raise ResearchAssistantError(f'{where}: "question" must be a non-empty string.')
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise ResearchAssistantError(
            f'{where}: "answer_paper_keys" must be a list of BibTeX keys ([] when the library '
            "does not answer the question)."
        )
    hint, kind, previous = (str(d.get(k) or "") for k in ("answer_hint", "kind", "previous"))
    return Question(str(qid), text.strip(), tuple(keys), hint, kind, previous.strip())


def parse_questions(lines: Iterable[str], source: str = "questions") -> tuple[Question, ...]:
    """Questions from JSON Lines text; blank lines and lines starting with # are skipped."""
    out: list[Question] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        q = _question(line, f"{source}:{n}")
        if q.id in seen:
            raise ResearchAssistantError(f"{source}:{n}: the id {q.id!r} is used twice.")
        seen.add(q.id)
        out.append(q)
    if not out:
        raise ResearchAssistantError(f"{source} holds no questions: one JSON object per line.")
    return tuple(out)


def load_questions(path: Path | str) -> tuple[Question, ...]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ResearchAssistantError(f"Cannot read the question set {path}: {e.strerror}") from e
    return parse_questions(text.splitlines(), path.name)


_HYPHENS = str.maketrans("", "", "-\u00ad\u2010\u2011\u2012\u2013\u2014")


def states(answer: str, hint: str) -> bool:
    """True when the answer text states the hint: folded, whitespace and hyphens ignored (PDF
    text puts spaces around symbols as it likes: "35:28±0.08" and "35:28 ± 0.08"; a hint copied
    from a page keeps its line-break hyphen, "a tempo- rary file", which the answer joins). The
    paper's own citation markers are no part of what it states: an answer quotes "we use SPPC
    for German" for "SPPC (Neumann and Piskorski, 2002) for German", and writes a dash as "-"."""
    return _flat(CITATION_LIKE.sub("", hint)) in _flat(answer)


def _flat(text: str) -> str:
    return "".join(fold(text).split()).translate(_HYPHENS)


def score_answer(q: Question, answer: Answer) -> EvalRow:
    """One question's row from the answer ``ask`` returned (pure: no library needed)."""
    holding = set(q.answer_paper_keys)
    retrieved = tuple(dict.fromkeys(p.chunk.paper_key for p in answer.retrieved))
    shown = answer.citations if answer.mode == "answer" else ()
    covered = {(c.mention.start, c.mention.end) for c in shown}
    # Every marker in the text shown must be one of the checked citations: else it is shown
    # with no verdict at all.
    markers = {(m.start, m.end) for m in find_mentions(answer.answer)}
    markers |= set(other_markers(answer.answer))
    hint = fold(q.answer_hint) if q.answerable and q.answer_hint.strip() else ""
    return EvalRow(
        id=q.id,
        question=q.question,
        answerable=q.answerable,
        mode=answer.mode,
        retrieved_keys=retrieved,
        retrieval_hit=bool(holding & set(retrieved)),
        cites_answer_paper=answer.mode == "answer"
        and any(c.status == VERIFIED and c.paper_key in holding for c in shown),
        statuses=tuple(c.status or "" for c in shown),
        cited_keys=tuple(c.paper_key or "" for c in shown),
        unflagged=len(markers - covered),
        hint_found=states(answer.answer, hint) if hint else None,
        latency_ms=answer.latency_ms,
        answer=answer.answer,
        kind=q.kind,
    )


def evaluate(
    lib: Library,
    questions: Sequence[Question],
    backend: str | None = "extractive",
    top_k: int | None = None,
    answerer: Answerer | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> EvalReport:
    """Ask every question through ``pipeline.ask`` and score the answers."""

    known = {p.key for p in lib.papers()}
    missing = sorted({k for q in questions for k in q.answer_paper_keys} - known)
    if missing:
        raise ResearchAssistantError(
            f"The question set names {len(missing)} paper key(s) not in the library at "
            f"{lib.root}: {', '.join(missing[:5])}. Ingest those papers or fix the keys."
        )
    answerer = answerer or get_answerer(backend)
    k = top_k or load_settings().top_k
    rows = []
    for i, q in enumerate(questions, 1):
        history: tuple[Turn, ...] = ()
        if q.previous:  # a follow-up: ask the question before it first, as a user would
            first = ask(lib, q.previous, user=EVAL_USER, answerer=answerer, top_k=k)
            history = (Turn(q.previous, first.answer),)
        answer = ask(lib, q.question, user=EVAL_USER, answerer=answerer, top_k=k, history=history)
        rows.append(score_answer(q, answer))
        if progress is not None:
            progress(i, len(questions), q.id)
    return EvalReport(answerer.backend, answerer.model, k, tuple(rows))
