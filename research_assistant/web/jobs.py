"""Background jobs of the app: work in a worker thread, its events drawn by the script thread.

Only the script thread may touch widgets, so a job's work posts events into a queue that the
script thread drains (``events`` or ``wait``). The Ask page streams an answer through
``ask_job``, the Check text page checks through ``check_job``, and the Library page ingests
uploads through an ``IngestJob``. No Streamlit here.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import queue
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from research_assistant.answer.base import Judge, Turn
from research_assistant.errors import ResearchAssistantError
from research_assistant.library import Library
from research_assistant.models import IngestReport
from research_assistant.pipeline import ask, check_text, get_judge, warm
from research_assistant.results import Answer, CheckedText
from research_assistant.roles import Actor, require_curator
from research_assistant.settings import load_settings
from research_assistant.web import render, uploads

T = TypeVar("T")
Post = Callable[[str, Any], None]  # post(kind, item): one event for the script thread
_DONE, _ERROR = "done", "error"


class Job(Generic[T]):
    """``work(post)`` in a daemon thread named ``name``. Its events, then its result (or its
    exception, re-raised in the script thread, which shows it) come out of ``events``."""

    def __init__(self, name: str, work: Callable[[Post], T]) -> None:
        self._events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._result: list[T] = []

        def run() -> None:
            try:
                self._events.put((_DONE, work(self.post)))
            except BaseException as e:  # handed to the script thread
                self._events.put((_ERROR, e))

        threading.Thread(target=run, name=name, daemon=True).start()

    def post(self, kind: str, item: Any) -> None:
        self._events.put((kind, item))

    def events(self) -> Iterator[tuple[str, Any]]:
        """Each event as (kind, item) until the work ends; its exception is raised here."""
        while True:
            kind, item = self._events.get()
            if kind == _ERROR:
                raise item
            if kind == _DONE:
                self._result.append(item)
                return
            yield kind, item

    @property
    def result(self) -> T:
        """The work's return value, once ``events`` is exhausted."""
        if not self._result:
            raise RuntimeError("The job's events have not all been read yet.")
        return self._result[0]

    def wait(self, on_event: Callable[[str, Any], None] | None = None) -> T:
        for kind, item in self.events():
            if on_event is not None:
                on_event(kind, item)
        return self.result


def warm_and_settle(lib: Library) -> None:
    """``pipeline.warm``, then move what it made (the library state, the checker's caches: a
    few hundred thousand objects at 10,000 papers) out of the cyclic collector's sight, so that
    its full collections stop rescanning them during asks (``gc.freeze``; undone at exit, where
    DuckDB's bindings would otherwise report the frozen objects as leaks)."""
    global _SETTLED
    warm(lib)
    gc.collect()
    gc.freeze()
    if not _SETTLED:
        _SETTLED = True
        atexit.register(gc.unfreeze)


_SETTLED = False


def warm_in_background(lib: Library) -> None:
    """Fill the verifier's caches in a daemon thread, so that the first question is as fast as
    the next ones. An optimisation only (``ask`` fills them anyway): a failure is ignored."""

    def work() -> None:
        with contextlib.suppress(Exception):
            warm_and_settle(lib)

    threading.Thread(target=work, name="warm", daemon=True).start()


def ask_job(
    lib: Library,
    question: str,
    backend: str,
    user: str,
    *,
    answerer: Any,
    top_k: int,
    history: Sequence[Turn] = (),
    conversation_id: str | None = None,
) -> Job[Answer]:
    """``pipeline.ask`` as a Job: ("text", piece) and ("step", message) events, then the Answer.
    ``history`` and ``conversation_id``: the conversation the question continues."""
    return Job("ask", lambda post: ask(
        lib, question, backend, user, answerer=answerer, top_k=top_k, history=history,
        conversation_id=conversation_id,
        on_text=lambda t: post("text", t), on_step=lambda s: post("step", s),
    ))  # fmt: skip


