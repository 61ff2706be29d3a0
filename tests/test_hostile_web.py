"""Hostile input against the hosted app (issue 10, findings 5, 7 and 8): a PDF sentence that
is a Markdown image, guessed passwords and spoofed identity claims, a text too big to check.

Each test drives the entry point a member (or a stranger) reaches: the running app in a real
browser, the login functions the login form calls, the Check text page through AppTest.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import streamlit as st

from research_assistant import Library, store
from research_assistant.errors import AuthError
from research_assistant.ingest.pdf import write_pdf
from research_assistant.settings import CHECK_TEXT_MAX_CHARS, load_settings
from research_assistant.web import jobs
from research_assistant.web import login as auth
from tests.test_auth import PASSWORDS, accounts
from tests.test_browser import CHROMIUM, UI_TIMEOUT_MS, launch, serve
from tests.test_ui import run, shared_library

__all__ = ["accounts"]  # the fixture from test_auth, imported so pytest finds it here

# ---- 5. a Markdown image in a paper's text is never fetched by readers' browsers ------------
GLACIER_QUESTION = "How fast did glacier ablation rates in the Alps change?"
GLACIER_BIB = """@article{quist2022,
  author = {%s},
  title = {Glacier ablation in the Alps},
  journal = {Journal of Ice},
  year = {2022},
  file = {glacier.pdf}
}
"""


def glacier_library(
    tmp_path: Path, pixel: str, author: str = "Quist, Nora", lib: Library | None = None
) -> Path:
    """A one-paper library whose best sentence for GLACIER_QUESTION holds ``![pixel](pixel)``
    (in ``lib``, else in a new one); ``author`` is the BibTeX author field."""
    src = tmp_path / "src"
    src.mkdir()
    body = (
        "Glacier ablation in the Alps accelerated sharply after 1990 because summer air "
        "temperatures rose. Glacier ablation rates in the Alps doubled between 1990 and 2020 as "
        f"shown in the melt map ![pixel]({pixel}) of every measured glacier. Winter "
        "accumulation did not change enough to compensate for the summer losses.\n\n"
        "Debris cover slows the ablation of some glaciers by shading the ice from the sun."
    )
    write_pdf(src / "glacier.pdf", title="Glacier ablation in the Alps",
              authors="Nora Quist - Journal of Ice, 2022", banner="A test paper",
              sections=[("Results", body)])  # fmt: skip
    (src / "glacier.bib").write_text(GLACIER_BIB % author, encoding="utf-8")
    lib = lib or Library.open(tmp_path / "library")
    report = lib.ingest([src / "glacier.pdf", src / "glacier.bib"])
    assert report.added == ("quist2022",)
    return lib.root


@pytest.fixture
def pixel_server() -> Iterator[tuple[int, list[str]]]:
    """A tiny HTTP server on 127.0.0.1: (its port, the paths requested from it)."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
