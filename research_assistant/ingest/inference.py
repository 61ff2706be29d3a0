"""Pure: an entry for a PDF that has no BibTeX entry, read from the PDF itself (metadata="inferred").

Title from the sniffed title (else the metadata title, else the file name); authors from the
PDF metadata when they look like names, else from the name lines under the printed title; year
from a copyright line, a venue and year, a printed date, a volume year, or the arXiv id. When
unsure, a field stays empty: a wrong author or year would make the paper cited wrongly.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from pathlib import Path

from research_assistant.ids import norm_arxiv
from research_assistant.models import Name, Paper, PdfInfo
from research_assistant.text import PARTICLES, words

_JUNK_TITLE = re.compile(r"microsoft word|untitled|template|\.docx?$|\.tex$|^\W*$", re.I)
_JUNK_AUTHOR = re.compile(r"\b(user|admin|owner|computing|services|microsoft|ibm)\b", re.I)
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"  # January, Sept.
_YEAR = r"((?:19|20)\d\d|2100)"
_COPYRIGHT_YEAR = re.compile(rf"(?:©|\(c\)|c⃝|copyright)\s*{_YEAR}\b", re.I)
_DATE_YEAR = re.compile(rf"\b{_MONTH}\s+(?:\d{{1,2}}(?:[-–]\d{{1,2}})?,?\s+)?{_YEAR}\b")
# A journal header "2188 (2022) 012011": volume (year) article number.
_VOLUME_YEAR = re.compile(rf"\b\d+\s*\({_YEAR}\)\s*\d+")
# "OSDI 2004", "PLDI'09", "CHI '23" where a venue is printed: starting a line (ACM's "STOC'07,
# June 11-13" footer) or after "to appear in" and the like, not in running text ("on TREC 2019").
# A year glued or hyphened to capitals is a data set or task as often as a venue on the corpus's
# page 1s (ACE2005, AVE2007, WiLI-2018, JCRAI-2021): not taken.
_VENUE_YEAR = re.compile(
    rf"(?:^|(?i:\b(?:appears? in|appeared in|presented at|accepted (?:at|to|by)|published in"
    rf"|proc\.|proceedings of(?: the)?)\s+))[A-Z]{{2,8}}(?:\s{_YEAR}\b|\s?['’‘]\s?(\d\d)\b)",
    re.M,
)
_VENUE_LINE = re.compile(
    rf"^(?:in\s+)?(?:proceedings|conference|journal|symposium|workshop|vol\.|volume)\b"
    rf"[^\n]*?\b{_YEAR}\b",
    re.I | re.M,
)
# Authors printed under the title. Measured on the corpus (18 text PDFs + copy-protected.pdf):
# the title ends by line 11 of page 1 (7f4e..., under an IOP banner), the last author line is at
# most 22 lines after it (2302.07302v1, seven authors on name/e-mail/affiliation cards); both
# limits leave room for a longer banner or author list.
_HEAD_LINES = 60
_AUTHOR_LINES = 40
_AUTHOR_MARKS = re.compile(r"[\d∗*†‡§¶☯⋆#$+()✉]+")  # superscript digits, footnote signs
_AFFILIATION = re.compile(
    r"@|https?:|www\.|^\s*\d+\s*[A-Z]|\b(?:universit\w*|univ|dept|department\w*|departamento"
    r"|institut\w*|laborator\w*|lab|school|college|cent(?:er|re|ro)|faculty|research|inc|ltd"
    r"|llc|corporation|corp|company|gmbh|hospital|observatory|academy|e-?mail)\b",
    re.I,
)
_AUTHOR_END = re.compile(
    r"^(?:abstract|keywords|key words|index terms|summary|zusammenfassung|r[ée]sum[ée]"
    r"|received|(?:\d+\.?|I\.)?\s*introduction)\b",
    re.I,
)
_NAME_SPLIT = re.compile(r"\s*[,;&]\s*|\s+and\s+", re.I)
# Title words set in title case that are no one's name ("and Their Duals", "Towards a ..."):
# text.STOPWORDS would also drop real family names such as He (pasa.pdf).
_NOT_NAMES = frozenset(
    "the an of for with from into onto over under on in to at its their our your this that these"
    " those via using towards toward is are we".split()
)
_EMAIL = re.compile(r"\S+@\S+")
# LaTeX PDFs often print an accent as its own glyph before the letter: "F´ısica", "M¨uller".
_SPACING_ACCENTS = {"´": "\u0301", "`": "\u0300", "¨": "\u0308", "˜": "\u0303", "ˆ": "\u0302",
                    "ˇ": "\u030c", "¸": "\u0327"}  # fmt: skip
_LOOSE_ACCENT = re.compile(r"([´`¨˜ˆˇ¸])\s?([A-Za-zı])")
_INITIALS = re.compile(r"(?:[A-Z]\.-?)+|[A-Z]")  # "H.", "H.M.", "H.-J.", "E" (Weinan E)


def infer_paper(pdf: PdfInfo, key: str) -> Paper:
    """A Paper for a PDF that has no bibliography entry, from what the PDF itself shows."""
    name = Path(pdf.path).stem
    meta_title = "" if _JUNK_TITLE.search(pdf.metadata_title) else pdf.metadata_title
    arxiv = norm_arxiv(pdf.arxiv_id) if pdf.arxiv_id else ""
    authors = parse_authors(pdf.metadata_author)
    return Paper(
        key=key,
        title=pdf.title or meta_title or name,
        authors=authors or authors_under_title(pdf.first_page_text, pdf.title),
        year=infer_year(pdf.first_page_text, arxiv),
        doi=pdf.doi,
        arxiv_id=arxiv,
        metadata="inferred",
        pdf=Path(pdf.path).name,
        pages=pdf.page_count,
    )


def infer_year(first_page: str, arxiv_id: str = "", this_year: int | None = None) -> int | None:
    """A copyright year, a venue's year, a printed date's or a volume's year, else the arXiv
    yymm; else None. A two-digit venue year ('23) is the latest such year up to the year after
    ``this_year`` (default: the current year)."""
    m = _COPYRIGHT_YEAR.search(first_page)
    if m:
        return int(m.group(1))
    venue = _venue_year(first_page, this_year or date.today().year)
    if venue:
        return venue
    for pattern in (_DATE_YEAR, _VOLUME_YEAR):
        m = pattern.search(first_page)
        if m:
            return int(m.group(1))
    m = re.match(r"(\d\d)(\d\d)\.\d{4,5}$", arxiv_id) or re.search(r"/(\d\d)(\d\d)\d{3}$", arxiv_id)
    if m and 1 <= int(m.group(2)) <= 12:
        yy = int(m.group(1))
        return 2000 + yy if yy < 91 else 1900 + yy  # arXiv started in August 1991
    return None


def _venue_year(first_page: str, this_year: int) -> int | None:
    """The year beside a venue ("OSDI 2004", "STOC'07", "Proceedings of the 2023 ..."), when
    every such mention on the page agrees; two different years are a venue and a citation."""
    found: set[int] = set()
    for m in _VENUE_YEAR.finditer(first_page):
        if m.group(1):
            found.add(int(m.group(1)))
        else:
            yy = int(m.group(2))
            found.add(2000 + yy if 2000 + yy <= this_year + 1 else 1900 + yy)  # to appear
    found.update(int(m.group(1)) for m in _VENUE_LINE.finditer(first_page))
    return found.pop() if len(found) == 1 else None


def parse_authors(raw: str) -> tuple[Name, ...]:
    """Names from a PDF's Author metadata, or () when it does not look like people's names."""
    if not raw.strip() or _JUNK_AUTHOR.search(raw) or any(c.isdigit() for c in raw):
        return ()
    names: list[Name] = []
    for chunk in re.split(r"\s*;\s*|\s+and\s+|\s*&\s*", raw.strip()):
        family, _, given = chunk.partition(",")
        if given and len(family.split()) == 1 and "," not in given:
            names.append(Name(family=family.strip(), given=given.strip()))  # "Family, Given"
            continue
        names += [n for part in chunk.split(",") if (n := _name(part))]
    plausible = all(n.family[:1].isupper() for n in names)
    return tuple(names) if names and plausible else ()


def authors_under_title(first_page: str, title: str) -> tuple[Name, ...]:
    """The authors printed between the title and the abstract, or () when unsure.

    The run of name-like lines right after the title counts when an affiliation, an e-mail or
    the abstract comes next, so a half-sniffed title's second line is not taken for a person;
    every name in it must be 2-4 capitalised words or initials. When that run holds one name,
    the paper may set one author per card (name, e-mail, affiliation; ACM, CHI, NIPS): later
    runs then count if an affiliation or e-mail follows them, never the abstract ("Paper
    Search", a figure label in pasa.pdf), and never after a full author list (the addresses
    under 1707.04066's eight authors: "P.O. Box", "South Africa").
    """
    # the rules below read affiliation marks as the page prints them ("Xi1,2", "Wang†"); the
    # reader writes raised marks as "Xi^1,2"
    lines = first_page.replace("^", "").splitlines()[:_HEAD_LINES]
    start = _title_end(lines, title)
    if start is None:
        return ()
    names: list[Name] = []
    run: list[str] = []
    at_top = True  # the current run starts on the first line after the title
    cards = False  # the first run held one name: look for more, one per card
    for line in [*lines[start : start + _AUTHOR_LINES], "Abstract"]:
        line = _fix_accents(line)
        clean = " ".join(_AUTHOR_MARKS.sub(" ", line).split())
        if not clean:
            continue  # a line of footnote marks only
        end, affiliation = _AUTHOR_END.match(clean), _AFFILIATION.search(line)
        if not end and not affiliation and _name_like(clean):
            run.append(clean)
            continue
        if run and at_top and (affiliation or end):
            names += parse_author_line(_join_author_lines(run))
            cards = len(names) == 1
        elif run and cards and affiliation:
            names += parse_author_line(_join_author_lines(run))
        at_top, run = False, []
        if end:
            break
    return tuple(names)


def parse_author_line(line: str) -> tuple[Name, ...]:
    """``"Smith1,2, Jane Doe∗ and Ivo van Stokkum"`` -> three Names; () if any part is not a name."""
    line = " ".join(_AUTHOR_MARKS.sub(" ", _EMAIL.sub(",", _fix_accents(line))).split())
    line = re.sub(r"^by\s+", "", line, flags=re.I)
    names = []
    for chunk in _NAME_SPLIT.split(line):
        chunk = chunk.strip().removeprefix("and ").strip()
        if not chunk or chunk.rstrip(".").lower() in {"jr", "sr"} or _AFFILIATION.search(chunk):
            continue
        tokens = chunk.split()
        core = [t for t in tokens if t not in PARTICLES]
        if not 2 <= len(core) <= 4 or not all(_name_token(t) for t in core):
            return ()
        if tokens[-1].endswith(".") or tokens[0] in PARTICLES:
            return ()  # "Smith, J." reversed forms and stray particles: not sure, leave it
        if (name := _name(chunk)) is not None:
            names.append(name)
    return tuple(names)


def _title_end(lines: list[str], title: str) -> int | None:
    """Index of the line after the one where ``title`` (as words) ends, or None if absent."""
    target = words(title)
    if not target:
        return None
    tokens = [(w, i) for i, line in enumerate(lines) for w in words(line)]
    seq = [w for w, _ in tokens]
    # The whole title, else its last three words (a hyphen broken at a line end splits a word).
    for want in (target, target[-3:]):
        for k in range(len(seq) - len(want) + 1):
            if seq[k : k + len(want)] == want:
                return tokens[k + len(want) - 1][1] + 1
    return None


def _fix_accents(text: str) -> str:
    if not _LOOSE_ACCENT.search(text):
        return text
    fixed = _LOOSE_ACCENT.sub(lambda m: m[2].replace("ı", "i") + _SPACING_ACCENTS[m[1]], text)
    return unicodedata.normalize("NFC", fixed)


def _name_like(line: str) -> bool:
    """Every word could belong to a list of names: capitalised, an initial, a particle, "and"."""
    tokens = _NAME_SPLIT.sub(" ", f" {line} ").split()
    allowed = PARTICLES | {"and", "by", "By", "Jr.", "Sr."}
    return bool(tokens) and all(t in allowed or _name_token(t) for t in tokens)


def _name_token(token: str) -> bool:
    if _INITIALS.fullmatch(token):
        return True
    body = token.replace("-", "").replace("'", "").replace("’", "")
    if not (token[0].isupper() and body.isalpha() and any(c.islower() for c in body)):
        return False
    return token.lower() not in _NOT_NAMES


def _join_author_lines(run: list[str]) -> str:
    """One line per name ("Yichen He" / "Guanhua Huang"), or a comma list wrapped anywhere."""
    out = run[0]
    for line in run[1:]:
        wrapped = out.endswith((",", " and")) or len(out.split(",")[-1].split()) == 1
        out += " " + line if wrapped or "," in line else ", " + line
    return out


def _name(text: str) -> Name | None:
    tokens = text.split()
    if not tokens:
        return None
    if len(tokens) == 1:
        return Name(family=tokens[0]) if len(tokens[0]) > 1 else None
    i = len(tokens) - 1
    while i > 1 and tokens[i - 1].lower() in PARTICLES:
        i -= 1
    von = " ".join(tokens[i:-1])
    given = " ".join(tokens[:i])
    return Name(family=tokens[-1], given=given, von=von)


__all__ = [
    "authors_under_title",
    "infer_paper",
    "infer_year",
    "parse_author_line",
    "parse_authors",
]
