"""Pure: the report of a manuscript check, as standalone HTML, as report/blocks.py blocks (for
the Word report) and as Markdown; and the BibTeX of the references the library lacks.

Everything from the manuscript (sentences, reference entries, DOIs, file name) is untrusted:
the HTML escapes every string and links only https://doi.org/ DOIs; Markdown is made inert.
"""

from __future__ import annotations

import html
from urllib.parse import quote

from research_assistant.bib.names import generate_key, parse_names
from research_assistant.bib.write import to_bibtex
from research_assistant.manuscript.model import CheckedManuscript, ManuscriptCitation
from research_assistant.models import Paper
from research_assistant.report.blocks import Block, Heading, Paragraph, Run, Table
from research_assistant.report.references import STATUS_COLOURS, STATUS_STYLE, inert_md
from research_assistant.results import STATUSES

__all__ = ["METHOD_LABELS", "missing_bibtex", "to_blocks", "to_html", "to_markdown"]

METHOD_LABELS = {
    "doi": "DOI",
    "arxiv": "arXiv id",
    "title": "title",
    "author_year": "author and year",
    "none": "not in your library",
}
_QUOTE_CHARS = 400  # evidence shown per citation; the app's dialog shows the whole chunk

_CSS = """body{font:15px/1.45 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}td,th{border:1px solid #d0d7de;
padding:.3em .5em;vertical-align:top;text-align:left}th{background:#f6f8fa}
.chip{display:inline-block;border-radius:.8em;padding:0 .5em;color:#fff;font-size:.85em;
white-space:nowrap}blockquote{margin:.2em 0;color:#444;font-style:italic}.note{color:#6b7280}
pre{white-space:pre-wrap;background:#f6f8fa;padding:.5em}"""


def _entry(checked: CheckedManuscript, c: ManuscriptCitation) -> str:
    if c.reference is None:
        return ""
    ref = checked.references[c.reference]
    tag = f"[{ref.number}] " if ref.number is not None else (f"[{ref.key}] " if ref.key else "")
    return tag + (ref.text if len(ref.text) <= 200 else ref.text[:197] + "…")


def _library(checked: CheckedManuscript, key: str | None) -> str:
    if key is None:
        return ""
    return f"{checked.labels.get(key, key)} ({key})"


def _evidence(c: ManuscriptCitation) -> tuple[str, str]:
    ev = c.citation.evidence
    if ev is None:
        return "", ""
    text = ev.text if len(ev.text) <= _QUOTE_CHARS else ev.text[: _QUOTE_CHARS - 1] + "…"
    return text, f"p. {ev.page}"


def _summary_line(checked: CheckedManuscript) -> list[tuple[str, int]]:
    counts = checked.summary()
    return [(s, counts[s]) for s in STATUSES if s in counts]


# HTML ----------------------------------------------------------------------------------------


def _chip(status: str) -> str:
    symbol, label = STATUS_STYLE[status]
    colour = STATUS_COLOURS[status][0]
    return f'<span class="chip" style="background:{colour}">{symbol} {html.escape(label)}</span>'


def _doi_html(doi: str) -> str:
    href = "https://doi.org/" + quote(doi, safe="/:;()._-")
    return f'<a href="{html.escape(href)}">{html.escape(doi)}</a>'


