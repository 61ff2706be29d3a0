"""The offline answerer: an answer made of the retrieved passages' own sentences, each cited.

No model and no network. Sentences of the retrieved passages are scored against the question
with BM25 at sentence level (IDF from those sentences only, so the question's rare terms weigh
most), the best 2 to 5 are taken, spread across papers and without near-duplicates, and each is
followed by its paper's ``[Label]`` before the final full stop. The sentences are the papers'
own words (whitespace normalised; words hyphenated at a line end joined, as ``verify`` joins
them; a section heading glued to the front dropped; the paper's own in-text citations such as
"[12]" or "(Smith, 2019)" removed, since those are its citations, not ours), so ``verify``
finds them.
Imports no anthropic (it would cost two seconds on every offline start).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from research_assistant.answer.base import (
    AnswerRequest,
    CitedSpan,
    Draft,
    RepairNote,
    SourcePassage,
    refusal_draft,
)
from research_assistant.check.mentions import CITATION_LIKE
from research_assistant.terms import stem
from research_assistant.text import (
    LINE_HYPHEN,
    content_words,
    fold,
    normalize_space,
    numbers,
    sentence_spans,
)

__all__ = ["RELEVANCE_THRESHOLD", "ExtractiveAnswerer"]

# Refuse when no sentence, taken with the better of its two neighbours in its passage, covers
# this share of the question's content terms, each term weighted by its IDF over the retrieved
# sentences (a term found nowhere weighs most). Chosen on tests/data/questions.jsonl (33
# answerable, 8 unanswerable questions over ../shared/corpus; BM25 top-8 chunks of the real
# index; `python -m research_assistant eval`): the unanswerable ones score 0.06-0.33 (the
# highest a near-topic question, maize yield under drought, against the wheat heat-stress
# paper), the answerable 0.15-1.0, all but 3 of them 0.42 or more (the 3 below use words the
# paper does not: "stops responding", "licence" for "License", German against a German
# paper whose answering page was not retrieved). 0.40 sits in the 0.33-0.42 gap, a margin of
# 0.07 below and 0.02 above; at top-5 the maize question rises to 0.38 and the lowest answered
# one is 0.41, at top-12 0.33 and 0.42, so the gap holds for k in 5-12. One number for every
# question; nothing is tuned per question or per paper.
RELEVANCE_THRESHOLD = 0.40
# A sentence joins the answer only if it covers this share of the best sentence's coverage:
# keeps the answer on the question instead of padding it with merely nearby sentences.
RELATIVE_TO_BEST = 0.6
MIN_SENTENCES, MAX_SENTENCES, MAX_PER_PAPER = 2, 5, 2
MIN_WORDS, MAX_WORDS = 6, 60  # shorter: headers, fragments; longer: run-ons from bad extraction
# rapidfuzz ratio on folded text above which two sentences with the same numbers are one
# (overlapping chunks repeat sentences; papers restate their abstract in the conclusion).
NEAR_DUPLICATE_RATIO = 85
MIN_LETTER_SHARE = 0.6  # share of tokens with letters; below: tables, equations, reference lists
MAX_CAPITALISED_SHARE = 0.5  # of word tokens; above: a title or heading (prose is ~10-25%)
BM25_K1, BM25_B = 1.2, 0.75

# Words a question uses to ask, not to say what it is about.
# fmt: off
_QUESTION_WORDS = frozenset((
    "many", "much", "describe", "explain", "kind", "kinds", "type", "types", "according", "give",
    "list", "mention", "mentioned", "say", "says", "tell", "paper", "papers", "library", "does",
    "typical", "typically", "value", "values", "main",
))
_HOW = re.compile(r"\bhow\s+([^\W\d_]+)", re.IGNORECASE)
# fmt: on
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?])")
_END = re.compile(r"[.!][\"')\]]*$")
_REFERENCE_LIKE = re.compile(
    r"https?://|www\.|\bdoi\b|arxiv:|\bproceedings\b|\bpp?\.\s*\d|\bpages\s+\d+\s*[-–]\s*\d|\bvol\.\s*\d",
    re.IGNORECASE,
)
# Front matter glued to a sentence: "Keywords: ...", "E-Mail: info@...".
_FRONT_MATTER = re.compile(r"\b(?:keywords|index terms|e-?mail)\s*:|\S+@\S+\.\w", re.IGNORECASE)
# "Stone P, Nicolas M." (Vancouver-style author lists in reference entries)
_VANCOUVER = re.compile(r"(?:\b[A-Z][\w'-]+ [A-Z]{1,3}[,.]\s*){2,}")
# A heading or page number glued to the sentence by text extraction: "1 The WiLI ...",
# "5 Discussion Prior versus ...", "ULTRA LIGHT BOSONS AS DARK MATTER We consider ...".
_HEADING = re.compile(r"^\d+(?:\.\d+)*\.?\s+[A-Z]|^(?:[A-Z][A-Z-]+\s+)+[A-Z][a-z]")
_INITIAL = re.compile(r"\b[A-Z]\.(?=[\s,A-Z])")  # "J." in "J. Smith, A. B. Jones": author lists
# A word broken across lines by the PDF's hyphenation: "par-\nallelize". The same pattern as
# verify's, so the joined word is what the checker compares the claim with.
_HYPHENATED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")
_WORD_END = re.compile(r"[^\W\d_]+$")
_WORD_START = re.compile(r"[^\W\d_]+")
# A section number, then a heading that text extraction glued to the sentence after it.
_SECTION_NUMBER = re.compile(r"(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-H]\.)\s+(?=[A-Z])")
_CAPS_HEADING = re.compile(r"(?:[A-Z][A-Z-]+\s+)+(?=[A-Z](?:[a-z]|\s))")
_HEADING_WORDS = 8  # a glued heading is at most this many words long


@dataclass(frozen=True)
class _Sentence:
    passage: SourcePassage
    order: tuple[int, int]  # (passage index, sentence index): the deterministic tie-break
    text: str  # as it appears in the answer, before its [Label]
    terms: Counter[str]


@dataclass(frozen=True)
class _Scored:
    sentence: _Sentence
    coverage: float
    bm25: float
    # coverage of the sentence together with the better of its neighbours in the passage: an
    # answer often takes two sentences ("The master pings every worker. If no response ...").
    context: float = 0.0

    @property
    def key(self) -> tuple[float, float, int, int]:
        return (-round(self.coverage, 9), -round(self.bm25, 9), *self.sentence.order)


class ExtractiveAnswerer:
    backend = "extractive"
    model = "extractive-bm25"

    def answer(self, request: AnswerRequest, on_text: Callable[[str], None] | None = None) -> Draft:
        ranked = rank_sentences(request)
        if not ranked or max(s.context for s in ranked) < RELEVANCE_THRESHOLD:
            return self._emit(refusal_draft(self.model, self.backend), on_text)
        return self._emit(self._draft(_select(ranked)), on_text)

    def repair(
        self,
        request: AnswerRequest,
        draft: Draft,
        notes: Sequence[RepairNote],
        on_text: Callable[[str], None] | None = None,
    ) -> Draft:
        """Drop each sentence whose citation failed; put in its place the next-best sentence of
        another passage that clears the threshold, if any; refuse when nothing is left."""
        units = list(draft.cited_spans)
        failing = [n for n in notes if n.status != "verified"]
        if draft.refused or not units:
            return self._emit(refusal_draft(self.model, self.backend), on_text)
        if not failing:
            return self._emit(draft, on_text)
        dropped = _failing_units(units, failing)
        bad_chunks = {units[i].chunk_id for i in dropped}
        bad_labels = {
            u.label for i, u in enumerate(units) if i in dropped and _label_level(u, failing)
        }
        used = [u.cited_text for u in units]
        spare = [
            s
            for s in rank_sentences(request)
            if s.context >= RELEVANCE_THRESHOLD
            and s.sentence.passage.chunk_id not in bad_chunks
            and s.sentence.passage.label not in bad_labels
        ]
        repaired: list[CitedSpan] = []
        for i, unit in enumerate(units):
            if i not in dropped:
                repaired.append(unit)
                continue
            for s in spare:
                if not any(_near_duplicate(s.sentence.text, u) for u in used):
                    used.append(s.sentence.text)
                    repaired.append(_span(s.sentence))
                    break
        if not repaired:
            return self._emit(refusal_draft(self.model, self.backend), on_text)
        return self._emit(self._draft(repaired), on_text)

    def _draft(self, spans: Sequence[CitedSpan]) -> Draft:
        text = " ".join(cite_sentence(s.cited_text, s.label) for s in spans)
        return Draft(text=text, model=self.model, backend=self.backend, cited_spans=tuple(spans))

    @staticmethod
    def _emit(draft: Draft, on_text: Callable[[str], None] | None) -> Draft:
        if on_text is not None:
            on_text(draft.text)  # one piece: the answer is ready at once
        return draft


def cite_sentence(sentence: str, label: str) -> str:
    """``"... is about 1.71."`` -> ``"... is about 1.71 [Label]."`` (label before the full stop)."""
    end = _END.search(sentence)
    if end is None:
        return f"{sentence} [{label}]."
    return f"{sentence[: end.start()]} [{label}]{sentence[end.start() :]}"


def strip_citations(sentence: str) -> str:
    """The sentence without the paper's own in-text citation markers, spacing repaired."""
    cleaned = CITATION_LIKE.sub("", sentence)
    return " ".join(_SPACE_BEFORE_PUNCT.sub(r"\1", cleaned).split())


