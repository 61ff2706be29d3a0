"""Reference lists and exports of checked citations: Markdown, standalone HTML, BibTeX.

Pure. Formatting is hand-rolled APA 7 (author-year) rather than citeproc-py: citeproc-py needs
lxml and bundles no APA style, and the a/b suffixes must be the library's own labels, which a
CSL processor would recompute. Everything from PDFs, BibTeX or a model is untrusted: the HTML
export escapes every string and links only https://doi.org/ DOIs; the Markdown export shows no
raw HTML and forms no link from it (``_inert``), and links only DOIs and http(s) addresses.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from urllib.parse import quote, urlsplit

from research_assistant.models import Name, Paper
from research_assistant.results import (
    AMBIGUOUS,
    MALFORMED,
    NOT_IN_LIBRARY,
    NOT_RETRIEVED,
    PARTIAL,
    UNCERTAIN,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Citation,
    Reference,
)
from research_assistant.text import fold

# status -> (symbol, label); shared with the UI so a verdict looks the same everywhere
STATUS_STYLE: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        VERIFIED: ("✅", "verified"),
        PARTIAL: ("◐", "partly supported: check the evidence"),
        UNCERTAIN: ("❔", "uncertain: check the evidence"),
        UNSUPPORTED: ("⚠", "unsupported"),
        NOT_RETRIEVED: ("⏸", "not retrieved"),
        UNKNOWN_SOURCE: ("❓", "unknown source"),
        NOT_IN_LIBRARY: ("∉", "not in your library"),
        AMBIGUOUS: ("⚖", "ambiguous"),
        MALFORMED: ("✖", "malformed"),
    }
)
# status -> (text/border colour, light background): GitHub Primer colours, contrast >= 4.5:1;
# the app's chips (render.py) and the HTML export use the same, so a verdict looks the same.
STATUS_COLOURS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        VERIFIED: ("#1a7f37", "#dafbe1"),
        PARTIAL: ("#0a6b60", "#d8f5f0"),
        UNCERTAIN: ("#7d4e00", "#fff8c5"),
        UNSUPPORTED: ("#b35900", "#fff1e0"),
        NOT_RETRIEVED: ("#57606a", "#eaeef2"),
        UNKNOWN_SOURCE: ("#8250df", "#fbefff"),
        NOT_IN_LIBRARY: ("#3f5c66", "#e6f0f2"),
        AMBIGUOUS: ("#0969da", "#ddf4ff"),
        MALFORMED: ("#cf222e", "#ffebe9"),
    }
)
_APA_MAX_AUTHORS = 20  # APA 7: up to 20 names; beyond, the first 19, "...", the last
_LABEL_YEAR = re.compile(r"(\d{4}[a-z]{0,2}|n\.d\.)\s*$")


def _initials(given: str) -> str:
    """ "Geemi P." -> "G. P.", "Jean-Paul" -> "J.-P."."""
    out = []
    for part in given.replace(".", ". ").split():
        pieces = [p for p in part.split("-") if p]
        if pieces and pieces[0][0].isalpha():
            out.append("-".join(f"{p[0]}." for p in pieces))
    return " ".join(out)


def _author(name: Name) -> str:
    if name.corporate:
        return name.family
    text = name.cited
    initials = _initials(name.given)
    if initials:
        text += f", {initials}"
    return f"{text}, {name.jr}" if name.jr else text


def _authors(paper: Paper) -> str:
    names = [_author(a) for a in paper.authors]
    if paper.others:
        names.append("et al.")
    if not names:
        return ""
    if len(names) > _APA_MAX_AUTHORS:
        return ", ".join(names[:19]) + ", ... " + names[-1]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + ", & " + names[-1]


def _year(paper: Paper) -> str:
    m = _LABEL_YEAR.search(paper.label)
    if m:
        return m.group(1)
    return str(paper.year) if paper.year else "n.d."


def _sentence(text: str) -> str:
    text = " ".join(text.replace("{", "").replace("}", "").split())
    return text if not text or text[-1] in ".?!" else text + "."


def format_reference(paper: Paper) -> str:
    """One APA-like reference: "Smith, J., & Lee, C. (2020a). Title. Venue. https://doi.org/..."."""
    fields = dict(paper.fields)
    parts = []
    authors = _authors(paper)
    if authors:
        parts.append(authors if authors.endswith(".") else authors + ".")
        parts.append(f"({_year(paper)}).")
        parts.append(_sentence(paper.title))
    else:  # APA: a work with no author is listed by its title
        parts.append(_sentence(paper.title))
        parts.append(f"({_year(paper)}).")
    venue = paper.venue or fields.get("journal") or fields.get("booktitle") or ""
    venue = venue or fields.get("publisher", "")
    if venue:
        extra = fields.get("volume", "")
        if extra and fields.get("number"):
            extra += f"({fields['number']})"
        if fields.get("pages"):
            extra = f"{extra}, {fields['pages']}" if extra else fields["pages"]
        parts.append(_sentence(f"{venue}, {extra}" if extra else venue))
    elif paper.arxiv_id:
        parts.append(f"arXiv:{paper.arxiv_id}.")
    if paper.doi:
        parts.append(f"https://doi.org/{paper.doi}")
    elif paper.url:
        parts.append(paper.url)
    return " ".join(p for p in parts if p)


def _sort_key(paper: Paper) -> tuple[str, int, str, str]:
    first = fold(paper.authors[0].family if paper.authors else paper.title)
    return (first, paper.year or 0, _year(paper), fold(paper.title))


def build_references(
    citations: Sequence[Citation], papers: Mapping[str, Paper]
) -> tuple[Reference, ...]:
    """One entry per distinct cited library paper, sorted author, year, suffix."""
    statuses: dict[str, list[str]] = {}
    pages: dict[str, list[int]] = {}
    for c in citations:
        if c.paper_key is None or c.paper_key not in papers:
            continue
        statuses.setdefault(c.paper_key, []).append(c.status)
        page_list = pages.setdefault(c.paper_key, [])
        if c.evidence and c.evidence.page not in page_list:
            page_list.append(c.evidence.page)
    cited = sorted((papers[k] for k in statuses), key=_sort_key)
    return tuple(
        Reference(
            key=p.key,
            label=p.label,
            text=format_reference(p),
            doi=p.doi,
            url=p.url,
            statuses=tuple(statuses[p.key]),
            pages=tuple(pages[p.key]),
        )
        for p in cited
    )


def _badge(c: Citation) -> str:
    symbol, label = STATUS_STYLE[c.status]
    return symbol if c.status == VERIFIED else f"{symbol} {label}"


def _markers(citations: Sequence[Citation]) -> dict[tuple[int, int], list[Citation]]:
    """Citations grouped by marker position (one bracket can name several works)."""
    out: dict[tuple[int, int], list[Citation]] = {}
    for c in citations:
        out.setdefault((c.mention.start, c.mention.end), []).append(c)
    return dict(sorted(out.items()))


# Markdown that would reach outside the text: a character reference ("&lt;", which would become
# "<" only after escaping), and a "]" that closes link text before "(url)", "[ref]" or a
# link definition ("]: url") -- with a space between for older renderers.
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_LINK_TEXT_END = re.compile(r"\](?=\s*[(\[:])")
_WEB = ("http", "https")


def _inert(text: str) -> str:
    """Text from a PDF, BibTeX or a model, made inert for any Markdown reader: raw HTML
    (``<script>``, ``<img onerror=...>``) is shown as text ("<" becomes "&lt;"), and no link,
    image or link definition can be formed (``[x](javascript:...)`` keeps its ``]`` escaped).
    Emphasis and headings are left alone: they only style the text, which then reads as written."""
    text = _ENTITY.sub("&amp;", text.replace("\\", "\\\\")).replace("<", "&lt;")
    return _LINK_TEXT_END.sub(r"\\]", text)


def _md(text: str) -> str:
    """One line, inert (``_inert``), safe inside a Markdown list item, table or quote."""
    return _inert(" ".join(text.split())).replace("|", "\\|")


def inert_md(text: str) -> str:
    """Untrusted text as one inert Markdown line (``_md``), for other reports."""
    return _md(text)


def _code(text: str) -> str:
    """A code span: its text is shown as written (no escape, entity or HTML is read in it)."""
    text = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _reference_md(r: Reference) -> str:
    """A reference, inert, whose DOI or http(s) address (the end of ``format_reference``) is an
    autolink; an address with any other scheme (``javascript:``) stays text."""
    shown, address = r.text, f"https://doi.org/{r.doi}" if r.doi else r.url
    if address and shown.endswith(address):
        shown = shown[: -len(address)].rstrip()
    if r.doi:
        href = "https://doi.org/" + quote(r.doi, safe="/:;()._-")
    elif urlsplit(r.url).scheme.lower() in _WEB and urlsplit(r.url).netloc:
        href = quote(r.url, safe="/:;?#[]@!$&'()*+,=%~-._")
    else:
        return _md(f"{shown} {address}" if address else shown)
    return f"{_md(shown)} <{href}>"


def to_markdown(
    text: str, citations: Sequence[Citation], references: Sequence[Reference], *, title: str = ""
) -> str:
    """The text with a verdict badge after every marker, references and a verification appendix."""
    parts, pos = [], 0
    for (_start, end), group in _markers(citations).items():
        parts.append(text[pos:end])
        parts.append(" " + " ".join(_badge(c) for c in group))
        pos = max(pos, end)
    parts.append(text[pos:])
    lines = [f"# {_md(title)}", ""] if title else []
    lines += [_inert("".join(parts).rstrip()), "", "## References", ""]
    for r in references:
        verdicts = " ".join(STATUS_STYLE[s][0] for s in r.statuses)
        pages = ", ".join(f"p. {p}" for p in r.pages)
        lines.append(f"- {_reference_md(r)} — {verdicts}" + (f" ({pages})" if pages else ""))
    if not references:
        lines.append("_No library paper was cited._")
    lines += ["", "## Verification appendix", ""]
    for i, c in enumerate(citations, 1):
        symbol, label = STATUS_STYLE[c.status]
        where = _md(c.paper_key or c.via or "—")
        lines.append(f"{i}. {_code(c.mention.marker)} {symbol} **{label}** ({where})")
        lines.append(f"   - claim: {_md(c.claim) or '—'}")
        if c.evidence:
            lines.append(f"   - evidence (p. {c.evidence.page}): > {_md(c.evidence.text)}")
        if c.reason:
            lines.append(f"   - why: {_md(c.reason)}")
        if c.judge:
            lines.append(f"   - second opinion: {_md(c.judge)}")
    return "\n".join(lines) + "\n"


_CSS = """body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}
.chip{display:inline-block;border-radius:.8em;padding:0 .5em;margin-left:.2em;color:#fff;
font-size:.8em}blockquote{margin:.3em 0 .3em 1em;color:#444}.legend .chip{margin-right:.3em}
.text{white-space:pre-wrap}"""


def _chip(status: str) -> str:
    symbol, label = STATUS_STYLE[status]
    return (
        f'<span class="chip {status}" style="background:{STATUS_COLOURS[status][0]}" '
        f'title="{html.escape(label)}">{symbol} {html.escape(label)}</span>'
    )


def _doi_link(doi: str) -> str:
    href = "https://doi.org/" + quote(doi, safe="/:;()._-")
    return f'<a href="{html.escape(href)}">{html.escape("https://doi.org/" + doi)}</a>'


def to_html(
    text: str, citations: Sequence[Citation], references: Sequence[Reference], *, title: str = ""
) -> str:
    """A standalone HTML document; every string that came from outside is escaped."""
    e = html.escape
    body, pos = [], 0
    for (_start, end), group in _markers(citations).items():
        body.append(e(text[pos:end]))
        body.append("".join(_chip(c.status) for c in group))
        pos = max(pos, end)
    body.append(e(text[pos:]))
    heading = e(title) if title else "Checked citations"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{heading}</title><style>{_CSS}</style></head><body>",
        f"<h1>{heading}</h1>",
        '<p class="legend">' + "".join(_chip(s) for s in STATUS_STYLE) + "</p>",
        f'<div class="text">{"".join(body)}</div>',
        "<h2>References</h2>",
    ]
    if references:
        out.append("<ul>")
        for r in references:
            text_ = e(r.text)
            if r.doi:
                plain = e("https://doi.org/" + r.doi)
                text_ = text_.replace(plain, _doi_link(r.doi)) if plain in text_ else text_
            chips = "".join(_chip(s) for s in r.statuses)
            pages = e(", ".join(f"p. {p}" for p in r.pages))
            out.append(f"<li>{text_} {chips}" + (f" ({pages})" if pages else "") + "</li>")
        out.append("</ul>")
    else:
        out.append("<p><em>No library paper was cited.</em></p>")
    out += ["<h2>Verification appendix</h2>", "<ol>"]
    for c in citations:
        where = c.paper_key or c.via or "—"
        item = [f"<li><code>{e(c.mention.marker)}</code> {_chip(c.status)} ({e(where)})"]
        item.append(f"<div>claim: {e(c.claim) or '—'}</div>")
        if c.evidence:
            item.append(
                f"<div>evidence (p. {c.evidence.page}):<blockquote>{e(c.evidence.text)}"
                "</blockquote></div>"
            )
        if c.reason:
            item.append(f"<div>why: {e(c.reason)}</div>")
        if c.judge:
            item.append(f"<div>second opinion: {e(c.judge)}</div>")
        out.append("".join(item) + "</li>")
    out += ["</ol>", "</body></html>"]
    return "\n".join(out) + "\n"


__all__ = [
    "STATUS_COLOURS",
    "STATUS_STYLE",
    "build_references",
    "format_reference",
    "inert_md",
    "to_html",
    "to_markdown",
]
