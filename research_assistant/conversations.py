"""The Ask page's conversations in the catalog: a base class of ``store.Store``, whose
``transaction`` and ``query`` run the SQL (each on its own cursor). No duckdb import here; every
call names the user, who sees and changes only their own conversations.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from research_assistant.errors import StoreError

__all__ = ["TITLE_CHARS", "Conversation", "Conversations"]

TITLE_CHARS = 120  # a conversation's title: its first question, cut to fit the sidebar


@dataclass(frozen=True)
class Conversation:
    """One user's conversation on the Ask page (its turns are the ask runs that name it)."""

    id: str
    user: str
    title: str
    created_at: datetime
    updated_at: datetime


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Conversations:
    """Create, list, rename, delete (soft) and read a user's conversations."""

    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError  # store.Store runs it

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError  # store.Store runs it

    def create_conversation(self, user: str, title: str) -> Conversation:
        now, title = _now(), " ".join(title.split())[:TITLE_CHARS] or "New conversation"
        conversation = Conversation(uuid.uuid4().hex[:12], user, title, now, now)
        with self.transaction() as cur:
            cur.execute(
                "INSERT INTO conversations VALUES (?, ?, ?, ?, ?, false)",
                [conversation.id, user, title, now, now],
            )
        return conversation

    def conversations(self, user: str, limit: int = 200) -> list[Conversation]:
        """The user's conversations, the most recently used first (deleted ones left out)."""
        rows = self.query(
            "SELECT id, username, title, created_at, updated_at FROM conversations "
            "WHERE username = ? AND NOT deleted ORDER BY updated_at DESC, created_at DESC LIMIT ?",
            [user, limit],
        )
        return [Conversation(*r) for r in rows]

    def rename_conversation(self, conversation_id: str, user: str, title: str) -> None:
        title = " ".join(title.split())[:TITLE_CHARS]
        if not title:
            raise StoreError("The new title is empty: type a title for the conversation.")
        with self.transaction() as cur:
            cur.execute(
                "UPDATE conversations SET title = ? WHERE id = ? AND username = ?",
                [title, conversation_id, user],
            )

    def delete_conversation(self, conversation_id: str, user: str) -> None:
        """A soft delete: the conversation leaves the user's list, but its runs stay in the
        verification log (the audit and exports by id keep them)."""
        with self.transaction() as cur:
            cur.execute(
                "UPDATE conversations SET deleted = true WHERE id = ? AND username = ?",
                [conversation_id, user],
            )

    def conversation_turns(self, conversation_id: str, user: str) -> list[dict[str, Any]]:
        """The ask runs of one of the user's conversations, oldest first, as ``run`` gives them
        (with ``id``); empty for a conversation of someone else or a deleted one."""
        rows = self.query(
            "SELECT r.run_id, r.result, r.username, r.created_at, r.source FROM runs r "
            "JOIN conversations c ON c.id = r.conversation_id AND c.username = r.username "
            "WHERE r.conversation_id = ? AND r.username = ? AND NOT c.deleted "
            "ORDER BY r.created_at, r.run_id",
            [conversation_id, user],
        )
        out = []
        for run_id, result, who, created, source in rows:
            turn: dict[str, Any] = json.loads(result)
            turn.update(id=run_id, user=who, created_at=created.isoformat(), source=source)
            out.append(turn)
        return out
