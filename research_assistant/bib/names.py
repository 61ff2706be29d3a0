"""Pure BibTeX text helpers: LaTeX to Unicode and back, author names, labels and keys.

``bibtex.py`` parses files; this module holds what it does with one value: decode LaTeX
(pylatexenc, offline), split a name list the BibTeX way, read the paths of a ``file`` field,
and build the Author-Year labels and generated citation keys the rest of the package cites by.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import count, product
from string import ascii_lowercase

from bibtexparser.middlewares.names import parse_single_name_into_parts
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from research_assistant.models import Name, Paper
from research_assistant.text import fold

# --- LaTeX ----------------------------------------------------------------------------------

_CONTEXT = get_default_latex_context_db()
# pylatexenc drops or decorates these by default; in a bibliography they are plain text.
_CONTEXT.add_context_category(
    "citable",
    prepend=True,
    macros=[
        MacroTextSpec("url", "%s"),  # default renders "<url>"
        MacroTextSpec("mbox", "%s"),  # default drops the argument
        MacroTextSpec("LaTeX", "LaTeX"),
        MacroTextSpec("TeX", "TeX"),
        MacroTextSpec("S", "§ "),
        MacroTextSpec("textasciicircum", "^"),  # default is U+02C6, not the caret
    ],
)
_DECODER = LatexNodes2Text(latex_context=_CONTEXT, math_mode="text")
_LATEX_SPECIAL = re.compile(r"[\\$~%&]|--|``|''")
# In a .bib value a bare % or & is text (a URL, "R&D"), not a LaTeX comment or alignment tab.
_BARE_TEXT_CHARS = re.compile(r"(?<!\\)([%&])")
_BRACE_ESCAPE = re.compile(r"(?<!\\)[{}]")


@lru_cache(maxsize=16384)  # journal, publisher, month and keyword values repeat a lot
def decode_latex(value: str) -> str:
    """LaTeX (accents, {{case}} braces, {\\sc X}, \\textit, ~, --) to plain Unicode text."""
    if not value:
        return ""
    unbraced = _BRACE_ESCAPE.sub("", value)
    if not _LATEX_SPECIAL.search(unbraced):
        # Most values hold no macro: skip pylatexenc, which costs about 1 ms per call.
        text = unbraced
    else:
        try:
            text = _DECODER.latex_to_text(_BARE_TEXT_CHARS.sub(r"\\\1", value))
        except Exception:
            # deeply nested braces (RecursionError) or markup pylatexenc cannot walk: keep
            # the letters rather than lose the value or stop the import
            text = re.sub(r"\\[A-Za-z]+\s*|[\\{}$]", "", value)
    return unicodedata.normalize("NFC", " ".join(text.split()))  # ~ (NBSP) becomes a space


_ENCODE = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
}
_ENCODE_RE = re.compile(r"[\\{}%&$#_~]|--|``|''")


def encode_latex(text: str) -> str:
    """Plain text to a BibTeX value that ``decode_latex`` turns back into the same text."""

    def one(m: re.Match[str]) -> str:
        s = m.group()
        return _ENCODE.get(s) or f"{s[0]}{{}}{s[1]}"  # "--" -> "-{}-": no ligature

    return _ENCODE_RE.sub(one, text)


# --- names ----------------------------------------------------------------------------------


def _whole_braced(raw: str) -> bool:
    """True for ``{World Health Organization}``: one brace group spanning the whole name."""
    if len(raw) < 2 or raw[0] != "{" or raw[-1] != "}" or raw.startswith("{\\"):
        return False
    depth = 0
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and i != len(raw) - 1:
                return False
    return depth == 0


def parse_name(raw: str) -> Name | None:
    """One BibTeX name (``von Last, Jr, First`` or ``First von Last``); None if empty."""
    raw = " ".join(raw.split())
    if not raw.strip(" ,"):
        return None
    if _whole_braced(raw):
        return Name(family=decode_latex(raw), corporate=True)
    try:
        parts = parse_single_name_into_parts(raw, strict=False)
    except (ValueError, IndexError):  # bibtexparser gives up on some malformed names
        return Name(family=decode_latex(raw))
    family, given, von, jr = (
        decode_latex(" ".join(p)) for p in (parts.last, parts.first, parts.von, parts.jr)
    )
    if not family:  # "von ," or "First," forms: keep whatever is there as the family name
        family, given = (von, given) if von else (given, "")
        von = ""
    if not family:
        return None
    return Name(family=family, given=given, von=von, jr=jr)


_NAME_TOKENS = re.compile(r"\\.|[{}]|\s+and\s+", re.IGNORECASE | re.DOTALL)


def split_name_list(value: str) -> list[str]:
    """Split at each `` and `` outside braces. bibtexparser's splitter drops the accent of a
    name that starts with a backslash (``A and \\"{O}zil`` -> ``{O}zil``), so not that one."""
    names, depth, start = [], 0, 0
    for m in _NAME_TOKENS.finditer(value):
        token = m.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif token[0] != "\\" and depth == 0:
            names.append(value[start : m.start()])
            start = m.end()
    names.append(value[start:])
    return [name.strip() for name in names if name.strip()]


def parse_names(value: str) -> tuple[tuple[Name, ...], bool]:
    """A raw BibTeX name list (``A and B and others``) -> (names, had "and others")."""
    raw_names = split_name_list(value or "")
    others = bool(raw_names) and raw_names[-1].strip().lower() == "others"
    if others:
        raw_names = raw_names[:-1]
    names = (parse_name(r) for r in raw_names if r.strip().lower() != "others")
    return tuple(n for n in names if n is not None), others


# --- the file field ---------------------------------------------------------------------------


def _split_unescaped(value: str, sep: str) -> list[str]:
    """Split on ``sep`` except where escaped with a backslash (escapes kept for later)."""
    parts, current, i = [], [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            current.append(value[i : i + 2])
            i += 2
            continue
        if ch == sep:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def _unescape_path(path: str) -> str:
    # Zotero and JabRef escape ":", ";" and "\" in paths with a backslash
    return re.sub(r"\\([\\:;])", r"\1", path).strip()


def parse_file_field(value: str) -> tuple[str, ...]:
    """The ``file`` field of Zotero/Better BibTeX, JabRef or Mendeley -> the paths it names.

    Forms: ``paper.pdf``; ``desc:path:type`` records (``:C\\:/x/a.pdf:application/pdf``,
    ``:papers/a.pdf:PDF``) separated by ``;``. Paths are returned raw, never LaTeX-decoded.
    """
    paths: list[str] = []
    # Mendeley writes each backslash as "$\backslash$", so "C$\backslash$:" is an escaped ":"
    value = (value or "").replace("$\\backslash$", "\\")
    for record in _split_unescaped(value, ";"):
        parts = _split_unescaped(record, ":")
        if len(parts) == 1:
            path = parts[0]
        elif len(parts) == 2:
            # "C:/x/a.pdf" (an unescaped drive letter) or "description:path"
            drive = len(parts[0].strip()) == 1 and parts[1][:1] in "/\\"
            path = ":".join(parts) if drive else parts[1]
        else:
            path = ":".join(parts[1:-1])  # an unescaped "C:" inside the path survives
        path = _unescape_path(path)
        if path and path not in paths:
            paths.append(path)
    return tuple(paths)


def format_file_field(files: Iterable[str]) -> str:
    """Paths back to a ``file`` value that ``parse_file_field`` reads the same."""
    return ";".join(re.sub(r"([\\:;])", r"\\\1", f) for f in files)


# --- labels ---------------------------------------------------------------------------------

_LEADING_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
LABEL_TITLE_WORDS = 3  # APA cites an authorless work by the first few words of its title


def _title_label(title: str) -> str:
    words = [w.strip(".,:;!?\"'()[]") for w in title.split()]
    return " ".join([w for w in words if any(c.isalnum() for c in w)][:LABEL_TITLE_WORDS])


def base_label(
    authors: Sequence[Name], year: int | None, others: bool = False, title: str = ""
) -> str:
    """``Smith, 2020`` / ``Smith and Jones, 2020`` / ``Smith et al., 2020``; ``n.d.`` if no
    year; a work with no authors is labelled by the first words of ``title``."""
    when = str(year) if year is not None else "n.d."
    if not authors:
        who = _title_label(title) or "Anonymous"
    elif len(authors) == 1 and not others:
        who = authors[0].cited
    elif len(authors) == 2 and not others:
        who = f"{authors[0].cited} and {authors[1].cited}"
    else:
        who = f"{authors[0].cited} et al."
    return f"{who}, {when}"


def _suffixes() -> Iterator[str]:
    """a, b, ..., z, aa, ab, ...: enough letters for any number of works."""
    for width in count(1):
        for letters in product(ascii_lowercase, repeat=width):
            yield "".join(letters)


def _title_order(paper: Paper) -> tuple[str, str]:
    # APA orders same-author, same-year works by title, ignoring a leading article
    return fold(_LEADING_ARTICLE.sub("", paper.title)), paper.key


def assign_labels(papers: Iterable[Paper]) -> tuple[Paper, ...]:
    """Unique labels across the library: colliding labels get a/b/... by title (APA)."""
    papers = tuple(papers)
    bases = [base_label(p.authors, p.year, p.others, p.title) for p in papers]
    groups: dict[str, list[int]] = defaultdict(list)
    for i, label in enumerate(bases):
        groups[fold(label)].append(i)
    labels = list(bases)
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda i: _title_order(papers[i]))
        for i, suffix in zip(members, _suffixes(), strict=False):
            # APA: "2020a", but "n.d.-a" after a missing year
            labels[i] = bases[i] + ("-" if bases[i].endswith("n.d.") else "") + suffix
    # unchanged papers are kept as they are: a change to a library of 10,000 is not 10,000 copies
    return tuple(
        p if p.label == label else replace(p, label=label)
        for p, label in zip(papers, labels, strict=True)
    )


# --- generated keys -------------------------------------------------------------------------

# Words Better BibTeX's short title skips (articles, conjunctions, common prepositions).
_KEY_STOPWORD_TEXT = (
    "a an the and or nor but of on in into onto for to with within without by at from as via "
    "per about over under upon is are be"
)
_KEY_STOPWORDS = frozenset(_KEY_STOPWORD_TEXT.split())
_ASCII_EXTRA = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ł": "l",
     "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d"}
)  # fmt: skip
KEY_TITLE_WORDS = 3  # Better BibTeX's default: [auth:lower][shorttitle3_3][year]


