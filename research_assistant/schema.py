"""The catalog's schema as numbered migrations, applied in order by ``store.Store.migrate``
(each in its own transaction, recorded in ``migrations``). A migration only ever adds: tables,
columns, indexes. No duckdb import here: the store hands each migration its cursor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["MIGRATIONS", "Cursor"]


class Cursor(Protocol):
    def execute(self, sql: str, /) -> Any: ...


def m001_catalog(cur: Cursor) -> None:
    cur.execute(
        """
        CREATE TABLE papers (
            key VARCHAR PRIMARY KEY, label VARCHAR, title VARCHAR, authors VARCHAR,
            year INTEGER, entry_type VARCHAR, venue VARCHAR, doi VARCHAR, arxiv_id VARCHAR,
            url VARCHAR, files VARCHAR, fields VARCHAR, others BOOLEAN, metadata VARCHAR,
            pdf VARCHAR, pdf_sha256 VARCHAR, pages INTEGER, chunks INTEGER, source VARCHAR,
            updated_at TIMESTAMP
        );
        CREATE TABLE files (
            sha256 VARCHAR PRIMARY KEY, name VARCHAR, original_path VARCHAR, size BIGINT,
            pages INTEGER, added_at TIMESTAMP
        );
        CREATE TABLE chunks (
            chunk_id VARCHAR PRIMARY KEY, paper_key VARCHAR, page INTEGER,
            start_offset INTEGER, end_offset INTEGER, text VARCHAR
        );
        CREATE INDEX chunks_by_paper ON chunks (paper_key);
        CREATE TABLE ingest_runs (
            run_id VARCHAR PRIMARY KEY, started_at TIMESTAMP, finished_at TIMESTAMP,
            username VARCHAR, report VARCHAR
        );
        CREATE TABLE meta (k VARCHAR PRIMARY KEY, v VARCHAR);
        """
    )


def m002_verification_log(cur: Cursor) -> None:
    cur.execute(
        """
        CREATE TABLE runs (
            run_id VARCHAR PRIMARY KEY, created_at TIMESTAMP, username VARCHAR,
            source VARCHAR, question VARCHAR, answer VARCHAR, mode VARCHAR,
            backend VARCHAR, model VARCHAR, latency_ms DOUBLE, retrieved VARCHAR,
            result VARCHAR
        );
        CREATE TABLE citation_log (
            run_id VARCHAR, idx INTEGER, created_at TIMESTAMP, username VARCHAR,
            source VARCHAR, marker VARCHAR, start_offset INTEGER, end_offset INTEGER,
            first_author VARCHAR, year VARCHAR, paper_key VARCHAR, via VARCHAR,
            status VARCHAR, score DOUBLE, claim VARCHAR, evidence_chunk VARCHAR,
            evidence_page INTEGER, evidence_text VARCHAR, backend VARCHAR, model VARCHAR,
            PRIMARY KEY (run_id, idx)
        );
        """
    )


def m003_conversations(cur: Cursor) -> None:
    """A user's conversations on the Ask page; each ask run names its conversation."""
    cur.execute(
        """
        CREATE TABLE conversations (
            id VARCHAR PRIMARY KEY, username VARCHAR, title VARCHAR,
            created_at TIMESTAMP, updated_at TIMESTAMP, deleted BOOLEAN DEFAULT false
        );
        CREATE INDEX conversations_by_user ON conversations (username);
        ALTER TABLE runs ADD COLUMN conversation_id VARCHAR;
        """
    )


def m004_judge_log(cur: Cursor) -> None:
    """What the model judge said of each logged citation ("" when none was asked), so that the
    audit can count how often it overturned the offline verdict."""
    cur.execute("ALTER TABLE citation_log ADD COLUMN judge VARCHAR DEFAULT ''")


MIGRATIONS: tuple[Callable[[Cursor], None], ...] = (
    m001_catalog,
    m002_verification_log,
    m003_conversations,
    m004_judge_log,
)
