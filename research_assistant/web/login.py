"""Who uses the app and what they may do: login modes, local accounts, roles. No Streamlit here:
``ui.py`` draws the login form and reads ``st.user``; this module decides.

Modes (``RA_AUTH``, see ``mode``):

- ``oidc``: the lab's identity provider through Streamlit's ``st.login`` (an ``[auth]`` section
  in ``.streamlit/secrets.toml``); the user id is the e-mail (else the ``sub`` claim).
- ``local``: accounts in a TOML file (``RA_AUTH_FILE``), passwords stored as bcrypt hashes::

      [users.ada]
      name = "Ada Lovelace"          # shown in the sidebar; default: the user name
      role = "curator"               # or "member" (the default)
      password_hash = "$2b$12$..."   # python -m research_assistant.web.login hash

- ``none``: no login (a laptop install): everyone is ``LOCAL``, a curator.

Roles: a ``member`` asks, checks texts, exports and sees their own history; a ``curator`` also
adds, fixes and removes papers and sees everyone's audit. ``RA_CURATORS`` (a comma list of user
names or e-mails) makes curators in either mode; anyone else is a member.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import math
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bcrypt

from research_assistant.errors import AuthError, SettingsError

MEMBER, CURATOR = "member", "curator"
ROLES = (MEMBER, CURATOR)
NONE, LOCAL_MODE, OIDC = "none", "local", "oidc"
MODES = (NONE, LOCAL_MODE, OIDC)
# bcrypt's default cost: about 0.2 s per check on a 2024 laptop, slow enough for guessing and
# fast enough that nobody waits for a login.
BCRYPT_ROUNDS = 12
MAX_PASSWORD_BYTES = 72  # bcrypt reads no further (bcrypt 5 raises on longer input)
# Login throttle: after 5 wrong passwords for one user name within 15 minutes, that name is
# refused until the oldest failure is 15 minutes old (OWASP's guidance: slow guessing down
# without locking an account for good).
MAX_FAILURES = 5
FAILURE_WINDOW_S = 15 * 60
MAX_TRACKED = 10_000  # user names with recent failures kept in memory before stale ones go
WRONG = "Unknown user name or wrong password: try again, or ask a curator to reset it."


@dataclass(frozen=True)
class User:
    id: str  # what every log row records: a local user name, or the OIDC e-mail
    name: str
    role: str = MEMBER

    @property
    def is_curator(self) -> bool:
        return self.role == CURATOR


LOCAL = User("local", "Local user", CURATOR)  # nobody logs in (mode none)


@dataclass(frozen=True)
class Account:
    username: str
    name: str
    role: str
    password_hash: str = field(repr=False)


def mode(choice: str, oidc_section: bool, auth_file: Path | None) -> str:
    """The login mode: ``choice`` (RA_AUTH) if set, else oidc / local / none as configured."""
    choice = choice.strip().lower()
    if choice and choice not in MODES:
        raise SettingsError(
            f"RA_AUTH={choice!r}: use one of {', '.join(MODES)}, or leave it empty."
        )
    if choice == LOCAL_MODE and auth_file is None:
        raise SettingsError("RA_AUTH=local needs RA_AUTH_FILE, the file of local accounts.")
    if choice == OIDC and not oidc_section:
        raise SettingsError(
            "RA_AUTH=oidc needs an [auth] section in .streamlit/secrets.toml: see docs/deploy.md."
        )
    if choice:
        return choice
    return OIDC if oidc_section else LOCAL_MODE if auth_file is not None else NONE


def role_of(user_id: str, given: str, curators: frozenset[str]) -> str:
    return CURATOR if given == CURATOR or user_id.casefold() in curators else MEMBER


# ---- local accounts ----------------------------------------------------------------------------
def load_accounts(path: Path) -> dict[str, Account]:
    """The accounts of ``path``, keyed by case-folded user name (re-read when the file changes)."""
    path = path.expanduser()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as e:
        raise SettingsError(f"The accounts file {path} (RA_AUTH_FILE) cannot be read: {e}") from e
    return _load_accounts(str(path), stamp)


_CACHE: dict[tuple[str, int], dict[str, Account]] = {}
_CACHE_LOCK = threading.Lock()


def _load_accounts(path: str, stamp: int) -> dict[str, Account]:
    with _CACHE_LOCK:
        if (path, stamp) in _CACHE:
            return _CACHE[(path, stamp)]
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise SettingsError(f"The accounts file {path} is not valid TOML: {e}") from e
    users = data.get("users")
    if not isinstance(users, dict):
        raise SettingsError(f"{path} has no [users.NAME] tables: see docs/deploy.md.")
    accounts: dict[str, Account] = {}
    for username, entry in users.items():
        accounts[username.casefold()] = _account(path, username, entry)
    with _CACHE_LOCK:
        _CACHE.clear()  # only the newest version of a file is kept
        _CACHE[(path, stamp)] = accounts
    return accounts


def _account(path: str, username: str, entry: Any) -> Account:
    where = f"{path}, [users.{username}]"
    if not isinstance(entry, dict):
        raise SettingsError(f"{where}: expected a table with name, role and password_hash.")
    role = str(entry.get("role", MEMBER))
    if role not in ROLES:
        raise SettingsError(f"{where}: role {role!r} is not one of {', '.join(ROLES)}.")
    digest = str(entry.get("password_hash", ""))
    if not digest.startswith(("$2a$", "$2b$", "$2y$")):
        raise SettingsError(
            f"{where}: password_hash is not a bcrypt hash: make one with "
            "`python -m research_assistant.web.login hash`."
        )
    return Account(username, str(entry.get("name") or username), role, digest)


def hash_password(password: str, rounds: int = BCRYPT_ROUNDS) -> str:
    raw = password.encode("utf-8")
    if not raw.strip():
        raise AuthError("The password is empty: choose one.")
    if len(raw) > MAX_PASSWORD_BYTES:
        raise AuthError(f"The password is over {MAX_PASSWORD_BYTES} bytes: choose a shorter one.")
    return bcrypt.hashpw(raw, bcrypt.gensalt(rounds=rounds)).decode("ascii")


@functools.cache
def _dummy_hash() -> bytes:
    """Checked when the user name is unknown, so that a wrong name takes as long as a wrong
    password (nobody can find out which names exist by timing the answer)."""
    return bcrypt.hashpw(b"not a password", bcrypt.gensalt(rounds=BCRYPT_ROUNDS))


def _password_ok(password: str, digest: bytes) -> bool:
    raw = password.encode("utf-8")
    return len(raw) <= MAX_PASSWORD_BYTES and bcrypt.checkpw(raw, digest)


class LoginThrottle:
    """Wrong passwords per user name, in one process (thread-safe; the clock is injectable)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def check(self, username: str) -> None:
        with self._lock:
            recent = self._recent(username)
        if len(recent) >= MAX_FAILURES:
            wait = max(1, math.ceil((recent[0] + FAILURE_WINDOW_S - self._clock()) / 60))
            raise AuthError(
                f"Too many wrong passwords for {username!r}: try again in {wait} minutes, "
                "or ask a curator to reset it."
            )

    def failed(self, username: str) -> None:
        with self._lock:
            if len(self._failures) >= MAX_TRACKED:  # many names tried: forget the stale ones
                self._failures = {n: r for n in self._failures if (r := self._recent(n))}
            self._failures[username] = [*self._recent(username), self._clock()]

    def succeeded(self, username: str) -> None:
        with self._lock:
            self._failures.pop(username, None)

    def _recent(self, username: str) -> list[float]:
        now = self._clock()
        return [t for t in self._failures.get(username, []) if now - t < FAILURE_WINDOW_S]