def test_an_image_link_in_a_paper_is_not_fetched_while_the_answer_streams(
    tmp_path: Path, pixel_server: tuple[int, list[str]]
) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (make browser-deps)")
    from playwright.sync_api import expect, sync_playwright

    port, hits = pixel_server
    library = glacier_library(tmp_path, f"//127.0.0.1:{port}/leak.png")
    requested: list[str] = []
    with serve(library, tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.on("request", lambda r: requested.append(r.url))
            page.goto(url)
            box = page.get_by_placeholder("Ask a question about your papers")
            box.fill(GLACIER_QUESTION)
            box.press("Enter")
            expect(page.get_by_text("Checked:")).to_be_visible()  # streamed, then checked
            answer = page.locator("div.ra-answer").first
            expect(answer).to_contain_text(f"![pixel](//127.0.0.1:{port}/leak.png)")  # as text
        finally:
            browser.close()
    assert hits == [], "a reader's browser fetched the image named in the paper"
    outside = [u for u in requested if urlsplit(u).scheme in ("http", "https", "ws", "wss")
               and (urlsplit(u).hostname != "127.0.0.1" or urlsplit(u).port == port)]  # fmt: skip
    assert outside == []


def test_a_papers_label_in_a_message_is_inert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Messages quote labels, keys and file names: a label that is a Markdown image (an author
    field of a .bib) is shown as text when the curator uploads that paper's PDF again."""
    monkeypatch.setenv("RA_LIBRARY_DIR", str(tmp_path / "library"))
    st.cache_resource.clear()
    try:
        lib = shared_library(tmp_path / "library")
        glacier_library(tmp_path, "//127.0.0.1:9/x.png", "{![x](//127.0.0.1:9/leak.png)}", lib)
        at = run("pages/1_Library.py")
        pdf = (tmp_path / "src" / "glacier.pdf").read_bytes()
        at.file_uploader[0].set_value([("again.pdf", pdf, "application/pdf")])
        at.button[0].click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert not at.error  # a copy of a paper the library holds is a calm note in the table
        (detail,) = at.dataframe[0].value["detail"]  # a table cell: text, never Markdown
        assert "already in the library (as ![x](//127.0.0.1:9/leak.png), 2022)" in detail
        assert [s.value for s in at.success] == ["1 already in the library, nothing changed"]
    finally:
        st.cache_resource.clear()
        store.close_all()


# ---- 7. logins: the throttle and the identity claims -----------------------------------------
ATTACKER, LAB = "203.0.113.7", "198.51.100.20"


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords actually checked (bcrypt run), in order."""
    seen: list[str] = []
    real = auth._password_ok

    def counting(password: str, digest: bytes) -> bool:
        seen.append(password)
        return real(password, digest)

    monkeypatch.setattr(auth, "_password_ok", counting)
    return seen


def test_simultaneous_wrong_guesses_are_checked_at_most_the_limit(
    accounts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """16 guesses at once: every guess that passed the throttle waits inside the password check
    until each of the 16 has either got there or been refused, so a check-then-count throttle
    lets all 16 through, an atomic one only MAX_FAILURES."""
    s, throttle, n = load_settings(), auth.LoginThrottle(), 16
    real, arrived, refused = auth._password_ok, [0], [0]
    settled = threading.Condition()

    def slow_check(password: str, digest: bytes) -> bool:
        with settled:
            arrived[0] += 1
            settled.notify_all()
            settled.wait_for(lambda: arrived[0] + refused[0] == n, timeout=60)
        return real(password, digest)

    monkeypatch.setattr(auth, "_password_ok", slow_check)

    def guess(i: int) -> None:
        try:
            auth.password_login(s, "ada", f"guess {i}", throttle, ATTACKER)
        except AuthError as e:
            if "Too many" in str(e):
                with settled:
                    refused[0] += 1
                    settled.notify_all()

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert arrived[0] == auth.MAX_FAILURES and refused[0] == n - auth.MAX_FAILURES


def test_one_guess_at_each_of_many_names_from_one_address_is_throttled(
    accounts: Path, checked: list[str]
) -> None:
    s, throttle = load_settings(), auth.LoginThrottle()
    refused = 0
    for i in range(30):
        try:
            auth.password_login(s, f"user{i}", "Winter2024!", throttle, ATTACKER)
        except AuthError as e:
            refused += "Too many wrong passwords from your address" in str(e)
    assert len(checked) == auth.MAX_CLIENT_FAILURES and refused == 30 - auth.MAX_CLIENT_FAILURES
    user = auth.password_login(s, "bob", PASSWORDS["bob"], throttle, LAB)  # the lab logs in
    assert user.id == "bob"


def test_guesses_from_one_address_do_not_lock_the_real_user_out(accounts: Path) -> None:
    s, throttle = load_settings(), auth.LoginThrottle()
    for i in range(auth.MAX_FAILURES):
        with pytest.raises(AuthError, match="wrong password"):
            auth.password_login(s, "ada", f"guess {i}", throttle, ATTACKER)
    with pytest.raises(AuthError, match="for 'ada' from your address"):
        auth.password_login(s, "ada", PASSWORDS["ada"], throttle, ATTACKER)
    assert auth.password_login(s, "ada", PASSWORDS["ada"], throttle, LAB).id == "ada"


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        (None, [], "local"),  # this machine, no proxy: auth.LOCAL_CLIENT
        ("192.0.2.1", ["10.9.9.9"], "192.0.2.1"),  # from elsewhere: the header is the client's
        (None, ["10.9.9.9, 192.0.2.1"], "192.0.2.1"),  # the local proxy appended the last one
        (None, ["10.9.9.9", "192.0.2.1"], "192.0.2.1"),  # the header twice
        ("2001:db8:1:2:3:4:5:6", [], "2001:db8:1:2::/64"),  # one host's IPv6 network
        ("2001:db8:1:2:ffff::9", [], "2001:db8:1:2::/64"),
        (None, ["::ffff:192.0.2.1"], "192.0.2.1"),
    ],
)
def test_the_client_address_trusts_only_the_local_proxy(
    peer: str | None, forwarded: list[str], expected: str
) -> None:
    assert auth.client_address(peer, forwarded) == expected


def test_an_unverified_oidc_email_is_not_the_user_id() -> None:
    """A provider that lets anyone put any address on an account: with RA_CURATORS listing
    ada@lab.org, an unverified claim of that address must not make a curator."""
    curators = frozenset({"ada@lab.org"})
    spoof = {"is_logged_in": True, "email": "ada@lab.org", "sub": "eve-123", "name": "Eve"}
    for claims in (spoof, {**spoof, "email_verified": False}, {**spoof, "email_verified": "no"}):
        user = auth.oidc_user(claims, curators)
        assert user is not None and user.id == "eve-123" and not user.is_curator
    for verified in (True, "true"):
        user = auth.oidc_user({**spoof, "email_verified": verified}, curators)
        assert user is not None and user.id == "ada@lab.org" and user.is_curator
    with pytest.raises(AuthError, match="verified e-mail"):
        auth.oidc_user({"is_logged_in": True, "email": "ada@lab.org"}, curators)


# ---- 8. one member can stall everyone: the Check text page -----------------------------------
@pytest.fixture
def app_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Library]:
    from research_assistant.demo import build_demo

    monkeypatch.setenv("RA_LIBRARY_DIR", str(tmp_path / "library"))
    st.cache_resource.clear()
    lib = shared_library(tmp_path / "library")
    lib.ingest(build_demo(tmp_path / "demo-src"))
    yield lib
    st.cache_resource.clear()
    store.close_all()


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b"Growth is slow [Lindqvist and Haddad, 2021]. " * 13_400, "603,000 characters"),
        (b"x" * (3 * 2**20), "3 MiB"),
    ],
)
def test_the_check_page_refuses_an_upload_over_the_limit(
    app_library: Library, data: bytes, shown: str
) -> None:
    at = run("pages/4_Check_text.py")
    at.file_uploader[0].set_value(("thesis.txt", data, "text/plain"))
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and shown in errors[0], errors
    assert f"the limit is {CHECK_TEXT_MAX_CHARS:,} characters per check" in errors[0]
    assert app_library.store.history() == []  # nothing was checked


def test_the_check_page_checks_in_a_worker_thread(
    app_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = jobs.check_text

    def recording(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(jobs, "check_text", recording)
    at = run("pages/4_Check_text.py")
    at.text_area[0].set_value("Growth is slow [Lindqvist and Haddad, 2021].")
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert threads == ["check"] and 'class="ra-chip' in "".join(m.value for m in at.markdown)