def to_html(checked: CheckedManuscript) -> str:
    """A standalone HTML report; every string from the manuscript is escaped."""
    e = html.escape
    title = f"Citations checked: {checked.name}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f'<p class="note">sha256 {e(checked.sha256)} · run {e(checked.id)}</p>',
    ]
    out += [f'<p class="note">⚠ {e(n)}</p>' for n in checked.notes]
    out.append("<h2>Summary</h2><p>")
    out.append(" ".join(f"{_chip(s)} {n}" for s, n in _summary_line(checked)) or "No citations")
    out.append(
        f"</p><p>{len(checked.citations)} citations, {len(checked.references)} references, "
        f"{len(checked.missing())} not in your library.</p>"
    )
    out.append("<h2>Citations in document order</h2>")
    out.append(
        "<table><tr><th>#</th><th>page</th><th>citation</th><th>sentence</th><th>verdict</th>"
        "<th>evidence</th></tr>"
    )
    for i, c in enumerate(checked.citations, 1):
        cit = c.citation
        quote_text, where = _evidence(c)
        ref = _entry(checked, c)
        lib = _library(checked, cit.paper_key)
        out.append(
            f"<tr><td>{i}</td><td>{c.page or ''}</td><td><code>{e(cit.mention.marker)}</code>"
            + (f'<div class="note">{e(ref)}</div>' if ref else "")
            + f"</td><td>{e(cit.claim)}</td><td>{_chip(cit.status)}"
            + (f"<div>{e(lib)}</div>" if lib else "")
            + f'<div class="note">{e(cit.reason)}</div>'
            + (f'<div class="note">second opinion: {e(cit.judge)}</div>' if cit.judge else "")
            + "</td><td>"
            + (f"<blockquote>{e(quote_text)}</blockquote>{e(where)}" if quote_text else "")
            + "</td></tr>"
        )
    out.append("</table><h2>The reference list matched to your library</h2>")
    out.append(
        "<table><tr><th>#</th><th>reference</th><th>library paper</th><th>method</th>"
        "<th>score</th></tr>"
    )
    for i, (r, m) in enumerate(zip(checked.references, checked.matches, strict=True), 1):
        number = r.number if r.number is not None else (r.key or i)
        out.append(
            f"<tr><td>{e(str(number))}</td><td>{e(r.text)}</td>"
            f"<td>{e(_library(checked, m.key)) or '—'}</td><td>{e(METHOD_LABELS[m.method])}</td>"
            f"<td>{m.score:.2f}</td></tr>"
        )
    out.append("</table><h2>Not in your library</h2>")
    missing = checked.missing()
    if missing:
        out.append("<ol>")
        for i in missing:
            r = checked.references[i]
            doi = f" — DOI {_doi_html(r.doi)}" if r.doi else ""
            out.append(f"<li>{e(r.text)}{doi}</li>")
        out.append("</ol><details><summary>These references as BibTeX</summary><pre>")
        out.append(e(missing_bibtex(checked)) + "</pre></details>")
    else:
        out.append("<p>Every reference is in your library.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# Word ----------------------------------------------------------------------------------------


def _run(status: str, text: str = "") -> Run:
    symbol, label = STATUS_STYLE[status]
    fg, bg = STATUS_COLOURS[status]
    return Run(text or f"{symbol} {label}", bold=True, colour=fg, background=bg)


def to_blocks(checked: CheckedManuscript) -> tuple[Block, ...]:
    """The report as neutral blocks: word.write_docx renders them as a .docx."""
    blocks: list[Block] = [
        Heading(f"Citations checked: {checked.name}", 0),
        Paragraph((Run(f"sha256 {checked.sha256} · run {checked.id}", italic=True),)),
    ]
    blocks += [Paragraph((Run(f"⚠ {n}", italic=True),)) for n in checked.notes]
    blocks.append(Heading("Summary", 1))
    runs: list[Run] = []
    for s, n in _summary_line(checked):
        runs += [_run(s), Run(f" {n}   ")]
    blocks.append(Paragraph(tuple(runs) or (Run("No citations"),)))
    blocks.append(Heading("Citations in document order", 1))
    rows = []
    for i, c in enumerate(checked.citations, 1):
        cit = c.citation
        quote_text, where = _evidence(c)
        rows.append(
            (
                Run(str(i)),
                Run(str(c.page or "")),
                Run(cit.mention.marker),
                Run(cit.claim),
                _run(cit.status),
                Run(_library(checked, cit.paper_key) or _entry(checked, c)),
                Run(f"“{quote_text}” ({where})" if quote_text else cit.reason),
            )
        )
    header = ("#", "page", "citation", "sentence", "verdict", "cited work", "evidence")
    blocks.append(Table(header, tuple(rows)))
    blocks.append(Heading("The reference list matched to your library", 1))
    ref_rows = tuple(
        (
            Run(str(r.number if r.number is not None else (r.key or i))),
            Run(r.text),
            Run(_library(checked, m.key) or "—"),
            Run(METHOD_LABELS[m.method]),
            Run(f"{m.score:.2f}"),
        )
        for i, (r, m) in enumerate(zip(checked.references, checked.matches, strict=True), 1)
    )
    blocks.append(Table(("#", "reference", "library paper", "method", "score"), ref_rows))
    blocks.append(Heading("Not in your library", 1))
    for i in checked.missing() or ():
        r = checked.references[i]
        blocks.append(Paragraph((Run(r.text), Run(f" DOI {r.doi}" if r.doi else "", bold=True))))
    if not checked.missing():
        blocks.append(Paragraph((Run("Every reference is in your library."),)))
    return tuple(blocks)


# Markdown ------------------------------------------------------------------------------------


def to_markdown(checked: CheckedManuscript) -> str:
    md = inert_md
    lines = [f"# Citations checked: {md(checked.name)}", "", f"sha256 `{checked.sha256}`", ""]
    lines += [f"> ⚠ {md(n)}" for n in checked.notes]
    summary = ", ".join(
        f"{STATUS_STYLE[s][0]} {n} {STATUS_STYLE[s][1]}" for s, n in _summary_line(checked)
    )
    lines += ["", "## Summary", "", summary or "No citations", "", "## Citations", ""]
    for i, c in enumerate(checked.citations, 1):
        cit = c.citation
        symbol, label = STATUS_STYLE[cit.status]
        page = f" (p. {c.page})" if c.page else ""
        lines.append(f"{i}. {md(cit.mention.marker)}{page} {symbol} **{label}**: {md(cit.claim)}")
        quote_text, where = _evidence(c)
        if quote_text:
            lines.append(f"   - evidence ({where}): {md(quote_text)}")
        if cit.reason:
            lines.append(f"   - why: {md(cit.reason)}")
        if cit.judge:
            lines.append(f"   - second opinion: {md(cit.judge)}")
    lines += ["", "## References", ""]
    for r, m in zip(checked.references, checked.matches, strict=True):
        lib = _library(checked, m.key) or "not in your library"
        lines.append(f"- {md(r.text)} — {md(lib)} ({METHOD_LABELS[m.method]}, {m.score:.2f})")
    return "\n".join(lines) + "\n"


# BibTeX --------------------------------------------------------------------------------------


def missing_bibtex(checked: CheckedManuscript) -> str:
    """The references not in the library as BibTeX entries (authors, title, year, DOI as
    parsed from the printed list: a start for fetching them, not a verified record)."""
    papers: list[Paper] = []
    taken: set[str] = set()
    for i in checked.missing():
        r = checked.references[i]
        names, others = parse_names(" and ".join(r.authors[:20])) if r.authors else ((), False)
        year = int(r.year[:4]) if r.year[:4].isdigit() else None
        key = generate_key(names, year, r.title or r.text[:60], taken)
        taken.add(key)
        fields = [("note", r.text)]
        if r.venue:
            fields.append(("howpublished", r.venue))
        if r.arxiv_id:
            fields.append(("eprint", r.arxiv_id))
        papers.append(
            Paper(key=key, title=r.title or r.text[:120], authors=names, year=year,
                  entry_type="misc", doi=r.doi, others=others, fields=tuple(fields))
        )  # fmt: skip
    return to_bibtex(papers, local=False)
