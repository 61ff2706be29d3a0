"""Read a manuscript of any kind into the plain text the checker reads, with its reference list:
PDF (ingest/pdf.py, superscripts marked), Word (word.py, footnotes and endnotes too), LaTeX
with its .bib or thebibliography, Markdown or plain text (pandoc keys through the .bib).

Everything in a manuscript is untrusted: its size, pages and text are bounded before anything
is checked, and every problem is a message naming the file and what to do.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path

from research_assistant.bib.parse import parse_bib_file
from research_assistant.errors import ResearchAssistantError
from research_assistant.ids import DOI_IN_TEXT
from research_assistant.ingest import pdf
from research_assistant.manuscript.citations import pandoc_cites
from research_assistant.manuscript.latex import bibitems, latex_text
from research_assistant.manuscript.model import KeyCite, Manuscript, RefEntry
from research_assistant.manuscript.references import (
    find_reference_list,
    parse_entry,
    split_entries,
)
from research_assistant.models import Paper
from research_assistant.report.references import format_reference
from research_assistant.word import read_docx

__all__ = [
    "KINDS",
    "MAX_BIB_BYTES",
    "MAX_BYTES",
    "MAX_CHARS",
    "MAX_PAGES",
    "MAX_SOURCE_BYTES",
    "read_manuscript",
]

KINDS = {".pdf": "pdf", ".docx": "docx", ".tex": "tex", ".md": "md", ".markdown": "md"}
KINDS |= {".txt": "txt"}
# Bounds on what one check may hold the shared process for. A 30-page article with 150
# citations is ~120,000 characters and checks in a few seconds (bench/manuscript.py); a
# 200-page thesis is ~600,000 characters. Longer texts are refused: check them a part at a time.
MAX_BYTES = 100 * 2**20
MAX_BIB_BYTES = 20 * 2**20
MAX_PAGES = 250
MAX_CHARS = 600_000
MAX_SOURCE_BYTES = 4 * MAX_CHARS  # LaTeX or Markdown source: markup around the text it holds
_HEADING_WORDS = 8  # a longer line is prose, even without end punctuation
_ENDS = ".?!:;,-–"
_EDGE_LINES = 3  # lines at the top and the foot of a page where running heads are printed
_REPEATED_DOI = 3  # a DOI printed this often is the manuscript's own (a running footer)


def read_manuscript(path: Path, bib: Path | None = None, *, name: str = "") -> Manuscript:
    """The manuscript at ``path`` (its kind from the suffix), keys resolved through ``bib``."""
    path = Path(path)
    name = name or path.name
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise ResearchAssistantError(
            f"{name} is not a manuscript Citable reads: give a .pdf, .docx, .tex (with its .bib), "
            ".md or .txt file"
        )
    try:
        size = path.stat().st_size
        data = path.read_bytes() if size <= MAX_BYTES else b""
    except OSError as exc:
        raise ResearchAssistantError(
            f"Cannot read {name} ({exc.strerror}): check the path"
        ) from exc
    if size > MAX_BYTES:
        raise ResearchAssistantError(
            f"{name} is {size / 2**20:.0f} MiB, over the {MAX_BYTES // 2**20} MiB limit for a "
            "manuscript: check it a chapter at a time"
        )
    sha = hashlib.sha256(data).hexdigest()
    papers = _bib_papers(bib) if bib else {}
    if kind == "pdf":
        ms = _read_pdf(path, name, sha)
    elif kind == "docx":
        ms = _read_docx(path, name, sha)
    elif len(data) > MAX_SOURCE_BYTES:  # a text source is parsed whole: bounded before
        raise ResearchAssistantError(
            f"{name} is {len(data):,} bytes of text, over the limit of {MAX_SOURCE_BYTES:,} for "
            "a manuscript: check it a chapter at a time"
        )
    elif kind == "tex":
        ms = _read_tex(data.decode("utf-8", errors="replace"), name, sha, papers, bib)
    else:
        ms = _read_text(data.decode("utf-8", errors="replace"), name, sha, kind, papers, bib)
    if len(ms.text) > MAX_CHARS:
        raise ResearchAssistantError(
            f"{name} holds {len(ms.text):,} characters of text, over the limit of {MAX_CHARS:,} "
            "per manuscript check: check it a chapter at a time"
        )
    return ms


def _bib_papers(bib: Path) -> dict[str, Paper]:
    try:
        size = bib.stat().st_size
    except OSError as exc:
        raise ResearchAssistantError(f"Cannot read {bib.name} ({exc.strerror})") from exc
    if size > MAX_BIB_BYTES:
        raise ResearchAssistantError(
            f"{bib.name} is over {MAX_BIB_BYTES // 2**20} MiB: not a manuscript's .bib"
        )
    return {p.key: p for p in parse_bib_file(bib).papers}


def _listed(
    text: str, name: str, paragraphs: bool = True
) -> tuple[int, tuple[RefEntry, ...], tuple[str, ...]]:
    """Where the reference list of ``text`` starts, its parsed entries, and any note."""
    found = find_reference_list(text)
    if found is None:
        return (
            len(text),
            (),
            (
                f"No reference list was found in {name} (no References or Bibliography heading): "
                "numbered citations cannot be resolved; author-year citations are checked against "
                "the library directly.",
            ),
        )
    start, end = found
    entries = tuple(
        parse_entry(t, n, label) for n, label, t in split_entries(text[start:end], paragraphs)
    )
    # A DOI printed on every page (the manuscript's own, in a running footer) is no entry's
    repeated = {d for d in DOI_IN_TEXT.findall(text) if text.count(d) >= _REPEATED_DOI}
    entries = tuple(replace(e, doi="") if e.doi in repeated else e for e in entries)
    heading_at = text.rfind("\n", 0, start - 1) if start else 0
    note = () if entries else (f"The reference list of {name} could not be split into entries.",)
    return max(heading_at, 0), entries, note


def _read_pdf(path: Path, name: str, sha: str) -> Manuscript:
    info = pdf.read_pdf(path, max_pages=MAX_PAGES + 1)
    if info.page_count > MAX_PAGES:
        raise ResearchAssistantError(
            f"{name} has more than {MAX_PAGES} pages: check it a chapter at a time"
        )
    starts, parts, pos = [], [], 0
    running = _running_lines([p.text for p in info.pages])
    for page in info.pages:
        starts.append(pos)
        kept = "\n".join(ln for ln in page.text.split("\n") if _shape(ln) not in running)
        parts.append(_headings_apart(kept))
        pos += len(parts[-1]) + 1
    text = "\n".join(parts)
    body_end, refs, notes = _listed(text, name, paragraphs=False)
    return Manuscript(
        name, sha, "pdf", text, body_end, refs, page_starts=tuple(starts),
        notes=tuple(info.notes) + notes,
    )  # fmt: skip


def _shape(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()))


def _running_lines(pages: list[str]) -> set[str]:
    """Running headers and footers: lines (digits aside) among the first or last few of at
    least a third of the pages (3 at least), and bare page numbers. They would otherwise be
    read into the sentence or the reference entry that a page break cuts."""
    counts: dict[str, int] = {}
    for text in pages:
        lines = [ln for ln in text.split("\n") if ln.strip()]
        for shape in {_shape(ln) for ln in lines[:_EDGE_LINES] + lines[-_EDGE_LINES:]}:
            counts[shape] = counts.get(shape, 0) + 1
    least = max(3, len(pages) // 3)
    return {s for s, n in counts.items() if n >= least} | {"#"}


def _headings_apart(text: str) -> str:
    """A PDF page's text with a blank line around each heading: a short line with no end
    punctuation, at the top or after a line that ends a sentence or is a heading itself.
    The claim of a paragraph's first citation must not start with "2 Methods"."""
    lines = text.split("\n")
    out: list[str] = []
    previous_ends = True
    for line in lines:
        words = line.split()
        heading = (
            previous_ends and 0 < len(words) <= _HEADING_WORDS and line.rstrip()[-1] not in _ENDS
        )
        out.append(f"\n{line}\n" if heading else line)
        previous_ends = heading or line.rstrip().endswith(tuple(_ENDS)) or not words
    return "\n".join(out)


