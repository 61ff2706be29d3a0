"""The offline answerer: an answer made of the retrieved passages' own sentences, each cited.

No model and no network. Every usable sentence of the retrieved passages (``sentences``) is
scored against the question (``asking``): the share of the question's terms it covers, each
weighed by its rarity over the whole library (the checker's term statistics, so the asking
words of a question weigh little and a paper's topic words much), words that name the sentence's
paper (its authors, its title) counted as named, and the offline sentence similarity for
paraphrases. A question that asks for a value (how many, how long, what percentage, which year)
is answered only by a sentence that states one; a sentence naming the kind of thing a "which
..." question asks for, or giving the kind of answer asked for (a step, a reason, a
definition), ranks higher. The answer leads with
the best sentence, adds at most the sentences that add to it (for a "how" question, the step
that follows it), and cites each with its paper's ``[Label]``; when no sentence clears the
relevance gate it refuses. The sentences are the papers' own words, so
``verify`` finds them. Imports no anthropic (two seconds on every offline start).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from research_assistant.answer.asking import Asked, analyse
from research_assistant.answer.base import (
    AnswerRequest,
    CitedSpan,
    Draft,
    RepairNote,
    SourcePassage,
    refusal_draft,
)
from research_assistant.answer.fit import (
    abbreviations,
    asks_definition,
    asks_mechanism,
    kind_fit,
    names_known,
    names_unknown,
    near_forms,
    respelled,
    stated_terms,
    value_fit,
)
from research_assistant.answer.pool import PoolSentence as _Sentence
from research_assistant.answer.pool import cached_terms as _terms
from research_assistant.answer.pool import pool as _pool
from research_assistant.answer.repairs import failing_units, label_level
from research_assistant.answer.sentences import (
    cite_sentence,
    near_duplicate,
    strip_citations,
)

__all__ = ["RELEVANCE_THRESHOLD", "ExtractiveAnswerer", "cite_sentence", "strip_citations"]

# The relevance gate: refuse when no sentence, taken with the better of its neighbours, covers
# this share of the question's weighed terms. Chosen on the development questions
# (tests/data/questions.jsonl and questions_more.jsonl): once the unknown-name rule has refused
# 10 of their 18 unanswerable ones, the others reach 0.12-0.37 but one (0.61, answered: a
# near-topic CiteSee question); the answerable ones that clear it start at 0.41. Checked on the
# held-out ones (docs/BENCHMARKS.md, "Answers that answer").
RELEVANCE_THRESHOLD = 0.38
# The ranking mixes the sentence's own coverage, its coverage with a neighbour and the offline
# sentence similarity to the question (development questions).
W_OWN, W_CONTEXT, W_SEMANTIC = 0.45, 0.25, 0.30
CONTEXT_WINDOW = 1  # sentences either side that may complete one
# A sentence stating the value asked for may have the thing measured named up to three
# sentences before it, or in the next ("... busy sorting the intermediate data. ... Including
# startup overhead, the entire computation takes 891 seconds."); half of what that window
# adds counts. Development (tests/data/QUESTIONS_MORE.md, "Second pass"): the 1 TB
# sort question and dev2-01 answered with the 891 seconds, nothing lost; all of the window
# (share 1.0) answered a maize question the library does not answer; six sentences before
# gained one hint and lost another.
VALUE_WINDOW = (3, 1)
WINDOW_SHARE = 0.5
EARLIER_WEIGHT = 0.5  # a follow-up's terms from the turn before count half
# A word of a French, German or Spanish question that no paper of the library uses counts a
# quarter: an English paper cannot cover it ("phénomène" meets "phenomenon", "rétroaction"
# never meets "back-reaction"). Development: dropping such words answered the French question
# and two foreign unanswerable ones (by the authors' names alone); a quarter answers the first
# and refuses the others (with the rule that a sentence must say a question word itself).
FOREIGN_UNKNOWN = 0.25
TITLE_WEIGHT = 0.5  # a question term found in the paper's title, not in the sentence
# Another form of a question term ("response" for "responding", "phenomenon" for the French
# "phénomène") counts half, as a title word does. Development: two refused "how" questions
# cleared the gate; the closest unanswerable ones did not move (0.36, 0.37).
NEAR_FORM_WEIGHT = 0.5
# ... and so does a word whose offline word vector lies this close to the question word's
# (``Context.related``: "big" and "large" 0.74, "photo" and "image" 0.61; "computers" and
# "machines" only 0.38; unrelated words below 0.15). Development questions (14 files): 0.45
# states 4 more hints and refuses 4 fewer answerable questions, no unanswerable one newly
# answered; 0.40 and below also answer an unanswerable one.
RELATED = 0.45
# A sentence naming the kind of thing a "which ..." question asks for ("Under which licence":
# "... under the GNU General Public License") ranks a fifth higher. Development (the three
# sets, 83 answers that state the hint): the hint is in the first sentence of 60 with 0, 61
# with 0.1, 62 with 0.2 and 0.35; no answer changed otherwise.
FOCUS_FIT = 0.2
# A sentence joins the lead only when it scores this share of the lead's score.
RELATIVE_TO_LEAD = 0.6
OTHER_PAPER_RELATIVE = 0.9  # a sentence of another paper must nearly match the lead
MAX_SENTENCES, MAX_PER_PAPER = 3, 3
# A question that asks for a value: the share of the score that depends on how well the
# sentence states one (``fit.value_fit``).
W_VALUE = 0.5
# A sentence whose subject is a bare demonstrative ("This is called a type-stable loop
# iteration.", "This means ...") says what it is about in the sentence before: that one leads
# ("It is freely available ..." names its subject well enough and leads itself). The
# sentence after a definition that points back at the thing defined ("... is an n-gram model.
# This model makes use of ...") goes on with the definition.
_BARE_POINTER = re.compile(
    r"^(?:This|These|That|Such)\s+(?:is|are|was|were|has|have|had|means?|can|could|"
    r"will|would|does|do|did|allows?|makes?|gives?|yields?)\b"
)
_POINTS_BACK = re.compile(r"^(?:This|These|It|They|Such)\b")


@dataclass(frozen=True)
class _Scored:
    sentence: _Sentence
    coverage: float  # of the question's weighed terms, by the sentence and its paper's names
    context: float  # the same with the better of its two neighbours in the passage
    semantic: float
    value: float  # how well it states the value the question asks for (1 if none asked)
    partner: _Sentence | None = None  # the neighbour that gives ``context``
    following: _Sentence | None = None  # the next sentence of its passage: a step goes on there
    kind: float = 1.0  # how well it gives the kind of answer asked for (``fit.kind_fit``)
    before: _Sentence | None = None  # what its bare "This is ..." points back at

    @property
    def score(self) -> float:
        mix = W_OWN * self.coverage + W_CONTEXT * self.context + W_SEMANTIC * self.semantic
        return mix * (1 - W_VALUE + W_VALUE * self.value) * self.kind

    @property
    def key(self) -> tuple[float, int, int]:
        return (-round(self.score, 9), *self.sentence.order)


class ExtractiveAnswerer:
    backend = "extractive"
    model = "extractive-bm25"

    def answer(self, request: AnswerRequest, on_text: Callable[[str], None] | None = None) -> Draft:
        ranked = rank_sentences(request)
        if not ranked:
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
        another passage that clears the gate, if any; refuse when nothing is left."""
        units = list(draft.cited_spans)
        failing = [n for n in notes if n.status != "verified"]
        if draft.refused or not units:
            return self._emit(refusal_draft(self.model, self.backend), on_text)
        if not failing:
            return self._emit(draft, on_text)
        dropped = failing_units(units, failing)
        bad_chunks = {units[i].chunk_id for i in dropped}
        bad_labels = {
            u.label for i, u in enumerate(units) if i in dropped and label_level(u, failing)
        }
        used = [u.cited_text for u in units]
        spare = [
            s
            for s in rank_sentences(request)
            if s.sentence.passage.chunk_id not in bad_chunks
            and s.sentence.passage.label not in bad_labels
        ]
        repaired: list[CitedSpan] = []
        for i, unit in enumerate(units):
            if i not in dropped:
                repaired.append(unit)
                continue
            for s in spare:
                if not any(near_duplicate(s.sentence.text, u) for u in used):
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


