"""support.py and passages.py: what the scorer reads beyond words shared with the claim."""

from __future__ import annotations

import random

from research_assistant.check.nearest import (
    chunk_overlap,
    nearest_chunks,
    nearest_in_papers,
    value_forms,
)
from research_assistant.check.passages import DIGITS, paper_of
from research_assistant.check.scored import Context
from research_assistant.check.support import best_support
from research_assistant.check.verify import SUPPORT_THRESHOLD
from research_assistant.models import Chunk
from research_assistant.quantities import quantities
from research_assistant.terms import term_list


def chunk(text: str, i: int = 0, key: str = "k") -> Chunk:
    return Chunk(f"{key}:1:{i}", key, 1, 0, len(text), text)


def test_an_acronym_spelt_out_in_the_paper_is_no_unknown_name() -> None:
    paper = [chunk("We reduce the space with Singular Value Decom-\nposition to 300 dimensions.")]
    sup = best_support("The space is reduced with SVD to 300 dimensions.", paper)
    assert sup.conflict != "name"
    assert (
        best_support("The space is reduced with PCA to 300 dimensions.", paper).conflict == "name"
    )


def test_a_narrative_citations_names_do_not_pick_the_passage() -> None:
    """ "Gal et al. report ..." must find the sentence that says it, not one citing Gal."""
    paper = [
        chunk("Trace trees were first proposed by Gal et al. for Java.", 0),
        chunk("Type specialization using trace trees substantially improves performance.", 1),
    ]
    sup = best_support(
        "Gal et al. report that type specialization with trace trees improves performance.",
        paper,
        ignore_names=("Gal",),
    )
    assert sup.chunk is paper[1] and sup.score >= SUPPORT_THRESHOLD


def test_a_window_stating_the_finding_is_preferred() -> None:
    paper = [
        chunk(
            "Backup tasks were added to the sort benchmark at scale. It ran on 1800 machines.", 0
        ),
        chunk("Without backup tasks the sort benchmark took 44% longer.", 1),
    ]
    sup = best_support("Without backup tasks the sort benchmark ran slower.", paper)
    assert sup.chunk is paper[1] and not sup.unstated and not sup.conflict


def test_the_paper_index_follows_changed_chunks() -> None:
    first = [chunk("Bananas are yellow."), chunk("Apples are red.", 1)]
    assert paper_of(first).postings.get("banana") == [0]
    second = [chunk("Cherries are red."), chunk("Apples are red.", 1)]
    assert "banana" not in paper_of(second).postings
    assert paper_of(second).postings.get("red") == [0, 1]
    assert paper_of(second).postings.get("red") == [0, 1]  # the second time from its cache
    assert paper_of(second).postings.get("pear", (9,)) == (9,)


def test_nearest_chunks_over_several_whole_papers() -> None:
    """nearest_in_papers (each paper's chunks whole, some skipped) chooses what nearest_chunks
    chooses over the papers' remaining chunks in a row; ties go to the earlier chunk; and a
    paper's index is the one the checker keeps for that paper, not one per list asked about."""
    texts = [
        "The sort of one terabyte took 891 seconds on 1800 machines.",
        "Stragglers slow the sort; backup tasks cut the time by 44 percent.",
        "Workers that fail are pinged by the master and their tasks run again.",
        "The sort of one terabyte took 891 seconds on 1800 machines.",  # a tie with chunk 0
        "Input is split into 64 MB pieces stored on the workers' disks.",
    ]
    a = [chunk(t, i, "a") for i, t in enumerate(texts[:3])]
    b = [chunk(t, i, "b") for i, t in enumerate(texts[3:])]
    question = "How long did the sort of one terabyte take on the machines?"
    for skip in (frozenset(), frozenset({"a:1:0"}), frozenset({"a:1:0", "b:1:0"})):
        rest = [c for c in a + b if c.chunk_id not in skip]
        for k in (1, 2, 3):
            want = nearest_chunks(question, rest, None, k)
            assert nearest_in_papers(question, [a, b], None, k, skip) == want
    assert nearest_in_papers(question, [a, b], None, 1) == [a[0]]  # the tie: the earlier paper
    assert paper_of(a) is paper_of(a)


def test_chunks_that_cannot_reach_the_top_are_not_searched_for_numbers() -> None:
    """chunk_overlap(top=k) skips the number search for chunks that cannot reach the k
    highest: the k highest are those the full search gives, for claims with and without
    numbers (a fixed seed: the same texts on every run)."""
    rng = random.Random(11)
    words = "map reduce task worker master sort grep disk record machine failure backup".split()
    numbers = ["891", "1,800", "44%", "2.5", "10^10", "one terabyte", "150 seconds"]

    def text(n: int) -> str:
        return " ".join(rng.choice(words + numbers) for _ in range(n)) + "."

    chunks = [chunk(text(rng.randint(5, 40)), i) for i in range(60)]
    paper = paper_of(chunks)
    ctx = Context(idf={w: 1.0 + i / 4 for i, w in enumerate(term_list(" ".join(words)))})
    for _ in range(40):
        claim = text(rng.randint(3, 12))
        want, digits = frozenset(term_list(claim)), frozenset(DIGITS.findall(claim))
        forms = value_forms(quantities(claim))
        full = sorted(chunk_overlap(want, digits, paper, ctx, forms), reverse=True)[:4]
        pruned = sorted(chunk_overlap(want, digits, paper, ctx, forms, top=4), reverse=True)[:4]
        assert pruned == full, claim