def text_stream(job: Job[Any], on_step: Callable[[str], None]) -> Iterator[str]:
    """The ("text", piece) events of ``job``, for ``st.write_stream``, which renders Markdown:
    each piece is made inert first (``render.md_stream``: an answer quotes PDFs). Other events
    go to ``on_step``. The job's exception is raised here, in the script thread."""
    for kind, item in job.events():
        if kind == "text":
            yield render.md_stream(item)
        else:
            on_step(item)


# Checks of a text (Check text page) running at once in this process; the others wait for a
# turn. One check of CHECK_TEXT_MAX_CHARS can take 20 s of CPU: with at most two at a time, a
# member who submits many cannot take the whole process from the others who ask meanwhile.
CHECKS_AT_ONCE = 2
_CHECKS = threading.BoundedSemaphore(CHECKS_AT_ONCE)


def judge_model() -> str:
    """The model that would judge on the Check page ("" offline), read from the settings alone:
    the page draws this on every rerun, and building a client there would import its SDK."""
    s = load_settings()
    backend = s.default_backend()
    return "" if backend == "extractive" else s.model_for(backend)


def page_judge(wanted: bool) -> Judge | None:
    """The configured model judge when the page asks for a second opinion; a judge that cannot
    be built leaves the offline verdicts, as a failed call does."""
    try:
        return get_judge() if wanted else None
    except ResearchAssistantError:
        return None


def check_job(
    lib: Library, text: str, user: str, second_opinion: bool = False, every: bool = False
) -> Job[CheckedText]:
    """``pipeline.check_text`` as a Job (at most CHECKS_AT_ONCE of them work at once): a long
    text is checked in a worker thread, never in the thread that draws the page. With
    ``second_opinion``, the configured model judges the citations the offline checker cannot
    settle, and with ``every`` every verified one too (a judge that cannot be built leaves the
    offline verdicts, as a failed call does)."""

    def work(_post: Post) -> CheckedText:
        with _CHECKS:
            return check_text(lib, text, user, judge=page_judge(second_opinion), judge_every=every)

    return Job("check", work)


_INGESTS: list[object] = []  # one token per ingest queued or running in this process, in order
_INGESTS_LOCK = threading.Lock()


class IngestJob:
    """``Library.ingest`` as a ``Job``, which owns (and finally deletes) the staging folder: if
    the curator leaves the page, the ingest still finishes with every file (it is atomic, never
    half-done). Other sessions keep asking meanwhile: reads take no lock. Progress comes from
    PDF reader threads as ("file", (done, total, name)) events."""

    def __init__(
        self, lib: Library, staging: Path, paths: Sequence[Path], user: Actor, max_bytes: int
    ) -> None:
        token = object()
        with _INGESTS_LOCK:
            self.ahead = len(_INGESTS)  # ingests queued before this one
            _INGESTS.append(token)

        def work(post: Post) -> IngestReport:
            progress = lambda d, t, n: post("file", (d, t, n))  # noqa: E731
            try:
                return lib.ingest(paths, progress=progress, user=user, max_bytes=max_bytes)
            finally:  # before the result is posted: the next ingest may start at once
                shutil.rmtree(staging, ignore_errors=True)
                with _INGESTS_LOCK:
                    _INGESTS.remove(token)

        self._job = Job("ingest", work)

    def wait(self, on_file: Callable[[int, int, str], None]) -> IngestReport:
        return self._job.wait(lambda _kind, item: on_file(*item))


def ingest_uploads(
    lib: Library,
    files: Sequence[tuple[str, bytes]],
    user: Actor,
    *,
    max_file_bytes: int,
    max_batch_bytes: int,
) -> tuple[IngestJob | None, uploads.Staged]:
    """Check and stage uploaded ``(name, bytes)`` in a temporary folder, then start ingesting
    the accepted ones. None when nothing was accepted (``Staged.refused`` says why). A member
    gets ``PermissionDeniedError`` before anything is written."""
    require_curator(user, "Adding papers")
    staged = uploads.stage_in_temp(
        files, known=lib.known_pdfs(), max_file_bytes=max_file_bytes,
        max_batch_bytes=max_batch_bytes,
    )  # fmt: skip
    if staged.folder is None:
        return None, staged
    return IngestJob(lib, staged.folder, staged.paths, user, max_file_bytes), staged
