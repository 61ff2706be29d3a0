"""Does hybrid retrieval help? BM25 alone against BM25 + the offline WordLlama embedding fused by
reciprocal rank, on the development and held-out questions over the corpus library.

Prints, per question set and method: paper hit@k (a paper holding the answer among the top k
chunks' papers) and passage hit@k (a top-k chunk holding the answer's hint phrase), and the cost
of embedding every chunk. Hybrid ships only if it helps on the held-out questions (issue 12).

    .venv/bin/python bench/hybrid.py [--library DIR] [--k 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from research_assistant.embed import default_embedder  # noqa: E402
from research_assistant.evaluate import load_questions, states  # noqa: E402
from research_assistant.library import Library  # noqa: E402
from research_assistant.models import Chunk  # noqa: E402

SETS = {
    "development": ROOT / "tests" / "data" / "questions.jsonl",
    "development (more kinds)": ROOT / "tests" / "data" / "questions_more.jsonl",
    "held-out": ROOT / "tests" / "data" / "heldout" / "questions.jsonl",
}
RRF_K = 60  # the constant of reciprocal rank fusion (Cormack et al., 2009)
DEPTH = 50  # ranks taken from each list before fusing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", help="an ingested corpus library (default: ingest one)")
    parser.add_argument("--k", type=int, default=8)
    args = parser.parse_args()
    if args.library:
        lib = Library.open(args.library)
    else:
        corpus = ROOT.parent / "shared" / "corpus"
        lib = Library.open(Path(tempfile.mkdtemp(prefix="bench-hybrid-")) / "lib")
        lib.ingest([*sorted(corpus.glob("*.pdf")), corpus / "library.bib"])
    index = lib.state.index
    chunks = index.all_chunks()
    embedder = default_embedder()
    started = time.perf_counter()
    matrix = np.stack(embedder.vectors([c.text for c in chunks]))
    print(f"{len(chunks)} chunks embedded in {time.perf_counter() - started:.2f} s")

    def hybrid(question: str) -> list[Chunk]:
        lexical = [p.chunk for p in index.retrieve(question, DEPTH)]
        (qv,) = embedder.vectors([question])
        semantic = [chunks[i] for i in np.argsort(-(matrix @ qv))[:DEPTH]]
        fused: dict[str, float] = {}
        by_id = {c.chunk_id: c for c in [*lexical, *semantic]}
        for ranking in (lexical, semantic):
            for rank, c in enumerate(ranking):
                fused[c.chunk_id] = fused.get(c.chunk_id, 0.0) + 1 / (RRF_K + rank + 1)
        best = sorted(fused, key=lambda cid: -fused[cid])[: args.k]
        return [by_id[cid] for cid in best]

    methods = {
        "bm25": lambda q: [p.chunk for p in index.retrieve(q, args.k)],
        "bm25+wordllama rrf": hybrid,
    }
    for name, path in SETS.items():
        questions = [q for q in load_questions(path) if q.answerable and q.answer_hint]
        for method, retrieve in methods.items():
            paper = passage = 0
            for q in questions:
                top = retrieve(q.question)
                paper += bool({c.paper_key for c in top} & set(q.answer_paper_keys))
                passage += any(
                    c.paper_key in q.answer_paper_keys and states(c.text, q.answer_hint)
                    for c in top
                )
            n = len(questions)
            print(
                f"{name:26} {method:20} paper hit@{args.k} {paper}/{n} = {paper / n:.3f}   "
                f"passage hit@{args.k} {passage}/{n} = {passage / n:.3f}"
            )


if __name__ == "__main__":
    main()