def ascii_fold(text: str) -> str:
    """Accents stripped and special letters spelled out, case kept: "Günter Ø" -> "Gunter O"."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII_EXTRA))
    return "".join(ch for ch in decomposed if ch.isascii())


def _key_words(title: str) -> list[str]:
    out = []
    for raw in title.split():
        word = re.sub(r"[^A-Za-z0-9]", "", ascii_fold(raw))
        if not word or word.lower() in _KEY_STOPWORDS:
            continue
        # BBT keeps "WiLI" and "TIMP" as written but runs a hyphenated word together:
        # "Trace-based" -> "Tracebased"
        if "-" in raw or word.islower():
            word = word.lower()
        out.append(word[0].upper() + word[1:])
        if len(out) == KEY_TITLE_WORDS:
            break
    return out


def generate_key(
    authors: Sequence[Name], year: int | None, title: str, taken: Container[str]
) -> str:
    """A Better-BibTeX-like key, e.g. ``thomaCreativityMachineLearning2016``, not in ``taken``."""
    family = authors[0].family if authors else ""
    auth = re.sub(r"[^a-z0-9]", "", ascii_fold(family).lower())
    base = auth + "".join(_key_words(title)) + (str(year) if year is not None else "")
    base = base or "ref"
    if base not in taken:
        return base
    return next(base + s for s in _suffixes() if base + s not in taken)


__all__ = [
    "ascii_fold",
    "assign_labels",
    "base_label",
    "decode_latex",
    "encode_latex",
    "format_file_field",
    "generate_key",
    "parse_file_field",
    "parse_name",
    "parse_names",
]
