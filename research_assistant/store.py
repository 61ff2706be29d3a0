"""The only duckdb import: the catalog (papers, files, chunks, ingest runs) and the log.

DuckDB allows one process per database file and raises when threads share a connection, so the
process keeps one parent connection per file (``Store.open``) and every call works on its own
``cursor()``. The schema comes from numbered migrations recorded in ``migrations``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from research_assistant.audit import AuditQueries
from research_assistant.conversations import Conversations
from research_assistant.errors import StoreError
from research_assistant.files import RESTORE_HINT, check_generation, new_generation
from research_assistant.models import Chunk, Name, Paper
from research_assistant.results import Citation
from research_assistant.schema import MIGRATIONS

_CONNECTIONS: dict[str, duckdb.DuckDBPyConnection] = {}
_CONNECTIONS_LOCK = threading.Lock()


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def paper_to_row(p: Paper, sha256: str = "") -> tuple[Any, ...]:
    return (
        p.key, p.label, p.title, json.dumps([asdict(a) for a in p.authors]), p.year,
        p.entry_type, p.venue, p.doi, p.arxiv_id, p.url, json.dumps(list(p.files)),
        json.dumps([list(f) for f in p.fields]), p.others, p.metadata, p.pdf, sha256,
        p.pages, p.chunks, p.source, _now(),
    )  # fmt: skip


_PAPER_COLUMNS = (
    "key, label, title, authors, year, entry_type, venue, doi, arxiv_id, url, files, fields, "
    "others, metadata, pdf, pdf_sha256, pages, chunks, source, updated_at"
)


def row_to_paper(r: Sequence[Any]) -> Paper:
    return Paper(
        key=r[0], label=r[1] or "", title=r[2] or "",
        authors=tuple(Name(**a) for a in json.loads(r[3] or "[]")), year=r[4],
        entry_type=r[5] or "", venue=r[6] or "", doi=r[7] or "", arxiv_id=r[8] or "",
        url=r[9] or "", files=tuple(json.loads(r[10] or "[]")),
        fields=tuple((k, v) for k, v in json.loads(r[11] or "[]")), others=bool(r[12]),
        metadata=r[13] or "bibtex", pdf=r[14], pages=r[16] or 0, chunks=r[17] or 0,
        source=r[18] or "",
    )  # fmt: skip


def _bulk_insert(
    cur: duckdb.DuckDBPyConnection,
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    replace_key: str = "",
) -> None:
    """executemany costs about 0.5 ms a row in DuckDB; one list parameter per column, unnested
    in SQL, inserts in one go with no frame library (a pandas or Arrow frame made an ingest
    import pandas: 0.5 s). With ``replace_key``, rows with the same key are deleted first."""
    types = dict(
        cur.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ?"
            " AND table_schema = current_schema() AND table_catalog = current_database()",
            [table],
        ).fetchall()
    )
    values = [[r[i] for r in rows] for i in range(len(columns))]
    if replace_key:
        cur.execute(
            f"DELETE FROM {table} WHERE {replace_key} IN ?", [values[columns.index(replace_key)]]
        )
    picked = ", ".join(f"unnest(?::{types[c]}[])" for c in columns)
    cur.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {picked}", values)


_RUN_COLUMNS = (
    "run_id, created_at, username, source, question, answer, mode, backend, model, latency_ms, "
    "retrieved, result, conversation_id"
)
_FILE_COLUMNS = ("sha256", "name", "original_path", "size", "pages", "added_at")
_CHUNK_COLUMNS = ("chunk_id", "paper_key", "page", "start_offset", "end_offset", "text")


def _open_failed(key: str, error: BaseException) -> str:
    """Why a catalog cannot be opened: another process holds its lock, or it is damaged."""
    text = " ".join(str(error).split())
    if "lock" in text.lower():
        return (
            f"Cannot open the library catalog {key}: another process has it open (DuckDB allows "
            f"one process per file): stop that process and retry. ({text})"
        )
    return (
        f"Cannot open the library catalog {key}: the file may be damaged ({text[:300]}). "
        f"{RESTORE_HINT}."
    )


class Store(AuditQueries, Conversations):
    """One DuckDB file: catalog + log. Safe to share between threads (cursor per call). The
    audit's read-only queries of the log are in ``audit.AuditQueries``, the Ask page's
    conversations in ``conversations.Conversations``."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str) -> None:
        self._con = con
        self.path = path
        self._write_lock = threading.Lock()

    @classmethod
    def open(cls, path: Path | str) -> Store:
        key = str(path) if str(path) == ":memory:" else str(Path(path).resolve())
        with _CONNECTIONS_LOCK:
            con = _CONNECTIONS.get(key) if key != ":memory:" else None
            if con is None:
                try:
                    con = duckdb.connect(key)
                except duckdb.Error as e:
                    raise StoreError(_open_failed(key, e)) from e
                if key != ":memory:":
                    _CONNECTIONS[key] = con
        store = cls(con, key)
        try:
            store.migrate()
        except StoreError as e:
            if key != ":memory:":
                close(key)
            raise StoreError(_open_failed(key, e.__cause__ or e)) from e
        return store

    @contextmanager
    def cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        cur = self._con.cursor()
        try:
            yield cur
        except duckdb.Error as e:
            raise StoreError(f"Library database error in {self.path}: {e}") from e
        finally:
            cur.close()

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """Writes are serialised in-process; a failure rolls everything back."""
        with self._write_lock, self.cursor() as cur:
            cur.execute("BEGIN TRANSACTION")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def migrate(self) -> None:
        with self._write_lock, self.cursor() as cur:
            cur.execute(
                "CREATE TABLE IF NOT EXISTS migrations "
                "(id INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)"
            )
            done = {r[0] for r in cur.execute("SELECT id FROM migrations").fetchall()}
            for number, migration in enumerate(MIGRATIONS, start=1):
                if number in done:
                    continue
                cur.execute("BEGIN TRANSACTION")
                migration(cur)
                cur.execute(
                    "INSERT INTO migrations VALUES (?, ?, ?)", [number, migration.__name__, _now()]
                )
                cur.execute("COMMIT")

    def checkpoint(self) -> None:
        """Write the WAL into the database file (before a file-level backup)."""
        with self._write_lock, self.cursor() as cur:
            cur.execute("CHECKPOINT")

    def migrations(self) -> list[str]:
        with self.cursor() as cur:
            return [r[0] for r in cur.execute("SELECT name FROM migrations ORDER BY id").fetchall()]

    # ---- catalog -------------------------------------------------------------------------
    def papers(self) -> list[Paper]:
        with self.cursor() as cur:
            rows = cur.execute(f"SELECT {_PAPER_COLUMNS} FROM papers ORDER BY key").fetchall()
        return [row_to_paper(r) for r in rows]

    def paper_shas(self) -> dict[str, str]:
        """Paper key -> the SHA-256 of its PDF, for the papers that have one."""
        with self.cursor() as cur:
            rows = cur.execute(
                "SELECT key, pdf_sha256 FROM papers WHERE coalesce(pdf_sha256, '') <> ''"
            ).fetchall()
        return dict(rows)

    def chunks(self, paper_key: str | None = None) -> list[Chunk]:
        sql = "SELECT chunk_id, paper_key, page, start_offset, end_offset, text FROM chunks"
        with self.cursor() as cur:
            if paper_key is None:
                rows = cur.execute(sql + " ORDER BY paper_key, page, start_offset").fetchall()
            else:
                rows = cur.execute(
                    sql + " WHERE paper_key = ? ORDER BY page, start_offset", [paper_key]
                ).fetchall()
        return [Chunk(*r) for r in rows]

    def chunk_count(self) -> int:
        with self.cursor() as cur:
            row = cur.execute("SELECT count(*) FROM chunks").fetchone()
        return int(row[0]) if row else 0

    def meta(self, k: str, default: str = "") -> str:
        with self.cursor() as cur:
            row = cur.execute("SELECT v FROM meta WHERE k = ?", [k]).fetchone()
        return row[0] if row else default

    def set_meta(self, k: str, v: str, *, keep: bool = False) -> str:
        """Set ``k`` to ``v`` (with ``keep``, only if ``k`` has no value yet); the value now."""
        verb = "INSERT OR IGNORE" if keep else "INSERT OR REPLACE"
        with self.transaction() as cur:
            cur.execute(f"{verb} INTO meta VALUES (?, ?)", [k, v])
            row = cur.execute("SELECT v FROM meta WHERE k = ?", [k]).fetchone()
        return str(row[0]) if row else v

    def generation(self) -> str:
        """The catalog's generation ('' before the first change); a value this program never
        writes (a path, say) is refused: it names a folder under index/."""
        value = self.meta("generation")
        if value:
            check_generation(value, f"The library catalog {self.path}")
        return value

    def known_file(self, sha256: str) -> bool:
        with self.cursor() as cur:
            return (
                cur.execute("SELECT 1 FROM files WHERE sha256 = ?", [sha256]).fetchone() is not None
            )

    def apply_changes(
        self,
        *,
        papers: Iterable[tuple[Paper, str]],
        chunks: Mapping[str, Sequence[Chunk]],
        removed: Iterable[str] = (),
        files: Iterable[tuple[str, str, str, int, int]] = (),
        run: tuple[str, datetime, str, dict[str, Any]] | None = None,
        generation: str | None = None,
        before_commit: Callable[[], object] | None = None,
    ) -> str:
        """Write papers (with their PDF sha), replace the chunks of the given keys, remove keys,
        record files and the ingest run: all in one transaction. Returns the new generation
        (``generation`` when given: the library saves that index before committing, in
        ``before_commit``, which runs last inside the transaction: if it fails, nothing is
        committed)."""
        generation = check_generation(generation or new_generation(), "apply_changes")
        with self.transaction() as cur:
            for key in list(removed):
                cur.execute("DELETE FROM chunks WHERE paper_key = ?", [key])
                cur.execute("DELETE FROM papers WHERE key = ?", [key])
            rows = [paper_to_row(paper, sha) for paper, sha in papers]
            if rows:
                _bulk_insert(cur, "papers", _PAPER_COLUMNS.split(", "), rows, replace_key="key")
            if chunks:  # one statement: each DELETE scans the index of a big library's chunks
                cur.execute("DELETE FROM chunks WHERE paper_key IN ?", [list(chunks)])
            new_rows = [c for items in chunks.values() for c in items]
            if new_rows:
                chunk_rows = [
                    (c.chunk_id, c.paper_key, c.page, c.start, c.end, c.text) for c in new_rows
                ]
                _bulk_insert(cur, "chunks", _CHUNK_COLUMNS, chunk_rows)
            now = _now()  # one statement: a row at a time cost 6 ms a PDF (0.5 s for 90)
            file_rows = {sha: (sha, *rest, now) for sha, *rest in files}
            if file_rows:
                _bulk_insert(cur, "files", _FILE_COLUMNS, list(file_rows.values()), "sha256")
            if run is not None:
                run_id, started, user, report = run
                cur.execute(
                    "INSERT INTO ingest_runs VALUES (?, ?, ?, ?, ?)",
                    [run_id, started, _now(), user, json.dumps(report)],
                )
            cur.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", [generation])
            if before_commit is not None:
                before_commit()
        return generation

    # ---- verification log ----------------------------------------------------------------
    def log_run(
        self,
        *,
        run_id: str,
        source: str,
        user: str | None,
        citations: Sequence[Citation],
        result: dict[str, Any],
        question: str = "",
        answer: str = "",
        mode: str = "",
        backend: str = "",
        model: str = "",
        latency_ms: float = 0.0,
        retrieved: Sequence[str] = (),
        conversation_id: str | None = None,
    ) -> None:
        now = _now()
        who = user or "anonymous"
        rows = []
        for i, c in enumerate(citations):
            m, ev = c.mention, c.evidence
            rows.append(
                (run_id, i, now, who, source, m.marker, m.start, m.end, m.first_author, m.year,
                 c.paper_key, c.via, c.status, float(c.score), c.claim,
                 ev.chunk_id if ev else None, ev.page if ev else None, ev.text if ev else None,
                 backend, model, c.judge)
            )  # fmt: skip
        with self.transaction() as cur:
            cur.execute(
                f"INSERT INTO runs ({_RUN_COLUMNS}) VALUES ({', '.join('?' * 13)})",
                [run_id, now, who, source, question, answer, mode, backend, model,
                 latency_ms, json.dumps(list(retrieved)), json.dumps(result), conversation_id],
            )  # fmt: skip
            if conversation_id is not None:
                cur.execute(
                    "UPDATE conversations SET updated_at = ? WHERE id = ? AND username = ?",
                    [now, conversation_id, who],
                )
            if rows:
                cur.executemany(f"INSERT INTO citation_log VALUES ({', '.join('?' * 21)})", rows)

    def run(self, run_id: str) -> dict[str, Any] | None:
        """The stored JSON result of an ask or verify run, with who/when/source."""
        with self.cursor() as cur:
            row = cur.execute(
                "SELECT result, username, created_at, source FROM runs WHERE run_id = ?", [run_id]
            ).fetchone()
        if row is None:
            return None
        out: dict[str, Any] = json.loads(row[0])
        out.update(user=row[1], created_at=row[2].isoformat(), source=row[3])
        return out

    def history(self, user: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        sql = "SELECT run_id, created_at, username, source, question, mode FROM runs"
        args: list[Any] = []
        if user is not None:
            sql += " WHERE username = ?"
            args.append(user)
        sql += " ORDER BY created_at DESC LIMIT ?"
        args.append(limit)
        with self.cursor() as cur:
            rows = cur.execute(sql, args).fetchall()
        keys = ("id", "created_at", "user", "source", "question", "mode")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Read-only audit queries (see audit.py); never built from user input."""
        with self.cursor() as cur:
            return cur.execute(sql, list(args)).fetchall()

    def count(self, table: str) -> int:
        if table not in {"papers", "chunks", "files", "runs", "citation_log", "ingest_runs"}:
            raise StoreError(f"unknown table {table}")
        with self.cursor() as cur:
            row = cur.execute(f"SELECT count(*) FROM {table}").fetchone()
        return int(row[0]) if row else 0


def close_all() -> None:
    """Close every parent connection (tests, and before a backup is restored)."""
    with _CONNECTIONS_LOCK:
        for con in _CONNECTIONS.values():
            con.close()
        _CONNECTIONS.clear()


def close(path: Path | str) -> None:
    key = str(Path(path).resolve())
    with _CONNECTIONS_LOCK:
        con = _CONNECTIONS.pop(key, None)
    if con is not None:
        con.close()
