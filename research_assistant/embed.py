"""Sentence similarity offline: the only importer of wordllama.

WordLlama ships a 256-dimensional static embedding model inside its wheel (token vectors
distilled from a large language model, averaged), so it runs on the CPU with no download and
no network: about 0.1 ms a sentence. The checker uses it as one signal of paraphrase; it never
overrides a number, negation, direction or name check. The offline answerer also relates a
question's words to a passage's ("big" and "large") with the same vectors.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy comes with wordllama, loaded on first use: 0.3 s an ingest never needs
    import numpy as np

__all__ = ["Embedder", "default_embedder"]

_CACHE_LIMIT = 200_000
_MIN_RELATED = 3  # shorter words ("an", "pi") are too ambiguous to relate


class Embedder:
    """Cosine similarity of short texts, with a cache of unit vectors by text."""

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()
        self._vectors: dict[str, np.ndarray] = {}

    def _load(self) -> Any:
        if self._model is None:
            import wordllama  # here, not at the top: 0.5 s an ingest or a CLI run never needs

            self._model = wordllama.WordLlama.load(
                cache_dir=Path(wordllama.__file__).parent, disable_download=True
            )
        return self._model

    def vectors(self, texts: list[str]) -> list[np.ndarray]:
        with self._lock:
            todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
            if todo:
                if len(self._vectors) + len(todo) > _CACHE_LIMIT:
                    self._vectors.clear()
                embedded = self._load().embed(todo, norm=True)
                for text, vec in zip(todo, embedded, strict=True):
                    self._vectors[text] = vec.astype("float32", copy=False)
            return [self._vectors[t] for t in texts]

    def similarity(self, a: str, b: str) -> float:
        va, vb = self.vectors([a, b])
        return float(va.dot(vb))

    def related(
        self, wanted: Iterable[str], have: Iterable[str], threshold: float
    ) -> dict[str, frozenset[str]]:
        """For each wanted word that ``have`` lacks, the words of ``have`` whose vectors have
        at least ``threshold`` cosine similarity with its own ("big" and "large")."""
        import numpy as np

        known = {h for h in have if len(h) >= _MIN_RELATED and not h[0].isdigit()}
        pool = sorted(known)
        asked = [w for w in dict.fromkeys(wanted) if len(w) >= _MIN_RELATED]
        asked = [w for w in asked if not w[0].isdigit() and w not in known]
        if not pool or not asked:
            return {}
        near = np.stack(self.vectors(pool)) @ np.stack(self.vectors(asked)).T
        out = {}
        for j, w in enumerate(asked):
            found = frozenset(pool[i] for i in np.flatnonzero(near[:, j] >= threshold))
            if found:
                out[w] = found
        return out


@functools.cache
def default_embedder() -> Embedder:
    return Embedder()
