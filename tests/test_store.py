"""The DuckDB catalog and verification log: migrations, atomic changes, audit queries, threads."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from research_assistant import store as store_mod
from research_assistant.conversations import TITLE_CHARS
from research_assistant.errors import StoreError
from research_assistant.models import Chunk, Name, Paper
from research_assistant.results import Citation, Evidence, Mention
from research_assistant.store import Store


@pytest.fixture
def db(tmp_path: Path) -> Store:
    s = Store.open(tmp_path / "catalog.duckdb")
    yield s
    store_mod.close(tmp_path / "catalog.duckdb")


def paper(key: str, **kw: object) -> Paper:
    base = dict(
        key=key,
        title=f"Title of {key}",
        authors=(Name("Smith", "Jane"), Name("Organisation X", corporate=True)),
        year=2020,
        label=f"Smith and Organisation X, 2020{key[-1]}",
        files=("a.pdf",),
        fields=(("journal", "J. Test"),),
        pdf=f"{key}.pdf",
        pages=3,
        chunks=2,
    )
    base.update(kw)
    return Paper(**base)  # type: ignore[arg-type]


def chunk(key: str, i: int) -> Chunk:
    return Chunk(f"{key}:p1:{i}", key, 1, i * 10, i * 10 + 9, f"text {i} of {key}")


def test_migrations_are_numbered_and_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    s = Store.open(path)
    assert s.migrations()[:3] == ["m001_catalog", "m002_verification_log", "m003_conversations"]
    s.migrate()
    assert s.migrations()[:3] == ["m001_catalog", "m002_verification_log", "m003_conversations"]
    store_mod.close(path)


def test_papers_round_trip_every_field(db: Store) -> None:
    p = paper("k1")
    db.apply_changes(papers=[(p, "abc")], chunks={"k1": [chunk("k1", 0), chunk("k1", 1)]})
    assert db.papers() == [p]
    assert db.paper_shas() == {"k1": "abc"}
    assert [c.chunk_id for c in db.chunks("k1")] == ["k1:p1:0", "k1:p1:1"]


def test_apply_changes_replaces_and_removes(db: Store) -> None:
    g1 = db.apply_changes(
        papers=[(paper("k1"), "a"), (paper("k2"), "b")],
        chunks={"k1": [chunk("k1", 0)], "k2": [chunk("k2", 0)]},
    )
    g2 = db.apply_changes(papers=[], chunks={"k1": [chunk("k1", 5)]}, removed=["k2"])
    assert g1 != g2 and db.meta("generation") == g2
    assert [p.key for p in db.papers()] == ["k1"]
    assert [c.chunk_id for c in db.chunks()] == ["k1:p1:5"]


def test_a_failed_change_rolls_back(db: Store) -> None:
    db.apply_changes(papers=[(paper("k1"), "a")], chunks={"k1": [chunk("k1", 0)]})
    dup = chunk("k2", 0)
    with pytest.raises(StoreError):
        # the same chunk id twice violates the primary key half way through
        db.apply_changes(papers=[(paper("k2"), "b")], chunks={"k2": [dup, dup]})
    assert [p.key for p in db.papers()] == ["k1"]
    assert len(db.chunks()) == 1


def citation(status: str, key: str | None = "k1") -> Citation:
    m = Mention("[Smith, 2020]", 5, 18, "Smith", year="2020")
    return Citation(m, status, key, score=0.5, claim="A claim.", evidence=Evidence("c1", 2, "q"))


def test_log_and_audit_queries(db: Store) -> None:
    two = [citation("verified"), citation("unsupported")]
    db.log_run(
        run_id="r1", source="ask", user="ann", question="Q?", answer="A.", mode="answer",
        backend="extractive", model="m", citations=two, result={},
    )  # fmt: skip
    db.log_run(run_id="r2", source="verify", user="bob",
               citations=[citation("unknown_source", None)], result={"id": "r2"})  # fmt: skip
    assert db.count("citation_log") == 3
    assert db.counts_by_status() == {"verified": 1, "unsupported": 1, "unknown_source": 1}
    assert db.counts_by_status(user="bob") == {"unknown_source": 1}
    assert ("k1", "verified", 1) in db.counts_by_paper()
    assert sum(n for _, _, n in db.counts_over_time()) == 3
    assert ("extractive", "m", "verified", 1) in db.counts_by_backend()
    flagged = db.flagged()
    assert {f["status"] for f in flagged} == {"unsupported", "unknown_source"}
    assert {f["user"] for f in flagged} == {"ann", "bob"}
    assert db.run("r1")["user"] == "ann"
    assert [h["id"] for h in db.history("ann")] == ["r1"]
    assert db.run("missing") is None


def test_threads_each_use_their_own_cursor(db: Store) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(20):
                db.log_run(run_id=f"t{n}-{i}", source="ask", user=f"u{n}",
                           citations=[citation("verified")], result={})  # fmt: skip
                db.papers()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert db.count("runs") == 160 and db.count("citation_log") == 160


def test_unknown_table_and_bucket_are_refused(db: Store) -> None:
    with pytest.raises(StoreError):
        db.count("papers; DROP TABLE papers")
    with pytest.raises(StoreError):
        db.counts_over_time("fortnight")


def test_audit_queries_filter_by_user(db: Store) -> None:
    db.log_run(
        run_id="a1", source="ask", user="ann", citations=[citation("unsupported")], result={}
    )
    db.log_run(run_id="b1", source="ask", user="bob", citations=[citation("verified")], result={})
    assert sum(n for _, _, n in db.counts_by_paper(user="ann")) == 1
    assert [s for _, s, _ in db.counts_over_time(user="bob")] == ["verified"]
    assert [s for _, _, s, _ in db.counts_by_backend(user="ann")] == ["unsupported"]
    assert [f["run_id"] for f in db.flagged(user="ann")] == ["a1"] and db.flagged(user="bob") == []
    assert len(db.flagged()) == 1  # everyone


@pytest.mark.parametrize("value", ["../../x", "/etc", "0123456789AB", "abc", "0" * 13])
def test_a_generation_this_program_never_writes_is_refused(db: Store, value: str) -> None:
    from research_assistant.errors import LibraryError

    assert db.generation() == ""  # before the first change
    generation = db.apply_changes(papers=[], chunks={})
    assert db.generation() == generation and len(generation) == 12
    with db.transaction() as cur:
        cur.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", [value])
    with pytest.raises(LibraryError, match=r"restore BACKUP\.tar\.gz"):
        db.generation()
    with pytest.raises(LibraryError):
        db.apply_changes(papers=[], chunks={}, generation=value)


def test_a_damaged_catalog_is_not_blamed_on_another_process(tmp_path: Path) -> None:
    path = tmp_path / "catalog.duckdb"
    path.write_bytes(b"\x00garbage" * 1000)
    with pytest.raises(StoreError) as e:
        Store.open(path)
    assert "may be damaged" in str(e.value) and "restore" in str(e.value)
    assert "another process" not in str(e.value)


def test_conversations_per_user_newest_first_renamed_and_soft_deleted(db: Store) -> None:
    first = db.create_conversation("ann", "  What is   DLA?  ")
    second = db.create_conversation("ann", "x" * 500)
    other = db.create_conversation("bob", "Bob's question")
    assert first.title == "What is DLA?"
    assert len(second.title) == TITLE_CHARS
    for i, conversation in enumerate([first, first, other]):
        db.log_run(run_id=f"c{i}", source="ask", user=conversation.user, question=f"Q{i}?",
                   citations=[], result={"question": f"Q{i}?", "answer": f"A{i}."},
                   conversation_id=conversation.id)  # fmt: skip
    assert [c.id for c in db.conversations("ann")] == [first.id, second.id]  # last used first
    turns = db.conversation_turns(first.id, "ann")
    assert [(t["id"], t["question"], t["answer"]) for t in turns] == [
        ("c0", "Q0?", "A0."),
        ("c1", "Q1?", "A1."),
    ]
    assert db.conversation_turns(first.id, "bob") == []  # never someone else's
    db.rename_conversation(first.id, "ann", "Fractal dimensions")
    db.rename_conversation(first.id, "bob", "hijacked")  # not bob's: nothing changes
    assert db.conversations("ann")[0].title == "Fractal dimensions"
    with pytest.raises(StoreError, match="empty"):
        db.rename_conversation(first.id, "ann", "   ")
    db.delete_conversation(first.id, "ann")
    assert [c.id for c in db.conversations("ann")] == [second.id]
    assert db.conversation_turns(first.id, "ann") == []
    assert db.run("c0") is not None  # the log keeps the runs of a deleted conversation
    assert [c.title for c in db.conversations("bob")] == ["Bob's question"]


def reopened_after(
    path: Path, monkeypatch: pytest.MonkeyPatch, done: int, sql: str, row: list[object]
) -> Store:
    """A catalog written by the version with only the first ``done`` migrations (holding
    ``row``), opened again by this one."""
    monkeypatch.setattr(store_mod, "MIGRATIONS", store_mod.MIGRATIONS[:done])
    old = Store.open(path)
    with old.transaction() as cur:
        cur.execute(sql, row)
    store_mod.close(path)
    monkeypatch.undo()
    return Store.open(path)


def test_migration_3_keeps_the_runs_of_an_older_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = reopened_after(
        tmp_path / "old.duckdb", monkeypatch, 2,  # a run as written before conversations
        "INSERT INTO runs VALUES (?, now(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ["old", "ann", "ask", "Q?", "A.", "answer", "", "", 0, "[]", '{"id": "old"}'],
    )  # fmt: skip
    assert s.migrations()[2:4] == ["m003_conversations", "m004_judge_log"]
    assert s.run("old")["id"] == "old"
    assert s.conversations("ann") == []
    store_mod.close(tmp_path / "old.duckdb")


def test_migration_4_gives_the_logged_citations_of_an_older_catalog_no_judge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.duckdb"
    s = reopened_after(
        path, monkeypatch, 3,  # a citation as written before the judge column
        f"INSERT INTO citation_log VALUES ({', '.join('?' * 20)})",
        ["r", 0, "2026-11-20 10:00:00", "ann", "verify", "[A, 2020]", 0, 9, "A", "2020",
         "a2020", "", "verified", 0.9, "X.", None, None, None, "", ""],
    )  # fmt: skip
    assert s.migrations()[3] == "m004_judge_log"
    assert s.counts_by_status() == {"verified": 1} and s.judge_opinions() == []
    s.log_run(run_id="new", source="verify", user="ann", result={},
              citations=[replace(citation("verified"), judge="model judge (m): supports")])  # fmt: skip
    assert s.judge_opinions() == [("model judge (m): supports", "verified", 1)]
    assert s.judge_opinions(user="bob") == []
    store_mod.close(path)


def test_refusals_and_users_are_counted_for_the_audit(db: Store) -> None:
    assert db.log_span() is None and db.questions_by_mode() == {}
    db.log_run(run_id="a1", source="ask", user="ann", question="Q?", mode="answer",
               citations=[citation("verified")], result={})  # fmt: skip
    db.log_run(run_id="a2", source="ask", user="ann", question="Why?", mode="refuse",
               citations=[citation("unsupported")], result={})  # fmt: skip
    db.log_run(run_id="b1", source="verify", user="bob", mode="verify",
               citations=[citation("verified")], result={})  # fmt: skip
    assert db.questions_by_mode() == {"answer": 1, "refuse": 1}  # a checked text is no question
    assert db.questions_by_mode(user="bob") == {}
    assert [(r["run_id"], r["question"]) for r in db.refused()] == [("a2", "Why?")]
    assert db.refused(user="bob") == []
    first, last = db.log_span()
    assert first <= last
    assert db.counts_by_user() == [
        {"user": "ann", "questions": 2, "refused": 1, "citations": 2, "verified": 1},
        {"user": "bob", "questions": 0, "refused": 0, "citations": 1, "verified": 1},
    ]


def test_set_meta_keeps_a_first_value_when_asked(db: Store) -> None:
    assert db.set_meta("k", "first", keep=True) == "first"
    assert db.set_meta("k", "second", keep=True) == "first"
    assert db.set_meta("k", "third") == "third" and db.meta("k") == "third"
