"""A reviewer's manuscript checked against the library: read it (any of its formats), resolve
its citations through its own reference list, check each against the cited paper, give the
model judge's second opinion when one is asked for, and log the run (``check_manuscript``)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path

from research_assistant.answer.base import Judge
from research_assistant.library import Library
from research_assistant.manuscript.model import CheckedManuscript
from research_assistant.pipeline import second_opinion
from research_assistant.report import references

__all__ = ["check_manuscript"]


def check_manuscript(
    lib: Library,
    path: Path,
    bib: Path | None = None,
    user: str | None = None,
    *,
    name: str = "",
    judge: Judge | None = None,
    judge_every: bool = False,
) -> CheckedManuscript:
    """Check every citation of the manuscript at ``path`` (PDF, .docx, .tex, .md, .txt) through
    its own reference list, or ``bib`` for keys, against the whole library; logged as a
    manuscript run with the file's name and sha256. ``name`` is the file name shown (an upload's
    own name rather than its temporary path). With a ``judge``, its second opinion as
    ``check_text`` has it (``judge_every``: on every verified citation too)."""
    from research_assistant.manuscript import check, read  # start-up time: pymupdf, python-docx

    ms = read.read_manuscript(Path(path), Path(bib) if bib else None, name=name)
    state = lib.state
    found, matches = check.check_citations(
        ms, state.resolver, state.index.chunks_of, search=state.index.retrieve,
        ctx=state.support_context,
    )  # fmt: skip
    judged = second_opinion(state, [c.citation for c in found], judge, judge_every)
    found = tuple(replace(m, citation=c) for m, c in zip(found, judged, strict=True))
    result = CheckedManuscript(
        id=uuid.uuid4().hex[:12], name=ms.name, sha256=ms.sha256, kind=ms.kind, text=ms.text,
        citations=found, references=ms.references, matches=matches, notes=ms.notes,
        labels={k: p.label for m in matches if (k := m.key) and (p := state.papers.get(k))},
    )  # fmt: skip
    citations = tuple(c.citation for c in found)
    lib.store.log_run(
        run_id=result.id,
        source="manuscript",
        user=user,
        citations=citations,
        result={  # "references" as every run has them (export reads them), and the list's own
            **(as_json := result.to_dict()),
            "text": ms.text,
            "reference_list": as_json["references"],
            "references": [
                r.to_dict() for r in references.build_references(citations, state.papers)
            ],
        },
        question=f"{ms.name} (sha256 {ms.sha256})",
        answer=ms.text[:10_000],
        mode="manuscript",
    )
    return result
