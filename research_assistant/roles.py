"""Who acts on the library, and the one rule about roles: only curators change it.

A ``member`` asks, checks texts, exports and sees their own history; a ``curator`` also adds,
fixes and removes papers, backs the library up and sees everyone's audit. The app decides who
is logged in (``web/login.py``); ``Library`` and ``backup`` enforce the rule, so the app, the
command line and scripts cannot disagree about it.

A change made with a plain user id (or none) comes from whoever runs Python on the library
folder: the command line, a script, a test. They can write the folder anyway, so they act as
its curator, and the id is only recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from research_assistant.errors import PermissionDeniedError

MEMBER, CURATOR = "member", "curator"
ROLES = (MEMBER, CURATOR)


@dataclass(frozen=True)
class User:
    id: str  # what every log row records: a local user name, or the OIDC e-mail
    name: str
    role: str = MEMBER

    @property
    def is_curator(self) -> bool:
        return self.role == CURATOR


LOCAL = User("local", "Local user", CURATOR)  # nobody logs in (a laptop install)

Actor: TypeAlias = User | str | None  # who asks for a change: a User, or the folder's owner


def require_curator(user: Actor, action: str) -> str | None:
    """The user id to record for ``action``; ``PermissionDeniedError`` when a member tries it."""
    if not isinstance(user, User):
        return user
    if not user.is_curator:
        raise PermissionDeniedError(
            f"{action} is for curators of this library, and {user.name} is a member: "
            "ask a curator (RA_CURATORS, or the role in the accounts file)."
        )
    return user.id
