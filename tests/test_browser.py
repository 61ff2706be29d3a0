"""The app in a real browser: Debian's chromium driven by Playwright against `streamlit run`.

Asks the demo library a question, waits for a verified citation chip, clicks its evidence button
and checks the highlighted page image. Screenshots go to tests/artifacts/ (git-ignored) and the
two README screenshots to docs/img/. Never downloads a browser: it uses /usr/bin/chromium
(`make browser-deps`) and skips only when that is absent.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
DOCS_IMG = ROOT / "docs" / "img"
CHROMIUM = Path("/usr/bin/chromium")
QUESTION = "What fractal dimension do DLA clusters have in 2D?"
STARTUP_TIMEOUT_S = 90  # the first start compiles bytecode and opens the index
UI_TIMEOUT_MS = 60_000  # one answer, checked, on a slow CI machine

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_serving(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Block until streamlit prints its URL (it does once it listens) or exits: its output is
    read as it comes, so nothing polls or sleeps. The timeout only stops a hang."""
    serving = threading.Event()

    def copy_output() -> None:
        assert server.stdout is not None
        with log.open("wb") as out:
            for line in server.stdout:
                out.write(line)
                out.flush()
                if b"URL:" in line:
                    serving.set()
        serving.set()  # the output ended: streamlit exited

    threading.Thread(target=copy_output, daemon=True).start()
    if not serving.wait(STARTUP_TIMEOUT_S):
        pytest.fail(f"streamlit did not start in {STARTUP_TIMEOUT_S}s:\n{log.read_text()}")
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
            assert r.status == 200
    except OSError:
        code = server.poll()
        pytest.fail(f"streamlit is not serving (exit code {code}):\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def serve(library: Path, tmp_path: Path, **extra_env: str) -> Iterator[str]:
    """``streamlit run app.py`` on ``library`` (offline answerer), at a free port of 127.0.0.1,
    with ``extra_env`` set (RA_AUTH_FILE, say); yields its URL and stops it afterwards."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (make browser-deps)")
    from research_assistant import store

    store.close_all()  # the server process opens the DuckDB file next
    port = _free_port()
    env = {**os.environ, "RA_LIBRARY_DIR": str(library), "PYTHONPATH": str(ROOT)}
    env["PYTHONUNBUFFERED"] = "1"  # its URL line must reach the pipe when it is printed
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("RA_BACKEND", None)
    env.update(extra_env)
    log = tmp_path / "streamlit.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py",
         "--server.port", str(port), "--server.headless", "true",
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_serving(url, server, log)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def launch(p: Any) -> Any:
    """Debian's chromium through Playwright (never a downloaded browser); ``expect`` waits as
    long as a page action (a page drawing a whole conversation takes more than its 5 s)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=UI_TIMEOUT_MS)
    return p.chromium.launch(
        executable_path=str(CHROMIUM),
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )


@pytest.fixture
def app_url(tmp_path: Path) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (make browser-deps)")
    from research_assistant import Library
    from research_assistant.demo import build_demo

    library = tmp_path / "library"
    Library.open(library).ingest(build_demo(tmp_path / "demo"))
    with serve(library, tmp_path) as url:
        yield url


def offline(page: Any) -> list[str]:
    """Block every request that would leave 127.0.0.1 (scripts, fonts, the pdf.js worker...);
    returns the list the blocked URLs are recorded in."""
    outside: list[str] = []

    def handle(route: Any) -> None:
        if urlsplit(route.request.url).hostname != "127.0.0.1":
            outside.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.context.route("**/*", handle)
    page.on("websocket", lambda ws: None if "//127.0.0.1:" in ws.url else outside.append(ws.url))
    return outside


def ask(page: Any, question: str, turn: int = 1) -> None:
    """Ask ``question`` as the ``turn``-th of the page's conversation; wait until it is checked."""
    from playwright.sync_api import expect

    box = page.get_by_placeholder("Ask a question about your papers")
    box.fill(question)
    box.press("Enter")
    expect(page.get_by_test_id("stChatMessage")).to_have_count(2 * turn)
    expect(page.get_by_text("Checked:")).to_be_visible()


