"""The term counts stored with each index generation: written compactly at every change, read
back the same, an older library's terms.json still read, a damaged file counted again."""

from __future__ import annotations

import json
from pathlib import Path

from research_assistant.models import Chunk
from research_assistant.termcounts import TERMS_FILE, TermCounts

CHUNKS = [
    Chunk("a:p1:0", "a", 1, 0, 60, "Diffusion-limited aggregation grows fractal clusters of 1.71"),
    Chunk("a:p1:1", "a", 1, 60, 120, "Random walkers stick to the cluster; Müller's naïve walk"),
    Chunk("b:p2:0", "b", 2, 0, 40, "MapReduce sorts one terabyte in 891 seconds"),
]


def test_counts_round_trip(tmp_path: Path) -> None:
    counts = TermCounts.of(CHUNKS)
    assert counts.n == 3 and counts.df
    counts.write(tmp_path)
    assert (tmp_path / TERMS_FILE).is_file()
    assert TermCounts.read(tmp_path) == counts


def test_no_chunks_round_trip(tmp_path: Path) -> None:
    TermCounts().write(tmp_path)
    assert TermCounts.read(tmp_path) == TermCounts()


def test_an_older_librarys_json_counts_are_read(tmp_path: Path) -> None:
    counts = TermCounts.of(CHUNKS)
    data = {"n": counts.n, "df": dict(counts.df)}
    (tmp_path / "terms.json").write_text(json.dumps(data), "utf-8")
    assert TermCounts.read(tmp_path) == counts


def test_damaged_or_missing_counts_mean_count_again(tmp_path: Path) -> None:
    assert TermCounts.read(tmp_path) is None
    TermCounts.of(CHUNKS).write(tmp_path)
    whole = (tmp_path / TERMS_FILE).read_bytes()
    for damaged in (whole[:30], whole[:-3] + b"\xff\xfe", b"garbage", whole[:-1]):
        (tmp_path / TERMS_FILE).write_bytes(damaged)
        read = TermCounts.read(tmp_path)
        assert read is None or read == TermCounts.of(CHUNKS)  # never a wrong table


def test_changes_keep_counts_exact() -> None:
    counts = TermCounts.of(CHUNKS[:2]).changed(CHUNKS[:1], CHUNKS[2:])
    assert counts == TermCounts.of(CHUNKS[1:])


def test_every_bit_flipped_is_caught_or_harmless(tmp_path: Path) -> None:
    """The CRC covers the sizes in the header too: a flipped bit anywhere never reads back as
    another table (the chunk count included)."""
    counts = TermCounts.of(CHUNKS)
    counts.write(tmp_path)
    whole = (tmp_path / TERMS_FILE).read_bytes()
    for i in range(len(whole)):
        for bit in range(8):
            damaged = bytearray(whole)
            damaged[i] ^= 1 << bit
            (tmp_path / TERMS_FILE).write_bytes(bytes(damaged))
            assert TermCounts.read(tmp_path) in (None, counts), (i, bit)