def _weights(asked: Asked, pool: Sequence[_Sentence], request: AnswerRequest) -> dict[str, float]:
    """Each asked term's weight: its rarity over the library (the checker's statistics) when
    the request carries them, else over the retrieved sentences; earlier turns' terms count
    half."""
    ctx = request.context
    wanted = (*asked.terms, *asked.earlier)
    if ctx is not None and ctx.idf:
        idf = {t: ctx.weight(t) for t in wanted}
    else:
        n = len(pool)
        df = Counter(t for s in pool for t in s.terms if t in wanted)
        idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in wanted}
    return {t: idf[t] * (EARLIER_WEIGHT if t in asked.earlier else 1.0) for t in wanted}


def rank_sentences(request: AnswerRequest) -> list[_Scored]:
    """The sentences that clear the relevance gate and state what the question asks for, best
    first (deterministic order)."""
    return sorted((s for s in score_sentences(request) if _relevant(s)), key=lambda s: s.key)


def _relevant(s: _Scored) -> bool:
    """The relevance gate: enough of the question's weighed terms, and the value asked for."""
    return s.value > 0 and s.context >= RELEVANCE_THRESHOLD


def score_sentences(request: AnswerRequest) -> list[_Scored]:
    """Every usable sentence of the passages that covers some of the question, scored."""
    asked = analyse(request.question, [t.question for t in request.history])
    pool = _pool(request.passages)
    if not (asked.terms or asked.earlier) or not pool:
        return []
    vocabulary = request.context.idf if request.context is not None else {}
    if names_unknown(asked, vocabulary):
        return []
    asked = respelled(asked, vocabulary)
    weight = _weights(asked, pool, request)
    vocabulary_here = {t for s in pool for t in s.terms}
    forms = near_forms(weight, vocabulary_here)
    if request.context is not None and request.context.related is not None:
        # a question's word the passages do not use, related to one they do ("big" and
        # "large"), counts as another form of it
        related = request.context.related(weight, vocabulary_here, RELATED)
        forms = {t: forms.get(t, frozenset()) | related.get(t, frozenset()) for t in weight}
        forms = {t: f for t, f in forms.items() if f}
    if asked.foreign and vocabulary:  # its words no English paper uses are hardly covered
        weight = {
            t: w if t in vocabulary or t in forms else FOREIGN_UNKNOWN * w
            for t, w in weight.items()
        }
    total = sum(weight.values()) or 1.0
    by_order = {s.order: s for s in pool}
    named = {p.paper_key: _names(p) for p in request.passages}
    # a paper can answer only if its passages, authors or title hold every name the question
    # uses: "Which GPU trained the WiLI classifiers?" is not answered by a WiLI sentence
    seen: dict[str, set[str]] = {}
    for p in request.passages:
        seen.setdefault(p.paper_key, set()).update(_terms(p.text), *named[p.paper_key])
    silent = {key for key, have in seen.items() if not names_known(asked, have)}
    similarity = request.context.similarity if request.context is not None else None
    stated = stated_terms(request.question, ((s.order, s.text) for s in pool))
    short = {k: v for p in request.passages for k, v in abbreviations(p.text)}
    if short:  # a sentence that writes "LLM" says "large language model" where it is defined
        for s in pool:
            longer = [short[t] for t in s.terms if t in short]
            if longer:
                stated[s.order] = stated.get(s.order, frozenset()).union(*longer)

    def covered(s: _Sentence, *others: _Sentence) -> float:
        author, title = named[s.passage.paper_key]
        have = s.terms | stated.get(s.order, frozenset())
        for other in others:
            have |= other.terms | stated.get(other.order, frozenset())
        got = 0.0
        for t, w in weight.items():
            if t in have or t in author:
                got += w
            elif forms.get(t, frozenset()) & have:
                got += NEAR_FORM_WEIGHT * w
            elif t in title:
                got += TITLE_WEIGHT * w
        return got / total

    def window(i: int, k: int, before: int, after: int) -> list[_Sentence]:
        around = (*range(k - before, k), *range(k + 1, k + after + 1))
        return [by_order[(i, j)] for j in around if (i, j) in by_order]

    asks_how = asks_mechanism(request.question)
    asks_what = asks_definition(request.question)
    scored = []
    for s in pool:
        if s.passage.paper_key in silent:
            continue
        value = value_fit(asked, s.text)
        valued = bool(asked.value) and value > 0  # the value is what it says of the question
        if not valued and not _says_some(s, weight, forms, stated, named[s.passage.paper_key][0]):
            continue
        own = covered(s)
        if own <= 0 and not valued:
            continue
        near = window(*s.order, CONTEXT_WINDOW, CONTEXT_WINDOW)
        best = max(near, key=lambda m: covered(s, m), default=None)
        context = max(own, covered(s, best)) if best is not None else own
        partner = best if best is not None and covered(s, best) > own else None
        if valued:  # the thing measured is often named sentences before
            wide = covered(s, *window(*s.order, *VALUE_WINDOW))
            if s.antecedent:  # "This model achieves 88.30 %": what the model is, further back
                wide = max(wide, covered(s, replace(s, terms=s.antecedent)))
            context = max(context, own + WINDOW_SHARE * (wide - own))
        if context <= 0:
            continue
        semantic = max(0.0, similarity(request.question, s.text)) if similarity else 0.0
        kind = kind_fit(request.question, s.text)
        if asked.focus and _states_focus(
            asked.focus, set(s.terms | stated.get(s.order, frozenset()))
        ):
            kind *= 1 + FOCUS_FIT  # it names the kind of thing asked for ("... the GNU License")
        i, k = s.order
        following = by_order.get((i, k + 1)) if asks_how or asks_what else None
        if asks_what and following is not None and not _POINTS_BACK.match(following.text):
            following = None  # a definition goes on only in a sentence about the thing defined
        before = by_order.get((i, k - 1)) if _BARE_POINTER.match(s.text) else None
        scored.append(_Scored(s, own, context, semantic, value, partner, following, kind, before))
    return scored


