"""Benchmark of verify.py: 1,000 citations against a 1,000-paper library, and the labelled set.

Run: .venv/bin/python bench/verify.py  (with --speed: the timings only, no labelled set read)
Prints citations per second and p50/p95 milliseconds per citation (cold cache: the first time
a paper's chunks are seen; warm: the steady state of a running app; ask: 6 retrieved chunks),
first with no scoring context (term rarity over the cited paper's chunks, no similarity), then
as the app checks (library-wide term rarity and the offline sentence similarity: new claim
texts are embedded, claims seen before come from the embedder's cache),
then the per-group accuracy and score ranges of tests/data/verification.jsonl, which chose
SUPPORT_THRESHOLD. The library reuses the corpus page texts under generated keys, authors and
years (synthetic text if ../shared/corpus is absent).
"""

from __future__ import annotations

import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "data")]

import labelled_set  # noqa: E402

from research_assistant import Library  # noqa: E402
from research_assistant.check import support, verify  # noqa: E402
from research_assistant.embed import default_embedder  # noqa: E402
from research_assistant.models import Chunk, Name, Paper  # noqa: E402
from research_assistant.results import Mention  # noqa: E402
from research_assistant.text import content_words, numbers, sentence_spans  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
PAPERS, CITATIONS, SEED = 1000, 1000, 7
SOURCES = 18  # corpus papers whose texts the synthetic library reuses
SYLLABLES = (
    "ka lo mi ne ru sa to vi be da fe go hu ji ku la mo ni po qu re si tu ve wa xo yo ze".split()
)


_LIBRARY: list[Library] = []


def corpus_library() -> Library:
    """The corpus ingested once into a temporary folder, as a user would."""
    if not _LIBRARY:
        folder = Path(tempfile.mkdtemp(prefix="bench-verify-")) / "library"
        _LIBRARY.append(labelled_set.build_library(CORPUS, folder))
    return _LIBRARY[0]


def source_texts(rng: random.Random) -> list[list[tuple[int, str]]]:
    """Per source paper, its (page, chunk text) list."""
    if (CORPUS / "library.bib").is_file():
        by_paper: dict[str, list[tuple[int, str]]] = {}
        for c in corpus_library().index.all_chunks():
            by_paper.setdefault(c.paper_key, []).append((c.page, c.text))
        return list(by_paper.values())
    words = [a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES[:6]]
    out = []
    for _ in range(SOURCES):
        pages = []
        for page in range(1, 13):
            sents = [
                " ".join(rng.choices(words, k=14)).capitalize() + f" {rng.randint(2, 999)}."
                for _ in range(8)
            ]
            pages.append((page, " ".join(sents)))
        out.append(pages)
    return out


def build_library(rng: random.Random) -> tuple[list[Paper], dict[str, list[Chunk]]]:
    sources = source_texts(rng)
    papers, chunks = [], {}
    for i in range(PAPERS):
        family = "".join(rng.choices(SYLLABLES, k=3)).capitalize()
        key = f"p{i:04d}"
        year = 1980 + i % 45
        papers.append(Paper(key, f"Paper {i}", (Name(family, "A."),), year, f"{family}, {year}"))
        src = sources[i % len(sources)]
        chunks[key] = [
            Chunk(f"{key}:{page}:{j}", key, page, 0, len(text), text)
            for j, (page, text) in enumerate(src)
        ]
    return papers, chunks


def sentences_of(chunk: Chunk, with_number: bool = False) -> list[str]:
    out = []
    for s, e in sentence_spans(chunk.text):
        sent = " ".join(chunk.text[s:e].split())
        if len(content_words(sent)) >= 6 and (numbers(sent) or not with_number):
            out.append(sent)
    return out


_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def make_citations(rng, papers, chunks):
    """(kind, mention, claim, the cited paper's chunk the claim came from) x CITATIONS."""
    cases = []
    while len(cases) < CITATIONS:
        paper = rng.choice(papers)
        own = rng.choice(chunks[paper.key])
        kind = rng.choices(["supported", "other_paper", "changed_number", "unknown"], [6, 2, 1, 1])[
            0
        ]
        pool = sentences_of(own, with_number=kind == "changed_number")
        if kind == "other_paper":  # a paper built from a different source text
            other = papers[(papers.index(paper) + rng.randint(1, SOURCES - 1)) % len(papers)]
            pool = sentences_of(rng.choice(chunks[other.key]))
        if not pool:
            continue
        claim = rng.choice(pool)
        if kind == "changed_number":
            present = set(numbers(own.text))
            m = next((m for m in _NUMBER.finditer(claim)), None)
            if m is None:
                continue
            new = str(int(float(m.group())) + 1)
            while new in present:
                new = str(int(new) + 1)
            claim = claim[: m.start()] + new + claim[m.end() :]
        first = paper.authors[0].family if kind != "unknown" else "Nobodyknows"
        year = str(paper.year)
        marker = f"[{first}, {year}]"
        cases.append((kind, Mention(marker, 0, len(marker), first, year=year), claim, own))
    return cases


