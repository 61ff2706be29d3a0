"""AppTest (streamlit.testing.v1) runs of every page, on the demo library and on an empty one.

AppTest runs the scripts in this process, so the cached Library (st.cache_resource) and the
DuckDB parent connections are dropped after each test: no tmp library leaks into the next.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from research_assistant import Library, store
from research_assistant.answer.base import AnswerRequest, Draft, JudgeItem, Ruling
from research_assistant.backup import backup_bytes, restore
from research_assistant.demo import DEMO_PAPERS, build_demo, demo_bibtex
from research_assistant.errors import LLMError, PermissionDeniedError
from research_assistant.pipeline import ask, check_text
from research_assistant.web import login as auth
from research_assistant.web import render, ui
from tests.fake_claude import FakeClaude, answer
from tests.fakes import ScriptedAnswerer

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "app.py": "Ask your library",
    "pages/1_Library.py": "Library",
    "pages/2_Audit.py": "Audit",
    "pages/3_Export.py": "Export",
    "pages/4_Check_text.py": "Check the citations of a text",
}
QUESTION = "What fractal dimension do DLA clusters have in 2D?"
DLA = "lindqvistDiffusionlimitedAggregationHow2021"
# Copied from the demo DLA paper, so it verifies against it.
SUPPORTED = (
    "Large off-lattice simulations of clusters with millions of particles give a fractal "
    "dimension D ≈ 1.71 for DLA clusters in two dimensions"
)
UNRELATED = "The Moon is made of green cheese and orbits Jupiter every three days"


@pytest.fixture(autouse=True)
def _fresh_resources() -> Iterator[None]:
    st.cache_resource.clear()
    st.cache_data.clear()
    yield
    st.cache_resource.clear()
    st.cache_data.clear()
    store.close_all()


@pytest.fixture
def library_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "library"
    monkeypatch.setenv("RA_LIBRARY_DIR", str(path))
    return path


@pytest.fixture
def demo_lib(library_dir: Path, tmp_path: Path) -> Library:
    lib = shared_library(library_dir)
    lib.ingest(build_demo(tmp_path / "demo-src"))
    return lib


def shared_library(path: Path) -> Library:
    """The Library object the pages use (one per folder and process, from st.cache_resource)."""
    return ui._open_library(str(path.resolve()))


def label(lib: Library, key: str) -> str:
    paper = lib.paper(key)
    assert paper is not None
    return paper.label


def run(page: str, **state: Any) -> AppTest:
    """Run ``page`` as a session of the multipage app does: app.py is the entry script."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    for key, value in state.items():
        at.session_state[key] = value
    if page != "app.py":
        at.switch_page(page)
    return at.run()


