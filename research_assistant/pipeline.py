"""ask() and check_text(): compose retrieval, answering, verification, references and logging.

Dependencies are passed in (the library, the answerer); every call works on one snapshot of
the library state, so an ingest running in another thread never mixes two indexes in one answer.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace

from research_assistant.answer import catalog, prompts, refusal
from research_assistant.answer.asking import is_follow_up, library_ask
from research_assistant.answer.base import (
    Answerer,
    AnswerRequest,
    Draft,
    Judge,
    RepairNote,
    SourcePassage,
    Turn,
)
from research_assistant.answer.registry import make_answerer
from research_assistant.bib.write import entry as bib_entry
from research_assistant.check import coverage, judging, verify
from research_assistant.check import mentions as cite
from research_assistant.check.nearest import nearest_in_papers
from research_assistant.errors import ResearchAssistantError
from research_assistant.ingest import matching
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
    name = backend or s.default_backend()
    return make_answerer(name, **asdict(s.answerer_options(name)))


def get_judge(backend: str | None = None) -> Judge | None:
    """The model that gives a second opinion on the citations the offline checker cannot
    settle: ``backend`` (or the configured default) when it is a model backend that judges;
    None offline."""
    name = backend or load_settings().default_backend()
    if name == "extractive":
        return None
    return judge_of(get_answerer(name))


def judge_of(answerer: Answerer) -> Judge | None:
    """The answerer as a Judge when its backend can judge (a model); None otherwise."""
    return answerer if callable(getattr(answerer, "judge", None)) else None  # type: ignore[return-value]


def warm(lib: Library) -> None:
    """Prepare the verifier's per-chunk cache and the resolver of the current library state, so
    that the first questions are as fast as the later ones, and the entries' library.bib text
    and matching keys, so that the first change is (the app runs this in a thread)."""
    state = lib.state
    _ = state.resolver
    _ = state.support_context  # reads every chunk once: the checker's cache is warm after
    _facets(state)
    for paper in state.papers.values():  # what the first change reads of every paper
        bib_entry(paper)
    matching.warm(state.papers.values())


def _check(
    state: LibraryState,
    text: str,
    retrieved: frozenset[str] | None,
    judge: Judge | None = None,
    judge_every: bool = False,
) -> tuple[Citation, ...]:
    mentions = cite.find_mentions(text, known=lambda m: bool(state.resolver.resolve(m)))
    if not mentions:
        return ()
    checked = verify.check_citations(
        text,
        mentions,
        state.resolver,
        state.index.chunks_of,
        retrieved=retrieved,
        search=state.index.retrieve,
        ctx=state.support_context,
    )
    return second_opinion(state, checked, judge, judge_every)


def second_opinion(
    state: LibraryState, checked: Sequence[Citation], judge: Judge | None, every: bool = False
) -> tuple[Citation, ...]:
    """``checked`` after the ``judge``'s second opinion (check/judging.py); as it is with none."""
    if judge is None:
        return tuple(checked)
    return judging.second_opinion(
        checked, judge, state.index.chunks_of, lambda key: state.papers[key].label,
        state.support_context, every,
    )  # fmt: skip


def _failing(citations: Sequence[Citation]) -> list[RepairNote]:
    return [
        RepairNote(c.mention.marker, c.claim, c.status, c.reason or c.status)
        for c in citations
        if c.status != VERIFIED
    ]


def _request(
    state: LibraryState,
    question: str,
    passages: Sequence[Passage],
    history: Sequence[Turn] = (),
) -> AnswerRequest:
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
                authors=" ".join(a.family for a in paper.authors),
            )
        )
    return AnswerRequest(
        question=question,
        passages=tuple(sources),
        history=tuple(history),
        context=state.support_context,
    )


def _facets(state: LibraryState) -> catalog.Facets:
    return state.cached("facets", lambda: catalog.facets(state.papers))


def _listing(state: LibraryState, question: str) -> catalog.Listing | None:
    """The papers a question about the library asks for, when it is one and any match."""
    asked = library_ask(question)
    if asked is None:
        return None
    index, facts = state.index, _facets(state)
    found = catalog.list_papers(
        asked, state.papers, index.chunks_of, index.retrieve, state.support_context, facts
    )
    return found if found is not None and found.entries else None


# The two best-ranked papers' other chunks nearest the question join the passages (at most six):
# the sentence that answers is often on a page the question's words rank lower (development
# questions: 12 of 63 answer sentences were outside the top-8 chunks).
WIDEN_PAPERS, WIDEN_CHUNKS = 2, 6


def _widen(state: LibraryState, question: str, passages: list[Passage]) -> list[Passage]:
    seen = frozenset(p.chunk.chunk_id for p in passages)
    top = list(dict.fromkeys(p.chunk.paper_key for p in passages))[:WIDEN_PAPERS]
    papers = [state.index.chunks_of(key) for key in top]
    extra = nearest_in_papers(question, papers, state.support_context, WIDEN_CHUNKS, seen)
    return [*passages, *(Passage(c, 0.0) for c in extra)]


