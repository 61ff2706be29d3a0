"""The audit's read-only queries of the verification log (the Audit page): a base class of
``store.Store``, whose ``query`` runs them (each on its own cursor). No duckdb import here:
the SQL is fixed text; a user name or a limit is always a parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from research_assistant.errors import StoreError


def _by_user(user: str | None) -> tuple[str, list[Any]]:
    """A WHERE clause limiting the log to one user (None: everyone); the value is a parameter."""
    return ("WHERE username = ?", [user]) if user is not None else ("", [])


class AuditQueries:
    """Counts by status, paper, time, backend and user; flagged citations; refused questions;
    what the model judge said."""

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError  # store.Store runs it

    def counts_by_status(self, user: str | None = None) -> dict[str, int]:
        where, args = _by_user(user)
        rows = self.query(f"SELECT status, count(*) FROM citation_log {where} GROUP BY 1", args)
        return {s: int(n) for s, n in rows}

    def counts_by_paper(self, user: str | None = None) -> list[tuple[str, str, int]]:
        """(paper_key, status, count), most cited first; unresolved citations have key ''."""
        where, args = _by_user(user)
        return [
            (k or "", s, int(n))
            for k, s, n in self.query(
                f"SELECT paper_key, status, count(*) AS n FROM citation_log {where} "
                "GROUP BY 1, 2 ORDER BY sum(count(*)) OVER (PARTITION BY paper_key) DESC, 1, 2",
                args,
            )
        ]

    def counts_over_time(
        self, bucket: str = "day", user: str | None = None
    ) -> list[tuple[datetime, str, int]]:
        if bucket not in {"hour", "day", "week", "month"}:
            raise StoreError(f"unknown time bucket {bucket!r}")
        where, args = _by_user(user)
        return [
            (t, s, int(n))
            for t, s, n in self.query(
                f"SELECT date_trunc('{bucket}', created_at) AS t, status, count(*) "
                f"FROM citation_log {where} GROUP BY 1, 2 ORDER BY 1, 2",
                args,
            )
        ]

    def questions_by_mode(self, user: str | None = None) -> dict[str, int]:
        """Questions asked, by outcome: {"answer": n, "refuse": m} (refusals are no citation)."""
        where, args = _by_user(user)
        where = f"{where} AND source = 'ask'" if where else "WHERE source = 'ask'"
        return {m: int(n) for m, n in self.query(f"SELECT mode, count(*) FROM runs {where} "
                                                 "GROUP BY 1", args)}  # fmt: skip

    def refused(self, limit: int = 50, user: str | None = None) -> list[dict[str, Any]]:
        """The latest refused questions, newest first: run id, when, who, question."""
        where, args = _by_user(user)
        where = f"{where} AND" if where else "WHERE"
        rows = self.query(
            f"SELECT run_id, created_at, username, question FROM runs {where} source = 'ask' "
            "AND mode = 'refuse' ORDER BY created_at DESC LIMIT ?",
            [*args, limit],
        )
        return [dict(zip(("run_id", "created_at", "user", "question"), r, strict=True))
                for r in rows]  # fmt: skip

    def counts_by_user(self) -> list[dict[str, Any]]:
        """Per user (the curators' audit): questions, refusals, citations checked, verified."""
        rows = self.query(
            "SELECT username, count(*) FILTER (WHERE source = 'ask'), "
            "count(*) FILTER (WHERE source = 'ask' AND mode = 'refuse'), "
            "(SELECT count(*) FROM citation_log c WHERE c.username = r.username), "
            "(SELECT count(*) FROM citation_log c WHERE c.username = r.username "
            "AND c.status = 'verified') FROM runs r GROUP BY 1 ORDER BY 2 DESC, 1"
        )
        keys = ("user", "questions", "refused", "citations", "verified")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def log_span(self, user: str | None = None) -> tuple[datetime, datetime] | None:
        """When the first and the last logged citation were checked (None: nothing logged)."""
        where, args = _by_user(user)
        row = self.query(f"SELECT min(created_at), max(created_at) FROM citation_log {where}", args)
        return (row[0][0], row[0][1]) if row and row[0][0] is not None else None

    def counts_by_backend(self, user: str | None = None) -> list[tuple[str, str, str, int]]:
        where, args = _by_user(user)
        return [
            (b, m, s, int(n))
            for b, m, s, n in self.query(
                f"SELECT backend, model, status, count(*) FROM citation_log {where} "
                "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
                args,
            )
        ]

    def judge_opinions(self, user: str | None = None) -> list[tuple[str, str, int]]:
        """(what the model judge said, the status after it, count) of the citations it read."""
        where, args = _by_user(user)
        where = f"{where} AND judge <> ''" if where else "WHERE judge <> ''"
        rows = self.query(
            f"SELECT judge, status, count(*) FROM citation_log {where} GROUP BY 1, 2", args
        )
        return [(str(j), str(s), int(n)) for j, s, n in rows]

    def flagged(self, limit: int = 50, user: str | None = None) -> list[dict[str, Any]]:
        """The latest citations that are not verified, with their question for drill-down."""
        mine, args = ("AND c.username = ?", [user]) if user is not None else ("", [])
        rows = self.query(
            "SELECT c.run_id, c.created_at, c.username, c.source, c.marker, c.status, c.claim, "
            "c.paper_key, c.evidence_page, c.evidence_text, c.score, r.question "
            f"FROM citation_log c JOIN runs r USING (run_id) WHERE c.status <> 'verified' {mine} "
            "ORDER BY c.created_at DESC, c.idx LIMIT ?",
            [*args, limit],
        )
        keys = ("run_id", "created_at", "user", "source", "marker", "status", "claim",
                "paper_key", "page", "evidence", "score", "question")  # fmt: skip
        return [dict(zip(keys, r, strict=True)) for r in rows]