def question_terms(question: str) -> list[str]:
    """Distinct stemmed content terms of the question, in order. The word after "how" asks
    ("how large", "how strongly", "how long"): it says what kind of answer is wanted, not
    what the answer is about."""
    asking = {m.group(1).casefold() for m in _HOW.finditer(question)}
    kept = (
        stem(w) for w in content_words(question) if w not in _QUESTION_WORDS and w not in asking
    )
    return list(dict.fromkeys(kept))


def rank_sentences(request: AnswerRequest) -> list[_Scored]:
    """Every usable sentence of the passages, best first (deterministic order)."""
    terms = question_terms(request.question)
    pool = [s for i, p in enumerate(request.passages) for s in _sentences(i, p)]
    if not terms or not pool:
        return []
    n = len(pool)
    df = Counter(t for s in pool for t in set(s.terms) if t in terms)
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
    total = sum(idf.values())
    avg_len = sum(sum(s.terms.values()) for s in pool) / n
    by_order = {s.order: s for s in pool}

    def covered(*sentences: _Sentence) -> float:
        return sum(idf[t] for t in terms if any(t in s.terms for s in sentences)) / total

    scored = []
    for s in pool:
        length = sum(s.terms.values())
        coverage = covered(s)
        i, k = s.order
        near = [by_order[o] for o in ((i, k - 1), (i, k + 1)) if o in by_order]
        context = max([covered(s, m) for m in near], default=coverage)
        bm25 = sum(
            idf[t]
            * s.terms[t]
            * (BM25_K1 + 1)
            / (s.terms[t] + BM25_K1 * (1 - BM25_B + BM25_B * length / avg_len))
            for t in terms
            if t in s.terms
        )
        if coverage > 0:
            scored.append(_Scored(s, coverage, bm25, context))
    return sorted(scored, key=lambda s: s.key)


