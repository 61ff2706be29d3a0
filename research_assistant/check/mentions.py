"""Find citation mentions in text: the one citation finder of the package.

``find_mentions`` finds author-year citations (the ones Citable resolves and checks);
``other_markers`` finds citations of other styles (numeric, alphabetic keys, any bracket with a
year) so that the answerer can drop a paper's own markers and the evaluation can see a marker
shown without a verdict.

The forms covered are those of the APA (7th ed.) and Chicago (17th ed., author-date) manuals and
those language models write when told to cite author-year: parenthetical "(Smith & Jones, 2020,
p. 5)", "(Smith 2020, 45)", "[Smith et al., 2020; Lee, 2019]", "(see e.g. Smith, 2020a, b)";
group authors "(World Health Organization [WHO], 2020)"; several dates "(Zhou, n.d., 2000, in
press)", "(Aalto 2000a; b; c)"; reprints "(Camus, 1942/2012)", "(Hoover [1972] 1984, 76)";
secondary sources "(Harris, 2009, as cited in Lewis, 2019)"; personal communications; titles
in quotes; links an answer wraps in parentheses "([Smith et al., 2020](https://...))"; and the
narrative forms of narrative.py. tests/data/citation_forms_dev.jsonl lists them with sources.

Linear in the input: one pass over the brackets and parentheses keeps the innermost pair
(at most MAX_MARKER characters, never inside Markdown code); small anchored regular
expressions then parse each candidate. No pattern nests quantifiers over overlapping classes.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable

from research_assistant.check.citation_parts import (
    OPENERS,
    YEAR,
    authors,
    dates,
    first_date,
    rest_of,
)
from research_assistant.check.narrative import Work, group_before, narrative
from research_assistant.results import Mention

__all__ = ["CITATION_LIKE", "NO_SPLIT", "OPENERS", "find_mentions", "other_markers"]

MAX_MARKER = 400  # longest candidate parsed: a dozen works with locators fit with room to spare

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.M)
_BRACKET = re.compile(r"[\[\]()]")
_DIGIT = re.compile(r"\d")
_QUOTES = re.compile(r"[\"“”]")  # a title in quotes stands for its author: ("Title," 2018)
_ABBREV = re.compile(r" ?\[[A-Z][A-Za-z&.\-]{0,14}\]")  # (World Health Organization [WHO], 2020)
_ORIGINAL = re.compile(r"\[(?:1[5-9]|20)\d\d\] ?")  # (Hoover [1972] 1984): the original date
_SLASH = re.compile(r"(?<![\w/])(?:1[5-9]|20)\d\d/(?=(?:1[5-9]|20)\d\d(?![\w/]))")  # 1942/2012
_PERSONAL = re.compile(r"\bpersonal communication\b", re.I)
_ACRONYM = re.compile(r"[A-Z][A-Za-z]{1,9}")
_LETTER_PART = re.compile(r"[a-z]")  # (Aalto 2000a; b; c)
_LINK_DEST = re.compile(r"\(<?[^\s()<>]{1,300}>?\)")  # the (url) of a Markdown link
# What may stand between two citations of one list: "A (2018), B (2019), and C (2020)"
_BETWEEN = re.compile(r"[\s,;]*(?:(?:and|&|or|see also|see|cf\.|also)[\s,;]*)?", re.I)
NO_SPLIT = frozenset(
    "al e.g i.e etc fig figs eq eqs ref refs sec sect secs chap ch vs cf approx no vol pp p tab "
    "resp ca app para ed eds".split()
)


# Language models also write a citation with no bracket at all: "as shown by Zhou et al., 2021,
# in ..." or "as Zhou et al. 2021 report". Read with "et al." only ("Resources and Evaluation,
# 2006" is a venue, "Paris, 2019" a place and a date), and not as a reference-list entry, which
# goes on with its journal and volume ("Mainzer et al. 2011, ApJ, 741, 90") or its status.
_NAME = r"[A-Z][^\W\d_][\w'’-]*"
_BARE = re.compile(
    rf"(?<![\w\[(])({_NAME}\s+et\s+al\.?),?\s+((?:1[89]|20)\d{{2}}[a-z]?)(?![\w)\]])"
)
_ENTRY_GOES_ON = re.compile(
    r",\s*(?:(?:[A-Z][\w&.]*\s*){1,6},\s*)?(?:\d|submitted\b|in press\b|accepted\b)"
)


def _bare(text: str, found: list[Mention], regions: list[tuple[int, int]]) -> list[Mention]:
    """Bracketless citations (``_BARE``) that no bracketed one holds, outside code."""
    starts = [s for s, _ in regions]
    firsts, ends = [m.start for m in found], [m.end for m in found]
    out = []
    for m in _BARE.finditer(text):
        names = authors(m.group(1))
        if names is None or _inside(regions, starts, m.end(), m.start()):
            continue
        if _ENTRY_GOES_ON.match(text, m.end(), m.end() + 80):
            continue
        if _disjoint(firsts, ends, m.start(), m.end()):
            out.append(Mention(m.group(), m.start(), m.end(), *names, m.group(2), "", ""))
    return out


def find_mentions(text: str, known: Callable[[Mention], bool] | None = None) -> tuple[Mention, ...]:
    """Every cited work in ``text``, in order of position; one Mention per work. ``known``:
    whether a mention names a work of the library; a lone name before a year with no other sign
    of a citation ("In Thoma (2016), ...", "Thoma (2015) empfiehlt") counts where it does."""
    regions = _code_regions(text)
    starts = [s for s, _ in regions]
    found: list[Mention] = []
    weak: list[list[Mention]] = []
    last_end = 0
    opened = {"[": -1, "(": -1}
    for m in _BRACKET.finditer(text):
        ch, i = m.group(), m.start()
        if ch in "[(":
            opened[ch] = i  # the innermost pair wins; an unclosed opener is simply forgotten
            continue
        kind = "[" if ch == "]" else "("
        j, opened[kind] = opened[kind], -1
        if j < last_end or i - j > MAX_MARKER:
            continue  # no opener, overlaps the previous marker, or too long to be a citation
        if _inside(regions, starts, i, j):
            continue  # inside inline code or a fenced block
        mentions, is_weak = _candidate(text, j, i + 1, last_end)
        if is_weak and known is not None and mentions and all(map(known, mentions)):
            is_weak = False
        if is_weak:
            weak.append(mentions)
        elif mentions:
            found.extend(mentions)
            last_end = mentions[0].end
    found = _with_neighbours(text, found, weak) if weak else found
    if " al" in text:
        found = sorted([*found, *_bare(text, found, regions)], key=lambda m: m.start)
    return tuple(found)


def _with_neighbours(text: str, found: list[Mention], weak: list[list[Mention]]) -> list[Mention]:
    """Weak narrative mentions ("Suliman (2018), ...") kept when a list joins them to a citation:
    one pass forward, one back, so that a chain of them is kept from either end."""
    groups: list[list[Mention]] = []
    for m in found:
        if groups and groups[-1][0].start == m.start:
            groups[-1].append(m)
        else:
            groups.append([m])
    ends = [g[0].end for g in groups]
    firsts = [g[0].start for g in groups]
    free = [w for w in weak if _disjoint(firsts, ends, w[0].start, w[0].end)]
    merged = sorted(
        [(g, True) for g in groups] + [(w, False) for w in free], key=lambda x: x[0][0].start
    )
    kept = [ok for _, ok in merged]
    order = list(range(1, len(merged)))
    for a, b in [(n - 1, n) for n in order] + [(n, n - 1) for n in reversed(order)]:
        if kept[a] and not kept[b]:
            lo, hi = sorted((a, b))
            gap = text[merged[lo][0][0].end : merged[hi][0][0].start]
            kept[b] = len(gap) <= 20 and bool(_BETWEEN.fullmatch(gap))
    out: list[Mention] = []
    for (group, _), ok in zip(merged, kept, strict=True):
        if ok and (not out or out[-1].end <= group[0].start):
            out.extend(group)
    return out


def _disjoint(firsts: list[int], ends: list[int], start: int, end: int) -> bool:
    n = bisect.bisect_right(firsts, start)
    return (n == 0 or ends[n - 1] <= start) and (n == len(firsts) or end <= firsts[n])


def _candidate(text: str, j: int, k: int, last_end: int) -> tuple[list[Mention], bool]:
    marker = text[j:k]
    before, after = text[j - 1 : j], text[k : k + 1]
    if marker[0] == "[" and before == "!":
        return [], False  # a Markdown image
    if marker[0] == "[" and after == "(":
        return _linked(text, j, k, last_end)
    if marker[0] == "(" and (before in ("]", "/", "_", "=") or "://" in _token_before(text, j)):
        return [], False  # a link destination or part of a URL
    inner = _clean(marker[1:-1])
    if "://" in inner or "@" in inner or "www." in inner:
        return [], False
    if marker[0] == "(" and not _DIGIT.search(inner) and first_date(inner) is None:
        return [], False  # the common prose parenthesis, rejected cheaply
    works = _parse_works(inner, bracket=marker[0] == "[")
    if len(works) == 1 and marker[0] == "(" and _acronym(works[0][0]):
        group = group_before(text, j, last_end, works[0][0])  # Ministry of Health (MoH, 2019)
        if group is not None:
            return [Mention(text[group[0] : k], group[0], k, group[1], *works[0][1:])], False
    if works:
        return [Mention(marker, j, k, *w) for w in works], False
    return narrative(text, j, k, inner, last_end, _tail_works)


def _acronym(name: str) -> bool:
    """ "NIMH", "MoH": mostly capitals, as a group author's abbreviation is."""
    return bool(_ACRONYM.fullmatch(name)) and 2 * sum(c.isupper() for c in name) >= len(name)


