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
def serve(library: Path, tmp_path: Path) -> Iterator[str]:
    """``streamlit run app.py`` on ``library`` (offline answerer), at a free port of 127.0.0.1;
    yields its URL and stops it afterwards."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (make browser-deps)")
    from research_assistant import store

    store.close_all()  # the server process opens the DuckDB file next
    port = _free_port()
    env = {**os.environ, "RA_LIBRARY_DIR": str(library), "PYTHONPATH": str(ROOT)}
    env["PYTHONUNBUFFERED"] = "1"  # its URL line must reach the pipe when it is printed
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("RA_BACKEND", None)
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
    """Debian's chromium through Playwright (never a downloaded browser)."""
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


def test_ask_then_open_the_highlighted_evidence(app_url: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(app_url)
            box = page.get_by_placeholder("Ask a question about your papers")
            box.fill(QUESTION)
            box.press("Enter")

            chip = page.locator("div.ra-answer span.ra-chip.ra-verified").first
            expect(chip).to_be_visible()
            title = chip.get_attribute("title") or ""
            assert "verified" in title and "Diffusion-Limited Aggregation" in title
            assert "p. " in title  # the page of the evidence quote
            references = page.locator("div.ra-references")
            expect(references).to_contain_text("Diffusion-Limited Aggregation")
            expect(page.get_by_text("Checked:")).to_be_visible()  # the status box, completed
            page.screenshot(path=str(ARTIFACTS / "ask.png"), full_page=True, animations="disabled")

            page.set_viewport_size({"width": 1400, "height": 1250})  # the whole page image
            page.get_by_role("button", name="1 ✅ [Lindqvist and Haddad, 2021]").first.click()
            dialog = page.get_by_role("dialog")
            expect(dialog).to_be_visible()
            image = dialog.locator("img").first
            expect(image).to_be_visible()
            expect(dialog).to_contain_text("the evidence is highlighted")
            expect(dialog.get_by_role("button", name="Download the PDF")).to_be_visible()
            width = image.evaluate("img => img.naturalWidth")
            assert width > 500, "a rendered page, not an icon"
            page.screenshot(path=str(ARTIFACTS / "evidence.png"), animations="disabled")
        finally:
            browser.close()
    if os.environ.get("CITABLE_UPDATE_SCREENSHOTS"):  # the README's pictures, on request
        shutil.copyfile(ARTIFACTS / "ask.png", DOCS_IMG / "ask.png")
        shutil.copyfile(ARTIFACTS / "evidence.png", DOCS_IMG / "evidence.png")