def run(cases, resolver, chunks, retrieved_of=None, ctx=None):
    times, statuses = [], Counter()
    for kind, mention, claim, own in cases:
        retrieved = retrieved_of(own) if retrieved_of else None
        t0 = time.perf_counter_ns()
        c = verify.check_claim(
            mention, claim, resolver, chunks.__getitem__, retrieved=retrieved, ctx=ctx
        )
        times.append((time.perf_counter_ns() - t0) / 1e6)
        statuses[(kind, c.status)] += 1
    return times, statuses


def report(name: str, times: list[float]) -> None:
    q = statistics.quantiles(times, n=100)
    per_s = len(times) / (sum(times) / 1000)
    print(f"{name:34} {per_s:9.0f} citations/s   p50 {q[49]:.3f} ms   p95 {q[94]:.3f} ms")


def main() -> None:
    rng = random.Random(SEED)
    papers, chunks = build_library(rng)
    resolver = verify.Resolver(papers)
    cases = make_citations(rng, papers, chunks)
    n_chunks = sum(len(c) for c in chunks.values())
    print(f"library: {len(papers)} papers, {n_chunks} chunks; {len(cases)} citations")
    support.clear_cache()
    times, statuses = run(cases, resolver, chunks)
    report("verify, cold cache (all chunks)", times)
    times, statuses = run(cases, resolver, chunks)
    report("verify, warm cache (all chunks)", times)

    def retrieved_of(own: Chunk) -> set[str]:
        pool = [c.chunk_id for c in chunks[own.paper_key]][:5]
        return {own.chunk_id, *pool}

    run(cases, resolver, chunks, retrieved_of)  # sentences of the retrieved chunks, once
    times, _ = run(cases, resolver, chunks, retrieved_of)
    report("ask, 6 retrieved chunks, warm", times)
    support.clear_cache()
    times, _ = run(cases, resolver, chunks, retrieved_of)
    report("ask, 6 retrieved chunks, cold", times)
    sample = [c for cs in list(chunks.values())[:100] for c in cs]
    t0 = time.perf_counter()
    support.prepare(sample)
    per_chunk = (time.perf_counter() - t0) / len(sample) * 1e6
    print(
        f"prepare(): {per_chunk:.0f} µs per chunk (warming {n_chunks} chunks: {per_chunk * n_chunks / 1e6:.1f} s)"
    )
    # as the app checks: library-wide rarity and the offline similarity (a fresh embedder, so
    # the first pass embeds every claim and window it meets)
    every = [c for cs in chunks.values() for c in cs]
    ctx = support.library_context(every, default_embedder().similarity)
    default_embedder().similarity("warm", "up")  # the model's load is not a citation's cost
    support.clear_cache()
    times, _ = run(cases, resolver, chunks, ctx=ctx)
    report("app context, cold (new texts)", times)
    times, _ = run(cases, resolver, chunks, ctx=ctx)
    report("app context, warm", times)
    print("outcomes (generated kind -> status):")
    for (kind, status), n in sorted(statuses.items()):
        print(f"  {kind:15} {status:15} {n}")

    if "--speed" in sys.argv[1:]:  # no labelled set read: a speed check is no look at them
        return
    if not (CORPUS / "library.bib").is_file():
        print("labelled set skipped: corpus absent")
        return
    lib = corpus_library()
    for name, path in (
        ("development, in-sample", labelled_set.DEVELOPMENT),
        ("development groups, in-sample", labelled_set.DATA / "verification_groups.jsonl"),
        ("development, third set, in-sample", labelled_set.DATA / "verification_dev3.jsonl"),
        (
            "retired held-out v1, development since the twelfth session, in-sample",
            labelled_set.HELDOUT,
        ),
        (
            "retired held-out v2, development since the twelfth session, in-sample",
            labelled_set.HELDOUT_V2,
        ),
        (
            "retired held-out v3, development since the twelfth session, in-sample",
            labelled_set.HELDOUT_V3,
        ),
        (
            "retired held-out v4, development since the twelfth session, in-sample",
            labelled_set.HELDOUT_V4,
        ),
        (
            "retired held-out v5, development since the twelfth session, in-sample",
            labelled_set.HELDOUT_V5,
        ),
        ("held-out v6", labelled_set.HELDOUT_V6),
        ("held-out v7", labelled_set.HELDOUT_V7),
        ("held-out v8", labelled_set.HELDOUT_V8),
        ("held-out v9", labelled_set.HELDOUT_V9),
        ("held-out v10", labelled_set.HELDOUT_V10),
        ("held-out v11", labelled_set.HELDOUT_V11),
        ("held-out v12", labelled_set.HELDOUT_V12),
        ("held-out v13", labelled_set.HELDOUT_V13),
        ("held-out v14", labelled_set.HELDOUT_V14),
        ("held-out v15", labelled_set.HELDOUT_V15),
    ):
        outcomes = labelled_set.run_set(lib, labelled_set.load_set(path))
        table = labelled_set.accuracy(outcomes)
        good, n = sum(g for g, _ in table.values()), sum(n for _, n in table.values())
        print(f"claims, {name} ({path.relative_to(ROOT)}): {good}/{n} = {good / n:.1%}")
        for group, (g, k) in table.items():
            print(f"  {group:32} {g:3}/{k:<3} {g / k:6.1%}")
        print(f"  should not verify, verified: {len(labelled_set.leaked(outcomes))}")


if __name__ == "__main__":
    main()
