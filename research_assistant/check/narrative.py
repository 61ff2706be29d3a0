"""Narrative citations: the names in the running text, the dates in the bracket after them.

"Smith et al. (2020)", "Jones, Baker, and Smith (1990)", "Kapoor, Bloom, Montez, et al. (2017)",
"M. J. Smith (2022)", "National Institute of Mental Health (NIMH, 2003)", "Richardson says (2020,
75)", "Zhou (n.d., 2000, in press)", "**World Economic Forum (2023)**:". A lone capitalised word
before a year ("Berlin (1998)") is a citation only with a sign of one: a cue word before it, a
reporting verb after it, initials, particles, bold, or a citation right beside it (the finder
decides the last: ``narrative`` calls such a mention weak).

Linear: each bracket looks at most LOOKBACK characters back and a few words forward.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from research_assistant.check.citation_parts import (
    CONNECTORS,
    NOT_NAMES,
    OPENERS,
    SURNAMES_TOO,
    YEAR,
    Dates,
    capital,
    dates,
    is_initial,
    is_name_token,
    is_particle,
    rest_of,
)
from research_assistant.results import Mention

__all__ = ["COLLEAGUES", "LOOKBACK", "Work", "group_before", "narrative"]

LOOKBACK = 120  # characters before "(2020)" searched for the names
MAX_WORDS = 12
Work = tuple[str, str, bool, str | None, str, str]  # first, second, et_al, year, locator, why


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


# "Smith (2020)" alone is a citation after a cue word or before a reporting verb, so that "in
# Berlin (1998)" is not; "et al." and "A and B" forms need no cue.
_CUES = _words(
    "by to see cf. following follow follows followed unlike extending than wrote said says writes"
    " laut gemäß siehe vgl."  # German: "laut Thoma (2015)", "vgl. Thoma (2015)"
)
_VERBS = _words(
    "showed shows show found finds find reported reports report proposed proposes propose "
    "demonstrated demonstrates demonstrate argued argues argue suggested suggests suggest observed "
    "observes described describes introduced introduces developed develops measured measures noted "
    "notes note concluded concludes conclude estimated estimates used uses presented presents "
    "defined defines claimed claims studied studies investigated investigates examined examines "
    "examine analysed analyzed derived derives computed obtained identified predicted predicts "
    "discussed discusses reviewed provides provided established establishes disagreed agreed "
    "recommended calculated confirmed extended simulated modelled modeled attributed emphasised "
    "emphasized highlighted pointed stated states wrote writes considered assumed explained tested "
    "reached compared compares published issued counted warns warned says said remarked remarks "
    "asserts asserted contends contended maintains maintained insists believes believed explores "
    "explored surmised traced trained offers offered documents documented"
)
# "Richardson says (2020, 75)": the verb between the name and the dates.
_SAY = _words(
    "says writes argues notes claims suggests observes explains contends maintains asserts states "
    "remarks insists concludes shows finds reports"
)
# Past forms that do not end in -ed ("Thoma (2018) built WiLI"), read like the -ed ones.
_IRREGULAR_PAST = _words(
    "built made gave took wrote found ran began brought held led left met put set saw knew "
    "thought told kept sought won lost chose drew grew felt heard meant paid sent spent stood "
    "taught understood became came got did showed shown"
)
_ADVERBS = _words("also further later then first earlier once again instead thus already since")
# Two words before the name that cite it ("as in Smith (2019)", "building on", "compared with",
# "that of"): their second word alone is a preposition, which before a place is no citation.
_CUE_PAIRS = frozenset(
    tuple(pair.split())
    for pair in (
        "as in", "building on", "based on", "compared with", "compared to", "relative to",
        "similar to", "that of", "those of", "work of", "proposed in", "introduced in",
    )
)  # fmt: skip
_HAVE = _words("has have had been")  # "(2018) has shown", "has been replicated": the verb follows
# Words in -s that are no verbs in the third person ("(2019) class", "(2020) corpus", "(2021)
# basis", "(2017) statistics", "(2019) previous"): the present-tense guess skips them.
_NOT_VERB_ENDS = ("ss", "us", "is", "ics", "ous", "ys")
# "in Berlin (1998)", "The Treaty of Versailles (1919)": a place or thing, not an author.
_FUNCTION = _words(
    "of in at on from the a an for with into near during since under over between within across "
    "after before until via"
)
# Words that make a capitalised run a group author: "University of Pittsburgh (2005)".
_GROUPS = _words(
    "university universities institute institutes institution association organization "
    "organisation ministry department bureau agency council society center centre foundation "
    "commission office board committee forum group network service services administration "
    "corporation company inc inc. ltd ltd. llc college school academy union bank fund programme "
    "program panel consortium trust authority survey laboratory laboratories federation alliance "
    "initiative partnership coalition secretariat parliament congress government nations "
    "observatory hospital museum library press assembly project collaboration team"
)
_ABBREV_TOKEN = re.compile(r"\[[A-Z][A-Za-z&.\-]{0,14}\]")
_PERSONAL = re.compile(r"personal communication\b", re.I)
_NEXT = re.compile(r"[\s,]*([^\W\d_]+)" + r"(?:\s+([^\W\d_]+))?" * 3)  # four words at most
_ET_AL = ("al.", "al", "al.'s", "al.’s", "al's", "al’s")
# "Gal and colleagues (2009)": et al. in words
COLLEAGUES = ("colleagues", "coworkers", "co-workers", "collaborators")

ParseTail = Callable[[str], list[Work]]


def narrative(
    text: str, j: int, k: int, inner: str, last_end: int, parse_tail: ParseTail
) -> tuple[list[Mention], bool]:
    """Mentions of the bracket text[j:k] read with the names before it, and whether they are
    weak (a lone name with no sign of a citation but a plausible one)."""
    parsed = _dates_in(inner, parse_tail)
    if parsed is None:
        return [], False
    found, locator, extra = parsed
    tokens = _tokens(text, max(last_end, j - LOOKBACK), j)
    words = [t.lstrip(OPENERS + "*_").rstrip("*_") for _, t in tokens]
    i = len(words) - 1
    while i >= 0 and (not words[i] or _ABBREV_TOKEN.fullmatch(tokens[i][1])):
        i -= 1  # "([2016](url))" and "American Psychological Association [APA] (2002)"
    said = i >= 1 and words[i].lower() in _SAY and words[i].islower()
    if said:
        i -= 1
    et_al = i >= 1 and words[i].lower() in _ET_AL and words[i - 1].lower() in ("et", "et.")
    # "Gal and colleagues (2009)": et al. in words
    et_al = et_al or (i >= 2 and words[i].lower() in COLLEAGUES and words[i - 1] == "and")
    if i < 0 or (et_al and i < 2):
        return [], False
    last = i - 2 if et_al else i
    first = _name_at(words, last, et_al)
    if first is None:
        return [], False
    start, name = first
    names = [name]
    serial = et_al and words[last].endswith(",")  # "Kapoor, Bloom, Montez, et al."
    paired = _two_word_pair(words, start) if not et_al else None
    if paired is not None:  # "Rodriguez Montoya and Matos Chassin (2009)"
        start, first_name, second_name = paired
        names = [second_name, first_name]
        name = first_name
    elif not et_al and start >= 2 and words[start - 1] in ("and", "&"):
        other = _name_at(words, start - 2)
        if other is not None:
            start, name = other
            names.append(name)
            # "Jones, Baker, and Smith" and "Jones, Baker and Smith": more names before
            serial = words[start].endswith(",") or (start >= 1 and words[start - 1].endswith(","))
    while serial and start >= 1 and words[start - 1].endswith(",") and len(names) < 8:
        other = _name_at(words, start - 1)
        if other is None or (other[0] >= 1 and words[other[0] - 1].lower() in _FUNCTION):
            break  # "In Paris, Smith and Jones (2020)": a place before the list
        start, name = other
        names.append(name)
    group, bold = False, False
    if len(names) == 1 and not et_al:
        start, name, group, bold = _group(text, k, tokens, words, start, last, name)
    initials = start > 0 and is_initial(words[start - 1])
    while start > 0 and is_initial(words[start - 1]):
        start -= 1  # "M. J. Smith (2022)": the marker keeps the initials
    before = words[start - 1].lower() if start > 0 else ""
    names = [n.removesuffix("'s").removesuffix("’s") for n in names]
    possessive = name.endswith(("'s", "’s"))
    name = names[-1] if len(names) > 1 else name.removesuffix("'s").removesuffix("’s")
    strong = (
        et_al
        or len(names) > 1
        or said
        or group
        or bold
        or initials
        or bool(extra)
        or " " in name  # "van der Berg" is surely a name
        or before in _CUES
        or (start > 1 and (words[start - 2].lower(), before) in _CUE_PAIRS)
        or possessive
        or _verb_after(
            text, k, before not in _FUNCTION and not capital(words[start - 1] if start else "")
        )
    )
    if (
        not strong
        and before in _FUNCTION
        and not (  # "in Berlin (1998)": a place, but "In
            before == "in" and text[k : k + 1] == ","  # Thoma (2016), ..." may cite: weak
        )
    ):
        return [], False
    second = names[-2] if len(names) > 1 else ""
    pos, token = tokens[start]
    pos += len(token) - len(token.lstrip(OPENERS + "*_"))
    marker = text[pos:k]
    mentions = [Mention(marker, pos, k, name, second, et_al, y, locator, why) for y, why in found]
    mentions += [Mention(marker, pos, k, *w) for w in extra]
    return mentions, not strong


def group_before(text: str, j: int, lo: int, acronym: str) -> tuple[int, str] | None:
    """(start, name) of the group author whose initials spell ``acronym``, written just before
    its bracket: "National Institute of Mental Health (NIMH, 2003)", "Ministry of Health (MoH"."""
    letters = "".join(c for c in acronym if c.isupper())
    if len(letters) < 2 or " " in acronym or not acronym.isalpha():
        return None
    tokens = _tokens(text, max(lo, j - LOOKBACK), j)
    words = [t for _, t in tokens]
    initials = ""
    for s in range(len(words) - 1, -1, -1):
        word = words[s]
        if word in CONNECTORS and s > 0 and capital(words[s - 1]):
            continue
        if not (capital(word) and is_name_token(word)) or word.lower() in NOT_NAMES:
            return None
        initials = word[0] + initials
        if initials == letters:
            return tokens[s][0], " ".join(words[s:])
        if len(initials) >= len(letters):
            return None
    return None


def _dates_in(inner: str, parse_tail: ParseTail) -> tuple[Dates, str, list[Work]] | None:
    """(dates, locator, works of a tail like "as cited in Agrios, 2005") of a narrative bracket."""
    if _PERSONAL.match(inner):  # "S. Alexander (personal communication, August 21, 2020)"
        years = [m.group(1) for m in YEAR.finditer(inner)]
        return ([(years[-1], "")], "", []) if years else None
    found, end = dates(inner, 0)
    if not found:
        return None
    locator, tail, _ = rest_of(inner[end:])
    extra = parse_tail(tail) if tail else []
    if tail and not extra:
        return None  # "Smith (2020 showed that)" is prose
    return found, locator, extra


def _tokens(text: str, lo: int, j: int) -> list[tuple[int, str]]:
    """The last MAX_WORDS words of text[lo:j], with their offsets."""
    window = text[lo:j]
    tokens: list[tuple[int, str]] = []
    cursor = len(window)
    for token in reversed(window.rsplit(None, MAX_WORDS)[-MAX_WORDS:]):
        cursor = window.rfind(token, 0, cursor)
        tokens.insert(0, (lo + cursor, token))
    return tokens


def _plain_name(word: str) -> bool:
    """A capitalised word that may be part of a surname ("Montoya"; not "Fig." or "The")."""
    return (
        capital(word)
        and is_name_token(word)
        and not word.endswith(".")
        and word.lower() not in NOT_NAMES
        and not is_initial(word)
    )


def _two_word_pair(words: list[str], start: int) -> tuple[int, str, str] | None:
    """(start, first, second) of two authors whose names are two words each, joined by "and"
    or "&" before the bracket: "Rodriguez Montoya and Matos Chassin (2009)" (compound surnames,
    or given names written out: the resolver tries the last word too). Both sides must have two
    words, so that "Smith and Jones" and "in Jones and Matos Chassin" are read as before."""
    if start < 4 or words[start - 2] not in ("and", "&") or not _plain_name(words[start - 1]):
        return None
    if not (_plain_name(words[start - 3]) and _plain_name(words[start - 4])):
        return None
    second = f"{words[start - 1]} {words[start]}"
    return start - 4, f"{words[start - 4]} {words[start - 3]}", second


def _name_at(words: list[str], i: int, et_al: bool = False) -> tuple[int, str] | None:
    """(index of the first word, name) of the name ending at ``words[i]``, particles kept."""
    if i < 0:
        return None
    word = words[i].rstrip(",")
    bare = word.removesuffix("'s").removesuffix("’s")
    if not (bare and is_name_token(bare) and capital(bare)) or bare.endswith("."):
        return None
    if bare.lower() in NOT_NAMES and not (et_al and bare.lower() in SURNAMES_TOO):
        return None
    start = i
    while start > 0 and is_particle(words[start - 1]):
        start -= 1
    return start, " ".join([*words[start:i], word])


def _group(
    text: str,
    k: int,
    tokens: list[tuple[int, str]],
    words: list[str],
    start: int,
    last: int,
    name: str,
) -> tuple[int, str, bool, bool]:
    """(start, name, group, bold): the capitalised run before a lone name, kept when it is a group
    author ("East Carolina University (2020)") or set in bold ("**Goldman Sachs (2023)**:")."""
    n = start
    while n > 0 and start - n < 8:
        word = words[n - 1]
        if (capital(word) and is_name_token(word) and word.lower() not in NOT_NAMES) or (
            word in CONNECTORS and n >= 2 and capital(words[n - 2])
        ):
            n -= 1
        else:
            break
    while n < start and words[n] in CONNECTORS:
        n += 1
    if text[k : k + 2] in ("**", "__"):
        for b in range(n, start + 1):
            if tokens[b][1].startswith(("**", "__")):
                return b, " ".join(words[b : last + 1]), False, True
    if n < start and any(w.lower() in _GROUPS for w in words[n : last + 1]):
        return n, " ".join(words[n : last + 1]), True, False
    return start, name, False, False


def _verb_after(text: str, k: int, guessing: bool) -> bool:
    """A reporting verb right after the bracket ("(2020) showed", "(2003) also found", "(2018)
    has shown"); when ``guessing``, any past-tense or present-tense verb counts too ("(2000)
    compared", "(2017) analyses", "(2008) denoises")."""
    m = _NEXT.match(text, k, min(len(text), k + 60))
    if m is None:
        return False
    following = [w for w in m.groups() if w]
    first = following[0]
    for word in following[1:]:  # "(2018) has shown", "(2003) also found", "had already said"
        if not (first in _ADVERBS or first in _HAVE or (first.endswith("ly") and first.islower())):
            break
        first = word
    return first in _VERBS or (
        guessing
        and first.islower()
        and (
            first in _IRREGULAR_PAST
            or (len(first) > 4 and first.endswith("ed"))
            or (len(first) > 4 and first.endswith("s") and not first.endswith(_NOT_VERB_ENDS))
        )
    )
