"""Pure: BibTeX text -> Papers, with every bad block reported and no good entry lost.

bibtexparser's splitter cuts the text into blocks (entries, @string, failed blocks, each with
its line). Field values are evaluated by fields.py (@string macros, month names, ``#``
concatenation), crossref is resolved here, then names are split BEFORE any LaTeX is decoded:
decoding first strips the braces that keep ``{World Health Organization}`` one corporate name,
and mangles ``file`` paths.
SEE: bibtexparser 2.x LatexDecodingMiddleware, "protected braces lost before name splitting".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import unquote

from bibtexparser import model
from bibtexparser.splitter import Splitter

from research_assistant.bib.fields import (
    VERBATIM_FIELDS,
    Expansion,
    TooLargeError,
    evaluate,
    verbatim,
)
from research_assistant.bib.names import (
    assign_labels,
    base_label,
    decode_latex,
    generate_key,
    parse_file_field,
    parse_names,
)
from research_assistant.errors import BibtexError
from research_assistant.ids import DOI_IN_TEXT, arxiv_from_doi, arxiv_from_url
from research_assistant.models import BibProblem, Paper


@dataclass(frozen=True)
class BibResult:
    papers: tuple[Paper, ...]  # good entries, labels not yet assigned (label="")
    problems: tuple[BibProblem, ...]
    entries: int  # entry blocks seen (good + bad)


VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "publisher", "school", "institution")
# Crossref inheritance as biber does it: everything the child lacks, except what identifies
# the parent itself; a book-like parent's title becomes the child's booktitle.
NO_INHERIT = frozenset({"crossref", "ids", "key", "file"})
CONTAINER_TYPES = frozenset(
    {"book", "mvbook", "proceedings", "mvproceedings", "collection", "mvcollection", "reference"}
)
CONTAINER_OWN = frozenset({"title", "subtitle", "titleaddon", "shorttitle", "abstract"})
_ENTRY_HEAD = re.compile(r"@\s*([\w-]*)\s*[{(]\s*([^,\s{}()]*)")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


# --- blocks -----------------------------------------------------------------------------------


Report = Callable[[int, str, str], None]  # (line, key, what happened and what to do)


@dataclass
class _Raw:
    """One entry after macro evaluation: raw field texts (inner braces kept), first wins."""

    key: str
    entry_type: str
    line: int
    fields: dict[str, str]


def _blocks(text: str) -> list[tuple[int, model.Block]]:
    """(1-based line, block) for every block, never raising on any input text."""
    try:
        return [((b.start_line or 0) + 1, b) for b in Splitter(text).split().blocks]
    except Exception:
        # The splitter raises on states it thinks impossible ("please report this bug"). Then
        # split at each "@" that starts a line and parse the pieces one by one.
        out: list[tuple[int, model.Block]] = []
        offset = 0
        for chunk in re.split(r"\n(?=\s*@)", text):
            try:
                blocks = Splitter(chunk).split().blocks
            except Exception as error:
                blocks = [model.ParsingFailedBlock(error=error, start_line=0, raw=chunk)]
            out.extend(((b.start_line or 0) + 1 + offset, b) for b in blocks)
            offset += chunk.count("\n") + 1
        return out


def _where(source: str, line: int, key: str) -> str:
    return f"{source}, line {line}" + (f", entry '{key}'" if key else "")


def _failed_reason(block: model.ParsingFailedBlock) -> str:
    reason = getattr(block.error, "abort_reason", "") or str(block.error)
    return " ".join(reason.split()).rstrip(". ")


def parse_bibtex(text: str, source: str = "<string>") -> BibResult:
    """Parse BibTeX text. Bad blocks become BibProblems; good entries are never dropped."""
    problems: list[BibProblem] = []

    def report(line: int, key: str, what: str) -> None:
        problems.append(BibProblem(source, line, key, f"{_where(source, line, key)}: {what}"))

    strings: dict[str, str] = {}
    expansion = Expansion()
    raws: list[_Raw] = []
    first_line: dict[str, int] = {}
    entries = 0
    for line, block in _blocks(text):
        if isinstance(block, model.DuplicateBlockKeyBlock | model.DuplicateFieldKeyBlock):
            inner = block.ignore_error_block
            if isinstance(block, model.DuplicateFieldKeyBlock) and isinstance(inner, model.Entry):
                twice = ", ".join(sorted(block.duplicate_keys))
                report(line, inner.key, f"the field {twice} appears twice; the first is used.")
            if inner is None:
                continue
            block = inner
        if isinstance(block, model.String):
            name = block.key.strip().lower()
            try:
                strings[name] = evaluate(block.value, strings, [], expansion)
            except TooLargeError as e:
                strings.pop(name, None)
                expansion.too_large.add(name)
                if not e.earlier:  # one report for the macro that grew too large, not its users
                    report(
                        line,
                        "",
                        f"@string {block.key.strip()} would expand to {e.limit_text()}, so it "
                        "was left out, with the fields and macros that use it; the rest of the "
                        "file was read. A real macro is short: check where this file came from.",
                    )
        elif isinstance(block, model.Entry):
            entries += 1
            key = block.key.strip()
            if key and key in first_line:
                report(
                    line,
                    key,
                    f"the key is used again (first at line {first_line[key]}); this later entry "
                    "was skipped. If it is a different work, give it its own key and import again.",
                )
                continue
            if key:
                first_line[key] = line
            undefined: list[str] = []
            fields: dict[str, str] = {}
            too_large: dict[str, TooLargeError] = {}
            for item in block.fields:
                name = item.key.strip().lower()
                if name and name not in fields and name not in too_large:
                    try:
                        fields[name] = evaluate(str(item.value), strings, undefined, expansion)
                    except TooLargeError as e:
                        too_large[name] = e
            if too_large:
                first = next(iter(too_large.values()))
                report(
                    line,
                    key,
                    f"the field(s) {', '.join(too_large)} {first.in_field()}, so they were "
                    "left out; the rest of the entry was kept.",
                )
            if undefined:
                names = ", ".join(dict.fromkeys(undefined))
                report(
                    line,
                    key,
                    f"uses @string macros that are not defined in this file ({names}); their "
                    "names were kept as text. Add the @string definitions to fix the fields.",
                )
            raws.append(_Raw(key, block.entry_type.strip().lower(), line, fields))
        elif isinstance(block, model.ParsingFailedBlock):
            head = _ENTRY_HEAD.match((block.raw or "").lstrip())
            kind = head.group(1).lower() if head else ""
            key = head.group(2) if head and kind not in ("string", "comment", "preamble") else ""
            if kind not in ("string", "comment", "preamble"):
                entries += 1
            report(
                line,
                key,
                f"this @{kind or 'block'} could not be read ({_failed_reason(block)}), so it was "
                "skipped. Check its braces, quotes and commas; the rest of the file was read.",
            )
    papers = _build_papers(raws, source, report)
    if entries == 0 and text.strip():
        report(0, "", "no BibTeX entries (like @article{key, ...}) were found in this file.")
    problems.sort(key=lambda p: p.line)
    return BibResult(papers=papers, problems=tuple(problems), entries=entries)


def _build_papers(raws: list[_Raw], source: str, report: Report) -> tuple[Paper, ...]:
    by_key = {r.key.lower(): r for r in raws if r.key}
    taken = {r.key for r in raws if r.key}
    papers = []
    for raw in raws:
        fields = dict(raw.fields)
        parent_key = verbatim(fields.get("crossref", ""))
        if parent_key:
            parent = by_key.get(parent_key.lower())
            if parent is None:
                report(
                    raw.line,
                    raw.key,
                    f"crossref '{parent_key}' names no entry in this file, so nothing was "
                    "inherited from it. Add that entry (the proceedings or book) to the file.",
                )
            else:
                _inherit(fields, parent)
        paper = _paper(raw, fields, source, report)
        if not paper.key:
            paper = _with_generated_key(paper, taken, raw, report)
        papers.append(paper)
    return tuple(papers)


def _inherit(fields: dict[str, str], parent: _Raw) -> None:
    container = parent.entry_type in CONTAINER_TYPES
    for name, value in parent.fields.items():
        if name in fields or name in NO_INHERIT or (container and name in CONTAINER_OWN):
            continue
        fields[name] = value
    if container and "booktitle" not in fields and "title" in parent.fields:
        fields["booktitle"] = parent.fields["title"]


def _with_generated_key(paper: Paper, taken: set[str], raw: _Raw, report: Report) -> Paper:
    key = generate_key(paper.authors, paper.year, paper.title, taken)
    taken.add(key)
    report(
        raw.line,
        "",
        f"the entry has no citation key; it was given the key '{key}'. Set a key in your "
        "reference manager so that citations of it stay stable between imports.",
    )
    return replace(paper, key=key)


def _year(fields: dict[str, str]) -> tuple[int | None, str]:
    """(year, what the entry says instead): from ``year``, else BibLaTeX ``date``."""
    for name in ("year", "date"):
        value = decode_latex(fields.get(name, ""))
        match = _YEAR.search(value)
        if match:
            return int(match.group(1)), ""
        if value:
            return None, value
    return None, ""


def _doi(fields: dict[str, str]) -> str:
    """Bare lower-case DOI from ``doi`` ("https://doi.org/10.1/x" -> "10.1/x"), else a DOI URL."""
    url = fields.get("url", "")
    for value in (fields.get("doi", ""), url if "doi.org/" in url.lower() else ""):
        match = DOI_IN_TEXT.search(unquote(verbatim(value)))
        if match:
            return match.group().rstrip(".,;").lower()
    return ""


def _arxiv_id(fields: dict[str, str], doi: str) -> str:
    kind = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip("{} ").lower()
    eprint = verbatim(fields.get("eprint", ""))
    if kind == "arxiv" and eprint:
        return re.sub(r"^arxiv:", "", eprint, flags=re.IGNORECASE)
    return arxiv_from_url(verbatim(fields.get("url", ""))) or arxiv_from_doi(doi)


def _paper(raw: _Raw, fields: dict[str, str], source: str, report: Report) -> Paper:
    authors, others = parse_names(fields.get("author", ""))
    if not authors:
        authors, others = parse_names(fields.get("editor", ""))
    title = decode_latex(fields.get("title", ""))
    year, instead = _year(fields)
    if not authors:
        report(
            raw.line,
            raw.key,
            "no author or editor; the entry is kept and cited by its title "
            f"('{base_label((), year, title=title)}'). Add the authors to cite it by name.",
        )
    if year is None:
        said = f" (it says '{instead}')" if instead else ""
        report(
            raw.line,
            raw.key,
            f"no year{said}; the entry is kept and cited as 'n.d.'. Add a year (or date) "
            "field to cite it by year.",
        )
    decoded = {
        name: verbatim(value) if name in VERBATIM_FIELDS else decode_latex(value)
        for name, value in fields.items()
        if name != "file"
    }
    doi = _doi(fields)
    return Paper(
        key=raw.key,
        title=title,
        authors=authors,
        year=year,
        entry_type=raw.entry_type or "misc",
        venue=next((decoded[v] for v in VENUE_FIELDS if decoded.get(v)), ""),
        doi=doi,
        arxiv_id=_arxiv_id(fields, doi),
        url=decoded.get("url", ""),
        files=parse_file_field(fields.get("file", "")),
        fields=tuple(sorted(decoded.items())),
        others=others,
        metadata="bibtex",
        source=f"{source}:{raw.line}",
    )


def parse_bib_file(path: Path) -> BibResult:
    """Read and parse a .bib file (UTF-8, else Latin-1). Raises BibtexError only when the file
    cannot be read at all; bad entries are reported in the result."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise BibtexError(
            f"Cannot read the BibTeX file {path.name}: {error.strerror or error}. "
            "Check that the file exists and can be opened, then import it again."
        ) from error
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    elif b"\x00" in data:
        raise BibtexError(
            f"{path.name} is not a text file, so it cannot be a BibTeX library. "
            "Export your library as BibTeX (.bib) from your reference manager and import that."
        )
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # older JabRef and hand-kept files
    return parse_bibtex(text, source=path.name)


__all__ = [
    "BibResult",
    "assign_labels",
    "base_label",
    "generate_key",
    "parse_bib_file",
    "parse_bibtex",
    "parse_file_field",
    "parse_names",
]
