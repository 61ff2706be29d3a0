"""Who uses the app and what they may do: login modes, local accounts, roles. No Streamlit here:
``ui.py`` draws the login form and reads ``st.user``; this module decides.

Modes (``RA_AUTH``, see ``mode``):

- ``oidc``: the lab's identity provider through Streamlit's ``st.login`` (an ``[auth]`` section
  in ``.streamlit/secrets.toml``); the user id is the e-mail when the provider says it is
  verified, else the ``sub`` claim.
- ``local``: accounts in a TOML file (``RA_AUTH_FILE``), passwords stored as bcrypt hashes::

      [users.ada]
      name = "Ada Lovelace"          # shown in the sidebar; default: the user name
      role = "curator"               # or "member" (the default)
      password_hash = "$2b$12$..."   # python -m research_assistant.web.login hash

- ``none``: no login (a laptop install): everyone is ``LOCAL``, a curator.

Roles (``research_assistant.roles``, which the library enforces): a ``member`` asks, checks
texts, exports and sees their own history; a ``curator`` also adds, fixes and removes papers
and sees everyone's audit. ``RA_CURATORS`` (a comma list of user names or e-mails) makes
curators in either mode; anyone else is a member.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import ipaddress
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
from research_assistant.roles import CURATOR, LOCAL, MEMBER, ROLES, User
from research_assistant.settings import Settings

NONE, LOCAL_MODE, OIDC = "none", "local", "oidc"
MODES = (NONE, LOCAL_MODE, OIDC)
# bcrypt's default cost: about 0.2 s per check on a 2024 laptop, slow enough for guessing and
# fast enough that nobody waits for a login.
BCRYPT_ROUNDS = 12
MAX_PASSWORD_BYTES = 72  # bcrypt reads no further (bcrypt 5 raises on longer input)
# Login throttle (OWASP's guidance: slow guessing down without locking an account for good):
# wrong passwords in the last FAILURE_WINDOW_S are counted three ways, and a login is refused
# (before its password is checked) while any count is at its limit:
# - MAX_FAILURES for one user name from one client address: that name, from that address. A
#   real user at another address still logs in (one guesser cannot lock them out);
# - MAX_CLIENT_FAILURES from one address, whatever the names (one guess at each of many
#   names). 20, not 5: a lab behind one NAT address may mistype 20 times in 15 minutes;
# - MAX_ACCOUNT_FAILURES for one name from all addresses: bounds guessing from many addresses
#   (an IPv6 /64 counts as one). Its price: someone with 20 addresses can keep one name out for
#   15 minutes (docs/deploy.md says so).
MAX_FAILURES = 5
MAX_CLIENT_FAILURES = 20
MAX_ACCOUNT_FAILURES = 100
FAILURE_WINDOW_S = 15 * 60
MAX_TRACKED = 30_000  # counts with recent failures kept in memory before stale ones go
LOCAL_CLIENT = "local"  # a session from this machine with no proxy naming another address
WRONG = "Unknown user name or wrong password: try again, or ask a curator to reset it."


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
    """Wrong passwords in one process, counted per (user name, client address), per address and
    per user name (thread-safe; the clock is injectable). ``begin`` checks the counts and counts
    the attempt in one step under the lock, so simultaneous guesses cannot all pass the check;
    ``succeeded`` takes back the attempt of a correct password."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures: dict[tuple[str, ...], list[float]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _limits(username: str, client: str) -> tuple[tuple[tuple[str, ...], int, str], ...]:
        name = repr(username)
        return (
            (("pair", username, client), MAX_FAILURES, f"for {name} from your address"),
            (("client", client), MAX_CLIENT_FAILURES, "from your address"),
            (("name", username), MAX_ACCOUNT_FAILURES, f"for {name} from several addresses"),
        )

    def begin(self, username: str, client: str = LOCAL_CLIENT) -> float:
        """Refuse (``AuthError``) while a count is at its limit; else count this attempt as a
        wrong password until ``succeeded`` takes it back. Returns the attempt's token."""
        with self._lock:
            now = self._clock()
            limits = self._limits(username, client)
            for key, limit, whose in limits:
                recent = self._recent(key, now)
                if len(recent) >= limit:
                    oldest = recent[len(recent) - limit]
                    wait = max(1, math.ceil((oldest + FAILURE_WINDOW_S - now) / 60))
                    raise AuthError(
                        f"Too many wrong passwords {whose}: try again in {wait} minutes, "
                        "or ask a curator to reset the password."
                    )
            if len(self._failures) >= MAX_TRACKED:  # many names tried: forget the stale ones
                self._failures = {k: r for k in self._failures if (r := self._recent(k, now))}
            for key, _, _ in limits:
                self._failures[key] = [*self._recent(key, now), now]
            return now

    def succeeded(self, username: str, client: str, token: float) -> None:
        """The password of attempt ``token`` was right: it was no guess, and this name's
        earlier mistakes from this address are forgiven."""
        with self._lock:
            for key, _, _ in self._limits(username, client):
                times = self._failures.get(key, [])
                if token in times:
                    times.remove(token)
            self._failures.pop(("pair", username, client), None)

    def _recent(self, key: tuple[str, ...], now: float) -> list[float]:
        return [t for t in self._failures.get(key, []) if now - t < FAILURE_WINDOW_S]