def _sentences(index: int, passage: SourcePassage) -> list[_Sentence]:
    out = []
    hyphenated = set(_HYPHENATED.findall(passage.text))
    for k, (start, end) in enumerate(sentence_spans(passage.text)):
        raw = normalize_space(dehyphenate(passage.text[start:end], hyphenated))
        text = strip_heading(strip_citations(raw))
        if _usable(text):
            terms = Counter(stem(w) for w in content_words(text))
            out.append(_Sentence(passage, (index, k), text, terms))
    return out


def dehyphenate(text: str, hyphenated: Collection[str] = ()) -> str:
    """Join the words the PDF broke at line ends ("par-\\nallelize" -> "parallelize"); keep the
    hyphen of a compound that the same text also writes on one line ("adjective-noun")."""

    def join(m: re.Match[str]) -> str:
        left = _WORD_END.search(text, 0, m.start())
        right = _WORD_START.match(text, m.end())
        if left and right and f"{left.group()}-{right.group()}" in hyphenated:
            return "-"
        return ""

    return LINE_HYPHEN.sub(join, text)


def strip_heading(text: str) -> str:
    """Drop a section heading glued to the front of a sentence: "3.6 Backup Tasks One of the
    common causes ..." -> "One of the common causes ...", "ULTRA LIGHT BOSONS AS DARK MATTER We
    consider ..." -> "We consider ...". Unchanged when no sentence start is found after it."""
    number = _SECTION_NUMBER.match(text)
    start = number.end() if number else 0
    caps = _CAPS_HEADING.match(text, start)
    if caps:
        return text[caps.end() :]
    if number is None:
        return text
    tokens = text[start:].split(" ")
    for i in range(1, min(_HEADING_WORDS, len(tokens) - 1)):
        if tokens[i][:1].isupper() and tokens[i + 1][:1].islower():
            return " ".join(tokens[i:])
    return text