def _clean(inner: str) -> str:
    """A bracket's content as the parsers read it: no emphasis marks, no quotes around a title,
    no "[WHO]" after a group's name, only the later of "[1972] 1984" and "1942/2012"."""
    inner = unicodedata.normalize("NFC", inner).replace("*", "").replace("_", "")
    inner = _SLASH.sub("", _ORIGINAL.sub("", _ABBREV.sub("", _QUOTES.sub("", inner))))
    return " ".join(inner.split())


def _linked(text: str, j: int, k: int, last_end: int) -> tuple[list[Mention], bool]:
    """A Markdown link [text](url) is no citation, unless an answer cites with links in
    parentheses: "([Smith et al., 2020](url))", "([A, 2020](u); [B, 2021](v))". The marker is
    the whole parenthesis, so that stripping it leaves no empty brackets behind."""
    labels, pos = [text[j + 1 : k - 1]], k
    if text[j - 1 : j] != "(":
        return [], False
    while (dest := _LINK_DEST.match(text, pos)) and pos - j < MAX_MARKER:
        pos = dest.end()
        if text.startswith(")", pos):
            start, end = j - 1, pos + 1
            works = [w for label in labels for w in _parse_works(_clean(label), bracket=False)]
            if works:
                return [Mention(text[start:end], start, end, *w) for w in works], False
            if len(labels) > 1:
                return [], False
            return narrative(text, start, end, _clean(labels[0]), last_end, _tail_works)
        close = text.find("]", pos + 3, j + MAX_MARKER) if text.startswith("; [", pos) else -1
        if close < 0:
            return [], False
        labels.append(text[pos + 3 : close])
        pos = close + 1
    return [], False


