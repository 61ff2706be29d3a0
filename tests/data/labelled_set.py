"""The labelled verification set (verification.jsonl) and the corpus library it is checked
against; shared by tests/test_verify.py and bench/verify.py so both score the same thing.

Rows may carry "also_pages" (the same sentence printed on several pages) and "via" (the
expected second-hand citing paper). Chunks are made simply (page text from pymupdf, ~1,000 characters cut at sentence ends) so the
set does not depend on index.py; papers come from verification_library.json, a table of the 18
corpus papers of library.bib plus two synthetic papers that make "Thoma, 2018" and
"Dean, 2004" ambiguous.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from research_assistant.check.verify import Resolver, check_citations
from research_assistant.models import Chunk, Name, Paper, Passage
from research_assistant.results import Citation, Mention
from research_assistant.text import content_words, sentence_spans

DATA = Path(__file__).resolve().parent
CHUNK_CHARS = 1000


def load_papers() -> list[Paper]:
    rows = json.loads((DATA / "verification_library.json").read_text(encoding="utf-8"))
    return [
        Paper(
            key=r["key"],
            title=r["title"],
            authors=tuple(Name(family=f, given=g, von=v) for f, g, v in r["authors"]),
            year=r["year"],
            label=r["label"],
            entry_type=r["entry_type"],
            venue=r["venue"],
            doi=r["doi"],
            pdf=r["pdf"],
        )
        for r in rows
    ]


def chunk_page(key: str, page: int, text: str) -> list[Chunk]:
    out: list[Chunk] = []
    start: int | None = None
    for s, e in sentence_spans(text):
        start = s if start is None else start
        if e - start >= CHUNK_CHARS:
            out.append(Chunk(f"{key}:{page}:{len(out)}", key, page, start, e, text[start:e]))
            start = None
    if start is not None:
        out.append(Chunk(f"{key}:{page}:{len(out)}", key, page, start, len(text), text[start:]))
    return out


def load_chunks(corpus: Path, papers: Sequence[Paper]) -> dict[str, list[Chunk]]:
    import pymupdf  # tests only; the package reads PDFs through pdf.py

    chunks: dict[str, list[Chunk]] = {p.key: [] for p in papers}
    for p in papers:
        if not p.pdf:
            continue
        with pymupdf.open(corpus / p.pdf) as doc:
            for number, page in enumerate(doc, start=1):
                chunks[p.key] += chunk_page(p.key, number, page.get_text())
    return chunks


_MARKER = re.compile(r"[\[(]([^\[\]()]+)[\])]")
_YEAR = re.compile(r",?\s*(\d{4}[a-z]?|n\.d\.|in press|forthcoming)\s*$")


def mentions_of(text: str) -> list[Mention]:
    """A small stand-in for citations.find_mentions, enough for the labelled sentences."""
    out = []
    for m in _MARKER.finditer(text):
        parts = [p.strip() for p in m.group(1).split(";")]
        if not any(_YEAR.search(p) or "et al" in p for p in parts):
            continue  # "(ukWaC + Wikipedia + BNC)"
        for part in parts:
            y = _YEAR.search(part)
            year = y.group(1) if y else None
            names = part[: y.start()] if y else part
            et_al = "et al" in names
            names = re.sub(r"\s*\bet al\b\.?", "", names).strip(" ,")
            first, second = ([*re.split(r"\s+(?:and|&)\s+", names, maxsplit=1), ""])[:2]
            usable = year if year and year[0].isdigit() else None
            out.append(
                Mention(
                    marker=m.group(0),
                    start=m.start(),
                    end=m.end(),
                    first_author=first.strip(),
                    second_author=second.strip(),
                    et_al=et_al,
                    year=usable,
                    malformed="" if usable else (year or "no year"),
                )
            )
    return out


def load_set() -> list[dict]:
    lines = (DATA / "verification.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@dataclass(frozen=True)
class Outcome:
    row: dict
    citation: Citation

    @property
    def correct(self) -> bool:
        c = self.citation
        ok = c.status == self.row["expected"]
        if ok and self.row["group"] == "supported":
            pages = {self.row["page"], *self.row.get("also_pages", ())}
            ok = c.evidence is not None and c.evidence.page in pages
        if ok and "via" in self.row:
            ok = c.via == self.row["via"]
        return ok


def keyword_search(chunks: Sequence[Chunk]):
    """A stand-in retriever: chunks ranked by shared content words."""
    sets = [(c, frozenset(content_words(c.text))) for c in chunks]

    def search(query: str, k: int) -> list[Passage]:
        q = frozenset(content_words(query))
        ranked = sorted(((len(q & s), i) for i, (_, s) in enumerate(sets)), reverse=True)[:k]
        return [Passage(sets[i][0], float(n)) for n, i in ranked if n]

    return search


def run_set(papers: Sequence[Paper], chunks: dict[str, list[Chunk]]) -> list[Outcome]:
    resolver = Resolver(papers)
    search = keyword_search([c for cs in chunks.values() for c in cs])
    outcomes = []
    for row in load_set():
        mentions = mentions_of(row["text"])
        assert len(mentions) == 1, row["id"]
        (citation,) = check_citations(
            row["text"], mentions, resolver, lambda k: chunks.get(k, []), search=search
        )
        outcomes.append(Outcome(row, citation))
    return outcomes


def accuracy(outcomes: Sequence[Outcome]) -> dict[str, tuple[int, int]]:
    """group -> (correct, total)."""
    total = Counter(o.row["group"] for o in outcomes)
    good = Counter(o.row["group"] for o in outcomes if o.correct)
    return {g: (good[g], n) for g, n in total.items()}