def client_address(peer: str | None, forwarded_for: Sequence[str] = ()) -> str:
    """The address a login attempt is counted against. ``peer`` is the connection's address as
    ``st.context.ip_address`` gives it: None for this machine, which is where the reverse proxy
    of docs/deploy.md connects from; that proxy appends the client's address to X-Forwarded-For,
    so the last entry is trusted, and only from this machine (the entries before it, and the
    header on a connection from elsewhere, are whatever the client sent). An IPv6 address
    counts as its /64 network: one host may hold all of it."""
    address = peer
    if address is None:
        entries = [e.strip() for header in forwarded_for for e in header.split(",")]
        address = entries[-1] if entries and entries[-1] else None
    if address is None:
        return LOCAL_CLIENT
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:100]  # a proxy's placeholder such as "unknown": one address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else ip)


def login(
    accounts: Mapping[str, Account],
    username: str,
    password: str,
    curators: frozenset[str] = frozenset(),
    throttle: LoginThrottle | None = None,
    client: str = LOCAL_CLIENT,
) -> User:
    """The ``User`` of a correct user name and password; ``AuthError`` otherwise. ``client``
    is the address the attempt comes from (``client_address``), for the ``throttle``."""
    name = username.strip().casefold()
    token = throttle.begin(name, client) if throttle is not None else None
    account = accounts.get(name)
    digest = account.password_hash.encode("ascii") if account else _dummy_hash()
    if not _password_ok(password, digest) or account is None:
        raise AuthError(WRONG)  # the attempt stays counted
    if throttle is not None and token is not None:
        throttle.succeeded(name, client, token)
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
    """The user of ``st.user``'s claims, or None when nobody is logged in. The id is the e-mail
    only when the provider says it is verified (``email_verified``): some providers let anyone
    put any address on an account, which would make a stranger a listed curator (SEE: "nOAuth",
    Descope, 2023); otherwise the id is the provider's own ``sub``."""
    if not claims.get("is_logged_in"):
        return None
    email = str(claims.get("email") or "").strip()
    verified = str(claims.get("email_verified", "")).lower() == "true"  # True, or "true"
    user_id = email if email and verified else str(claims.get("sub") or "").strip()
    if not user_id:
        raise AuthError(
            "The identity provider sent neither a verified e-mail nor a subject id (sub): "
            "ask the administrator to check its settings."
        )
    return User(user_id, str(claims.get("name") or user_id), role_of(user_id, MEMBER, curators))


def identify(
    s: Settings,
    oidc_section: bool,
    session_user: str | None,
    claims: Callable[[], Mapping[str, Any]],
) -> User | None:
    """Who uses a session, judged again on every run: a role change or a removed account takes
    effect at the next click. ``session_user`` is the name a local login stored in the session;
    ``claims`` reads ``st.user`` (OIDC mode only). None: nobody is logged in."""
    how = mode(s.auth, oidc_section, s.auth_file)
    if how == NONE:
        return LOCAL
    if how == OIDC:
        return oidc_user(claims(), s.curator_ids())
    if not session_user or s.auth_file is None:
        return None
    return local_user(load_accounts(s.auth_file), session_user, s.curator_ids())


def password_login(
    s: Settings,
    username: str,
    password: str,
    throttle: LoginThrottle | None = None,
    client: str = LOCAL_CLIENT,
) -> User:
    """A local login against the accounts file of the settings (``AuthError`` if refused), from
    the address ``client`` (``client_address``)."""
    if s.auth_file is None:
        raise SettingsError("Local logins need RA_AUTH_FILE, the file of local accounts.")
    accounts = load_accounts(s.auth_file)
    return login(accounts, username, password, s.curator_ids(), throttle, client)


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
