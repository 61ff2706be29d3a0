"""Find citation mentions in text: the one citation finder of the package.

``find_mentions`` finds author-year citations (the ones Citable resolves and checks);
``other_markers`` finds citations of other styles (numeric, alphabetic keys, any bracket with a
year) so that the answerer can drop a paper's own markers and the evaluation can see a marker
shown without a verdict.

Linear in the input: one pass over the brackets and parentheses keeps the innermost pair
(at most MAX_MARKER characters, never inside Markdown code); small anchored regular
expressions then parse each candidate. No pattern nests quantifiers over overlapping classes.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

from research_assistant.results import Mention
from research_assistant.text import PARTICLES

__all__ = ["CITATION_LIKE", "NO_SPLIT", "OPENERS", "find_mentions", "other_markers"]

MAX_MARKER = 400  # longest candidate parsed: a dozen works with locators fit with room to spare
LOOKBACK = 80  # characters before "(2020)" searched for the names of a narrative citation

_YEAR = re.compile(r"(?<![\w./\-–—])(1[5-9]\d\d|20\d\d)([a-z]?)(?![\w/]|[-–—]\d|\.\d)")
_MORE_YEARS = re.compile(r" ?, ?(?:(1[5-9]\d\d|20\d\d)([a-z]?)|([a-z]))(?![\w./\-–—])")
_NO_YEAR = re.compile(
    r"(?<!\w)(n\. ?d\.?|no date|undated|in press|forthcoming|in preparation|in prep\."
    r"|submitted|under review|to appear|unpublished)(?!\w)",
    re.I,
)
_ET_AL = re.compile(r"\b(?:et\.? ?al|and (?:colleagues|others|co-?workers))\b\.?$", re.I)
_SEP = re.compile(r" ?, ?(?:and |& ?)?| (?:and|&) ")
_INITIALS = re.compile(r"(?:[A-Z]\.-? ?)+")
_NAME_TOKEN = re.compile(r"[^\W\d_]+(?:['’./&\-][^\W\d_]+)*\.?")
_LOCATOR = re.compile(
    r"(?i:pp?|paras?|eqs?|equations?|figs?|figures?|tabs?|tables?|sects?|secs?|sections?|chs?"
    r"|chaps?|chapters?|vols?|apps?|appendix|ll?|lines?|nn?|notes?|thms?|theorems?|lemmas?"
    r"|props?|defs?|cols?|fols?)(?:\. ?| )\S|§"
)
_PAGES = re.compile(r"\d+(?: ?[-–—,] ?\d+)*")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.M)
_BRACKET = re.compile(r"[\[\]()]")
_DIGIT = re.compile(r"\d")


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


_CAPITAL_PARTICLES = _words("Le La De Van Von Du Da Di Del Den Der Ten Ter")
_CONNECTORS = _words("of the for and on in und für et y")  # inside corporate names
# Leading words of "(see Smith, 2020)", "(e.g., Smith, 2020)": skipped before the names.
_PREFIX = _words(
    "see also e.g. eg i.e. ie cf. cf compare for example instance a an the review reviews "
    "reviewed in by from as following after adapted and but or especially notably originally "
    "discussed described reported summarized summarised cited quoted data"
)
_CAPITAL_PREFIX = _words("see cf. cf e.g. eg compare also")
# Capitalised words that start "(In 2019)", "(March 2020)", "(Table 2020)": never an author.
_NOT_NAMES = _words(
    "a an the this that these those we our it its they their he she i and or but in on at by of to "
    "for from with since as until till after before during between around about circa ca c approx "
    "approximately year years fig figs figure figures table tables tab eq eqs equation equations "
    "sect sec section sections ch chap chapter appendix app p pp page pages vol volume no issue "
    "ref refs note notes version ver release accessed retrieved published updated revised "
    "copyright january february march april june july august september october november december "
    "jan feb mar may "
    "apr jun jul aug sep sept oct nov dec spring summer autumn fall monday tuesday wednesday "
    "thursday friday saturday sunday total mean median sd se ci vs cf eg ie e.g i.e see also both "
    "all each only today now then recently here there however thus fy ad bc ce bce"
)
# Words of _NOT_NAMES that are also common surnames (He, Fall, Both, Mean, Then, May, Ce...).
_SURNAMES_TOO = _words("he she fall both mean then may ce ad jan all")
# "Smith (2020)" alone is a citation only after a cue word or before a reporting verb, so that
# "in Berlin (1998)" is not; "et al." and "A and B" forms need no cue.
_CUES = _words("by to see cf. following")
_VERBS = _words(
    "showed shows show found finds reported reports proposed proposes demonstrated demonstrates "
    "argued argues suggested suggests observed observes described describes introduced introduces "
    "developed develops measured measures noted notes concluded concludes estimated estimates used "
    "uses presented presents defined defines claimed claims studied studies investigated "
    "investigates examined examines analysed analyzed derived derives computed obtained identified "
    "predicted predicts discussed discusses reviewed provides provided established establishes "
    "disagreed agreed recommended calculated confirmed extended simulated modelled modeled "
    "attributed emphasised emphasized highlighted pointed stated wrote writes considered assumed "
    "explained tested reached"
)
NO_SPLIT = _words(
    "al e.g i.e etc fig figs eq eqs ref refs sec sect secs chap ch vs cf approx no vol pp p tab "
    "resp ca app para ed eds"
)
OPENERS = "([{\"'“‘"

Work = tuple[str, str, bool, str | None, str, str]  # first, second, et_al, year, locator, why


def find_mentions(text: str) -> tuple[Mention, ...]:
    """Every cited work in ``text``, in order of position; one Mention per work."""
    regions = _code_regions(text)
    starts = [s for s, _ in regions]
    found: list[Mention] = []
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
        mentions = _candidate(text, j, i + 1, last_end)
        if mentions:
            found.extend(mentions)
            last_end = mentions[0].end
    return tuple(found)


def _candidate(text: str, j: int, k: int, last_end: int) -> list[Mention]:
    marker = text[j:k]
    before, after = text[j - 1 : j], text[k : k + 1]
    if marker[0] == "[" and (after == "(" or before == "!"):
        return []  # a Markdown link or image: [text](url)
    if marker[0] == "(" and (before in ("]", "/", "_", "=") or "://" in _token_before(text, j)):
        return []  # a link destination or part of a URL
    inner = unicodedata.normalize("NFC", marker[1:-1]).replace("*", "").replace("_", "")
    inner = " ".join(inner.split())
    if "://" in inner or "@" in inner or "www." in inner:
        return []
    if marker[0] == "(" and not _DIGIT.search(inner) and not _NO_YEAR.search(inner):
        return []  # the common prose parenthesis, rejected cheaply
    works = _parse_works(inner, bracket=marker[0] == "[")
    if works:
        return [Mention(marker, j, k, *w) for w in works]
    return _narrative(text, j, k, inner, last_end)


def _token_before(text: str, j: int) -> str:
    lo = max(0, j - 200)
    return text[max(text.rfind(" ", lo, j), text.rfind("\n", lo, j), lo) : j]


def _parse_works(inner: str, bracket: bool) -> list[Work]:
    """Works in a bracket's content. A year-less name counts only beside a real citation, or
    in a bracket that looks like one ("[Smith et al.]", "[Smith, ]")."""
    parts = [p for part in inner.split(";") for p in _parse_part(part.strip(), bracket)]
    if any(level == 2 for level, _ in parts):
        return [w for _, w in parts]
    return [w for level, w in parts if level == 1 and bracket]


def _parse_part(part: str, bracket: bool, depth: int = 0) -> list[tuple[int, Work]]:
    """(level, work) pairs: level 2 a citation, 1 a likely one with no year, 0 a bare name."""
    if not part or depth > 20:
        return []
    y, nd = _YEAR.search(part), _NO_YEAR.search(part)
    if nd and (y is None or nd.start() < y.start()):
        names = _authors(part[: nd.start()])
        if names is None:
            return []
        said = nd.group(1).lower()
        why = f"no date ({said})" if said[0] in "nu" and said != "unpublished" else ""
        return [(2, (*names, None, "", why or f"no year ({said})"))]
    if y is None:
        names = _authors(part)
        if names is None:
            return []
        return [(1 if names[2] or part.endswith(",") else 0, (*names, None, "", "no year"))]
    names, why = _authors(part[: y.start()]), ""
    if names is None:
        if not (bracket and part[: y.start()].strip() == ","):
            return []
        names, why = ("", "", False), "no author"
    years, locator, tail, separated = _years(y, part)
    more: list[tuple[int, Work]] = []
    if tail:  # "(Smith, 2020, Jones, 2021)" or "(Smith, 2020, and references therein)"
        nxt = tail[4:] if tail.startswith("and ") else tail.removeprefix("& ")
        more = [w for w in _parse_part(nxt, bracket, depth + 1) if w[0] == 2]
        if not (more or bracket or separated):
            return []  # "(Smith 2020 showed that)" is prose, not a citation
    return [(2, (*names, year, locator, why)) for year in years] + more


def _years(y: re.Match[str], part: str) -> tuple[list[str], str, str, bool]:
    """The years from match ``y`` on ("2020a, b", "2020, 2021"), then the locator or the tail."""
    years = [y.group(1) + y.group(2)]
    rest = part[y.end() :]
    while m := _MORE_YEARS.match(rest):
        years.append(m.group(1) + m.group(2) if m.group(1) else y.group(1) + m.group(3))
        rest = rest[m.end() :]
    rest = rest.strip()
    separated = rest[:1] in (",", ":")
    rest = rest.lstrip(",: ").rstrip(",; ")
    if _LOCATOR.match(rest) or _PAGES.fullmatch(rest):
        return years, rest, "", separated
    return years, "", rest, separated


def _authors(text: str) -> tuple[str, str, bool] | None:
    """(first, second, et_al) from "see Smith, Jones and Lee", or None if it names no one."""
    tokens = text.strip().rstrip(",").strip().split(" ")
    i = 0
    while i < min(len(tokens) - 1, 6) and _is_prefix(tokens[i]):
        i += 1
    names = " ".join(tokens[i:])
    m = _ET_AL.search(names)
    if m:
        names = names[: m.start()].rstrip(" ,")
    parts = [p for p in _SEP.split(names) if p and not _INITIALS.fullmatch(p)]
    if len(parts) > 1 and any(_lower_word(t) for p in parts for t in p.split()):
        parts = [names]  # "Department of Health and Social Care" is one corporate author
    # "He et al., 2025" and "[Fall, 2020]": a surname that is also a common word counts when
    # the citation shape is unmistakable (et al., or a comma before the year)
    shaped = bool(m) or text.rstrip().endswith(",")
    if not parts or not all(_is_name(p, shaped) for p in parts):
        return None
    return parts[0], parts[1] if len(parts) > 1 else "", bool(m)


def _is_prefix(token: str) -> bool:
    word = token.rstrip(",:").lower()
    return word in _PREFIX and (token[0].islower() or word in _CAPITAL_PREFIX)


def _capital(token: str) -> bool:
    """Starts like a name: upper-case or caseless (CJK) letter; d'Alembert, O'Neil count."""
    if len(token) > 2 and token[1] in "'’" and token[0] in "dlDLoO":
        token = token[2:]
    return token[0].isalpha() and not token[0].islower()


def _lower_word(token: str) -> bool:
    return not _capital(token) and token not in PARTICLES


def _is_name(name: str, shaped: bool = False) -> bool:
    tokens = name.split()
    if not tokens or len(tokens) > 10 or len(name) > 120:
        return False
    first = tokens[0].rstrip(".").lower()
    if first in _NOT_NAMES and not (shaped and first in _SURNAMES_TOO):
        return False
    if not _capital(tokens[-1]):
        return False
    return all(
        _NAME_TOKEN.fullmatch(t) and (_capital(t) or t in PARTICLES or (n > 0 and t in _CONNECTORS))
        for n, t in enumerate(tokens)
    )


def _narrative(text: str, j: int, k: int, inner: str, last_end: int) -> list[Mention]:
    """ "Smith et al. (2020)": a parenthesis holding only years, after the names."""
    y = _YEAR.match(inner)
    if y is None:
        return []
    years, locator, tail, _ = _years(y, inner)
    lo = max(last_end, j - LOOKBACK)
    window = text[lo:j]
    tokens: list[tuple[int, str]] = []
    cursor = len(window)
    for token in reversed(window.rsplit(None, 8)[-8:]):  # the last eight words, with offsets
        cursor = window.rfind(token, 0, cursor)
        tokens.insert(0, (lo + cursor, token))
    words = [t.lstrip(OPENERS + "*_").rstrip("*_") for _, t in tokens]
    i = len(words) - 1
    et_al = i >= 1 and words[i].lower() in ("al.", "al") and words[i - 1].lower() in ("et", "et.")
    if tail or i < 0 or (et_al and i < 2):
        return []
    first = _narrative_name(words, i - 2 if et_al else i)
    if first is None:
        return []
    start, name = first
    second = ""
    if not et_al and start >= 2 and words[start - 1] in ("and", "&"):
        other = _narrative_name(words, start - 2)
        if other is not None:
            second, (start, name) = name, other
    cue = start > 0 and words[start - 1].lower() in _CUES
    if not (et_al or second or cue or " " in name):  # "van der Berg" is surely a name
        verb = re.match(r"\s*([^\W\d_]+)", text[k : k + 40])
        if not (verb and verb.group(1).lower() in _VERBS) and not name.endswith(("'s", "’s")):
            return []
    name = name.removesuffix("'s").removesuffix("’s")
    pos, token = tokens[start]
    pos += len(token) - len(token.lstrip(OPENERS))
    return [Mention(text[pos:k], pos, k, name, second, et_al, yr, locator) for yr in years]


def _narrative_name(words: list[str], i: int) -> tuple[int, str] | None:
    """(index of the first word, name) of the name ending at ``words[i]``, particles kept."""
    if i < 0:
        return None
    word = words[i].rstrip(",")
    bare = word.removesuffix("'s").removesuffix("’s")
    if not (bare and _NAME_TOKEN.fullmatch(bare) and _capital(bare)) or bare.endswith("."):
        return None
    if bare.lower() in _NOT_NAMES:
        return None
    start = i
    while start > 0 and (words[start - 1] in PARTICLES or words[start - 1] in _CAPITAL_PARTICLES):
        start -= 1
    return start, " ".join([*words[start:i], word])


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