def html_of(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def assert_ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_the_demo_library(demo_lib: Library, page: str) -> None:
    at = run(page)
    assert_ok(at)
    assert at.title[0].value == PAGES[page]
    assert [link.label for link in at.sidebar.get("page_link")] == [
        "Ask",
        "Library",
        "Audit",
        "Export",
        "Check text",
    ]
    assert not at.error, [e.value for e in at.error]
    assert any("Demo content" in i.value for i in at.sidebar.info)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_an_empty_library(library_dir: Path, page: str) -> None:
    at = run(page)
    assert_ok(at)
    assert at.title[0].value == PAGES[page]
    assert not at.error, [e.value for e in at.error]
    assert any("0 papers" in c.value for c in at.sidebar.caption)


def test_sidebar_says_which_backend_answers(demo_lib: Library) -> None:
    at = run("app.py")
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "Offline extractive answerer — set ANTHROPIC_API_KEY to use Claude" in captions
    assert at.sidebar.slider(key="ra_top_k").value == 8
    assert "4 papers" in captions


def test_ask_shows_verdict_chips_references_and_evidence(demo_lib: Library) -> None:
    dla = label(demo_lib, DLA)
    text = f"{SUPPORTED} [{dla}]. {UNRELATED} [{dla}]. DLA was studied early [Nobody, 1999]."
    fake = ScriptedAnswerer(text)
    at = run("app.py", **{ui.ANSWERER_KEY: fake})
    at.chat_input[0].set_value(QUESTION).run()
    assert_ok(at)
    assert fake.requests and fake.requests[0].question == QUESTION
    page = html_of(at)
    assert page.count('class="ra-chip ra-verified"') >= 1
    assert 'class="ra-chip ra-unsupported"' in page
    assert 'class="ra-chip ra-unknown_source"' in page
    assert "References" in page and "Diffusion-Limited Aggregation" in page
    assert "Scripted answerer in use" in " ".join(c.value for c in at.sidebar.caption)
    statuses = [c["status"] for c in demo_lib.store.run(ask_id(demo_lib))["citations"]]
    assert statuses == ["verified", "unsupported", "unknown_source"]

    # A reload (a new session) shows the answer again, from the log
    at = run("app.py")
    assert 'class="ra-chip ra-verified"' in html_of(at)
    assert QUESTION in " ".join(m.value.replace("\\", "") for m in at.markdown)

    # "Clicking" a citation: its evidence button opens the dialog with the highlighted page
    buttons = [b for b in at.button if b.key and b.key.startswith("ev-")]
    assert [b.label.split()[:2] for b in buttons] == [["1", "✅"], ["2", "⚠"], ["3", "❓"]]
    buttons[0].click().run()
    assert_ok(at)
    images = at.get("image")
    assert images, "the page image is shown"
    assert images[0].captions == ["Page 1: the evidence is highlighted"]
    assert any(d.label == "Download the PDF" for d in at.get("download_button"))


def ask_id(lib: Library) -> str:
    return lib.store.history("local", limit=1)[0]["id"]


class FailingAnswerer(ScriptedAnswerer):
    def answer(self, request: AnswerRequest, on_text: Callable[[str], None] | None = None) -> Draft:
        raise LLMError("Claude is overloaded (529).", retryable=True)


def test_ask_shows_answerer_failures_as_errors(demo_lib: Library) -> None:
    at = run("app.py", **{ui.ANSWERER_KEY: FailingAnswerer("")})
    at.chat_input[0].set_value(QUESTION).run()
    assert_ok(at)
    assert [e.value for e in at.error] == [
        "Claude is overloaded (529). This is temporary: try again in a minute."
    ]


def test_claude_without_a_key_says_how_to_enable_it(demo_lib: Library) -> None:
    at = run("app.py")
    at.sidebar.selectbox(key="ra_backend").set_value("anthropic").run()
    at.chat_input[0].set_value(QUESTION).run()
    assert_ok(at)
    assert any("ANTHROPIC_API_KEY" in e.value for e in at.error)


def test_ask_with_no_library_refuses_politely(library_dir: Path) -> None:
    at = run("app.py", **{ui.ANSWERER_KEY: ScriptedAnswerer("anything")})
    at.chat_input[0].set_value(QUESTION).run()
    assert_ok(at)
    assert "The library does not answer this." in html_of(at)


def _demo_upload(tmp_path: Path) -> tuple[bytes, bytes]:
    paths = build_demo(tmp_path / "up")
    dla = next(p for p in paths if p.name == f"{DLA}.pdf")
    entry = next(e for e in demo_bibtex().split("\n@") if DLA in e)
    return dla.read_bytes(), ("@" + entry.lstrip("@")).encode("utf-8")


def test_upload_a_pdf_and_a_bib_adds_the_paper(library_dir: Path, tmp_path: Path) -> None:
    pdf_bytes, bib_bytes = _demo_upload(tmp_path)
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value(
        [("../../dla.pdf", pdf_bytes, "application/pdf"), ("dla.bib", bib_bytes, "text/plain")]
    )
    at.button[0].click().run()  # the form's submit button
    assert_ok(at)
    lib = shared_library(library_dir)
    paper = lib.paper(DLA)
    assert paper is not None and paper.pdf and paper.metadata == "bibtex"
    table = at.dataframe[0].value
    assert list(table["result"]) == ["matched"]
    assert list(table["file"]) == ["dla.pdf"]  # the path was stripped from the name
    assert any("1 added" in s.value for s in at.success)
    assert not list(library_dir.parent.glob("dla.pdf"))


def test_upload_several_files_at_once(library_dir: Path, tmp_path: Path) -> None:
    files = [
        (p.name, p.read_bytes(), "application/octet-stream") for p in build_demo(tmp_path / "up")
    ]
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value(files)
    at.button[0].click().run()
    assert_ok(at)
    assert len(shared_library(library_dir).papers()) == len(DEMO_PAPERS)
    table = at.dataframe[0].value
    assert list(table["result"]) == ["matched"] * len(DEMO_PAPERS)
    # the page reruns after an ingest: the sidebar counts the new papers, one calm summary line
    assert any(f"Library: {len(DEMO_PAPERS)} papers" in c.value for c in at.sidebar.caption)
    assert [s.value for s in at.success] == [f"{len(DEMO_PAPERS)} added"]
    assert not at.error and not at.warning


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("image.pdf", b"\x89PNG\r\n\x1a\n" + b"0" * 100, "is not a PDF"),
        ("empty.pdf", b"", "is empty"),
        ("refs.bib", b"just some words, no entries", "has no BibTeX entries"),
        ("refs.bib", b"@article{x,\x00\x00", "is a binary file"),
    ],
)
def test_uploads_are_checked_by_content(
    library_dir: Path, name: str, data: bytes, message: str
) -> None:
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value([(name, data, "application/octet-stream")])
    at.button[0].click().run()
    assert_ok(at)
    errors = [e.value for e in at.error]
    assert any(message in e and Path(name).name in e for e in errors), errors
    assert shared_library(library_dir).papers() == []