def _usable(text: str) -> bool:
    """A whole prose sentence: not a fragment cut at a chunk edge, a header, a table row, a
    reference-list entry, a question, too short to say anything or too long to be one claim."""
    tokens = text.split()
    if not MIN_WORDS <= len(tokens) <= MAX_WORDS:
        return False
    if not (text[0].isupper() or text[0].isdigit()) or _END.search(text) is None:
        return False
    letters = sum(1 for t in tokens if any(c.isalpha() for c in t))
    capitalised = sum(1 for t in tokens[1:] if t[0].isupper())
    if capitalised / len(tokens) > MAX_CAPITALISED_SHARE:
        return False
    if letters / len(tokens) < MIN_LETTER_SHARE or _REFERENCE_LIKE.search(text):
        return False
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        return False  # split inside a parenthesis: a fragment
    if _HEADING.search(text) or _VANCOUVER.search(text) or _FRONT_MATTER.search(text):
        return False
    return len(_INITIAL.findall(text)) < 3


def _near_duplicate(a: str, b: str) -> bool:
    """Nearly the same words and the same numbers: "D is 1.71 in two dimensions" and "D is
    2.50 in three dimensions" are alike in wording but state different facts."""
    return fuzz.ratio(fold(a), fold(b)) > NEAR_DUPLICATE_RATIO and numbers(a) == numbers(b)


def _span(s: _Sentence) -> CitedSpan:
    return CitedSpan(label=s.passage.label, chunk_id=s.passage.chunk_id, cited_text=s.text)


def _select(ranked: list[_Scored]) -> list[CitedSpan]:
    """Best first, one sentence per paper before a second from any; no near-duplicates."""
    floor = ranked[0].coverage * RELATIVE_TO_BEST
    eligible = [s for s in ranked if s.coverage >= floor]
    picked: list[_Sentence] = []
    per_paper: Counter[str] = Counter()
    for round_cap in (1, MAX_PER_PAPER):
        for s in eligible:
            paper = s.sentence.passage.paper_key
            if len(picked) == MAX_SENTENCES:
                break
            if s.sentence in picked or per_paper[paper] >= round_cap:
                continue
            if any(_near_duplicate(s.sentence.text, p.text) for p in picked):
                continue
            picked.append(s.sentence)
            per_paper[paper] += 1
    # A lone sentence gets one companion from the remaining overlapping ones (still relevant
    # to the question, just below the floor), so an answer has context where the library has it.
    for s in ranked if len(picked) < MIN_SENTENCES else ():
        if (
            s.sentence not in picked
            and per_paper[s.sentence.passage.paper_key] < MAX_PER_PAPER
            and not any(_near_duplicate(s.sentence.text, p.text) for p in picked)
        ):
            picked.append(s.sentence)
            break
    return [_span(s) for s in picked]


def _claim_matches(claim: str, unit: CitedSpan) -> bool:
    claim = fold(strip_citations(claim.replace(f"[{unit.label}]", "")))
    text = fold(unit.cited_text)
    return bool(claim) and (claim in text or text in claim or fuzz.ratio(claim, text) >= 80)


def _failing_units(units: Sequence[CitedSpan], notes: Sequence[RepairNote]) -> set[int]:
    """Indexes of the units a note names: same marker and claim; by marker alone if no claim
    matches (the checker may have cut the sentence differently)."""
    dropped: set[int] = set()
    for note in notes:
        same_marker = [i for i, u in enumerate(units) if note.marker.strip() == f"[{u.label}]"]
        by_claim = [i for i in same_marker if _claim_matches(note.claim, units[i])]
        dropped.update(by_claim or same_marker)
    return dropped


# Statuses that condemn a label, not a sentence: citing the paper again would fail again.
_LABEL_LEVEL = {"not_retrieved", "unknown_source", "ambiguous", "malformed"}


def _label_level(unit: CitedSpan, notes: Sequence[RepairNote]) -> bool:
    return any(n.status in _LABEL_LEVEL and n.marker.strip() == f"[{unit.label}]" for n in notes)
