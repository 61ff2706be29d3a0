"""The sentences of a retrieved passage that an answer may quote, cleaned as the checker reads them.

Whitespace normalised; words hyphenated at a line end joined, as ``verify`` joins them; a section
heading glued to the front dropped; the paper's own in-text citations such as "[12]" or "(Smith,
2019)" removed, since those are its citations, not ours; a piece too long for one sentence cut
at the superscript citations that end its sentences, a caption set into a sentence cut out.
Fragments, headings, table rows, captions, reference-list entries and front matter are never
quoted. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from rapidfuzz import fuzz

from research_assistant.check.mentions import CITATION_LIKE
from research_assistant.text import LINE_HYPHEN, fold, normalize_space, numbers, sentence_spans

__all__ = [
    "cite_sentence",
    "clean_sentences",
    "dehyphenate",
    "near_duplicate",
    "piece_spans",
    "strip_citations",
    "strip_heading",
    "usable",
]

# rapidfuzz ratio on folded text above which two sentences with the same numbers are one
# (overlapping chunks repeat sentences; papers restate their abstract in the conclusion).
NEAR_DUPLICATE_RATIO = 85
MIN_WORDS, MAX_WORDS = 6, 60  # shorter: headers, fragments; longer: run-ons from bad extraction
MIN_LETTER_SHARE = 0.6  # share of tokens with letters; below: tables, equations, reference lists
MAX_CAPITALISED_SHARE = 0.5  # of word tokens; above: a title or heading (prose is ~10-25%)

_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?])")
_END = re.compile(r"[.!][\"')\]]*$")
_CODE = re.compile(r"\w\s*=\s*[\w.]+\(|->|[{}]")
_ENDS_IN_ASIDE = re.compile(r"[.!][\"']?[)\]]+[\"']?$")
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
# Words that open a sentence and seldom a heading: after a bare number, the number is a
# footnote's or a page's ("2 If all the loops ...", not "2 Related work ...").
_OPENERS = (
    "In The We This These Our It For However Here Thus As To On A An One Each All When Since "
    "Although While If Note Some Most There"
).split()
_OPENER_SET = frozenset(_OPENERS)


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
    if len(tokens) > 2 and tokens[0] in _OPENER_SET and tokens[1][:1].islower():
        return text[start:]  # a footnote's number: "2 If all the loops in a nest are ..."
    return text


def usable(text: str) -> bool:
    """A whole prose sentence: not a fragment cut at a chunk edge, a header, a table row, a
    reference-list entry, a question, too short to say anything or too long to be one claim."""
    tokens = text.split()
    if not MIN_WORDS <= len(tokens) <= MAX_WORDS:
        return False
    if not (text[0].isupper() or text[0].isdigit()) or _END.search(text) is None:
        return False
    # a number written in groups ("1 256 683") is one token of the letter share
    grouped = _DIGIT_GROUPS.sub("0", text).split()
    letters = sum(1 for t in grouped if any(c.isalpha() for c in t))
    capitalised = sum(1 for t in tokens[1:] if t[0].isupper())
    if capitalised / len(tokens) > MAX_CAPITALISED_SHARE:
        return False
    if letters / len(grouped) < MIN_LETTER_SHARE or _REFERENCE_LIKE.search(text):
        return False
    if text.count("(") != text.count(")"):  # split inside a parenthesis: a fragment, unless
        marked = _INLINE_ENUMERATION.sub("", text)  # "are, 1)neural networks ... and, 2) ..."
        if marked.count("(") != marked.count(")"):
            return False
    if text.count("[") != text.count("]"):
        return False
    if _CODE.search(text):
        return False  # program text quoted in the paper: "uppercase = GetCounter(...);"
    if _ENDS_IN_ASIDE.search(text):
        return False  # "... (as we saw earlier.)": our [Label] would fall inside the aside
    if _HEADING.search(text) or _VANCOUVER.search(text) or _FRONT_MATTER.search(text):
        return False
    return len(_INITIAL.findall(text)) < 3


def near_duplicate(a: str, b: str) -> bool:
    """Nearly the same words and the same numbers: "D is 1.71 in two dimensions" and "D is
    2.50 in three dimensions" are alike in wording but state different facts."""
    return fuzz.ratio(fold(a), fold(b)) > NEAR_DUPLICATE_RATIO and numbers(a) == numbers(b)


