"""Pure: what the PDF reader works out from extracted text, without PyMuPDF.

Raised runs marked with "^" in a page's plain text (exponents and footnote markers, placed from
MuPDF's XHTML), the title among page 1's lines by font size, and the paper's own DOI and arXiv
id from the text before its references. ingest/pdf.py extracts; this module decides.
"""

from __future__ import annotations

import re
from html import unescape

from research_assistant.ids import ARXIV_IN_TEXT, DOI_IN_TEXT

_DOI_LABEL = re.compile(r"(?:doi\s*:?\s*|doi\.org/)$", re.IGNORECASE)
_REFERENCES = re.compile(r"^\s*(?:\d+\.?\s*)?(references|bibliography|literatur)\s*$", re.I | re.M)
# Journal banners set in a larger font than the title (JSS, JCAP): never the title.
_HEADER = re.compile(r"^(journal of|proceedings|transactions|annals of|letters)\b", re.I)


def before_references(text: str) -> str:
    """Cut at a References heading so a cited work's DOI is not taken for the paper's own."""
    m = _REFERENCES.search(text)
    return text[: m.start()] if m else text


def find_doi(text: str) -> str:
    found: list[tuple[int, int, str]] = []  # (unlabelled?, position, doi)
    for m in DOI_IN_TEXT.finditer(text):
        doi = m.group().split("^")[0].rstrip(".,;:)]}'").lower()  # not its footnote marker
        labelled = bool(_DOI_LABEL.search(text[max(0, m.start() - 8) : m.start()]))
        found.append((0 if labelled else 1, m.start(), doi))
    dois = [d for *_, d in sorted(found)]
    # A DOI broken at a line end ("10.1371/journal.") is a prefix of the full one printed later.
    for doi in dois:
        if not any(other != doi and other.startswith(doi) for other in dois):
            return doi
    return ""


def find_arxiv(text: str) -> str:
    m = ARXIV_IN_TEXT.search(text)
    return m.group(1) if m else ""


def pick_title(lines: list[tuple[float, str]]) -> str:
    """The first run of consecutive lines set in the largest font, from (font size, text) lines."""
    candidates = [
        (size, text)
        for size, text in lines
        if sum(c.isalpha() for c in text) >= 3
        and not _HEADER.match(text)
        and not text.lower().startswith("arxiv:")
    ]
    # A figure label can be set larger than the title ("Paper Search" in pasa.pdf): require
    # the run at a size to have a few words before accepting it.
    for size in sorted({s for s, _ in candidates}, reverse=True):
        run: list[str] = []
        for line_size, text in candidates:
            if abs(line_size - size) < 0.3:
                run.append(text)
            elif run:
                break
        title = _join_lines(run[:4])
        if len(title.split()) >= 3:
            return title
    return ""


def _join_lines(lines: list[str]) -> str:
    out = ""
    for line in lines:
        if out.endswith("-") and line[:1].islower():
            out = out[:-1] + line
        else:
            out = f"{out} {line}".strip()
    return out


# Superscripts --------------------------------------------------------------------------------
#
# MuPDF flags a character as superscript (bit 0 of a span's "flags" in get_text("dict")) when its
# baseline lies above the baseline of its line's first character by more than a tenth of its
# size. Its XHTML output for the same text page wraps exactly those characters in <sup>. Writing
# the XHTML costs about 4% of the plain text extraction (text page and text), the HTML output with
# font sizes 14%, the dict 90%: the XHTML is written for every page, and only a page with a <sup>
# (half of the corpus pages) is looked at further. Subscripts carry no flag; telling one from a
# small glyph on the baseline takes the dict's baselines or the HTML's sizes on every page, more
# than the ingest can spare (bench/ingest.py), so a subscript stays as printed ("H2O").
#
# The XHTML joins a block's lines with spaces and drops control characters; otherwise its text
# is the plain text. Each raised run is placed in the plain text by the dozen characters before
# it, searching on from the run placed last; across a line end or a control character spaces and
# control characters are ignored. A run that cannot be placed is left unmarked, and nothing else
# of the plain text changes.