def test_ask_then_open_the_evidence_in_the_pdf_viewer_offline(app_url: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(UI_TIMEOUT_MS)
            outside = offline(page)
            page.goto(app_url)
            ask(page, QUESTION)

            chip = page.locator("div.ra-answer span.ra-chip.ra-verified").first
            expect(chip).to_be_visible()
            title = chip.get_attribute("title") or ""
            assert "verified" in title and "Diffusion-Limited Aggregation" in title
            assert "p. " in title  # the page of the evidence quote
            references = page.locator("div.ra-references")
            expect(references).to_contain_text("Diffusion-Limited Aggregation")
            page.screenshot(path=str(ARTIFACTS / "ask.png"), full_page=True, animations="disabled")

            page.get_by_role("button", name="1 ✅ [Lindqvist and Haddad, 2021]").first.click()
            dialog = page.get_by_role("dialog")
            expect(dialog).to_be_visible()
            expect(dialog.get_by_role("button", name="Download the PDF")).to_be_visible()
            expect(dialog).to_contain_text("the evidence is highlighted")
            evidence_page = int(dialog.get_by_text("Evidence, page").inner_text().split()[-1])
            viewer = dialog.locator("iframe[title='streamlit_pdf_viewer.streamlit_pdf_viewer']")
            expect(viewer).to_be_visible()
            frame = viewer.content_frame
            # the whole paper is there (every page a canvas), the quote outlined on its page
            expect(frame.locator("canvas#canvas_page_2")).to_be_attached()
            on_page = f"div.page:has(#canvas_page_{evidence_page}) [id^=annotation-]"
            highlight = frame.locator(on_page).first
            expect(highlight).to_be_visible()
            box, frame_box = highlight.bounding_box(), viewer.bounding_box()
            assert box and frame_box
            top, bottom = frame_box["y"], frame_box["y"] + frame_box["height"]
            assert top <= box["y"] <= bottom, "the viewer opens scrolled to the highlighted quote"
            zoom = frame.get_by_role("button", name="%")
            expect(zoom).to_be_visible()  # its zoom menu
            wide_zoom = zoom.inner_text().strip()
            page.screenshot(path=str(ARTIFACTS / "evidence.png"), animations="disabled")

            page.set_viewport_size({"width": 420, "height": 900})  # a phone
            expect(zoom).not_to_have_text(wide_zoom)  # fitted to the new width
            expect(highlight).to_be_visible()  # drawn again at the new width
            viewer.scroll_into_view_if_needed()  # the frame, which the redraw leaves in place
            width = viewer.bounding_box()["width"]
            assert 300 < width <= 420, "the viewer fills the phone's width"
            page.screenshot(path=str(ARTIFACTS / "evidence-phone.png"), animations="disabled")
        finally:
            browser.close()
    assert outside == [], "a request left 127.0.0.1"
    if os.environ.get("CITABLE_UPDATE_SCREENSHOTS"):  # the README's pictures, on request
        for name in ("ask.png", "evidence.png", "evidence-phone.png"):
            shutil.copyfile(ARTIFACTS / name, DOCS_IMG / name)


@pytest.fixture
def demo_app(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The app on the demo library: its URL, and the folder of the demo's source files."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (make browser-deps)")
    from research_assistant import Library
    from research_assistant.demo import build_demo

    library = tmp_path / "library"
    Library.open(library).ingest(build_demo(tmp_path / "demo"))
    with serve(library, tmp_path) as url:
        yield url, tmp_path / "demo"


UNANSWERABLE = "What is the recipe for a sourdough loaf with rye?"


def test_a_conversation_survives_a_reload_and_the_audit_shows_a_refusal(
    demo_app: tuple[str, Path],
) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, demo_src = demo_app
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(UI_TIMEOUT_MS)
            outside = offline(page)
            page.goto(url)
            ask(page, QUESTION)
            ask(page, "And in three dimensions?", turn=2)  # a follow-up in the conversation
            ask(page, UNANSWERABLE, turn=3)
            expect(page.locator("div.ra-answer").last).to_contain_text("does not answer")
            refused = page.locator("div.ra-answer", has_text="does not answer").count()

            page.reload()  # a new session: the conversation is listed, open, whole
            sidebar = page.get_by_test_id("stSidebar")
            expect(sidebar.get_by_role("button", name=QUESTION)).to_be_visible()
            expect(page.get_by_test_id("stChatMessage")).to_have_count(6)
            expect(page.get_by_text("And in three dimensions?")).to_be_visible()
            page.screenshot(path=str(ARTIFACTS / "conversation.png"), animations="disabled")

            page.goto(f"{url}/Audit")
            expect(page.get_by_text(f"3 questions, {refused} refused")).to_be_visible()
            page.get_by_text(f"The {refused} refused question(s)").click()
            expect(page.get_by_test_id("stExpander").first).to_contain_text(UNANSWERABLE)

            page.goto(f"{url}/Library")  # the same PDFs again: one calm line, no error box
            pdfs = sorted(str(f) for f in demo_src.glob("*.pdf"))
            page.locator("input[type=file]").first.set_input_files(pdfs)
            page.get_by_role("button", name="Add to the library").click()
            expect(page.get_by_text(f"{len(pdfs)} already in the library, nothing changed"))
            expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)
            page.screenshot(path=str(ARTIFACTS / "reupload.png"), animations="disabled")
        finally:
            browser.close()
    assert outside == [], "a request left 127.0.0.1"


def test_a_local_login_survives_a_reload_and_log_out_ends_it(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    from research_assistant import Library
    from research_assistant.web.login import hash_password

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (make browser-deps)")
    users = tmp_path / "users.toml"
    digest = hash_password("correct horse battery", rounds=4)
    users.write_text(f'[users.ada]\nrole = "curator"\npassword_hash = "{digest}"\n')
    Library.open(tmp_path / "library")
    with (
        serve(tmp_path / "library", tmp_path, RA_AUTH_FILE=str(users)) as url,
        sync_playwright() as p,
    ):
        browser = launch(p)
        try:
            context = browser.new_context(viewport={"width": 1200, "height": 900})
            page = context.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(url)
            page.get_by_role("textbox", name="User name").fill("ada")
            page.get_by_role("textbox", name="Password").fill("correct horse battery")
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_text("Logged in: ada (curator)")).to_be_visible()
            page.reload()
            expect(page.get_by_text("Logged in: ada (curator)")).to_be_visible()
            other = context.new_page()  # a new tab of the same browser
            other.goto(f"{url}/Library")
            expect(other.get_by_text("Logged in: ada (curator)")).to_be_visible()
            other.close()

            page.get_by_role("button", name="Log out").click()
            expect(page.get_by_role("button", name="Log in")).to_be_visible()
            expect(page.get_by_test_id("stSidebar")).to_be_hidden()  # a clean logged-out screen
            page.reload()
            expect(page.get_by_role("button", name="Log in")).to_be_visible()
            cookies = {c["name"] for c in context.cookies()}
            assert "citable_session" not in cookies
        finally:
            browser.close()