# An enumeration mark inside a sentence, with no opening parenthesis: "1)neural networks".
_INLINE_ENUMERATION = re.compile(r"(?:^|(?<=[\s,]))(?:\d{1,2}|[a-h]|[ivx]{1,4})\)(?=\s?[a-z])")
_DIGIT_GROUPS = re.compile(r"\d{1,3}(?:[ \u2009\u202f]\d{3})+\b")
# An enumeration mark opening a sentence: "(3) A controlled lab study ...", "b) We ...".
_ENUMERATION = re.compile(r"^\(?(?:\d{1,2}|[a-h]|[ivx]{1,4})\)\s+(?=[A-Z])")
# A caption or table/figure label: "Table 3: ...", "Figure 2. ...", "Fig. 4 ...", a line
# opened by "*" or "-".
_CAPTION = re.compile(r"^(?:table|figure|fig\.|algorithm|listing)\s*[\dIVX]+\s*[:.]|^[*-]\s", re.I)
# A caption glued inside a piece by text extraction, with the table it labels: "It is worth
# stressing the nature of the Input Output cbow count A.N ... Table 2: Accuracy of ..." (prose
# names a table without the colon: "as Table 2 shows").
_CAPTION_INSIDE = re.compile(r"\s(?:Table|Figure|Fig\.)\s*\d+\s*:\s")
# ... set into the middle of a sentence, which goes on in lower case after it: "We term
# scientific model discovery the identification Figure 1: Scientific model discovery is an
# iterative process. of a statistical model ...": the caption is cut out.
_INSERTED_CAPTION = re.compile(r"\s(?:Table|Figure|Fig\.)\s*\d+\s*:\s[^.]{1,300}\.(?=\s+[a-z])")
# A list item's bullet: the item is often a whole sentence ("• The implementation does not
# currently trace recursion, so ..."); the bullet is dropped and the rest judged as prose.
_BULLETS = "•▪‣◦\uf0b7\uf0a7\uf06c\uf0d8"  # and the Symbol and Wingdings fonts' bullets
_BULLET = re.compile(rf"^[·{_BULLETS}]\s+(?=\S)")


# A figure's label the sentence splitter cut from its caption: "... Figure 2." then "Histogram
# of transformed V magnitudes ...": the next sentence is the caption. Not a reference to the
# figure that ends a sentence ("... as shown in Figure 2.").
_LABEL_BEFORE = re.compile(
    r"(?<!\bin )(?<!\bsee )(?<!\bof )(?<!\bto )(?<!\band )(?<!\bby )(?<!\bon )(?<!\bthe )"
    r"\b(?:figure|fig\.|table)\s*[\dIVX]+\s*[.:]?$",
    re.IGNORECASE,
)
# A running head and page number glued to the front by text extraction: "DECam: Size
# distribution of NEOs 7 In conclusion, ...": the sentence starts after the page number.
_RUNNING_HEAD = re.compile(rf"^[^.!?]{{3,80}}?\s\d{{1,3}}\s+(?=(?:{'|'.join(_OPENERS)})\s)")
# A footnote's number glued to the word that opens its text: "1Sowohl für den DBLP ...".
_GLUED_MARK = re.compile(r"^\d{1,2}(?=[A-Z][a-z]{2,})")
_LABEL_TAIL = 64  # characters: "(?<!\bsee )figure 12." and more, well inside
# Axis ticks of a figure glued into a sentence: "... 0 100 200 300 400 rate (arcsec / hr)".
_NUMBER_RUN = re.compile(r"(?:(?<![\w.,])\d+(?:\.\d+)?\s+){4,}")