_MAX_EXPONENT = 24  # a longer raised run is no exponent (a line whose first glyph is lowered)
_XHTML_TAG = re.compile(r"<[^>]*>")
# One raised run: adjacent <sup>s (a font change inside it); the literal start keeps this fast.
_RAISED = re.compile(r"<sup>.*?</sup>(?:<sup>.*?</sup>)*", re.S)
_WINDOW = 64  # characters of XHTML before a run read for its context (more if entities)
_GAPS = re.compile(r"[\s\x00-\x1f\x7f\ufffd]+")  # what the XHTML and the plain text may differ in
_SOLID = re.compile(r"[^\s\x00-\x1f\x7f\ufffd]+")
_SOLID_WINDOW = 800  # characters of plain text searched first for a run not found as it is
_CONTEXT = 12  # characters before a raised run (spaces aside) that place it in the plain text
_EXPONENT_AFTER = re.compile(r"(?:[\d)\]]|(?<![^\W\d_])e)$")  # 10, 1.5 × 10, (x + y), e
_MARK = "[0-9*\u2217\u22c6\u2020\u2021\u00a7\u00b6\u2016#]"  # digits, * ∗ ⋆ † ‡ § ¶ ‖ #
_MARKER = re.compile(rf"{_MARK}+(?:[\s,\u2013\u2212-]+{_MARK}+)*[\s,]*")  # 1 / 1,2 / 1–3 / *
_CLOSERS = frozenset(".,;:)]\u2019\u201d'\"")  # after a word, before its footnote marker
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
_MINUS = "\u2212"


def mark_raised(text: str, xhtml: str) -> str:
    """``text`` with "^" before each exponent and footnote marker that MuPDF flags as raised."""
    edits: list[tuple[int, int, str]] = []  # (position, 0 insert / 1 replace, text)
    done, end = 0, -1  # in text: the end of the last run placed, the start of its context
    for m in _RAISED.finditer(xhtml):
        previous = xhtml[m.start() - 1]  # a tag's or an entity's end, or the character before
        if not (previous in ">;" or previous.isalnum() or previous in _CLOSERS):
            continue  # after a space, an operator, an opening bracket
        run = _xhtml_text(m.group()).rstrip()
        if not run or run[0].isspace():
            continue
        exponent = _raised_kind(before := _xhtml_before(xhtml, m.start()), run)
        if exponent is None:
            continue
        context = before[-_CONTEXT:]
        at = _find_exact(text, context + run, end, done - len(context))
        # a line end inside the context is a space in the XHTML
        spaces = [i for i, ch in enumerate(context) if ch == " "] if at < 0 else []
        for i in reversed(spaces):
            key = f"{context[:i]}\n{context[i + 1 :]}{run}"
            if (at := _find_exact(text, key, end, done - len(context))) >= 0:
                break
        if at >= 0:
            end, start, done = at, at + len(context), at + len(context) + len(run)
        else:  # across a control character, or spaces the XHTML writes otherwise
            context = _GAPS.sub("", before)[-_CONTEXT:]
            place = _find_solid(text, context, _GAPS.sub("", run), end, done)
            if place is None:
                continue
            end, start, done = place
        edits.append((start, 0, "^"))
        if exponent and _MINUS in run:  # 10^-22: an exponent's minus sign in ASCII
            edits += [(i, 1, "-") for i in range(start, done) if text[i] == _MINUS]
    if not edits:
        return text
    out: list[str] = []
    last = 0
    for where, replaces, mark in edits:
        out += [text[last:where], mark]
        last = where + replaces
    out.append(text[last:])
    return "".join(out)


def _xhtml_text(xhtml: str) -> str:
    text = _XHTML_TAG.sub("", xhtml) if "<" in xhtml else xhtml
    return unescape(text) if "&" in text else text


