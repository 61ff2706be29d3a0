"""What a question asks: its terms, the kind of value it wants, whether it lists papers of the
library, whether it follows up on the turn before. Pure: words in, a frozen value out.

Every answerer and the pipeline read questions through this one module, with the house's one
tokeniser (``terms.term_list``), so a question and the paper's text reduce to the same terms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from research_assistant.answer.bib_filters import BibFilters, bib_filters
from research_assistant.terms import FOREIGN_FUNCTION_WORDS, foreign, german, term_list
from research_assistant.text import STOPWORDS

__all__ = [
    "METHOD_OPENING",
    "RATE",
    "Asked",
    "LibraryAsk",
    "analyse",
    "focus",
    "is_follow_up",
    "library_ask",
    "wants_value",
]

# Words a question uses to ask, not to say what it is about (stemmed when compared).
# fmt: off
_ASKING = frozenset(term_list(
    "many much describe explain kind kinds type types according give list mention mentioned "
    "say says tell paper papers library does typical typically value values main article "
    "articles find found report reported discuss discusses study studies work works "
    "publication publications present presents"
))
# fmt: on
# After "what/which ... <measure word>": the measure word names the value asked for only when
# a verb or a function word follows it; before another noun it qualifies that noun ("Which
# mass spectrometer was used?", "Which error function ...": a thing, not a value).
_NOT_QUALIFIER = (
    r"(?!\s+(?!(?:is|are|was|were|did|does|do|has|have|had|of|for|in|on|at|to|and|or|would|"
    r"will|can|could|should|might|may|must|per|that|when|after|before|with|from|by)\b)"
    r"[^\W\d_]{3,})"
)
# "how long", "how strongly": the word after "how" says what kind of answer is wanted.
_HOW = re.compile(r"\bhow\s+([^\W\d_]+)", re.IGNORECASE)
# Questions whose answer is a value: the lead sentence must state one.
_VALUE = re.compile(
    r"\bhow\s+(?:many|much|long|large|big|small|fast|slow|often|far|high|low|old|heavy|"
    r"accurate|quickly|frequently|deep|wide|tall|hot|cold|warm)\b"
    r"|\b(?:what|which)\s+(?:(?:is|was|were|are)\s+the\s+)?(?:[^\W\d_]+\s+){0,2}"
    r"(?:percentage|proportion|fraction|"
    r"share|number|amount|size|rate|ratio|accuracy|speed-?ups?|f-?measures?|f1|scores?|"
    r"temperatures?|values?|range|error|precision|recall)\b"
    + _NOT_QUALIFIER
    + r"|\bby\s+how\s+much\b|\bhow\s+much\s+\w+er\b"
    # the same questions in French, German, Spanish, Italian
    r"|\bcombien\b|\bwie\s+(?:viele?|lange|gro(?:ß|ss)|hoch|oft|schnell)\b"
    r"|\bcu[aá]nt[oa]s?\b|\bquant[ioe]\b",
    re.IGNORECASE,
)
_YEAR_ASKED = re.compile(
    r"\b(?:which|what)\s+year\b|\bin\s+what\s+year\b|\bwhen\s+(?:was|were|did)\b", re.IGNORECASE
)
# "Which papers in my library ...", "What papers from 2008 ...", "Do I have papers on ..."
_LIBRARY = re.compile(
    r"\b(?:which|what)\s+(?:of\s+(?:my|the)\s+)?(?:papers|articles|works|publications|studies)\b"
    r"|\b(?:papers|articles|works|publications)\s+(?:in|of)\s+(?:my|the|this)\s+library\b"
    # "Which journal articles ...", "What preprints are in my library?"
    r"|\b(?:which|what)\s+(?:of\s+(?:my|the)\s+)?(?:(?:journal|conference|workshop)\s+"
    r"(?:papers|articles|publications)|(?:arxiv\s+)?preprints|theses|dissertations|technical\s+reports)\b"
    r"|\bdo\s+i\s+have\s+(?:any\s+)?(?:papers|articles)\b"
    r"|\blist\s+(?:all\s+|the\s+)?(?:my\s+)?(?:papers|articles)\b",
    re.IGNORECASE,
)
# Words of a library question that say where to look, not what the papers are about.
_LIBRARY_WORDS = frozenset(term_list("my library written published appeared conference"))
# "... about cosmology", "... that discuss privacy", "... on heat stress?"
_ABOUT = re.compile(
    r"\b(?:about|on|discussing|discuss|discusses|concerning|regarding|studying|study)\s+(.+)$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_AUTHOR_CUE = re.compile(r"\b(?:by|from|of|authored\s+by|written\s+by)\s+", re.IGNORECASE)
# A follow-up leans on the turn before: it opens with a link word or points back at it.
_FOLLOW_UP = re.compile(
    r"^\s*(?:and|also|but|so|then|what\s+about|how\s+about|and\s+what|and\s+how)\b"
    r"|\b(?:it|its|they|them|their|this|that|these|those|such|the\s+same|there|he|she)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[^\W_][\w'-]*")
# The thing counted or measured: "how many [free parameters]", "the number of [languages]".
_COUNTED = re.compile(
    r"\bhow\s+(?:many|much)\s+((?:[^\W\d_][\w-]*\s+){0,2}[^\W\d_][\w-]*)"
    r"|\b(?:number|percentage|share|proportion|fraction|amount)\s+of\s+([^\W\d_][\w-]*)"
    # "what test set accuracy": the measure asked for stands beside the number that answers
    r"|\b(?:what|which)\s+(?:[^\W\d_]+\s+){0,2}(accuracy|precision|recall|f1|error|"
    r"speed-?ups?|temperature)\b",
    re.IGNORECASE,
)
# Verbs that end the counted thing ("how many participants took part").
_VERBS = frozenset(
    "took take takes taken make makes made used use uses need needed exist exists remain "
    "remained get got appear appeared contain contained".split()
)
# The units a question asks in (the canonical units of ``quantities``).
_UNIT_ASKED = (
    # ("how long is the longest paragraph" asks a length: "is/are the" asks no unit)
    (
        r"\bhow\s+long\b(?!\s+(?:is|are)\s+(?:the|a|an|its|their)\b)|\bhow\s+much\s+time\b"
        r"|\bwie\s+lange\b|\bduration|\blatenc|\bruntime",
        "s",
    ),
    (r"\bpercent|\bshare\b|\bproportion\b|\bfraction\b", "%"),
    (r"\bspeed-?ups?\b|\bhow\s+much\s+faster\b|\bhow\s+many\s+times\b", "x"),
    # a change asked "by how much" is stated as a share or a factor as often as in its unit
    (r"\bby\s+how\s+much\b", "% x"),
    (r"\bmass\b|\bweight\b|\bhow\s+heavy\b", "g eV"),
    (r"\benergy\b", "eV"),
    (r"\btemperatures?\b|\bhow\s+(?:hot|cold|warm)\b", "°C"),
    (r"\bfrequenc", "Hz"),
    (r"\bdistance\b|\blength\b|\bwavelength\b|\bhow\s+(?:far|tall|deep|wide)\b", "m"),
)
# A rate in time: "how many queries per second", "GB/s", "jobs a day", "daily".
_TIME_UNIT = r"(?:s|sec|seconds?|min|minutes?|h|hr|hours?|days?|weeks?|months?|years?)"
RATE = re.compile(
    rf"\b(?:per|a|each|every)\s+{_TIME_UNIT}\b|\w/{_TIME_UNIT}\b"
    r"|\b(?:hourly|daily|weekly|monthly|yearly|annually|qps)\b",
    re.IGNORECASE,
)
# Measured things: a question naming one asks for a value ("What particle mass is assumed?").
_MEASURED = re.compile(
    r"\b(?:what|which)\s+(?:[^\W\d_]+\s+){0,2}(?:mass|weight|energy|temperatures?|frequency|"
    r"duration|latency|runtime|speed-?ups?|distance|length|wavelength)\b" + _NOT_QUALIFIER,
    re.IGNORECASE,
)


# "Which rotation periods ...", "What dropout rate ...": the words after "which" or "what" name
# the kind of thing asked for. Measure words ("rate", "number") say only that a value is asked.
_FOCUS = re.compile(
    r"^\s*(?:(?:in|on|under|at|for|from|by|with|into|to|of|during)\s+)?"
    r"(?:which|what|welche[rsmn]?|quel(?:le)?s?|cu[aá]l(?:es)?)\s+"
    r"(?:(?:is|was|are|were)\s+the\s+)?((?:[^\W\d_][\w-]*\s+){0,3})",
    re.IGNORECASE,
)
# Words that open an object or a clause: the word before one was a verb ("What limits the
# ...", "Which metabolites increase the most"), not a word of the kind asked for.
_OBJECT_START = frozenset("the a an this these that those its their our to when if whether".split())
_MEASURE_WORDS = frozenset(
    term_list(
        "percentage proportion fraction share number amount size rate ratio accuracy speedup score "
        "scores temperature value values range error precision recall kind type sort sorts way ways"
    )
)


@dataclass(frozen=True)
class LibraryAsk:
    """A question about the library itself: the filters it names."""

    years: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # capitalised words that may be authors or venues, as written
    topic: tuple[str, ...] = ()  # stemmed terms of what the papers should be about
    bib: BibFilters = field(default_factory=BibFilters)  # kinds, a span of years, months
    # the terms of an explicit "about X" ("... journal articles about cosmology"): the topic
    # that narrows a list the catalog's filters make
    about: tuple[str, ...] = ()


@dataclass(frozen=True)
class Asked:
    question: str
    terms: tuple[str, ...]  # distinct stemmed content terms of this question, in order
    earlier: tuple[str, ...] = ()  # terms of the turn it follows up on (not in ``terms``)
    value: str = ""  # "number" | "year" | "": the kind of value the answer must state
    names: tuple[tuple[str, ...], ...] = ()  # the terms of each name the question uses
    counted: tuple[str, ...] = ()  # what is counted, as 6-letter prefixes (``Quantity.role``)
    units: frozenset[str] = frozenset()  # canonical units asked in ("s", "%"); empty: any
    rate: bool = False  # asks how many per unit of time ("queries per second")
    foreign: bool = False  # written in French, German, Spanish or Italian
    library: LibraryAsk | None = None
    focus: tuple[str, ...] = ()  # the terms naming the kind of thing asked for (``focus``)


def question_terms(question: str) -> tuple[str, ...]:
    asking = {t for m in _HOW.finditer(question) for t in term_list(m.group(1))}
    skip = _ASKING | FOREIGN_FUNCTION_WORDS | asking
    return tuple(dict.fromkeys(t for t in term_list(question) if t not in skip))


# "How did the team measure how many objects it detected?" asks for a method: a "how many"
# inside a question that opens "How did/does ..." names what the method finds, not a value.
METHOD_OPENING = r"^\s*how\s+(?:does|do|did|can|could|is|are|was|were|should|would)\b"
_METHOD_OPENING = re.compile(METHOD_OPENING, re.IGNORECASE)


# A question that asks why, or whether: a "how much" inside it is part of what it asks about
# ("Why is it unsafe to scale noise to how much a statistic changes?", "Can I follow how far
# along a job is?"), not a value asked for.
_NO_VALUE_OPENING = re.compile(
    r"^\s*(?:why|can|could|does|do|is|are|should|would|will|may|must|has|have)\b", re.IGNORECASE
)


def wants_value(question: str) -> str:
    if _YEAR_ASKED.search(question):
        return "year"
    if _METHOD_OPENING.search(question) or _NO_VALUE_OPENING.search(question):
        return ""
    return "number" if _VALUE.search(question) or _MEASURED.search(question) else ""


def names(question: str) -> tuple[tuple[str, ...], ...]:
    """The terms of each name the question uses: a word written with a capital or a digit
    inside the sentence ("Hadoop", "GPT-3", "fastText"), not a number; in a German question,
    where every noun has a capital, only one with a capital or digit past its first letter
    ("PaSa", "DYCOS"). The first term is the whole word, the others its parts ("bertlarg",
    "bert", "larg")."""
    tokens = _TOKEN.findall(question)
    in_german = german(question, least=2)
    found = []
    for i, token in enumerate(tokens):
        inner = token[1:] if in_german else token
        named = any(c.isupper() for c in inner) or any(c.isdigit() for c in token)
        if i and not token[0].isdigit() and named:
            pieces = tuple(term_list(token))
            if pieces:
                found.append(pieces)
    return tuple(found)


def counted(question: str) -> tuple[str, ...]:
    """What is counted: the words after "how many" up to the verb ("how many participants
    [took part]")."""
    found = []
    for m in _COUNTED.finditer(question):
        for w in (m.group(1) or m.group(2) or m.group(3) or "").lower().split():
            if w in _VERBS:
                break
            if w not in STOPWORDS and len(w) > 1:
                found.append(w[:6])
    return tuple(dict.fromkeys(found))


def focus(question: str) -> tuple[str, ...]:
    """The terms of the words that name what a "which ..." or "what ..." question asks for, up
    to the first function word: "Which rotation periods were measured" -> ("rotat", "period").
    A hyphenated compound is left out (its parts are often written apart: "present-day"), and
    so are measure and asking words."""
    m = _FOCUS.match(question)
    if m is None:
        return ()
    in_german = "welch" in m.group(0).lower()  # its nouns are capitalised: "Welche Daten nutzt"
    out: list[str] = []
    for word in m.group(1).split():
        if word.lower() in _OBJECT_START and out:
            out.pop()  # "What limits the speedup", "Which metabolites increase the most": a verb
            break
        if word.lower() in STOPWORDS or (in_german and not word[:1].isupper()):
            break
        found = term_list(word) if "-" not in word else []
        if (
            found and found[0] in FOREIGN_FUNCTION_WORDS
        ):  # "Welche Eigenschaft von ...": ends at "von"
            break
        if found and found[0] not in _MEASURE_WORDS and found[0] not in _ASKING:
            out.append(found[0])
    return tuple(dict.fromkeys(out))


def units_asked(question: str) -> frozenset[str]:
    found = (
        u
        for pattern, units in _UNIT_ASKED
        if re.search(pattern, question, re.I)
        for u in units.split()
    )
    return frozenset(found)


def library_ask(question: str) -> LibraryAsk | None:
    """The filters of a question that lists papers of the library, or None."""
    if not _LIBRARY.search(question):
        return None
    bib = bib_filters(question)
    body = question
    for start, end in sorted(bib.spans, reverse=True):  # said once: no name, year or topic
        body = f"{body[:start]} {body[end:]}"
    years = tuple(int(y) for y in _YEAR.findall(body))
    body = _YEAR.sub(" ", body)
    tokens = re.findall(r"[^\W\d_][\w'-]*", body)
    # Names: capitalised words other than the question's first word (authors, venues, "ACM").
    names = tuple(
        dict.fromkeys(t.removesuffix("'s") for i, t in enumerate(tokens) if i and t[0].isupper())
    )
    name_terms = set(term_list(" ".join(names))) if _AUTHOR_CUE.search(body) else set()
    topic = tuple(
        t for t in question_terms(body) if t not in name_terms and t not in _LIBRARY_WORDS
    )
    about = _ABOUT.search(body)
    subject = tuple(t for t in question_terms(about.group(1)) if t in topic) if about else ()
    return LibraryAsk(years=years, names=names, topic=topic, bib=bib, about=subject)


def is_follow_up(question: str, history_questions: Sequence[str]) -> bool:
    """True when the question reads as a follow-up on the last turn of the conversation."""
    if not history_questions:
        return False
    return bool(_FOLLOW_UP.search(question)) or len(question_terms(question)) <= 1


def analyse(question: str, history_questions: Sequence[str] = ()) -> Asked:
    """The question as the answerers read it; ``history_questions`` oldest first."""
    own = question_terms(question)
    earlier: tuple[str, ...] = ()
    if is_follow_up(question, history_questions):
        earlier = tuple(t for t in question_terms(history_questions[-1]) if t not in own)
    return Asked(
        question=question,
        terms=own,
        earlier=earlier,
        value=wants_value(question),
        names=names(question),
        counted=counted(question),
        units=units_asked(question),
        rate=bool(RATE.search(question)),
        foreign=foreign(term_list(question)),
        library=library_ask(question),
        focus=focus(question),
    )