def _state(lib: Library) -> tuple[list[Any], str]:
    return lib.papers(), lib.state.generation


def test_refused_uploads_leave_the_library_unchanged(demo_lib: Library, tmp_path: Path) -> None:
    # The acceptance list of issue 6, in one upload: each gets its own message, none is added.
    pdf_bytes, _ = _demo_upload(tmp_path)
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
    before = _state(demo_lib)
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value(
        [
            ("../../etc/passwd.pdf", b"root:x:0:0:root:/root:/bin/bash\n", "application/pdf"),
            ("photo.pdf", png, "application/pdf"),
            ("empty.pdf", b"", "application/pdf"),
            ("copy.pdf", pdf_bytes, "application/pdf"),  # the demo library holds it already
            ("again.pdf", pdf_bytes, "application/pdf"),
        ]
    )
    at.button[0].click().run()
    assert_ok(at)
    errors = [e.value for e in at.error]
    assert errors == [
        "passwd.pdf is not a PDF (it does not start with %PDF-): upload the paper's PDF file "
        "itself, not a web page or an image.",
        "photo.pdf is not a PDF (it does not start with %PDF-): upload the paper's PDF file "
        "itself, not a web page or an image.",
        "empty.pdf is empty (0 bytes): export or download it again.",
    ]  # copies of a paper the library holds are a calm note, not an error
    table = at.dataframe[0].value
    assert list(table["result"]) == ["refused"] * 3 + ["already in the library"] * 2
    assert f"already in the library (as {label(demo_lib, DLA)})" in table["detail"].iloc[3]
    assert [w.value for w in at.warning] == ["2 already in the library, 3 refused, nothing changed"]
    assert _state(demo_lib) == before
    assert not list(demo_lib.root.glob("**/passwd*"))


def test_a_re_upload_is_one_calm_line(demo_lib: Library, tmp_path: Path) -> None:
    files = [(p.name, p.read_bytes(), "application/pdf") for p in build_demo(tmp_path / "again")]
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value(files)
    at.button[0].click().run()
    assert_ok(at)
    pdfs = sum(1 for name, _, _ in files if name.endswith(".pdf"))
    assert not at.error and not at.warning
    line = f"{pdfs} already in the library, {len(DEMO_PAPERS)} BibTeX entries unchanged, nothing changed"
    assert [s.value for s in at.success] == [line]
    results = list(at.dataframe[0].value["result"])
    assert results.count("already in the library") == pdfs  # the line and the rows agree


def test_the_same_new_pdf_twice_is_added_once(library_dir: Path, tmp_path: Path) -> None:
    pdf_bytes, _ = _demo_upload(tmp_path)
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value(
        [("a.pdf", pdf_bytes, "application/pdf"), ("b.pdf", pdf_bytes, "application/pdf")]
    )
    at.button[0].click().run()
    assert_ok(at)
    assert not at.error
    assert [s.value for s in at.success] == ["1 added, 1 already in the library"]
    assert len(shared_library(library_dir).papers()) == 1


