"""auth.py and the login gate: modes, local accounts, roles, and what each page shows to whom.

The OIDC mode runs through AppTest's own seams: ``at.secrets`` holds an ``[auth]`` section
(which ``ui`` looks for) and ``at.user`` is what ``st.user`` returns. ``st.login`` itself is
never called (it redirects the browser to the identity provider).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from research_assistant import Library, store
from research_assistant.demo import DEMO_PAPERS, build_demo
from research_assistant.errors import AuthError, SettingsError
from research_assistant.web import login as auth
from research_assistant.web import ui
from tests.test_ui import DLA, PAGES, QUESTION, ROOT, SUPPORTED, ScriptedAnswerer, shared_library

PASSWORDS = {"ada": "correct horse battery", "bob": "tr0ub4dor&3"}
OIDC_SECRETS = {
    "auth": {
        "redirect_uri": "http://localhost:8501/oauth2callback",
        "cookie_secret": "x" * 32,
        "client_id": "citable",
        "client_secret": "secret",
        "server_metadata_url": "https://idp.example.org/.well-known/openid-configuration",
    }
}


def accounts_toml(roles: dict[str, str]) -> str:
    return "".join(
        f'[users.{name}]\nname = "{name.title()} Lab"\nrole = "{role}"\n'
        f'password_hash = "{auth.hash_password(PASSWORDS[name], rounds=4)}"\n\n'
        for name, role in roles.items()
    )


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(ui, "_THROTTLE", auth.LoginThrottle())
    for name in ("RA_AUTH", "RA_AUTH_FILE", "RA_CURATORS"):
        monkeypatch.delenv(name, raising=False)
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()
    store.close_all()


@pytest.fixture
def accounts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "users.toml"
    path.write_text(accounts_toml({"ada": "curator", "bob": "member"}), encoding="utf-8")
    monkeypatch.setenv("RA_AUTH_FILE", str(path))
    return path


@pytest.fixture
def demo_lib(tmp_path: Path) -> Library:
    lib = shared_library(tmp_path / "library")
    lib.ingest(build_demo(tmp_path / "demo-src"))
    return lib


def app(page: str = "app.py", user: dict[str, Any] | None = None, **state: Any) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    if user is not None:  # OIDC: an [auth] section, and what st.user says
        at.secrets = dict(OIDC_SECRETS)
        at.user = user
    for key, value in state.items():
        at.session_state[key] = value
    if page != "app.py":
        at.switch_page(page)
    return at.run()


def log_in(at: AppTest, name: str, password: str) -> AppTest:
    at.text_input[0].input(name)
    at.text_input[1].input(password)
    return next(b for b in at.button if b.label == "Log in").click().run()


def shows_no_library(at: AppTest, gate: bool = True) -> None:
    assert not at.exception, [e.value for e in at.exception]
    text = " ".join(
        [m.value for m in at.markdown] + [c.value for c in at.caption]
        + [i.value for i in at.info] + [t.value for t in at.title]
    )  # fmt: skip
    for paper in DEMO_PAPERS:
        assert paper.title not in text and paper.key not in text
    assert "papers" not in text and "Demo content" not in text
    assert not at.chat_input and not at.file_uploader and not at.dataframe
    assert not at.get("page_link"), "not even the menu"
    assert [t.value for t in at.title] == (["Citable"] if gate else [])


# ---- before login: every page shows nothing of the library -------------------------------------
@pytest.mark.parametrize("page", PAGES)
def test_local_accounts_every_page_asks_for_a_login_first(
    demo_lib: Library, accounts: Path, page: str
) -> None:
    at = app(page)
    shows_no_library(at)
    assert [w.label for w in at.text_input] == ["User name", "Password"]
    assert [b.label for b in at.button] == ["Log in"]


@pytest.mark.parametrize("page", PAGES)
def test_oidc_every_page_asks_for_a_login_first(demo_lib: Library, page: str) -> None:
    at = app(page, user={"is_logged_in": False})
    shows_no_library(at)
    assert [b.label for b in at.button] == ["Log in with your lab account"]
    assert not at.text_input


@pytest.mark.parametrize("page", PAGES)
def test_forced_oidc_mode_without_its_secrets_stays_closed(
    demo_lib: Library, monkeypatch: pytest.MonkeyPatch, page: str
) -> None:
    monkeypatch.setenv("RA_AUTH", "oidc")
    at = app(page)
    shows_no_library(at, gate=False)
    assert "RA_AUTH=oidc needs an \\[auth\\] section" in at.error[0].value  # inert: render.inert


def test_a_broken_accounts_file_keeps_the_app_closed(
    demo_lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "users.toml"
    bad.write_text('[users.ada]\npassword_hash = "plain text"\n', encoding="utf-8")
    monkeypatch.setenv("RA_AUTH_FILE", str(bad))
    at = app("pages/1_Library.py", **{ui.USER_KEY: "ada"})
    shows_no_library(at, gate=False)
    assert "password_hash is not a bcrypt hash" in at.error[0].value


# ---- logging in and out -------------------------------------------------------------------------
def test_local_login_wrong_password_then_right(demo_lib: Library, accounts: Path) -> None:
    at = log_in(app(), "ada", "wrong")
    shows_no_library(at)
    assert [e.value for e in at.error] == [f"{auth.WRONG}"]
    at = log_in(at, "ADA ", PASSWORDS["ada"])
    assert not at.exception and not at.error
    assert at.title[0].value == "Ask your library"
    assert "Logged in: Ada Lab (curator)" in [c.value for c in at.sidebar.caption]
    next(b for b in at.sidebar.button if b.label == "Log out").click().run()
    shows_no_library(at)


def test_a_removed_account_is_logged_out_at_the_next_click(
    demo_lib: Library, accounts: Path
) -> None:
    at = log_in(app(), "bob", PASSWORDS["bob"])
    assert at.title[0].value == "Ask your library"
    accounts.write_text(accounts_toml({"ada": "curator"}), encoding="utf-8")
    shows_no_library(at.run())


def test_oidc_user_is_a_member_unless_listed_as_curator(
    demo_lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    claims = {"is_logged_in": True, "email": "Ada@Lab.org", "email_verified": True, "name": "Ada"}
    at = app("pages/1_Library.py", user=claims)
    assert at.title[0].value == "Library" and not at.file_uploader
    assert "Logged in: Ada (member)" in [c.value for c in at.sidebar.caption]
    monkeypatch.setenv("RA_CURATORS", "someone@lab.org, ada@lab.org")
    at = app("pages/1_Library.py", user=claims)
    assert at.file_uploader and any(b.label == "Remove" for b in at.button)
    next(b for b in at.sidebar.button if b.label == "Log out").click().run()  # st.logout
    shows_no_library(at)
    assert [b.label for b in at.button] == ["Log in with your lab account"]


# ---- members cannot reach curator actions -------------------------------------------------------
def test_a_member_sees_the_library_read_only(demo_lib: Library, accounts: Path) -> None:
    at = app("pages/1_Library.py", **{ui.USER_KEY: "bob"})
    assert not at.exception
    assert at.title[0].value == "Library"
    assert len(at.dataframe[0].value) == len(DEMO_PAPERS)  # the list, read-only
    assert not at.file_uploader and not at.selectbox
    assert [b.label for b in at.main.button] == []
    assert any("for the library's curators" in c.value for c in at.caption)


def test_curator_actions_refuse_a_member(demo_lib: Library, tmp_path: Path) -> None:
    # The app's widget goes through the package's rule (roles.require_curator), as the CLI does.
    member = auth.User("bob", "Bob", auth.MEMBER)
    before = (demo_lib.papers(), demo_lib.state.generation)

    class Upload:
        name, data = "x.pdf", b"%PDF-1.7\n"

        def getvalue(self) -> bytes:
            return self.data

    with pytest.raises(AuthError, match="Adding papers is for curators"):
        ui.ingest_uploads(demo_lib, [Upload()], member)
    with pytest.raises(AuthError, match="Removing a paper is for curators"):
        demo_lib.remove(DLA, user=member)
    with pytest.raises(AuthError, match="Fixing a match is for curators"):
        demo_lib.assign_pdf(DLA, DEMO_PAPERS[1].key, user=member)
    assert (demo_lib.papers(), demo_lib.state.generation) == before


def test_log_rows_carry_the_user_and_members_audit_their_own(
    demo_lib: Library, accounts: Path
) -> None:
    dla = demo_lib.paper(DLA)
    assert dla is not None
    answerer = ScriptedAnswerer(*[f"{SUPPORTED} [{dla.label}]."] * 3)  # three asks
    at = log_in(app(**{ui.ANSWERER_KEY: answerer}), "bob", PASSWORDS["bob"])
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception
    at = log_in(app(**{ui.ANSWERER_KEY: answerer}), "ada", PASSWORDS["ada"])
    at.chat_input[0].set_value(QUESTION).run()
    at.chat_input[0].set_value(QUESTION).run()
    rows = demo_lib.store.query("SELECT username, count(*) FROM citation_log GROUP BY 1 ORDER BY 1")
    assert rows == [("ada", 2), ("bob", 1)]
    assert {r["user"] for r in demo_lib.store.history()} == {"ada", "bob"}

    at = app("pages/2_Audit.py", **{ui.USER_KEY: "bob"})
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Citations checked"] == "1"
    assert any("Your own citations" in c.value for c in at.caption)  # the charts are his only
    assert [s.value for s in at.success] == ["Every logged citation is verified."]
    at = app("pages/2_Audit.py", **{ui.USER_KEY: "ada"})
    assert {m.label: m.value for m in at.metric}["Citations checked"] == "3"


def test_no_auth_configured_stays_open(demo_lib: Library) -> None:
    at = app("pages/1_Library.py")
    assert at.title[0].value == "Library" and at.file_uploader
    assert not any(b.label == "Log out" for b in at.sidebar.button)
    assert ui.LOCAL_USER == auth.LOCAL.id == "local" and auth.LOCAL.is_curator


# ---- auth.py, pure ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("choice", "oidc", "file", "expected"),
    [
        ("", False, None, "none"),
        ("", False, Path("u.toml"), "local"),
        ("", True, Path("u.toml"), "oidc"),
        ("none", True, Path("u.toml"), "none"),
        ("LOCAL", True, Path("u.toml"), "local"),
        ("oidc", True, None, "oidc"),
    ],
)
def test_mode(choice: str, oidc: bool, file: Path | None, expected: str) -> None:
    assert auth.mode(choice, oidc, file) == expected


@pytest.mark.parametrize(
    ("choice", "file", "message"),
    [
        ("ldap", None, "use one of none, local, oidc"),
        ("local", None, "needs RA_AUTH_FILE"),
        ("oidc", Path("u.toml"), "needs an \\[auth\\] section"),
    ],
)
def test_mode_errors(choice: str, file: Path | None, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        auth.mode(choice, False, file)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("users = 3", "has no \\[users.NAME\\] tables"),
        ("[users", "is not valid TOML"),
        ('[users.a]\nrole = "admin"\npassword_hash = "$2b$x"', "role 'admin' is not one of"),
        ('[users.a]\npassword_hash = "hunter2"', "password_hash is not a bcrypt hash"),
    ],
)
def test_bad_accounts_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "users.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsError, match=message):
        auth.load_accounts(path)


def test_missing_accounts_file(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="RA_AUTH_FILE"):
        auth.load_accounts(tmp_path / "absent.toml")


def test_login_and_roles(accounts: Path) -> None:
    found = auth.load_accounts(accounts)
    assert auth.login(found, " Bob", PASSWORDS["bob"]) == auth.User("bob", "Bob Lab", "member")
    assert auth.login(found, "bob", PASSWORDS["bob"], frozenset({"bob"})).is_curator
    for name, password in [("bob", PASSWORDS["ada"]), ("eve", "anything"), ("ada", "é" * 80)]:
        with pytest.raises(AuthError) as e:
            auth.login(found, name, password)
        assert str(e.value) == auth.WRONG  # the same words whether the name exists or not
    assert "hunter2" not in repr(found["ada"]) and "$2b$" not in repr(found["ada"])


def test_throttle_slows_guessing(accounts: Path) -> None:
    now = [1000.0]
    throttle = auth.LoginThrottle(clock=lambda: now[0])
    found = auth.load_accounts(accounts)
    for _ in range(auth.MAX_FAILURES):
        with pytest.raises(AuthError, match="wrong password"):
            auth.login(found, "ada", "guess", throttle=throttle)
    with pytest.raises(AuthError, match="for 'ada' from your address: try again in 15 minutes"):
        auth.login(found, "ada", PASSWORDS["ada"], throttle=throttle)
    assert auth.login(found, "bob", PASSWORDS["bob"], throttle=throttle).id == "bob"
    now[0] += auth.FAILURE_WINDOW_S
    assert auth.login(found, "ada", PASSWORDS["ada"], throttle=throttle).id == "ada"


def test_oidc_claims() -> None:
    assert auth.oidc_user({"is_logged_in": False, "email": "a@b"}) is None
    assert auth.oidc_user({"email": "a@b"}) is None
    assert auth.oidc_user({"is_logged_in": True, "sub": "123"}) == auth.User("123", "123")
    with pytest.raises(AuthError, match="neither a verified e-mail nor a subject"):
        auth.oidc_user({"is_logged_in": True})


@pytest.mark.parametrize("password", ["", "   ", "x" * 73])
def test_unusable_passwords_are_not_hashed(password: str) -> None:
    with pytest.raises(AuthError):
        auth.hash_password(password, rounds=4)


def test_hash_command_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], accounts: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret pass\n"))
    assert auth.main(["hash"]) == 0
    digest = capsys.readouterr().out.strip()
    account = auth.Account("carol", "Carol", auth.MEMBER, digest)
    assert auth.login({"carol": account}, "carol", "s3cret pass").id == "carol"
    assert auth.main(["check", str(accounts)]) == 0
    assert capsys.readouterr().out.splitlines() == ["ada\tcurator\tAda Lab", "bob\tmember\tBob Lab"]


@pytest.mark.parametrize("role", ["member", "curator"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_for_a_member_and_a_curator(
    demo_lib: Library, accounts: Path, page: str, role: str
) -> None:
    user = {"member": "bob", "curator": "ada"}[role]
    at = app(page, **{ui.USER_KEY: user})
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == PAGES[page] and not at.error
    assert any(f"({role})" in c.value for c in at.sidebar.caption)
    expanders = [e.label for e in at.expander]
    correcting = any(label.startswith("Correct a paper") for label in expanders)
    assert correcting == (page == "pages/1_Library.py" and role == "curator")