def _tail_works(tail: str) -> list[Work]:
    return [w for level, w in _parse_part(tail, bracket=False) if level == 2]


def _token_before(text: str, j: int) -> str:
    lo = max(0, j - 200)
    return text[max(text.rfind(" ", lo, j), text.rfind("\n", lo, j), lo) : j]


def _parse_works(inner: str, bracket: bool) -> list[Work]:
    """Works in a bracket's content. A year-less name counts only beside a real citation, or
    in a bracket that looks like one ("[Smith et al.]", "[Smith, ]")."""
    parts: list[tuple[int, Work]] = []
    for part in inner.split(";"):
        part = part.strip()
        last = parts[-1][1] if parts and parts[-1][0] == 2 and parts[-1][1][0] else None
        parts.extend((last and _more_dates(part, last)) or _parse_part(part, bracket))
    if any(level == 2 for level, _ in parts):
        return [w for _, w in parts]
    return [w for level, w in parts if level == 1 and bracket]


def _more_dates(part: str, last: Work) -> list[tuple[int, Work]]:
    """Dates alone after a work are more works of its authors: natbib's "(Chen et al., 2021;
    2023a)", "(Zhang et al., 2023a;b)", CSL's "(Aalto 2000a; b; c)"."""
    year = last[3]
    if year and year[4:] and _LETTER_PART.fullmatch(part):
        return [(2, (*last[:3], year[:4] + part, "", ""))]
    if first_date(part) != 0:
        return []
    found, end = dates(part, 0)
    locator, tail, _ = rest_of(part[end:])
    return [] if tail else [(2, (*last[:3], y, locator, why)) for y, why in found]