@pytest.mark.parametrize(
    ("env", "size", "message"),
    [
        ("RA_MAX_UPLOAD_MB", 2 * 2**20, "over the 1 MiB limit per file (RA_MAX_UPLOAD_MB)"),
        ("RA_MAX_BATCH_MB", 2 * 2**20, "over the 1 MiB limit per upload (RA_MAX_BATCH_MB)"),
    ],
)
def test_oversized_uploads_are_refused(
    demo_lib: Library, monkeypatch: pytest.MonkeyPatch, env: str, size: int, message: str
) -> None:
    monkeypatch.setenv(env, "1")
    before = _state(demo_lib)
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value([("big.pdf", b"%PDF-1.7\n" + b"0" * size, "application/pdf")])
    at.button[0].click().run()
    assert_ok(at)
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert _state(demo_lib) == before


def test_ingest_runs_in_a_worker_thread(
    library_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = Library.ingest

    def recording(self: Library, *args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Library, "ingest", recording)
    staging = tmp_path / "tmp"
    staging.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(staging))
    pdf_bytes, _ = _demo_upload(tmp_path)
    at = run("pages/1_Library.py")
    at.file_uploader[0].set_value([("dla.pdf", pdf_bytes, "application/pdf")])
    at.button[0].click().run()
    assert_ok(at)
    assert threads == ["ingest"]
    assert shared_library(library_dir).papers()
    assert not list(staging.iterdir()), "the worker removes the staging folder"


def test_asking_goes_on_while_the_library_is_changing(demo_lib: Library) -> None:
    # paused() holds the lock every ingest, fix and removal takes: asking must not need it.
    dla = label(demo_lib, DLA)
    with demo_lib.paused():
        at = run("app.py", **{ui.ANSWERER_KEY: ScriptedAnswerer(f"{SUPPORTED} [{dla}].")})
        at.chat_input[0].set_value(QUESTION).run()
    assert_ok(at)
    assert 'class="ra-chip ra-verified"' in html_of(at)


def test_library_search_filters_and_remove(demo_lib: Library) -> None:
    at = run("pages/1_Library.py")
    assert len(at.dataframe[0].value) == 4
    at.text_input[0].set_value("percolation").run()
    table = at.dataframe[0].value
    assert list(table["key"]) == ["okaforPercolationThresholdsTwodimensional2020"]
    at.text_input[0].set_value("").run()
    at.checkbox[1].check().run()  # only inferred metadata: none in the demo
    assert len(at.dataframe[0].value) == 0
    at.checkbox[1].uncheck().run()

    remove = next(b for b in at.button if b.label == "Remove")
    assert remove.disabled  # not before the confirmation
    at.selectbox[-1].set_value(DLA)
    at.checkbox[-1].check().run()
    next(b for b in at.button if b.label == "Remove").click().run()
    assert_ok(at)
    assert demo_lib.paper(DLA) is None  # the shared Library object sees it at once


def test_fix_a_match_moves_the_pdf(demo_lib: Library) -> None:
    at = run("pages/1_Library.py")
    perc = "okaforPercolationThresholdsTwodimensional2020"
    at.selectbox[0].set_value(DLA)
    at.selectbox[1].set_value(perc).run()
    next(b for b in at.button if b.label == "Move the PDF").click().run()
    assert_ok(at)
    assert demo_lib.paper(DLA).pdf is None
    assert "lindqvist" in (demo_lib.paper(perc).pdf or "")


class _Recording(MemoryMediaFileStorage):
    files: dict[str, tuple[bytes, str]] = {}  # noqa: RUF012 - shared on purpose (one per test)

    def load_and_get_id(self, path_or_data: Any, mimetype: str, kind: Any, filename: Any = None):  # type: ignore[no-untyped-def]
        data = path_or_data if isinstance(path_or_data, bytes) else str(path_or_data).encode()
        file_id = super().load_and_get_id(path_or_data, mimetype, kind, filename)
        _Recording.files[str(filename)] = (data, mimetype)
        return file_id


