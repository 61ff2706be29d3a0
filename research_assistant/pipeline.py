"""ask() and check_text(): compose retrieval, answering, verification, references and logging.

Dependencies are passed in (the library, the answerer); every call works on one snapshot of
the library state, so an ingest running in another thread never mixes two indexes in one answer.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace

from research_assistant.answer import prompts
from research_assistant.answer.base import (
    Answerer,
    AnswerRequest,
    Draft,
    RepairNote,
    SourcePassage,
    Turn,
)
from research_assistant.answer.registry import make_answerer
from research_assistant.check import mentions as cite
from research_assistant.check import verify
from research_assistant.errors import ResearchAssistantError
from research_assistant.library import Library, LibraryState
from research_assistant.models import Passage
from research_assistant.report import references
from research_assistant.report.exports import EXPORTERS, Document
from research_assistant.results import VERIFIED, Answer, CheckedText, Citation, Reference
from research_assistant.settings import CHECK_TEXT_MAX_CHARS, load_settings

Step = Callable[[str], None]  # progress messages for the UI's status box
SECOND_HAND_TOP_K = 5


def _noop(_: str) -> None:
    return None


def get_answerer(backend: str | None = None) -> Answerer:
    s = load_settings()
    return make_answerer(
        backend or s.default_backend(),
        model=s.model,
        base_url=s.anthropic_base_url,
        timeout_s=s.llm_timeout_s,
        max_retries=s.llm_max_retries,
    )


def warm(lib: Library) -> None:
    """Prepare the verifier's per-chunk cache and the resolver of the current library state, so
    that the first questions are as fast as the later ones (the app runs this in a thread)."""
    state = lib.state
    _ = state.resolver
    _ = state.support_context  # reads every chunk once: the checker's cache is warm after


def _check(
    state: LibraryState, text: str, retrieved: frozenset[str] | None
) -> tuple[Citation, ...]:
    mentions = cite.find_mentions(text)
    if not mentions:
        return ()
    return verify.check_citations(
        text,
        mentions,
        state.resolver,
        state.index.chunks_of,
        retrieved=retrieved,
        search=state.index.retrieve,
        ctx=state.support_context,
    )


def _failing(citations: Sequence[Citation]) -> list[RepairNote]:
    return [
        RepairNote(c.mention.marker, c.claim, c.status, c.reason or c.status)
        for c in citations
        if c.status != VERIFIED
    ]


def _request(state: LibraryState, question: str, passages: Sequence[Passage]) -> AnswerRequest:
    sources = []
    for p in passages:
        paper = state.papers.get(p.chunk.paper_key)
        if paper is None:
            continue
        sources.append(
            SourcePassage(
                label=paper.label,
                paper_key=paper.key,
                title=paper.title,
                page=p.chunk.page,
                chunk_id=p.chunk.chunk_id,
                text=p.chunk.text,
            )
        )
    return AnswerRequest(question=question, passages=tuple(sources))


def ask(
    lib: Library,
    question: str,
    backend: str | None = None,
    user: str | None = None,
    *,
    answerer: Answerer | None = None,
    top_k: int | None = None,
    on_text: Callable[[str], None] | None = None,
    on_step: Step | None = None,
    history: Sequence[Turn] = (),
    conversation_id: str | None = None,
) -> Answer:
    """Answer ``question`` from the library; every citation carries its verdict; logged.

    ``history`` holds the earlier turns of the conversation (oldest first): a follow-up is
    retrieved and answered in their context. ``conversation_id`` files the run under the
    user's conversation in the catalog."""
    step = on_step or _noop
    question = question.strip()
    if not question:
        raise ResearchAssistantError("The question is empty: type a question about your papers.")
    started = time.perf_counter()
    answerer = answerer or get_answerer(backend)
    if top_k is None:
        top_k = load_settings().top_k
    state = lib.state
    step(f"Searching {len(state.papers)} papers")
    passages = state.index.retrieve(question, top_k)
    registry = frozenset(p.chunk.chunk_id for p in passages)
    request = _request(state, question, passages)
    n_papers = len({p.paper_key for p in request.passages})
    step(f"Retrieved {len(passages)} passages from {n_papers} papers")
    if request.passages:
        step(f"Answering with {answerer.backend} ({answerer.model})")
        draft = answerer.answer(request, on_text)
    else:
        draft = Draft(prompts.REFUSAL_TEXT, answerer.model, answerer.backend, refused=True)
    checked: tuple[Citation, ...] = ()
    repaired = False
    if not draft.refused:
        step("Checking every citation against the cited paper")
        checked = _check(state, draft.text, registry)
        notes = _failing(checked)
        if notes:
            step(f"Repairing {len(notes)} citation(s) that did not verify")
            second = answerer.repair(request, draft, notes, None)
            rechecked = () if second.refused else _check(state, second.text, registry)
            if second.refused or len(_failing(rechecked)) < len(notes):
                draft, checked, repaired = second, rechecked, True
    supported = any(c.status == VERIFIED for c in checked)
    mode = "answer" if (not draft.refused and supported) else "refuse"
    text = draft.text if mode == "answer" else prompts.REFUSAL_TEXT
    shown = checked if mode == "answer" else ()
    answer = Answer(
        id=uuid.uuid4().hex[:12],
        question=question,
        mode=mode,  # type: ignore[arg-type]
        answer=text,
        citations=shown,
        references=references.build_references(shown, state.papers),
        retrieved=tuple(passages),
        backend=answerer.backend,
        model=draft.model or answerer.model,
        repaired=repaired,
        generation=state.generation,
    )
    answer = replace(answer, latency_ms=(time.perf_counter() - started) * 1000)
    result = answer.to_dict()
    if mode == "refuse" and checked:
        result["draft"] = draft.text  # what was withheld, for the audit trail
    lib.store.log_run(
        run_id=answer.id,
        source="ask",
        user=user,
        citations=checked,  # every outcome, also those of a withheld draft
        result=result,
        question=question,
        answer=text,
        mode=mode,
        backend=answer.backend,
        model=answer.model,
        latency_ms=answer.latency_ms,
        retrieved=sorted(registry),
    )
    step("Done")
    return answer