def _parse_part(part: str, bracket: bool, depth: int = 0) -> list[tuple[int, Work]]:
    """(level, work) pairs: level 2 a citation, 1 a likely one with no year, 0 a bare name."""
    if not part or depth > 20:
        return []
    personal = _PERSONAL.search(part)  # (O. Baston, personal communication, October 11, 2017)
    if personal:
        names = authors(part[: personal.start()])
        years = [m.group(1) for m in YEAR.finditer(part, personal.end())]
        return [(2, (*names, years[-1], "", ""))] if names and years else []
    at = first_date(part)
    if at is None:
        names = authors(part)
        if names is None:
            return []
        return [(1 if names[2] or part.endswith(",") else 0, (*names, None, "", "no year"))]
    names, why = authors(part[:at]), ""
    if names is None:
        if not (bracket and part[:at].strip() == ","):
            return []
        names, why = ("", "", False), "no author"
    found, end = dates(part, at)
    locator, tail, separated = rest_of(part[end:])
    more: list[tuple[int, Work]] = []
    if tail:  # "(Smith, 2020, Jones, 2021)" or "(Smith, 2020, and references therein)"
        nxt = tail[4:] if tail.startswith("and ") else tail.removeprefix("& ")
        more = [w for w in _parse_part(nxt, bracket, depth + 1) if w[0] == 2]
        if not (more or bracket or separated):
            return []  # "(Smith 2020 showed that)" is prose, not a citation
    return [(2, (*names, year, locator, why or said)) for year, said in found] + more


def _code_regions(text: str) -> list[tuple[int, int]]:
    """Sorted, disjoint (start, end) of fenced code blocks and inline code spans."""
    regions: list[tuple[int, int]] = []
    fences = list(_FENCE.finditer(text))
    i = 0
    while i < len(fences):
        fence = fences[i].group(1)
        j = i + 1
        while j < len(fences) and not (
            fences[j].group(1)[0] == fence[0] and len(fences[j].group(1)) >= len(fence)
        ):
            j += 1
        close = text.find("\n", fences[j].end()) if j < len(fences) else -1
        regions.append((fences[i].start(), len(text) if close < 0 else close))
        i = j + 1
    starts = [s for s, _ in regions]
    blank = [m.start() for m in re.finditer(r"\n[ \t]*\n", text)]
    runs = [(m.start(), m.end() - m.start()) for m in re.finditer(r"`+", text)]
    runs = [(s, n) for s, n in runs if not _inside(regions, starts, s, s)]
    by_length: dict[int, list[int]] = {}
    for s, n in runs:
        by_length.setdefault(n, []).append(s)
    nxt = dict.fromkeys(by_length, 0)
    pos = 0
    for s, n in runs:  # CommonMark: a run of n backticks opens a span closed by the next run of n
        if s < pos:
            continue
        same = by_length[n]
        while nxt[n] < len(same) and same[nxt[n]] <= s:
            nxt[n] += 1
        if nxt[n] < len(same) and bisect.bisect(blank, s) == bisect.bisect(blank, same[nxt[n]]):
            pos = same[nxt[n]] + n  # a code span never crosses a blank line
            regions.append((s, pos))
    return sorted(regions)


def _inside(regions: list[tuple[int, int]], starts: list[int], last: int, first: int) -> bool:
    """Whether [first, last] overlaps one of the sorted, disjoint regions."""
    k = bisect.bisect_right(starts, last) - 1
    return k >= 0 and regions[k][1] > first


# The marks of any citation style: "[12]", "[3, 7-9]", "[Smith 2019]", "(Smith et al., 2019; Li
# 2020)", "(1981)", alpha-style keys "[Koe05]", "[GKV+09]", "[KM14, LM15a]". Any parenthesis
# holding a year counts; reference numbers start at 1, so an interval such as "[0, 1]" does not.
CITATION_LIKE = re.compile(
    r"\[\s*[1-9]\d{0,2}(?:\s*[-–,;]\s*[1-9]\d{0,2})*\s*\]"
    r"|\[[^\[\]]{0,120}?\b(?:1[5-9]|20)\d{2}[a-z]?\b[^\[\]]{0,80}\]"
    r"|\([^()]{0,120}?\b(?:1[89]|20)\d{2}[a-z]?\b[^()]{0,60}\)"
    r"|\[[A-Z][A-Za-z+-]{0,7}\d{2}[a-z]?(?:\s*[,;]\s*[A-Z][A-Za-z+-]{0,7}\d{2}[a-z]?)*\]"
)


def other_markers(text: str) -> list[tuple[int, int]]:
    """Spans of citation marks in any style that ``find_mentions`` does not report."""
    found = {(m.start, m.end) for m in find_mentions(text)}
    return [m.span() for m in CITATION_LIKE.finditer(text) if m.span() not in found]