# Sentence ends the sentence splitter does not see, because no capital letter follows the
# full stop: a bullet ("... as follows: • A ... . • B ..."), a footnote mark ("... mixtures of
# Gaussians. ∗Part of the work ..."). Each piece between them is judged as a sentence. (A
# superscript citation number, "... was made.^17 Explaining ...", is left to the splitter:
# cutting there lost a paraphrased question whose answer needs the sentences around it.)
_UNSEEN_END = re.compile(rf"\s[{_BULLETS}]\s+(?=\S)|(?<=[.!?])\s+(?=[∗†‡§¶]+\s*[A-Z])")


# A sentence end the splitter cannot see because a citation number set as a superscript
# follows it: "... why the prediction was made.^17 Explaining predictions ...", "... or
# intrinsic to the model?.32,33 An intrinsic ...", "... is self-explanatory^32 These are ...".
# Cut there only inside a piece too long to be one sentence anyway: a piece that is one
# (a question's answer may need the sentence and the one after it) stays whole.
_SUPERSCRIPT_END = re.compile(
    r"(?:(?<=[.!?])\^?|(?<=[a-z])\^)\d{1,3}(?:[,–-]\d{1,3})*(?=\s+[A-Z][a-z])"
)


def piece_spans(text: str) -> list[tuple[int, int]]:
    """The sentence spans of ``text``, cut again at the sentence ends the splitter misses."""
    out = []
    for start, end in sentence_spans(text):
        cut = start
        for m in _UNSEEN_END.finditer(text, start, end):
            out.extend(_superscript_cut(text, cut, m.start()))
            cut = m.end()
        out.extend(_superscript_cut(text, cut, end))
    return [(s, e) for s, e in out if e > s]


# A citation or footnote number set as a superscript after a word: "watermark^20 and" (not an
# exponent: "10^6.6", "R^2").
_SUPERSCRIPT_MARK = re.compile(
    r"(?:(?<=[a-z]{3})|(?<=[a-z]{2}[,;]))\^\d{1,3}(?:[,–-]\d{1,3})*(?![\w^]|\.\d)"
)


def _superscript_cut(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The piece ``start:end``, cut at each superscript citation that ends a sentence (the
    citation dropped, as ``strip_citations`` drops the paper's citations) when it is too long
    for one."""
    if len(text[start:end].split()) <= MAX_WORDS:
        return [(start, end)]
    out, cut = [], start
    for m in _SUPERSCRIPT_END.finditer(text, start, end):
        out.append((cut, m.start()))
        cut = m.end()
        while cut < end and text[cut].isspace():
            cut += 1
    out.append((cut, end))
    return out


def clean_sentences(text: str) -> list[tuple[int, str]]:
    """(index in ``piece_spans``, cleaned sentence) of each usable sentence of a passage, in
    order."""
    out = []
    # most passages have no word broken at a line end: then there is nothing to join, and the
    # compounds of the passage (a scan of all of its words) are not needed
    broken = LINE_HYPHEN.search(text) is not None
    hyphenated = set(_HYPHENATED.findall(text)) if broken else set()
    before = ""
    for k, (start, end) in enumerate(piece_spans(text)):
        piece = text[start:end]
        raw = normalize_space(dehyphenate(piece, hyphenated) if broken else piece)
        # the label ends the sentence before: only its last characters are searched
        caption = bool(_LABEL_BEFORE.search(before, max(0, len(before) - _LABEL_TAIL)))
        before = raw
        cleaned = _INSERTED_CAPTION.sub("", _SUPERSCRIPT_MARK.sub("", raw))
        cleaned = _BULLET.sub("", strip_citations(cleaned), count=1)
        cleaned = strip_heading(_ENUMERATION.sub("", cleaned, count=1))
        cleaned = _GLUED_MARK.sub("", _RUNNING_HEAD.sub("", cleaned, count=1), count=1)
        if caption or _NUMBER_RUN.search(_DIGIT_GROUPS.sub("0", cleaned)):
            continue
        if cleaned.endswith(":"):  # "We currently apply three backward filters:" (a list)
            cleaned = cleaned[:-1].rstrip() + "."
        if usable(cleaned) and not _CAPTION.search(cleaned) and not _CAPTION_INSIDE.search(cleaned):
            out.append((k, cleaned))
    return out
