"""Sentence similarity offline: the only importer of wordllama.

WordLlama ships a 256-dimensional static embedding model inside its wheel (token vectors
distilled from a large language model, averaged), so it runs on the CPU with no download and
no network: about 0.1 ms a sentence. The checker uses it as one signal of paraphrase; it never
overrides a number, negation, direction or name check.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy comes with wordllama, loaded on first use: 0.3 s an ingest never needs
    import numpy as np

__all__ = ["Embedder", "default_embedder"]

_CACHE_LIMIT = 200_000


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


@functools.cache
def default_embedder() -> Embedder:
    return Embedder()