def test_export_offers_every_format(demo_lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    dla = label(demo_lib, DLA)
    answer = ask(
        demo_lib,
        QUESTION,
        user="local",
        answerer=ScriptedAnswerer(f"{SUPPORTED} [{dla}]. {UNRELATED} [{dla}]."),
    )
    _Recording.files = {}
    monkeypatch.setattr("streamlit.testing.v1.app_test.MemoryMediaFileStorage", _Recording)
    at = run("pages/3_Export.py")
    assert_ok(at)
    labels = [d.label for d in at.get("download_button")]
    assert labels == [
        "Download Markdown",
        "Download HTML",
        "Download BibTeX of the cited works",
        "Download Word",
    ]
    md, _ = _Recording.files[f"citable-{answer.id}.md"]
    page, _ = _Recording.files[f"citable-{answer.id}.html"]
    bib, _ = _Recording.files[f"citable-{answer.id}.bib"]
    assert QUESTION.encode() in md and b"unsupported" in md
    assert b"<html" in page.lower() and b"verified" in page
    assert bib.count(b"@") == 1 and DLA.encode() in bib
    word, _ = _Recording.files[f"citable-{answer.id}.docx"]
    assert word.startswith(b"PK")  # a .docx is a ZIP archive (tests/test_exports.py reads one)


def test_check_text_shows_chips_and_references(demo_lib: Library) -> None:
    dla = label(demo_lib, DLA)
    at = run("pages/4_Check_text.py")
    at.text_area[0].set_value(f"{SUPPORTED} [{dla}]. Growth is slow (Ghost, 2001).")
    at.button[0].click().run()
    assert_ok(at)
    page = html_of(at)
    assert 'class="ra-chip ra-verified"' in page
    assert 'class="ra-chip ra-unknown_source"' in page
    assert "Diffusion-Limited Aggregation" in page


def test_check_text_offers_the_configured_models_second_opinion(
    demo_lib: Library, fake_claude: FakeClaude, monkeypatch: pytest.MonkeyPatch
) -> None:
    def second_opinion(at: AppTest) -> list[Any]:
        return [r for r in at.radio if r.label.startswith("Second opinion")]

    assert second_opinion(run("pages/4_Check_text.py")) == []  # offline: nothing to offer
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")  # a dummy: the fake checks nothing
    monkeypatch.setenv("RA_ANTHROPIC_BASE_URL", fake_claude.base_url)
    monkeypatch.setenv("RA_MODEL", "claude-judge")
    monkeypatch.setenv("RA_LLM_MAX_RETRIES", "0")
    at = run("pages/4_Check_text.py")
    (choice,) = second_opinion(at)
    assert "claude-judge" in choice.label and choice.value.startswith("On the citations")
    at.text_area[0].set_value(f"{SUPPORTED} [{label(demo_lib, DLA)}].")
    at.button[0].click().run()  # verified offline: not sent, no call is made
    assert_ok(at)
    assert 'class="ra-chip ra-verified"' in html_of(at) and not fake_claude.requests
    # on every citation: the model reads the verified one too, and its doubt turns it yellow
    fake_claude.enqueue(answer('[{"id": 0, "verdict": "not_enough", "reason": "not said"}]'))
    second_opinion(at)[0].set_value(next(o for o in choice.options if "every" in o)).run()
    at.button[0].click().run()
    assert_ok(at)
    assert len(fake_claude.requests) == 1 and SUPPORTED[:30] in str(fake_claude.requests[0])
    assert 'class="ra-chip ra-uncertain"' in html_of(at)


def test_check_text_escapes_html(demo_lib: Library) -> None:
    at = run("pages/4_Check_text.py")
    at.text_area[0].set_value('<img src=x onerror="alert(1)"> claim [<b>Evil</b>, 2020].')
    at.button[0].click().run()
    assert_ok(at)
    page = html_of(at)
    assert "<img" not in page and "<b>Evil" not in page
    assert "&lt;img src=x" in page


def test_audit_after_some_answers(demo_lib: Library) -> None:
    dla = label(demo_lib, DLA)
    ask(demo_lib, QUESTION, user="local", answerer=ScriptedAnswerer(f"{UNRELATED} [{dla}]."))
    ask(demo_lib, QUESTION, user="local", answerer=ScriptedAnswerer(f"{SUPPORTED} [{dla}]."))
    at = run("pages/2_Audit.py")
    assert_ok(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Citations checked"] == "2"
    assert metrics["Verified"] == "50%"
    assert (metrics["Questions"], metrics["Refused"]) == ("2", "1")  # refusals beside verdicts
    assert any("2 questions, 1 refused" in m.value for m in at.markdown)
    refused, users, health, flagged = (d.value for d in at.dataframe)
    assert list(refused["question"]) == [QUESTION]
    assert users.to_dict("records") == [
        {"user": "local", "questions": 2, "refused": 1, "citations": 2, "verified": 1}
    ]  # the curator's view: per user
    assert list(health["paper"]) == [dla] and list(health["citations"]) == [2]  # full label
    assert at.segmented_control[0].value == "hour"  # one day of data: per hour
    assert len(flagged) == 1  # the flagged citation
    shown = " ".join(m.value for m in at.markdown)
    assert "green cheese" in shown and "Question" in shown


class OneRulingJudge:
    """A judge that rules the same on every claim (the real SDK's judging: tests/test_judge.py)."""

    model = "judge-model"

    def __init__(self, verdict: str) -> None:
        self.verdict = verdict

    def judge(self, items: Sequence[JudgeItem]) -> tuple[Ruling, ...]:
        return tuple(Ruling(item.id, self.verdict, reason="not said") for item in items)


def test_audit_counts_what_the_model_judge_changed(demo_lib: Library) -> None:
    dla = label(demo_lib, DLA)
    text = f"{SUPPORTED} [{dla}]. {SUPPORTED} [{dla}]."
    check_text(demo_lib, text, judge=OneRulingJudge("not_enough"), judge_every=True)
    check_text(
        demo_lib, f"{SUPPORTED} [{dla}].", judge=OneRulingJudge("supports"), judge_every=True
    )
    check_text(demo_lib, f"{SUPPORTED} [{dla}].")  # no judge: not counted
    at = run("pages/2_Audit.py")
    assert_ok(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Citations checked"] == "4"
    assert (metrics["Citations it read"], metrics["Lowered"], metrics["Kept"]) == ("3", "2", "1")
    assert any("overturned the offline verdict on 2 of 3" in c.value for c in at.caption)


def test_demo_papers_are_the_ones_the_tests_use() -> None:
    assert DLA in {p.key for p in DEMO_PAPERS}


def test_a_curator_backs_up_the_running_library(demo_lib: Library, tmp_path: Path) -> None:
    at = run("pages/1_Library.py")
    next(b for b in at.button if b.label == "Prepare a backup").click().run()
    assert_ok(at)
    assert any(d.label == "Download the backup" for d in at.get("download_button"))
    data, name = backup_bytes(demo_lib, auth.LOCAL)  # what the button serves
    assert name.startswith("citable-library-") and name.endswith(".tar.gz")
    (tmp_path / name).write_bytes(data)
    restored = restore(tmp_path / name, tmp_path / "restored")
    assert [p.key for p in restored.papers()] == [p.key for p in demo_lib.papers()]
    store.close(restored.root / "catalog.duckdb")
    with pytest.raises(PermissionDeniedError, match="curators"):
        backup_bytes(demo_lib, auth.User("bob", "Bob", auth.MEMBER))


def test_a_conversation_keeps_its_turns_follow_ups_and_survives_a_reload(
    demo_lib: Library,
) -> None:
    dla = label(demo_lib, DLA)
    fake = ScriptedAnswerer(f"{SUPPORTED} [{dla}].", f"{SUPPORTED} [{dla}].")
    at = run("app.py", **{ui.ANSWERER_KEY: fake})
    at.chat_input[0].set_value(QUESTION).run()
    at.chat_input[0].set_value("And in three dimensions?").run()
    assert_ok(at)
    follow_up = fake.requests[1]
    assert [t.question for t in follow_up.history] == [QUESTION]  # the earlier turn, as context
    assert SUPPORTED in follow_up.history[0].answer
    (conversation,) = demo_lib.store.conversations("local")
    assert conversation.title == QUESTION  # titled by its first question
    turns = demo_lib.store.conversation_turns(conversation.id, "local")
    assert [t["question"] for t in turns] == [QUESTION, "And in three dimensions?"]

    at = run("app.py")  # a reload: the latest conversation is listed and open
    listed = [b for b in at.sidebar.button if b.key and b.key.startswith("conv-")]
    assert [b.label for b in listed] == [render.md(QUESTION)]  # inert Markdown
    assert "And in three dimensions?" in " ".join(m.value.replace("\\", "") for m in at.markdown)

    next(b for b in at.sidebar.button if b.label == "New conversation").click().run()
    assert not [b for b in at.button if b.key and b.key.startswith("ev-")]  # nothing shown
    at.sidebar.button(key=listed[0].key).click().run()  # open it again
    at.sidebar.text_input(key=f"ra-title-{conversation.id}").set_value("Fractal dimensions")
    at.sidebar.button(key="ra-rename").click().run()
    assert [b.label for b in at.sidebar.button if b.key == listed[0].key] == ["Fractal dimensions"]
    at.sidebar.button(key="ra-delete").click().run()
    assert_ok(at)
    assert demo_lib.store.conversations("local") == []
    assert not [b for b in at.sidebar.button if b.key and b.key.startswith("conv-")]


def test_a_long_conversation_is_paged_never_cut(demo_lib: Library) -> None:
    dla = label(demo_lib, DLA)
    conversation = demo_lib.store.create_conversation("local", "Q0")
    for i in range(12):
        ask(demo_lib, f"Q{i}: {QUESTION}", user="local", conversation_id=conversation.id,
            answerer=ScriptedAnswerer(f"{SUPPORTED} [{dla}]."))  # fmt: skip
    at = run("app.py")
    shown = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert "Q11:" in shown and "Q2:" in shown and "Q1:" not in shown
    assert any("2 earlier turn(s)" in c.value for c in at.caption)
    at.button(key="ra-more-turns").click().run()
    shown = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert "Q0:" in shown and "Q11:" in shown
    assert not any("earlier turn" in c.value for c in at.caption)


def test_a_curator_corrects_a_papers_metadata(demo_lib: Library) -> None:
    at = run("pages/1_Library.py")
    at.selectbox(key="ra-edit-paper").set_value(DLA).run()
    form = {w.label: w for w in at.text_input}
    form["Title"].set_value("Random Walkers and Their Fractals")
    form["Year"].set_value("1999")
    next(b for b in at.button if b.label == "Save the correction").click().run()
    assert_ok(at)
    assert any("Saved as Lindqvist and Haddad, 1999" in s.value for s in at.success)
    paper = demo_lib.paper(DLA)
    assert paper is not None and paper.year == 1999
    assert paper.title == "Random Walkers and Their Fractals"
    assert "Random Walkers and Their Fractals" in (demo_lib.root / "library.bib").read_text()

    at = run("pages/1_Library.py")  # a typo is refused with a message, nothing saved
    at.selectbox(key="ra-edit-paper").set_value(DLA).run()
    form = {w.label: w for w in at.text_input}
    form["Year"].set_value("nineteen")
    next(b for b in at.button if b.label == "Save the correction").click().run()
    assert any("is not a year" in e.value for e in at.error)
    assert demo_lib.paper(DLA).year == 1999  # type: ignore[union-attr]


def test_a_whole_conversation_exports_like_an_answer(
    demo_lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    dla = label(demo_lib, DLA)
    conversation = demo_lib.store.create_conversation("local", QUESTION)
    for question in (QUESTION, "And in three dimensions?"):
        ask(demo_lib, question, user="local", conversation_id=conversation.id,
            answerer=ScriptedAnswerer(f"{SUPPORTED} [{dla}]."))  # fmt: skip
    _Recording.files = {}
    monkeypatch.setattr("streamlit.testing.v1.app_test.MemoryMediaFileStorage", _Recording)
    at = run("pages/3_Export.py")
    at.toggle(key="ra-export-conversation").set_value(True).run()
    assert_ok(at)
    md, _ = _Recording.files[f"citable-conversation-{conversation.id}.md"]
    assert md.count(b"Question:") == 2 and md.count(b"\xe2\x9c\x85") >= 2  # both answers, checked
    assert f"citable-conversation-{conversation.id}.docx" in _Recording.files