def _says_some(
    s: _Sentence,
    weight: Mapping[str, float],
    forms: Mapping[str, frozenset[str]],
    stated: Mapping[tuple[int, int], frozenset[str]],
    authors: frozenset[str],
) -> bool:
    """The sentence itself holds a term of the question other than its authors' names (the
    names alone do not make it about the question: "The funder had no role [Thomason]")."""
    have = s.terms | stated.get(s.order, frozenset())
    return any(t not in authors and (t in have or forms.get(t, frozenset()) & have) for t in weight)


def _states_focus(focus: Sequence[str], have: set[str]) -> bool:
    """Every focus term of the question is among ``have``, itself or in another form."""
    missing = [t for t in focus if t not in have]
    forms = near_forms(missing, have) if missing else {}
    return all(t in forms for t in missing)


def _names(p: SourcePassage) -> tuple[frozenset[str], frozenset[str]]:
    """The terms that name a passage's paper: its authors' family names, its title words."""
    return _terms(p.authors), _terms(p.title)


def _select(ranked: list[_Scored]) -> list[CitedSpan]:
    """The lead sentence, then at most the sentences that add to it: the neighbour that
    completes it, then others of nearly its score (another paper's only when almost equal)."""
    lead = ranked[0]
    picked = [lead.sentence] if lead.before is None else [lead.before, lead.sentence]
    if lead.partner is not None and lead.partner.order[1] > lead.sentence.order[1]:
        picked.append(lead.partner)  # "The master pings every worker. If no response ..."
    elif lead.following is not None and not near_duplicate(lead.following.text, lead.sentence.text):
        # a "how" question: the method goes on in the next sentence ("To construct X, we began
        # by collecting ... For each paper, we prompted ...")
        picked.append(lead.following)
    per_paper = Counter(s.passage.paper_key for s in picked)
    for s in ranked[1:]:
        if len(picked) >= MAX_SENTENCES:
            break
        paper = s.sentence.passage.paper_key
        same = paper == lead.sentence.passage.paper_key
        floor = RELATIVE_TO_LEAD if same else OTHER_PAPER_RELATIVE
        if s.score < floor * lead.score or per_paper[paper] >= MAX_PER_PAPER:
            continue
        if s.sentence in picked or any(near_duplicate(s.sentence.text, p.text) for p in picked):
            continue
        picked.append(s.sentence)
        per_paper[paper] += 1
    return [_span(s) for s in picked]


def _span(s: _Sentence) -> CitedSpan:
    return CitedSpan(label=s.passage.label, chunk_id=s.passage.chunk_id, cited_text=s.text)
