"""Pure: find a manuscript's reference list, split it into entries, parse each entry.

The list starts at the last "References" / "Bibliography" / "Literature cited" heading of the
text (a heading on a line of its own). Entries are split by their numbers ("[12]", "12.") when
the list is numbered, by blank lines when it has them (Word, Markdown), else by lines that start
as a reference starts ("Surname, I." / "Surname I," / "I. Surname,") after a line that ends one.
Parsing is heuristic and printed-style agnostic: DOI and arXiv id by their patterns, the year
as the first plausible year, the first author as the first name, the title as the quoted text,
else the sentence after the year, else the longest early sentence.
"""

from __future__ import annotations

import re

from research_assistant.ids import ARXIV_IN_TEXT, DOI_IN_TEXT
from research_assistant.manuscript.model import RefEntry
from research_assistant.text import PARTICLES

__all__ = ["MAX_ENTRIES", "find_reference_list", "parse_entry", "split_entries"]

MAX_ENTRIES = 2000  # a review has a few hundred; more is not a reference list
_MAX_ENTRY_CHARS = 2000  # one entry; a longer run of text is no reference

_HEADING = re.compile(
    r"^[ \t#*]*(?:\d+\.?|[IVX]+\.)?[ \t]*(references(?: and notes| cited)?|bibliography|"
    r"literature cited|works cited|cited literature|literatur(?:verzeichnis)?|"
    r"r[ée]f[ée]rences bibliographiques)[ \t*:]*$",
    re.I | re.M,
)
_AFTER = re.compile(
    r"^[ \t#*]*(?:[A-Z]\.?|\d+\.?)?[ \t]*(appendix|appendices|supplementary|supporting "
    r"information|acknowledg(?:e)?ments?|figure captions|tables?)\b[^\n]{0,60}$",
    re.I | re.M,
)
_BRACKET_NUM = re.compile(r"^[ \t]*\[(\d{1,4})\][ \t]*", re.M)
# An alpha-style label opening an entry: "[Tho17a]", "[AAB+15]", "[JOP+ ]", "[hut]"
_LABEL = re.compile(r"^[ \t]*\[([A-Za-z][A-Za-z+\-]{0,7}(?:\d{2})?[a-z]?\+?) ?\][ \t]*", re.M)
# A line ending so continues on the next one: "Boslough, M., Brown, P., &" / "2015, in"
_CONTINUES = re.compile(r"(?:[,&:;\-–]|\band|\bin|\bof|\bthe|\beds?\.)$", re.I)
_BROKEN_LINK = re.compile(r"((?:10\.\d{4,9}|https?:)/\S*/)[ \t]*\n[ \t]*(?=\S)")
_ET_AL = re.compile(r",?\s*\bet al\b\.?.*$")
_PAREN_NUM = re.compile(r"^[ \t]*\((\d{1,4})\)[ \t]+", re.M)
_DOT_NUM = re.compile(r"^[ \t]*(\d{1,4})\.[ \t]+(?=\S)", re.M)
_YEAR = re.compile(r"(?<![\d/.])((?:1[6-9]|20)\d\d)([a-z]?)(?![\d])")
_QUOTED = re.compile(r"[\"“”«]\s*([^\"“”«»]{8,300}?)[,.]?\s*[\"“”»]")
# How a reference starts: "Smith, J." "Smith J," "van der Berg, A." "J. Smith," "Smith, John"
_START = re.compile(
    r"^(?:[a-z]{1,4} ){0,3}[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)?,? (?:[A-Z]\.|[A-Z]{1,3}[,.]|[A-Z][a-z]+)"
    r"|^(?:[A-Z]\. ?){1,3}[A-Z][\w'’\-]+"
)
_RESOLVER = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:?)\s*$", re.I)
_VANCOUVER = re.compile(
    r"^((?:[a-z]{1,4} ){0,3}[A-Z][\w'’\-]+(?: [A-Z][a-z][\w'’\-]+)?) [A-Z]{1,3}(?:[,.]|$)"
)
_SENTENCE = re.compile(r"(?<=[a-z0-9\)\]?!])[.?!]\s+(?=[A-Z\"“(])")


def find_reference_list(text: str) -> tuple[int, int] | None:
    """(start, end) of the reference list in ``text``, after its heading; None if no heading."""
    heads = list(_HEADING.finditer(text))
    if not heads:
        return None
    head = heads[-1]
    start = head.end()
    after = _AFTER.search(text, start + 200) if len(text) > start + 200 else None
    return start, after.start() if after else len(text)


def split_entries(text: str, paragraphs: bool = False) -> list[tuple[int | None, str, str]]:
    """(number or None, label or "", entry text) of each entry of a reference list, in order:
    numbered "[12]" / "(12)" / "12.", labelled "[Tho17a]" (alpha styles), or neither; then
    one entry per paragraph when ``paragraphs`` (Word, Markdown: a PDF's blank lines are page
    breaks, not entry breaks), else by line starts."""
    for pattern in (_BRACKET_NUM, _PAREN_NUM, _DOT_NUM):
        found = _numbered(text, pattern)
        if found:
            return [(n, "", t) for n, t in found[:MAX_ENTRIES]]
    labels = list(_LABEL.finditer(text))[:MAX_ENTRIES]
    ends = [m.start() for m in labels[1:]] + [len(text)]
    out: list[tuple[int | None, str, str]] = []
    if len(labels) >= 2:
        for m, stop in zip(labels, ends, strict=True):
            out.append((None, m.group(1), _flat(text[m.end() : stop])[:_MAX_ENTRY_CHARS]))
        return out
    pieces = [p for p in re.split(r"\n[ \t]*\n", text) if p.strip()] if paragraphs else []
    if len(pieces) >= 2 and sum(bool(_YEAR.search(p)) for p in pieces) >= 2:
        entries = [_flat(p) for p in pieces if _YEAR.search(p)]
    else:
        entries = _by_line_starts(text)
    out.extend((None, "", e) for e in entries[:MAX_ENTRIES])
    return out


