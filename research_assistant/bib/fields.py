"""Pure: BibTeX field values evaluated, within size limits, and identifiers kept verbatim.

A raw value becomes its text here: ``#`` concatenation, @string macros, month names; macro
expansion stops before a value or a file's inserted macro text grows past its limit. Fields
that hold identifiers or paths lose only braces, escapes and extra spaces. parse.py cuts the text into
entries and builds Papers from what this module returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_MONTH_NAMES = (
    "January February March April May June July August September October November December"
)
# The standard styles' month macros (plain.bst: MACRO {jan} {"January"} ...), and the full
# names that hand-kept files write without braces (month = june).
MONTHS = {m[:3].lower(): m for m in _MONTH_NAMES.split()}
MONTHS |= {m.lower(): m for m in _MONTH_NAMES.split()} | {"sept": "September"}
# Fields that hold identifiers or paths, not LaTeX text: never run through the decoder.
VERBATIM_FIELDS = frozenset({"url", "doi", "eprint", "file", "pdf", "isbn", "issn", "urldate"})
_MACRO = re.compile(r"[^\s\"#%'(),={}]+")
_VERBATIM_ESCAPE = re.compile(r"\\([_%&#$])")
# @string expansion limits. A macro is copied wherever it is used, so 40 doubling macros in a
# 1 KB file (s1 = s0 # s0, ...) would grow past 2 GB and take the whole shared process down.
# Real macros are journal names and the like (well under 1 KB), and the longest field values in
# the corpus libraries are abstracts of a few KB: a million characters per value, and twenty
# million characters inserted by macros in one file, leave any real file far inside both.
MAX_VALUE_CHARS = 1_000_000
MAX_MACRO_TEXT_CHARS = 20_000_000


class TooLargeError(Exception):
    """A value would pass a limit: ``macro`` pushed it over (or was itself left out before)."""

    def __init__(self, macro: str, limit: int, *, total: bool = False, earlier: bool = False):
        super().__init__(macro)
        self.macro, self.limit, self.total, self.earlier = macro, limit, total, earlier

    def limit_text(self) -> str:
        scope = "all macro text in one file" if self.total else "one value"
        return f"more than {self.limit:,} characters (the limit for {scope})"

    def in_field(self) -> str:
        if self.earlier:
            return (
                f"use the @string macro {self.macro}, which was left out for expanding to "
                f"more than {self.limit:,} characters (the limit)"
            )
        return f"would expand to {self.limit_text()} through the @string macro {self.macro}"


@dataclass
class Expansion:
    """Macro text inserted so far in one file, and the macros left out for their size."""

    inserted: int = 0
    too_large: set[str] = field(default_factory=set)


def _split_concatenation(value: str) -> list[str]:
    """``MCDERMOTT # { and Sussman}`` -> the pieces between ``#`` outside braces and quotes."""
    pieces, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(value):
        if ch == "\\":
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == '"' and depth == 0 and (i == 0 or value[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            pieces.append(value[start:i])
            start = i + 1
    pieces.append(value[start:])
    return [p.strip() for p in pieces if p.strip()]


def evaluate(
    value: str, strings: dict[str, str], undefined: list[str], expansion: Expansion | None = None
) -> str:
    """A raw field value -> its text (inner braces kept); unknown macro names are kept as text
    and appended to ``undefined``. Raises TooLargeError before a value passes MAX_VALUE_CHARS
    or the file's macros insert more than MAX_MACRO_TEXT_CHARS (nothing that large is built)."""
    expansion = expansion if expansion is not None else Expansion()
    out = []
    size = 0
    for piece in _split_concatenation(value):
        name = piece.lower()
        if (piece[0], piece[-1]) in (("{", "}"), ('"', '"')) and len(piece) > 1:
            text = piece[1:-1]
        elif piece.isdigit() or not _MACRO.fullmatch(piece):
            text = piece
        elif name in expansion.too_large:
            raise TooLargeError(piece, MAX_VALUE_CHARS, earlier=True)
        elif name in strings:
            text = strings[name]
            expansion.inserted += len(text)
            if expansion.inserted > MAX_MACRO_TEXT_CHARS:
                raise TooLargeError(piece, MAX_MACRO_TEXT_CHARS, total=True)
        elif name in MONTHS:
            text = MONTHS[name]
        else:
            undefined.append(piece)
            text = piece
        size += len(text)
        if size > MAX_VALUE_CHARS:
            raise TooLargeError(piece, MAX_VALUE_CHARS)
        out.append(text)
    return "".join(out)


def verbatim(value: str) -> str:
    """Identifiers and URLs: outer braces and ``\\_``-style escapes removed, nothing decoded."""
    return " ".join(_VERBATIM_ESCAPE.sub(r"\1", value.replace("{", "").replace("}", "")).split())


__all__ = [
    "MAX_MACRO_TEXT_CHARS",
    "MAX_VALUE_CHARS",
    "MONTHS",
    "VERBATIM_FIELDS",
    "Expansion",
    "TooLargeError",
    "evaluate",
    "verbatim",
]
