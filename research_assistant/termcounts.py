"""The checker's term counts of an index generation: in how many chunks each term occurs.

Stored with each generation of the index (``terms.json``) and kept up to date by each change
(the changed papers' chunks are counted out and in: the cost of those papers), they give the
library-wide term rarity that the checker and the answerer weigh terms by, at open, without
reading a chunk. The terms are the checker's own (``check.support.chunk_terms``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from research_assistant.check.support import Context, chunk_terms, idf_from_counts
from research_assistant.files import write_atomic
from research_assistant.models import Chunk

TERMS_FILE = "terms.json"  # {"n": chunks, "df": {term: chunks holding it}}


def _add(
    df: dict[str, int], chunks: Iterable[Chunk], step: int, known: Mapping[str, frozenset[str]]
) -> int:
    """Add ``step`` to the count of every term of each chunk (its ``known`` terms, by chunk id,
    when given: an ingest's readers made them); the number of chunks."""
    n = 0
    for c in chunks:
        n += 1
        ts = known.get(c.chunk_id)
        for t in chunk_terms(c) if ts is None else ts:
            k = df.get(t, 0) + step
            if k > 0:
                df[t] = k
            else:
                df.pop(t, None)
    return n


@dataclass(frozen=True)
class TermCounts:
    df: Mapping[str, int] = field(default_factory=dict)
    n: int = 0  # chunks counted

    @classmethod
    def of(cls, chunks: Iterable[Chunk]) -> TermCounts:
        df: dict[str, int] = {}
        return cls(df, _add(df, chunks, 1, {}))

    def changed(
        self,
        gone: Iterable[Chunk],
        added: Iterable[Chunk],
        known: Mapping[str, frozenset[str]] | None = None,
    ) -> TermCounts:
        """The counts with the ``gone`` chunks taken out and the ``added`` ones in (``known``:
        terms of added chunks by chunk id, made with ``chunk_terms`` elsewhere)."""
        df = dict(self.df)
        return TermCounts(df, self.n - _add(df, gone, -1, {}) + _add(df, added, 1, known or {}))

    def write(self, folder: Path) -> None:
        data = json.dumps({"n": self.n, "df": self.df}, separators=(",", ":"))
        write_atomic(folder / TERMS_FILE, data.encode("utf-8"))

    @classmethod
    def read(cls, folder: Path) -> TermCounts | None:
        """The counts stored in ``folder``; None when missing or unreadable (count again)."""
        try:
            data = json.loads((folder / TERMS_FILE).read_text("utf-8"))
            df, n = data["df"], data["n"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        ok = isinstance(df, dict) and isinstance(n, int)
        return cls(df, n) if ok and all(isinstance(v, int) for v in df.values()) else None

    def context(self, similarity: Callable[[str, str], float] | None = None) -> Context:
        """The checker's scoring context: term rarity from these counts."""
        idf, default = idf_from_counts(self.df, self.n)
        return Context(idf=idf, default_idf=default, similarity=similarity)
