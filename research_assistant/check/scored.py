"""What the support scorer knows and what it finds (pure values): ``Context`` (library-wide
term rarity and an optional sentence similarity) and ``Support`` (the best span for a claim,
its score and whatever in it contradicts the claim). ``support`` computes them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from research_assistant.models import Chunk
from research_assistant.quantities import Quantity

__all__ = ["Context", "Related", "Support"]

Related = Callable[[Iterable[str], Iterable[str], float], Mapping[str, frozenset[str]]]


@dataclass(frozen=True)
class Context:
    """What the scorer knows beyond the passages: library-wide term rarity, an optional
    sentence similarity and word relatedness (dependencies passed in; the pure core loads no
    model)."""

    idf: Mapping[str, float] = field(default_factory=dict)
    default_idf: float = 1.0
    similarity: Callable[[str, str], float] | None = None
    # for each wanted term, the terms of a text whose word vectors lie within a similarity
    # threshold (``embed.Embedder.related``): "big" and "large"
    related: Related | None = None

    def weight(self, term: str) -> float:
        return self.idf.get(term, self.default_idf)


@dataclass(frozen=True)
class Support:
    score: float
    chunk: Chunk | None
    span: str  # the best-supporting sentence(s), verbatim from chunk.text
    missing: tuple[Quantity, ...] = ()  # numbers of the claim the span does not state
    counterparts: tuple[Quantity | None, ...] = ()  # the span's number in each one's role
    conflict: str = ""  # why the span contradicts the claim; "" when nothing does
    absent: tuple[str, ...] = ()  # names in the claim that no cited passage mentions
    unstated: tuple[str, ...] = ()  # the claim's direction words the span does not state
    # the window's numbers, kept to name the counterparts of the shown support only
    evidence_numbers: tuple[Quantity, ...] = field(default=(), repr=False, compare=False)
    anchored: int = 0  # how many numbers of the claim the span states, when it states them all
    # and they are specific (two or more, or one with a unit or three significant digits)
    denies: bool = False  # the span negates what the claim negates (it states the denial)
    swap: tuple[str, ...] = ()  # (the claim's word, the span's) where one stands for the other
    cover: float = 0.0
    semantic: float = 0.0
    fuzz: float = 0.0
