"""Logins of local accounts that survive a reload: a signed, expiring session token kept in a
browser cookie. No Streamlit here: ``ui`` reads the cookie (``st.context.cookies``) and writes
it with a script on the page (``cookie_script``); this module issues and checks tokens.

A token is ``payload.signature``: the payload (base64url JSON) names the user, when the token
was issued and when it expires; the signature is an HMAC-SHA256 over the payload with the
install's secret (``RA_SESSION_SECRET``, else a random one made once per library and kept in
its catalog, never in the repository) and the account's password hash, so that a new password
ends every session of that account. "Log out" records the time: every token of that user issued
before it is refused (logging out ends the user's sessions in every browser).

The cookie cannot be HttpOnly: Streamlit sends no response on which the server could set one
(``st.context.cookies`` is read-only), so a script on the page writes it. It is ``SameSite=
Strict`` (never sent by other sites' requests) and ``Secure`` when the app is served over https;
the answers and citations the page shows are escaped everywhere (render.py), which is what keeps
scripts from other origins off the page.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable, Mapping

from research_assistant.errors import AuthError
from research_assistant.settings import Settings
from research_assistant.store import Store
from research_assistant.web.login import load_accounts

COOKIE = "citable_session"
SECRET_KEY = "session_secret"  # the catalog's meta key of the per-install secret
_LOGOUT_KEY = "logout:"  # + user id: the time of the user's last "Log out"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{1,2000}\.[A-Za-z0-9_-]{43}$")


def install_secret(store: Store, configured: str = "") -> bytes:
    """The signing secret: ``configured`` (RA_SESSION_SECRET) if set, else this library's own
    random secret, made at the first login and kept in its catalog."""
    if configured:
        return configured.encode("utf-8")
    return store.set_meta(SECRET_KEY, secrets.token_urlsafe(32), keep=True).encode("ascii")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, payload: str, password_hash: str) -> str:
    key = hmac.new(secret, password_hash.encode("utf-8"), hashlib.sha256).digest()
    return _b64(hmac.new(key, payload.encode("ascii"), hashlib.sha256).digest())


def issue(secret: bytes, user_id: str, password_hash: str, now: float, hours: float) -> str:
    """A token for ``user_id`` valid for ``hours`` from ``now`` (seconds since the epoch)."""
    claims = {"u": user_id, "iat": now, "exp": now + hours * 3600, "n": secrets.token_hex(8)}
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode("utf-8"))
    return f"{payload}.{_sign(secret, payload, password_hash)}"


def check(
    secret: bytes,
    token: str,
    password_hash: Callable[[str], str | None],
    now: float,
    logged_out_at: Callable[[str], float],
) -> str | None:
    """The user id of a valid token; None for anything else (forged, expired, malformed, of a
    removed account, of a changed password, or issued before the user's last "Log out")."""
    if not _TOKEN.fullmatch(token or ""):
        return None
    payload, signature = token.split(".")
    try:
        claims = json.loads(_unb64(payload))
        user, issued, expires = str(claims["u"]), float(claims["iat"]), float(claims["exp"])
    except (ValueError, KeyError, TypeError, binascii.Error):
        return None
    digest = password_hash(user)
    if digest is None or not hmac.compare_digest(signature, _sign(secret, payload, digest)):
        return None
    if not issued <= now < expires or issued <= logged_out_at(user):
        return None
    return user


def log_out(store: Store, user_id: str, now: float) -> None:
    store.set_meta(_LOGOUT_KEY + user_id.casefold(), repr(now))


def logged_out_at(store: Store) -> Callable[[str], float]:
    def when(user_id: str) -> float:
        value = store.meta(_LOGOUT_KEY + user_id.casefold(), "0")
        try:
            return float(value)
        except ValueError:
            return float("inf")  # a value this program never writes: refuse every token

    return when


def cookie_script(token: str | None, hours: float, secure: bool) -> str:
    """A script that stores ``token`` in the session cookie (None: deletes the cookie). The
    token is base64url text with one dot, checked here again, so it needs no escaping."""
    if token is not None and not _TOKEN.fullmatch(token):
        raise ValueError("not a session token")
    age = int(hours * 3600) if token is not None else 0
    flags = "; Path=/; SameSite=Strict" + ("; Secure" if secure else "")
    return f'<script>document.cookie = "{COOKIE}={token or ""}; Max-Age={age}{flags}";</script>'


def from_cookies(cookies: Mapping[str, str]) -> str:
    return str(cookies.get(COOKIE, ""))


def _password_hashes(s: Settings) -> Callable[[str], str | None]:
    accounts = load_accounts(s.auth_file) if s.auth_file is not None else {}
    return lambda user: a.password_hash if (a := accounts.get(user.casefold())) else None


def new_token(store: Store, s: Settings, user_id: str, now: float) -> str:
    """A token for a user who just logged in with the password of the accounts file."""
    digest = _password_hashes(s)(user_id)
    if digest is None:
        raise AuthError(f"No local account {user_id!r}: log in again.")
    return issue(install_secret(store, s.session_secret), user_id, digest, now, s.session_hours)


def user_of_token(store: Store, s: Settings, token: str, now: float) -> str | None:
    """The user of a session cookie's token, if it is still good (see ``check``)."""
    if not token or s.auth_file is None:
        return None
    secret = install_secret(store, s.session_secret)
    return check(secret, token, _password_hashes(s), now, logged_out_at(store))
