"""The parts of an author-date citation: who (names) and when (dates, then a locator).

Shared by the bracket parser (mentions.py) and the narrative forms (narrative.py). Pure and
linear: small anchored regular expressions, no pattern nests quantifiers over overlapping classes.
"""

from __future__ import annotations

import re

from research_assistant.text import CAPITAL_PARTICLES, PARTICLES

__all__ = [
    "CONNECTORS",
    "NOT_NAMES",
    "OPENERS",
    "SURNAMES_TOO",
    "YEAR",
    "Dates",
    "authors",
    "capital",
    "dates",
    "first_date",
    "is_initial",
    "is_name",
    "is_name_token",
    "is_particle",
    "rest_of",
]

OPENERS = "([{\"'“‘"
YEAR = re.compile(r"(?<![\w./\-–—])(1[5-9]\d\d|20\d\d)([a-z]?)(?![\w/]|[-–—]\d|\.\d)")
_NO_YEAR = (
    r"(?i:n\. ?d\.?|no date|undated|in press|forthcoming|in preparation|in prep\."
    r"|submitted|under review|to appear|unpublished)"
)
# One date of a list: a year with its suffix, or a word standing for a missing year ("in press-a")
_DATE = re.compile(
    r"(?<![\w./\-–—])(?:(1[5-9]\d\d|20\d\d)([a-z]?)(?![\w/]|[-–—]\d|\.\d)"
    rf"|({_NO_YEAR})(?:-[a-z](?![\w.]))?(?!\w))"
)
_LETTER = re.compile(r"([a-z])(?= ?(?:[,;:]|$))")  # "2020a, b": a further suffix of that year
_DATE_SEP = re.compile(r" ?, ?")
_ET_AL = re.compile(r"\b(?:et\.? ?al|and (?:colleagues|others|co-?workers))\b\.?$", re.I)
_SEP = re.compile(r" ?, ?(?:and |& ?)?| (?:and|&) ")
_INITIALS = re.compile(r"(?:[A-Z]\.-? ?)+")
_INITIAL = re.compile(r"[A-Z]\.(?:-[A-Z]\.)?")  # "J." or "J.-P."; "U.S." is a word, not initials
_NAME_TOKEN = re.compile(r"[^\W\d_]+(?:['’./&\-‐][^\W\d_]+)*\.?")
_LOCATOR = re.compile(
    r"(?i:pp?|pgs?|paras?|eqs?|equations?|figs?|figures?|tabs?|tables?|sects?|secs?|sections?|chs?"
    r"|chaps?|chapters?|vols?|apps?|appendix|ll?|lines?|nn?|notes?|thms?|theorems?|lemmas?"
    r"|props?|defs?|cols?|fols?|slides?)(?:\. ?| )\S|§"
)
_PAGES = re.compile(r"\d+(?: ?[-–—,] ?\d+)*")


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


