"""web/jobs.py: the one background-job pump (asking and ingesting), without Streamlit."""

from __future__ import annotations

import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from research_assistant import demo
from research_assistant.errors import LibraryError, PermissionDeniedError
from research_assistant.library import Library
from research_assistant.roles import CURATOR, MEMBER, User
from research_assistant.web import jobs
from tests.fakes import ScriptedAnswerer

MiB = 2**20


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    lib = Library.open(tmp_path / "lib")
    lib.ingest(demo.build_demo(tmp_path / "src"))
    return lib


def test_a_job_hands_its_events_then_its_result_to_the_reading_thread() -> None:
    def work(post: jobs.Post) -> str:
        post("step", threading.current_thread().name)
        post("text", "a")
        return "done"

    job: jobs.Job[str] = jobs.Job("worker", work)
    seen: list[tuple[str, Any]] = []
    assert job.wait(lambda kind, item: seen.append((kind, item))) == "done"
    assert seen == [("step", "worker"), ("text", "a")]


def test_a_jobs_exception_is_raised_where_its_events_are_read() -> None:
    def work(post: jobs.Post) -> None:
        post("text", "partial ")
        raise LibraryError("the disk is full")

    job: jobs.Job[None] = jobs.Job("worker", work)
    events = job.events()
    assert next(events) == ("text", "partial ")
    with pytest.raises(LibraryError, match="disk is full"):
        next(events)
    with pytest.raises(RuntimeError):
        _ = job.result  # there is none


def test_an_ask_job_streams_text_and_steps_then_the_answer(lib: Library) -> None:
    fake = ScriptedAnswerer("DLA clusters have a dimension of 1.71 [Lindqvist and Haddad, 2021].")
    job = jobs.ask_job(lib, "What is the dimension?", "extractive", "u", answerer=fake, top_k=4)
    steps: list[str] = []
    text = "".join(jobs.text_stream(job, steps.append))
    assert text.startswith("DLA clusters") and steps[0].startswith("Searching")
    assert steps[-1] == "Done" and fake.requests[0].question == "What is the dimension?"
    assert (job.result.question, job.result.backend) == ("What is the dimension?", "scripted")


def test_ingest_job_reports_progress_and_cleans_its_staging(lib: Library, tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    paths = [Path(shutil.copy(p, staging)) for p in demo.build_demo(tmp_path / "again")]
    seen: list[tuple[int, int, str]] = []
    job = jobs.IngestJob(lib, staging, paths, "cora", 10 * MiB)
    report = job.wait(lambda d, t, n: seen.append((d, t, n)))
    assert job.ahead == 0 and report.unchanged and not staging.exists()
    failing = jobs.IngestJob(lib, tmp_path / "gone", [tmp_path / "missing.pdf"], "cora", 1)
    assert failing.wait(lambda *a: None).skipped  # a bad file is reported, not raised


def test_uploads_from_a_member_are_refused_before_anything_is_written(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    staging = tmp_path / "tmp"
    staging.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(staging))
    files = [("new.bib", b"@misc{new, title={New}, author={Doe, J}, year=2024}")]
    with pytest.raises(PermissionDeniedError, match="Adding papers is for curators"):
        jobs.ingest_uploads(lib, files, User("bob", "Bob", MEMBER), max_file_bytes=MiB,
                            max_batch_bytes=MiB)  # fmt: skip
    assert not list(staging.iterdir()) and lib.paper("new") is None
    job, staged = jobs.ingest_uploads(lib, files, User("ada", "Ada", CURATOR),
                                      max_file_bytes=MiB, max_batch_bytes=MiB)  # fmt: skip
    assert job is not None and staged.refused == []
    assert job.wait(lambda *a: None).added == ("new",) and lib.paper("new") is not None
    assert not list(staging.iterdir()), "the job removes its staging folder"


def test_an_upload_with_nothing_accepted_starts_no_job(lib: Library) -> None:
    job, staged = jobs.ingest_uploads(lib, [("empty.pdf", b"")], "cora", max_file_bytes=MiB,
                                      max_batch_bytes=MiB)  # fmt: skip
    assert job is None and staged.folder is None
    assert staged.refused == [
        ("empty.pdf", "empty.pdf is empty (0 bytes): export or download it again.")
    ]


def test_warm_and_settle_freezes_the_warm_state_and_thaws_it_at_exit(lib: Library) -> None:
    import atexit
    import gc

    registered: list[Any] = []
    real, settled = atexit.register, jobs._SETTLED
    try:
        atexit.register = registered.append  # type: ignore[assignment]
        jobs._SETTLED = False
        jobs.warm_and_settle(lib)
    finally:
        atexit.register = real  # type: ignore[assignment]
        jobs._SETTLED = settled  # a later warm-up registers the real thaw
        frozen = gc.get_freeze_count()
        gc.unfreeze()  # the rest of the test run collects as usual
    assert frozen > 0 and registered == [gc.unfreeze]
