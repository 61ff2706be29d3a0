"""roles.py: the one rule about who may change the library."""

from __future__ import annotations

import pytest

from research_assistant.errors import AuthError, PermissionDeniedError
from research_assistant.roles import CURATOR, LOCAL, MEMBER, Actor, User, require_curator


@pytest.mark.parametrize(
    ("user", "recorded"),
    [
        (User("ada", "Ada Lovelace", CURATOR), "ada"),
        (LOCAL, "local"),  # logins off: the laptop's user is the curator
        ("cora", "cora"),  # a plain id: the command line or a script, the folder's owner
        (None, None),
    ],
)
def test_curators_and_the_folders_owner_may_change_the_library(
    user: Actor, recorded: str | None
) -> None:
    assert require_curator(user, "Removing a paper") == recorded


def test_a_member_gets_a_message_saying_what_and_whom_to_ask() -> None:
    with pytest.raises(PermissionDeniedError) as caught:
        require_curator(User("bob", "Bob Smith", MEMBER), "Removing a paper")
    assert isinstance(caught.value, AuthError)  # the app shows any ResearchAssistantError
    assert str(caught.value) == (
        "Removing a paper is for curators of this library, and Bob Smith is a member: "
        "ask a curator (RA_CURATORS, or the role in the accounts file)."
    )