CONNECTORS = _words("of the for and on in und für et y")  # inside corporate names
# Leading words of "(see Smith, 2020)", "(e.g., Smith, 2020)": skipped before the names.
_PREFIX = _words(
    "see also e.g. eg i.e. ie cf. cf compare for example instance a an the review reviews "
    "reviewed in by from as following after adapted and but or especially notably originally "
    "discussed described reported summarized summarised cited quoted data"
)
_CAPITAL_PREFIX = _words("see cf. cf e.g. eg compare also")
# Capitalised words that start "(In 2019)", "(March 2020)", "(Table 2020)": never an author.
NOT_NAMES = _words(
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
# Words of NOT_NAMES that are also common surnames (He, Fall, Both, Mean, Then, May, Ce...).
SURNAMES_TOO = _words("he she fall both mean then may ce ad jan all")

Dates = list[tuple[str | None, str]]  # (year as written or None, why it is not usable)


def dates(part: str, pos: int) -> tuple[Dates, int]:
    """The dates of a list starting at ``pos`` ("n.d., 2017a, b, 2019, in press") and where the
    last one ends; ([], pos) when no date starts there."""
    found: Dates = []
    end = pos
    while True:
        m = _DATE.match(part, pos)
        if m and m.group(1):
            found.append((m.group(1) + m.group(2), ""))
        elif m:
            said = m.group(3).lower()
            nd = said[0] in "nu" and said != "unpublished"
            found.append((None, f"no date ({said})" if nd else f"no year ({said})"))
        elif found and (year := found[-1][0]) and year[4:] and (s := _LETTER.match(part, pos)):
            m = s
            found.append((year[:4] + s.group(1), ""))
        else:
            return found, end
        end = m.end()
        sep = _DATE_SEP.match(part, end)
        if sep is None:
            return found, end
        pos = sep.end()


def first_date(part: str) -> int | None:
    """Where the first date of ``part`` starts (a year, "n.d.", "in press"...), if any."""
    m = _DATE.search(part)
    return m.start() if m else None


def rest_of(rest: str) -> tuple[str, str, bool]:
    """(locator, tail, separated) of what follows the dates: "p. 5" is a locator, anything
    else a tail; separated when a comma or colon set it apart."""
    rest = rest.strip()
    separated = rest[:1] in (",", ":")
    rest = rest.lstrip(",: ").rstrip(",; ")
    if _LOCATOR.match(rest) or _PAGES.fullmatch(rest):
        return rest, "", separated
    return "", rest, separated


def authors(text: str) -> tuple[str, str, bool] | None:
    """(first, second, et_al) from "see Smith, Jones and Lee", or None if it names no one."""
    tokens = text.strip().rstrip(",").strip().split(" ")
    i = 0
    while i < min(len(tokens) - 1, 6) and _is_prefix(tokens[i]):
        i += 1
    names = " ".join(tokens[i:])
    m = _ET_AL.search(names)
    if m:
        names = names[: m.start()].rstrip(" ,")
    parts = [_no_initials(p) for p in _SEP.split(names) if p and not _INITIALS.fullmatch(p)]
    if len(parts) > 1 and any(_lower_word(t) for p in parts for t in p.split()):
        parts = [names]  # "Department of Health and Social Care" is one corporate author
    # "He et al., 2025" and "[Fall, 2020]": a surname that is also a common word counts when
    # the citation shape is unmistakable (et al., or a comma before the year)
    shaped = bool(m) or text.rstrip().endswith(",")
    if not parts or not all(is_name(p, shaped) for p in parts):
        return None
    return parts[0], parts[1] if len(parts) > 1 else "", bool(m)


def _no_initials(name: str) -> str:
    """ "M. J. Smith" is Smith: initials before a surname are dropped."""
    tokens = name.split(" ")
    while len(tokens) > 1 and _INITIAL.fullmatch(tokens[0]):
        tokens.pop(0)
    return " ".join(tokens)


def is_initial(token: str) -> bool:
    return bool(_INITIAL.fullmatch(token))


def _is_prefix(token: str) -> bool:
    word = token.rstrip(",:").lower()
    return word in _PREFIX and (token[0].islower() or word in _CAPITAL_PREFIX)


def capital(token: str) -> bool:
    """Starts like a name: upper-case or caseless (CJK) letter; d'Alembert, O'Neil count."""
    if len(token) > 2 and token[1] in "'’" and token[0] in "dlDLoO":
        token = token[2:]
    return token[:1].isalpha() and not token[0].islower()


def is_particle(token: str) -> bool:
    return token in PARTICLES or token in CAPITAL_PARTICLES


def is_name_token(token: str) -> bool:
    return bool(_NAME_TOKEN.fullmatch(token))


def _lower_word(token: str) -> bool:
    return not capital(token) and token not in PARTICLES


def is_name(name: str, shaped: bool = False) -> bool:
    tokens = name.split()
    if not tokens or len(tokens) > 10 or len(name) > 120:
        return False
    first = tokens[0].rstrip(".").lower()
    if first in NOT_NAMES and not (shaped and first in SURNAMES_TOO):
        return False
    if not capital(tokens[-1]):
        return False
    return all(
        _NAME_TOKEN.fullmatch(t) and (capital(t) or t in PARTICLES or (n > 0 and t in CONNECTORS))
        for n, t in enumerate(tokens)
    )