def _numbered(text: str, pattern: re.Pattern[str]) -> list[tuple[int | None, str]]:
    """Entries of a list numbered 1, 2, 3...: a number counts only as the next in sequence."""
    marks: list[re.Match[str]] = []
    for m in pattern.finditer(text):
        if int(m.group(1)) == (int(marks[-1].group(1)) + 1 if marks else 1):
            marks.append(m)
    if len(marks) < 2:
        return []
    out: list[tuple[int | None, str]] = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((int(m.group(1)), _flat(text[m.end() : end])[:_MAX_ENTRY_CHARS]))
    return out


def _by_line_starts(text: str) -> list[str]:
    entries: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        joined = " ".join(current)
        ends = bool(_YEAR.search(joined)) and not _CONTINUES.search(joined.rstrip())
        if current and ends and _START.match(line):
            entries.append(_flat(joined))
            current = []
        current.append(line)
    if current:
        entries.append(_flat(" ".join(current)))
    return [e[:_MAX_ENTRY_CHARS] for e in entries if _YEAR.search(e) or DOI_IN_TEXT.search(e)]


def _flat(text: str) -> str:
    """One line: a word hyphenated at a line end joined again, whitespace collapsed."""
    text = re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", text)
    text = _BROKEN_LINK.sub(r"\1", text)  # "https://doi.org/10.48550/\narXiv.2501.10120"
    return " ".join(text.split())


def _first_author(head: str) -> tuple[str, tuple[str, ...]]:
    """The first author's family name and the names, from the text before the year/title."""
    head = head.strip(" .,;:(")
    vancouver = _VANCOUVER.match(head)
    if vancouver:  # "Smith JA, Lee C." and "Thoma M. Title..."
        return vancouver.group(1), (head.split(".")[0],)
    names = [
        n.strip() for n in re.split(r",? and |,? & |;|, (?=[A-Z]\. ?[A-Z])", head) if n.strip()
    ]
    if not names:
        return "", ()
    if names and _ET_AL.search(names[-1]):  # "L. Allen et al." -> "L. Allen", "others"
        names[-1:] = [n for n in (_ET_AL.sub("", names[-1]).strip(" ,"), "others") if n]
    first = names[0]
    parts = [p for p in first.split(",")[0].split() if p]
    if "," in first and parts:  # "Smith, J." / "van der Berg, A."
        family = " ".join(parts)
    elif len(parts) >= 2 and re.fullmatch(r"[A-Z]{1,3}\.?", parts[-1]):  # Vancouver "Smith JA"
        family = " ".join(parts[:-1])
    elif parts:  # "J. Smith" / "John Smith" / "J. van der Berg"
        i = len(parts) - 1
        while i > 0 and parts[i - 1].lower() in PARTICLES:
            i -= 1
        family = " ".join(parts[i:])
    else:
        family = ""
    return family.strip(" .,"), tuple(names[:50])


def parse_entry(text: str, number: int | None = None, label: str = "") -> RefEntry:
    """The parts of one printed reference; whatever cannot be found is left empty."""
    text = _flat(text)
    doi_m = DOI_IN_TEXT.search(text)
    doi = doi_m.group().rstrip(".,;)]}") if doi_m else ""
    arxiv_m = ARXIV_IN_TEXT.search(text)
    arxiv = arxiv_m.group(1) if arxiv_m else ""
    scrubbed = text[: doi_m.start()] if doi_m else text
    scrubbed = _RESOLVER.sub("", ARXIV_IN_TEXT.sub("", scrubbed)).strip()
    year_m = _YEAR.search(scrubbed)
    year = year_m.group(1) + year_m.group(2) if year_m else ""
    quoted = _QUOTED.search(scrubbed)
    if quoted:
        title, head = quoted.group(1), scrubbed[: quoted.start()]
        venue = _next_sentence(scrubbed[quoted.end() :])
    elif (
        year_m and year_m.start() < 0.6 * len(scrubbed) and _author_like(scrubbed[: year_m.start()])
    ):
        head = scrubbed[: year_m.start()]
        rest = scrubbed[year_m.end() :].lstrip(" ).,:;")
        title = _next_sentence(rest)
        venue = _next_sentence(rest[len(title) :].lstrip(" .?!"))
    else:
        sentences = [s for s in _SENTENCE.split(scrubbed) if s.strip()]
        head = sentences[0] if sentences else ""
        title = sentences[1] if len(sentences) > 1 else ""
        venue = sentences[2] if len(sentences) > 2 else ""
    first, names = _first_author(head)
    return RefEntry(
        text=text,
        number=number,
        first_author=first,
        authors=names,
        year=year,
        title=title.strip(" .,"),
        venue=venue.strip(" .,")[:200],
        doi=doi,
        arxiv_id=arxiv,
        key=label,
    )


def _author_like(head: str) -> bool:
    """Whether the text before the year reads as names (not a title with a year in it)."""
    head = head.strip(" .,;:(")
    return bool(head) and len(head) < 400 and head[:1].isupper()


def _next_sentence(text: str) -> str:
    text = text.strip()
    m = _SENTENCE.search(text)
    return text[: m.start() + 1] if m else text