def _xhtml_before(xhtml: str, end: int) -> str:
    """The text of the XHTML up to ``end``: a few dozen characters, earlier raised runs in it."""
    chunk = xhtml[max(end - 2 * _CONTEXT, 0) : end]
    if not any(c in chunk for c in "<>&;"):  # prose: the characters themselves
        return chunk
    for size in (_WINDOW, 4 * _WINDOW):
        start = max(end - size, 0)
        chunk = xhtml[start:end]
        if start:  # not cut inside a tag or an entity
            tag_end = chunk.find(">")
            if tag_end >= 0 and not 0 <= chunk.find("<") < tag_end:
                chunk = chunk[tag_end + 1 :]
            entity_end = chunk.find(";", 0, 10)
            if entity_end >= 0 and chunk.find("&", 0, entity_end) < 0:
                chunk = chunk[entity_end + 1 :]
        text = _xhtml_text(chunk)
        if len(text) >= 2 * _CONTEXT or not start:
            break
    return text


def _find_exact(text: str, key: str, end: int, low: int) -> int:
    """Where ``key`` is in ``text`` after ``end`` and not before ``low``; -1 if it is not."""
    at = text.find(key, end + 1)
    while 0 <= at < low:
        at = text.find(key, at + 1)
    return at


def _find_solid(
    text: str, context: str, run: str, end: int, done: int
) -> tuple[int, int, int] | None:
    """(context start, run start, run end) in ``text`` of ``context`` and ``run`` with any spaces
    and control characters between their characters; the context starts after ``end`` and the
    run at or after ``done``. None if not there."""
    low = end + 1
    first = len(_GAPS.sub("", text[low:done]))  # solid characters before ``done``
    key = context + run
    for high in (low + _SOLID_WINDOW, len(text)):
        solid = _GAPS.sub("", text[low:high])
        at = solid.find(key)
        while at >= 0 and at + len(context) < first:
            at = solid.find(key, at + 1)
        if at >= 0:
            start = at + len(context)
            where = _positions(text, low, [at, start, start + len(run) - 1])
            return where[0], where[1], where[2] + 1
        if high >= len(text):
            break
    return None


def _positions(text: str, low: int, offsets: list[int]) -> list[int]:
    """Positions in ``text`` of the characters at ascending ``offsets`` of text[low:] without
    spaces and control characters."""
    out: list[int] = []
    seen = 0
    for m in _SOLID.finditer(text, low):
        size = m.end() - m.start()
        while len(out) < len(offsets) and offsets[len(out)] < seen + size:
            out.append(m.start() + offsets[len(out)] - seen)
        if len(out) == len(offsets):
            break
        seen += size
    return out


def _raised_kind(before: str, run: str) -> bool | None:
    """True for an exponent, False for a footnote or citation marker, None to leave it alone.

    ``before`` is the text up to the raised ``run``; "directly after" means no space between.
    """
    core = run.strip()
    if not core or not before or run[0].isspace() or before[-1].isspace():
        return None
    if _EXPONENT_AFTER.search(before[-2:]):  # 10^6.6, 1.5 × 10^-22, (1 + z)^2, e^x; not 20th
        if len(core) > _MAX_EXPONENT or len(core.split()) > 3 or core in _ORDINALS:
            return None
        return True if any(c.isalnum() for c in core) or _MARKER.fullmatch(core) else None
    after_word = before[-1].isalpha() or (
        before[-1] in _CLOSERS and before[-2:-1].isalnum()  # "results.^3", "Trilling,^1"
    )
    return False if after_word and _MARKER.fullmatch(run) else None


def as_printed(quote: str) -> str:
    """``quote`` as the page prints it: without the "^" read_pdf writes before a raised run."""
    return quote.replace("^-", "^\u2212").replace("^", "") if "^" in quote else quote


__all__ = [
    "as_printed",
    "before_references",
    "find_arxiv",
    "find_doi",
    "mark_raised",
    "pick_title",
]