def login(
    accounts: Mapping[str, Account],
    username: str,
    password: str,
    curators: frozenset[str] = frozenset(),
    throttle: LoginThrottle | None = None,
) -> User:
    """The ``User`` of a correct user name and password; ``AuthError`` otherwise."""
    name = username.strip().casefold()
    if throttle is not None:
        throttle.check(name)
    account = accounts.get(name)
    digest = account.password_hash.encode("ascii") if account else _dummy_hash()
    if not _password_ok(password, digest) or account is None:
        if throttle is not None:
            throttle.failed(name)
        raise AuthError(WRONG)
    if throttle is not None:
        throttle.succeeded(name)
    return User(account.username, account.name, role_of(account.username, account.role, curators))


def local_user(
    accounts: Mapping[str, Account], user_id: str, curators: frozenset[str] = frozenset()
) -> User | None:
    """A logged-in user as the accounts file says now (None once the account is removed)."""
    account = accounts.get(user_id.casefold())
    if account is None:
        return None
    return User(account.username, account.name, role_of(account.username, account.role, curators))


def oidc_user(claims: Mapping[str, Any], curators: frozenset[str] = frozenset()) -> User | None:
    """The user of ``st.user``'s claims, or None when nobody is logged in."""
    if not claims.get("is_logged_in"):
        return None
    user_id = str(claims.get("email") or claims.get("sub") or "").strip()
    if not user_id:
        raise AuthError("The identity provider sent neither an e-mail nor a subject id.")
    return User(user_id, str(claims.get("name") or user_id), role_of(user_id, MEMBER, curators))


def require_curator(user: User, action: str) -> None:
    if not user.is_curator:
        raise AuthError(
            f"{action} is for curators of this library, and {user.name} is a member: "
            "ask a curator (RA_CURATORS, or the role in the accounts file)."
        )


# ---- command line: python -m research_assistant.web.login hash ---------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m research_assistant.web.login", description="Local accounts for Citable."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("hash", help="read a password (prompt, or the first line of stdin), print "
                   "its bcrypt hash for password_hash")  # fmt: skip
    check = sub.add_parser("check", help="validate an accounts file, list users and roles")
    check.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "hash":
            print(hash_password(_read_password()))
        else:
            for a in load_accounts(args.file).values():
                print(f"{a.username}\t{a.role}\t{a.name}")
    except (AuthError, SettingsError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def _read_password() -> str:
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    password = getpass.getpass("Password: ")
    if getpass.getpass("Again: ") != password:
        raise AuthError("The two passwords differ: run the command again.")
    return password


if __name__ == "__main__":
    raise SystemExit(main())
