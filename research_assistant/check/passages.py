"""The cited passages as the support scorer reads them, each chunk once (pure): its sentences,
their terms, numbers (as values, ``quantities``) and words for the contradiction checks
(``polarity.Reading``), cached per chunk; and the number helpers that pick and anchor windows.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable, Mapping, Sequence

from research_assistant.agreement import agree, agrees_any, counterpart
from research_assistant.check.names import long_form, names_in, spelt_out
from research_assistant.check.polarity import Reading
from research_assistant.check.sentences import Rows, split
from research_assistant.check.sibling import coordinated_in
from research_assistant.models import Chunk
from research_assistant.quantities import Quantity, quantities
from research_assistant.terms import term_list, terms
from research_assistant.text import LINE_HYPHEN, fold

__all__ = [
    "CACHE",
    "DIGITS",
    "Paper",
    "Prepared",
    "Sentence",
    "anchoring",
    "chunk_terms",
    "clear_cache",
    "expand_acronyms",
    "folded_text",
    "held_terms",
    "idf_from_counts",
    "idf_table",
    "mentioned",
    "paper_of",
    "prepare",
    "prepared",
    "rare_name",
    "replaced",
    "sentences_of",
    "share",
    "siblings_of",
    "stated",
    "stated_elsewhere",
]

DIGITS = re.compile(r"\d+(?:[.,]\d+)*")  # a number as written: "1,800", "0.5"
ANY_DIGIT = re.compile(r"\d")


class Sentence:
    __slots__ = ("_quantities", "_reading", "digits", "end", "folded", "start", "terms", "text")

    def __init__(self, text: str, start: int, end: int) -> None:
        self.start, self.end = start, end
        self.text = LINE_HYPHEN.sub("", text[start:end])
        self.folded = fold(self.text)
        self.terms = terms(self.text)
        self.digits = ANY_DIGIT.search(self.text) is not None
        self._quantities: tuple[Quantity, ...] | None = None
        self._reading: Reading | None = None

    @property
    def reading(self) -> Reading:
        """The sentence read for the contradiction checks (every word's stem, "not" kept)."""
        if self._reading is None:
            self._reading = Reading(self.folded)
        return self._reading

    @property
    def stems(self) -> set[str]:
        return self.reading.stem_set

    @property
    def quantities(self) -> tuple[Quantity, ...]:
        if self._quantities is None:
            self._quantities = quantities(self.text, small_words=True)
        return self._quantities


class Prepared:
    __slots__ = ("folded", "sentences", "siblings", "tables", "terms", "text")

    def __init__(self, text: str, known: frozenset[str] | None = None) -> None:
        self.text = text
        self.terms = terms(text) if known is None else known
        self.folded: str | None = None
        self.sentences: list[Sentence] | None = None
        # a table row's sentence index -> those of its caption and column heads, its label
        self.tables: Rows = {}
        self.siblings: frozenset[tuple[str, str]] | None = None  # ``siblings_of``, this chunk's


CACHE: dict[str, Prepared] = {}
CACHE_LIMIT = 500_000


def prepared(chunk: Chunk) -> Prepared:
    p = CACHE.get(chunk.chunk_id)
    if p is None or (p.text is not chunk.text and p.text != chunk.text):
        if len(CACHE) >= CACHE_LIMIT:
            CACHE.clear()
        p = Prepared(chunk.text, chunk.terms)
        CACHE[chunk.chunk_id] = p  # one dict assignment: safe enough across threads
    return p


class Postings:
    """Which chunks of a paper hold a term, by term, each term's list made the first time it
    is asked for: a paper read for one question is asked about a dozen terms, and indexing all
    of its terms (thousands) cost more than the question's check (about 3 ms a paper)."""

    __slots__ = ("_found", "_prepped")

    def __init__(self, prepped: Sequence[Prepared]) -> None:
        self._prepped = prepped
        self._found: dict[str, list[int]] = {}

    def get(self, term: str, default: Sequence[int] = ()) -> Sequence[int]:
        """The indices of the chunks holding ``term`` in order; ``default`` when none does."""
        found = self._found.get(term)
        if found is None:
            found = [i for i, p in enumerate(self._prepped) if term in p.terms]
            self._found[term] = found  # one assignment: safe enough across threads
        return found or default

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and bool(self.get(term))


class Paper:
    """The chunks of one paper as the scorer reads them, with an inverted index of their
    terms (``Postings``): which chunks share most with a claim is a walk over the claim's
    terms' postings, not a set intersection per chunk."""

    __slots__ = ("acronyms", "chunks", "definitions", "postings", "prepped", "siblings")

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = tuple(chunks)
        self.prepped = [prepared(c) for c in chunks]
        self.acronyms: dict[str, frozenset[str]] = {}  # spelt-out terms by acronym, as read
        self.definitions: dict[str, frozenset[str]] | None = None  # the paper's own acronyms
        self.postings = Postings(self.prepped)
        self.siblings: frozenset[tuple[str, str]] | None = None  # words it sets side by side


PAPERS: dict[str, Paper] = {}  # by the first chunk's id
PAPERS_LIMIT = 20_000


def paper_of(chunks: Sequence[Chunk]) -> Paper:
    """The (cached) Paper of these chunks; rebuilt when the chunks or any text changed."""
    key = chunks[0].chunk_id if chunks else ""
    paper = PAPERS.get(key)
    if paper is not None and len(paper.chunks) == len(chunks):
        if all(map(operator.is_, paper.chunks, chunks)):  # the same chunk objects: the app's
            return paper  # and the benchmark's steady state, checked at C speed
        same = all(
            a.chunk_id == b.chunk_id and (p.text is b.text or p.text == b.text)
            for a, b, p in zip(paper.chunks, chunks, paper.prepped, strict=True)
        )
        if same:
            return paper
    if len(PAPERS) >= PAPERS_LIMIT:
        PAPERS.clear()
    paper = PAPERS[key] = Paper(chunks)
    return paper


def clear_cache() -> None:
    """Forget every prepared chunk (benchmarks measure cold checks with it)."""
    CACHE.clear()
    PAPERS.clear()


def prepare(chunks: Iterable[Chunk]) -> None:
    """Warm the per-chunk cache (e.g. when a library is loaded) so checks stay sub-millisecond."""
    for chunk in chunks:
        prepared(chunk)


def sentences_of(p: Prepared) -> list[Sentence]:
    if p.sentences is None:
        spans, p.tables = split(p.text)
        sentences = [Sentence(p.text, s, e) for s, e in spans]
        for j, row in p.tables.items():  # a row's numbers are its cells
            sentences[j]._quantities = quantities(row.reading, small_words=True)
        p.sentences = sentences
    return p.sentences


def siblings_of(paper: Paper) -> frozenset[tuple[str, str]]:
    """The word pairs the paper sets side by side anywhere ("map and reduce"), read once."""
    if paper.siblings is None:
        for p in paper.prepped:  # each chunk's once: a paper of retrieved chunks is rebuilt often
            if p.siblings is None:
                p.siblings = coordinated_in(s.folded for s in sentences_of(p))
        paper.siblings = frozenset().union(*(p.siblings or () for p in paper.prepped))
    return paper.siblings


def stated_elsewhere(q: Quantity, others: Sequence[Prepared]) -> bool:
    """Whether a number with a unit is stated, in the same role, somewhere else in the cited
    passages: "one terabyte of data" on page 8 for a claim whose "891 seconds" is on page 9."""
    if not q.unit:
        return False
    keys = [k for k in (unit_word(q), *DIGITS.findall(q.text)) if len(k) > 1]
    for p in others:
        if not any(k in folded_text(p) for k in keys):
            continue
        for s in sentences_of(p):
            if any(k in s.folded for k in keys) and any(
                agree(q, e) and q.role & e.role for e in s.quantities
            ):
                return True
    return False


def unit_word(q: Quantity) -> str:
    words = [w for w in fold(q.text).split() if w.isalpha()]
    return words[-1] if words else ""


def replaced(q: Quantity, evidence: tuple[Quantity, ...]) -> bool:
    other = counterpart(q, evidence)
    return other is not None and bool(other.role & q.role)


def share(digits: frozenset[str], text: str) -> float:
    """The share of the claim's numbers (as written) that ``text`` holds."""
    return sum(d in text for d in digits) / len(digits) if digits else 0.0


def stated(claim_numbers: tuple[Quantity, ...], digits: frozenset[str], s: Sentence) -> float:
    """The share of the claim's numbers the sentence states: as values ("1.8e3" for "1,800")
    where the sentence writes any of them as digits or the claim's are not all digits."""
    if not claim_numbers:
        return 0.0
    written = share(digits, s.text)
    if written == 1.0 or not s.digits:
        return written
    return sum(agrees_any(q, s.quantities) for q in claim_numbers) / len(claim_numbers)


def anchoring(claim_numbers: tuple[Quantity, ...], evidence: tuple[Quantity, ...]) -> int:
    """Whether the evidence states the claim's numbers themselves (not in a neighbouring
    sentence), and they are specific enough to anchor a paraphrase: two, or one with a unit."""
    stated = [q for q in claim_numbers if agrees_any(q, evidence)]
    specific = len(stated) >= 2 or any(q.unit or significant(q.text) >= 3 for q in stated)
    return len(stated) if stated and len(stated) == len(claim_numbers) and specific else 0


def significant(written: str) -> int:
    """Significant digits as written: "1,256,683" has 7, "2000" has 1."""
    digits = "".join(c for c in written.split("e")[0].split("^")[0] if c.isdigit()).lstrip("0")
    return len(digits.rstrip("0")) if "." not in written else len(digits)


def folded_text(p: Prepared) -> str:
    if p.folded is None:
        p.folded = fold(LINE_HYPHEN.sub("", p.text))
    return p.folded


_ACRONYM = re.compile(r"[A-Z]{2,6}")


Aliases = dict[str, frozenset[str]]


def expand_acronyms(
    claim: str, want: frozenset[str], paper: Paper
) -> tuple[frozenset[str], Aliases]:
    """The claim's terms with an acronym the paper never uses ("SVD") replaced by the terms of
    the words that spell it out there ("singular value decomposition"): the writer abbreviated
    what the paper writes in full. And the other way: the paper's own acronyms ("ULBDM") whose
    defining words the claim spells out ("ultra light bosonic dark matter"), by acronym term;
    a passage using the acronym holds those words. Each acronym is looked up once per paper."""
    out = set(want)
    for name in names_in(claim) if _ACRONYM.search(claim) else ():
        if not _ACRONYM.fullmatch(name):
            continue
        (term,) = terms(name) or ("",)
        if not term or term in paper.postings:
            continue
        spelt = paper.acronyms.get(name)
        if spelt is None:
            raw = (LINE_HYPHEN.sub("", p.text) for p in paper.prepped)
            text = next((f for t in raw if (f := long_form(name, t))), "")
            spelt = paper.acronyms[name] = terms(text)
        if spelt:
            out.discard(term)
            out |= spelt
    if paper.definitions is None:
        paper.definitions = _definitions(paper)
    aliases = {a: words for a, words in paper.definitions.items() if words <= out}
    return frozenset(out), aliases


_DEFINED = re.compile(r"\(([A-Z][A-Za-z]{1,7}?)s?\)")
_WORD = re.compile(r"[^\W\d_][\w'-]*")


def _definitions(paper: Paper) -> Aliases:
    """The acronyms the paper defines ("reinforcement learning (RL)"): the acronym's term and
    the terms of the words before it whose initials spell it."""
    out: Aliases = {}
    for p in paper.prepped:
        if "(" not in p.text:
            continue
        text = LINE_HYPHEN.sub("", p.text)
        for m in _DEFINED.finditer(text):
            caps = [c for c in m.group(1) if c.isupper()]
            words = _WORD.findall(text[max(0, m.start() - 12 * len(caps)) : m.start()])
            words = words[-len(caps) :]
            if len(words) == len(caps) and all(
                w[0].lower() == c.lower() for w, c in zip(words, caps, strict=True)
            ):
                key = next(iter(terms(m.group(1))), "")
                spelt = terms(" ".join(words))
                if key and len(spelt) >= 2 and key not in spelt:
                    out.setdefault(key, spelt)
    return out


def held_terms(want: frozenset[str], held: frozenset[str], aliases: Aliases) -> frozenset[str]:
    """The claim's terms a sentence holds, an acronym standing for its words (``aliases``)."""
    found = want & held
    for acronym, words in aliases.items():
        if acronym in held:
            found |= words
    return found


def idf_table(chunk_terms: Iterable[frozenset[str]]) -> tuple[dict[str, float], float]:
    """Inverse document frequency over chunks, and the weight of a term seen nowhere."""
    df: dict[str, int] = {}
    n = 0
    for ts in chunk_terms:
        n += 1
        for t in ts:
            df[t] = df.get(t, 0) + 1
    return idf_from_counts(df, n)


def idf_from_counts(df: Mapping[str, int], n: int) -> tuple[dict[str, float], float]:
    """Inverse document frequency from per-term chunk counts over ``n`` chunks (the counts an
    index generation stores), and the weight of a term seen nowhere."""
    idf = {t: math.log(1 + n / (1 + k)) for t, k in df.items()}
    return idf, math.log(1 + n)


def chunk_terms(chunk: Chunk) -> frozenset[str]:
    """The terms the checker weighs in ``chunk`` (library-wide counts are made of these): its
    own when it carries them, from the per-chunk cache when that holds the chunk, else computed
    without filling the cache."""
    if chunk.terms is not None:
        return chunk.terms
    p = CACHE.get(chunk.chunk_id)
    return p.terms if p is not None and p.text == chunk.text else terms(chunk.text)


_RARE_NAME = 2  # passages of a paper that use a name the paper uses only in passing


def rare_name(name: str, paper: Paper) -> bool:
    """Whether the paper uses the name as written in one or two passages only: a name of a
    detail (a tool, a dataset), not of the paper's subject, which the evidence must then use."""
    folded, prepped = fold(name), paper.prepped
    postings = [set(paper.postings.get(t, ())) for t in term_list(name)]
    likely = set.intersection(*postings) if postings else set()
    found = sum(1 for i in likely if folded in folded_text(prepped[i]))
    return 0 < found <= _RARE_NAME


def mentioned(name: str, paper: Paper) -> bool:
    """Whether any passage of the paper uses the name (or spells out its acronym): the chunks
    holding its terms are read first, the rest only for a name not found there."""
    folded, prepped = fold(name), paper.prepped
    postings = [set(paper.postings.get(t, ())) for t in term_list(name)]
    likely = sorted(set.intersection(*postings)) if postings else []
    if any(folded in folded_text(prepped[i]) for i in likely):
        return True
    parts = name.split("-")
    if len(parts) > 1 and all(p[:1].isupper() for p in parts):  # "English-Italian", written
        return all(mentioned(part, paper) for part in parts)  # apart in the paper ("En-It")
    return any(folded in folded_text(p) or spelt_out(name, folded_text(p)) for p in prepped)
