"""web/sessions.py and the login gate: a local login survives a reload through a signed,
expiring cookie; "Log out" ends it. AppTest cannot send cookies, so the reload reads the token
through ``sessions.from_cookies`` (the one place ``ui`` reads ``st.context.cookies`` through).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from research_assistant import Library
from research_assistant.store import Store
from research_assistant.web import sessions
from tests.test_auth import PASSWORDS, _fresh, accounts, app, demo_lib, log_in  # noqa: F401

SECRET = b"s" * 32
HOUR = 3600.0


def hashes(user: str) -> str | None:
    return {"ada": "$2b$04$ada", "bob": "$2b$04$bob"}.get(user)


def never(_: str) -> float:
    return 0.0


def test_a_token_names_its_user_until_it_expires() -> None:
    token = sessions.issue(SECRET, "ada", "$2b$04$ada", now=1000.0, hours=2)
    assert sessions.check(SECRET, token, hashes, 1000.0 + HOUR, never) == "ada"
    assert sessions.check(SECRET, token, hashes, 1000.0 + 2 * HOUR, never) is None  # expired
    assert sessions.check(SECRET, token, hashes, 999.0, never) is None  # not yet issued


@pytest.mark.parametrize(
    "spoil",
    [
        lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # a forged signature
        lambda t: sessions.issue(b"another secret", "ada", "$2b$04$ada", 1000.0, 2),
        lambda t: sessions.issue(SECRET, "bob", "$2b$04$ada", 1000.0, 2),  # bob, ada's hash
        lambda t: sessions.issue(SECRET, "eve", "$2b$04$ada", 1000.0, 2),  # no such account
        lambda t: "not a token",
        lambda t: "",
        lambda t: "e30." + t.split(".")[1],  # "{}": a payload without claims
    ],
)
def test_a_spoilt_token_names_nobody(spoil: object) -> None:
    token = sessions.issue(SECRET, "ada", "$2b$04$ada", now=1000.0, hours=2)
    spoilt = spoil(token)  # type: ignore[operator]
    assert sessions.check(SECRET, spoilt, hashes, 1000.0 + HOUR, never) is None


def test_a_new_password_and_a_logout_end_the_tokens_before_them(tmp_path: Path) -> None:
    token = sessions.issue(SECRET, "ada", "$2b$04$ada", now=1000.0, hours=2)
    assert sessions.check(SECRET, token, lambda u: "$2b$04$new", 1001.0, never) is None
    db = Store.open(tmp_path / "c.duckdb")
    sessions.log_out(db, "Ada", now=1500.0)
    when = sessions.logged_out_at(db)
    assert when("ada") == 1500.0 and when("bob") == 0.0
    assert sessions.check(SECRET, token, hashes, 1600.0, when) is None
    later = sessions.issue(SECRET, "ada", "$2b$04$ada", now=1700.0, hours=2)
    assert sessions.check(SECRET, later, hashes, 1800.0, when) == "ada"


def test_the_install_secret_is_made_once_and_a_configured_one_wins(tmp_path: Path) -> None:
    db = Store.open(tmp_path / "c.duckdb")
    first = sessions.install_secret(db)
    assert len(first) >= 32 and sessions.install_secret(db) == first
    assert sessions.install_secret(db, "configured") == b"configured"


def test_the_cookie_script_writes_only_a_token() -> None:
    token = sessions.issue(SECRET, "ada", "$2b$04$ada", now=1000.0, hours=2)
    script = sessions.cookie_script(token, 2, secure=True)
    assert f'"citable_session={token}; Max-Age=7200; Path=/; SameSite=Strict; Secure"' in script
    assert "Max-Age=0" in sessions.cookie_script(None, 2, secure=False)
    with pytest.raises(ValueError):
        sessions.cookie_script('x"; alert(1); "', 2, secure=False)


def scripts(at: object) -> str:
    return " ".join(str(e.proto.body) for e in at.get("html"))  # type: ignore[attr-defined]


def test_a_local_login_survives_a_reload_until_log_out(
    demo_lib: Library,  # noqa: F811
    accounts: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = log_in(app(), "ada", PASSWORDS["ada"])
    assert not at.exception and at.title[0].value == "Ask your library"
    written = scripts(at)
    assert "citable_session=" in written and "Max-Age=43200" in written  # 12 hours
    token = written.split("citable_session=")[1].split(";")[0]

    # A reload: a new session, no login in its state, the browser sends the cookie
    monkeypatch.setattr(sessions, "from_cookies", lambda cookies: token)
    at = app("pages/1_Library.py")
    assert at.title[0].value == "Library" and at.file_uploader  # ada, a curator
    assert any("Logged in: Ada Lab (curator)" in c.value for c in at.sidebar.caption)

    next(b for b in at.sidebar.button if b.label == "Log out").click().run()
    assert [t.value for t in at.title] == ["Citable"]  # the login screen
    assert "Max-Age=0" in scripts(at)  # the cookie is deleted
    hidden = " ".join(m.value for m in at.markdown)
    assert "stSidebar" in hidden and "display:none" in hidden  # no empty sidebar stays
    assert not at.sidebar.button and not at.get("page_link")

    at = app()  # another reload with the old cookie: it was revoked by "Log out"
    assert [t.value for t in at.title] == ["Citable"] and at.text_input