def _search_text(question: str, history: Sequence[Turn]) -> str:
    """What retrieval searches for: a follow-up is searched with the question it follows."""
    earlier = [t.question for t in history]
    return f"{question} {earlier[-1]}" if is_follow_up(question, earlier) else question


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
    judge_every: bool | None = None,
) -> Answer:
    """Answer ``question`` from the library; every citation carries its verdict; logged.

    ``history`` holds the earlier turns of the conversation (oldest first): a follow-up is
    retrieved and answered in their context. ``conversation_id`` files the run under the
    user's conversation in the catalog. ``judge_every`` (default: RA_JUDGE_ANSWERS): a model
    answerer that judges gives its second opinion on every citation of its answer."""
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
    listing = _listing(state, question) if not history else None
    if listing is not None:  # "Which papers in my library ...": the catalog answers
        passages = list(listing.passages)
    else:
        passages = _widen(
            state, question, state.index.retrieve(_search_text(question, history), top_k)
        )
    registry = frozenset(p.chunk.chunk_id for p in passages)
    request = _request(state, question, passages, history)
    n_papers = len({p.paper_key for p in request.passages})
    step(f"Retrieved {len(passages)} passages from {n_papers} papers")
    if listing is not None:
        draft = Draft(catalog.render(listing), "catalog", answerer.backend)
        if on_text is not None:
            on_text(draft.text)
    elif request.passages:
        step(f"Answering with {answerer.backend} ({answerer.model})")
        draft = answerer.answer(request, on_text)
    else:
        draft = Draft(prompts.REFUSAL_TEXT, answerer.model, answerer.backend, refused=True)
    fixes = list(draft.notes)  # what the answerer fixed in the model's output: logged
    checked: tuple[Citation, ...] = ()
    repaired = False
    if not draft.refused:
        step("Checking every citation against the cited paper")
        checked = _check(state, draft.text, registry)
        notes = _failing(checked)
        if notes and listing is None:  # a listing's entries are shown with their verdicts
            step(f"Repairing {len(notes)} citation(s) that did not verify")
            second = answerer.repair(request, draft, notes, None)
            fixes += [f"repair: {n}" for n in second.notes]
            rechecked = () if second.refused else _check(state, second.text, registry)
            if second.refused or len(_failing(rechecked)) < len(notes):
                draft, checked, repaired = second, rechecked, True
    judge = judge_of(answerer) if checked and listing is None else None
    if judge is not None and (
        judge_every if judge_every is not None else load_settings().judge_answers
    ):
        step(f"A second opinion from {answerer.model} on every citation")
        checked = second_opinion(state, checked, judge, every=True)
        if not any(c.status == VERIFIED for c in checked):
            fixes.append("second opinion: the model judge confirmed no citation; withheld")
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
        closest=refusal.closest(question, request.passages) if mode == "refuse" else (),
        coverage=coverage.citation_coverage(text) if mode == "answer" else None,
        notes=tuple(dict.fromkeys(fixes)),
    )
    answer = replace(answer, latency_ms=(time.perf_counter() - started) * 1000)
    result = answer.to_dict()
    if mode == "refuse" and (checked or fixes):
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
        conversation_id=conversation_id,
    )
    step("Done")
    return answer


def check_text(
    lib: Library, text: str, user: str | None = None, *, judge: Judge | None = None,
    judge_every: bool = False,
) -> CheckedText:  # fmt: skip
    """Check every citation in ``text`` against the whole library; logged as a verify run.
    A text over ``CHECK_TEXT_MAX_CHARS`` is refused: checking it would hold the shared process.
    With a ``judge`` (a model backend), the citations the offline checker cannot settle get
    its second opinion in batched calls (check/judging.py); with ``judge_every``, every citation
    the checker verified too, so that a green chip is one both find stated."""
    if len(text) > CHECK_TEXT_MAX_CHARS:
        raise ResearchAssistantError(
            f"The text is {len(text):,} characters long, over the limit of "
            f"{CHECK_TEXT_MAX_CHARS:,} characters per check: check it a chapter or a section "
            "at a time."
        )
    state = lib.state
    checked = _check(state, text, None, judge, judge_every)
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
    """A logged answer or checked text in a text format of ``report.exports.EXPORTERS``:
    Markdown, HTML, or the BibTeX of the cited works (Word: ``export_bytes``)."""
    if fmt in EXPORTERS and EXPORTERS[fmt].binary:
        raise ResearchAssistantError(f"{fmt} is a binary format: use export_bytes.")
    return export_bytes(lib, run_id, fmt).decode("utf-8")


def export_bytes(lib: Library, run_id: str, fmt: str) -> bytes:
    """A logged answer or checked text in any format of ``report.exports.EXPORTERS``."""
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
    return exporter.render(document)
