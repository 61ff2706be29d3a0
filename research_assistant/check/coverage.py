"""Citation coverage: the share of an answer's sentences that carry a citation (pure).

A weak model often cites its first sentence and none after it; every uncited sentence is a claim
nobody checked. The pipeline logs this share with each run and the app shows it with the answer.
"""

from __future__ import annotations

import bisect

from research_assistant.check.mentions import find_mentions
from research_assistant.text import sentence_spans

__all__ = ["citation_coverage"]


def citation_coverage(text: str) -> float | None:
    """Cited sentences / all sentences of ``text``; None for a text without sentences."""
    spans = list(sentence_spans(text))
    if not spans:
        return None
    starts = sorted({m.start for m in find_mentions(text)})
    cited = sum(
        1 for s, e in spans if bisect.bisect_left(starts, s) < bisect.bisect_left(starts, e)
    )
    return cited / len(spans)