def _read_docx(path: Path, name: str, sha: str) -> Manuscript:
    doc = read_docx(path)
    body = "\n\n".join(p for p in doc.paragraphs if p.strip())
    body_end, refs, notes = _listed(body, name)
    extra = [*doc.footnotes, *doc.endnotes]
    text = body[:body_end] + ("\n\nNotes\n\n" + "\n\n".join(extra) if extra else "")
    moved = len(text)
    text += body[body_end:]
    return Manuscript(name, sha, "docx", text, moved, refs, notes=notes)


def _from_bib(
    cites: tuple[KeyCite, ...], papers: dict[str, Paper], items: dict[str, str]
) -> tuple[RefEntry, ...]:
    """One entry per cited key, in order of first citation, from the .bib (or \\bibitem)."""
    out: list[RefEntry] = []
    for key in dict.fromkeys(k for c in cites for k in c.keys):
        paper = papers.get(key)
        if paper is not None:
            out.append(
                RefEntry(
                    text=format_reference(paper), first_author=paper.first_author,
                    authors=tuple(a.display for a in paper.authors),
                    year=str(paper.year or ""), title=paper.title, venue=paper.venue,
                    doi=paper.doi, arxiv_id=paper.arxiv_id, key=key,
                )
            )  # fmt: skip
        elif key in items:
            entry = parse_entry(items[key])
            out.append(replace(entry, key=key))
    return tuple(out)


def _missing_bib(name: str, cites: tuple[KeyCite, ...], bib: Path | None) -> tuple[str, ...]:
    if not cites or bib is not None:
        return ()
    return (
        f"{name} cites by key but no .bib was given: give the manuscript's .bib (--bib, or the "
        "second upload) so that its citations can be resolved.",
    )


def _read_tex(
    source: str, name: str, sha: str, papers: dict[str, Paper], bib: Path | None
) -> Manuscript:
    text, cites = latex_text(source)
    items = dict(bibitems(source))
    notes = () if items else _missing_bib(name, cites, bib)
    refs = _from_bib(cites, papers, items)
    return Manuscript(name, sha, "tex", text, len(text), refs, cites, notes=notes)


def _read_text(
    text: str, name: str, sha: str, kind: str, papers: dict[str, Paper], bib: Path | None
) -> Manuscript:
    cites = tuple(pandoc_cites(text)) if kind == "md" or bib is not None else ()
    if cites:
        notes = _missing_bib(name, cites, bib)
        return Manuscript(name, sha, kind, text, len(text), _from_bib(cites, papers, {}),
                          cites, notes=notes)  # fmt: skip
    body_end, refs, notes = _listed(text, name)
    return Manuscript(name, sha, kind, text, body_end, refs, notes=notes)