def check_text(lib: Library, text: str, user: str | None = None) -> CheckedText:
    """Check every citation in ``text`` against the whole library; logged as a verify run.
    A text over ``CHECK_TEXT_MAX_CHARS`` is refused: checking it would hold the shared process."""
    if len(text) > CHECK_TEXT_MAX_CHARS:
        raise ResearchAssistantError(
            f"The text is {len(text):,} characters long, over the limit of "
            f"{CHECK_TEXT_MAX_CHARS:,} characters per check: check it a chapter or a section "
            "at a time."
        )
    state = lib.state
    checked = _check(state, text, None)
    result = CheckedText(
        text=text,
        citations=checked,
        references=references.build_references(checked, state.papers),
        id=uuid.uuid4().hex[:12],
    )
    lib.store.log_run(
        run_id=result.id,
        source="verify",
        user=user,
        citations=checked,
        result={**result.to_dict(), "text": text},
        answer=text[:10_000],
        mode="verify",
    )
    return result


def export(lib: Library, run_id: str, fmt: str) -> str:
    """A logged answer or checked text in a format of ``report.exports.EXPORTERS``: Markdown,
    HTML, or the BibTeX of the cited works."""
    exporter = EXPORTERS.get(fmt)
    if exporter is None:
        raise ResearchAssistantError(
            f"Unknown export format {fmt!r}: use one of {', '.join(EXPORTERS)}."
        )
    run = lib.store.run(run_id)
    if run is None:
        raise ResearchAssistantError(
            f"No answer or checked text with id {run_id!r}: see the ids in the app's history "
            "or in the JSON output of ask/verify."
        )
    refs = [Reference.from_dict(r) for r in run.get("references", [])]
    text = run.get("answer") if run.get("source") == "ask" else run.get("text", "")
    document = Document(
        title=run.get("question") or "Checked text",
        text=text or "",
        citations=[Citation.from_dict(c) for c in run.get("citations", [])],
        references=refs,
        cited=[p for r in refs if (p := lib.paper(r.key)) is not None],
    )
    return exporter.render(document).decode("utf-8")
