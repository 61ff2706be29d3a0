"""Pure HTML builders for the app: citation chips, the cited answer, the legend, references,
the evidence of one citation; and ``md``, which makes text inert in widget labels and captions.

No streamlit import, so every builder is unit-tested. Everything that comes from a PDF, a
BibTeX file or a model (markers, claims, titles, evidence, reference text) is untrusted: it is
passed through ``html.escape`` before it is placed in markup, and only https://doi.org/ links
are built. Each fragment is a single ``<div>`` without blank lines: Markdown treats it as one
raw HTML block, so neither Markdown emphasis nor ``$...$`` maths touch the scientific text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from research_assistant.models import IngestReport, Paper
from research_assistant.report.references import STATUS_COLOURS, STATUS_STYLE
from research_assistant.results import (
    AMBIGUOUS,
    MALFORMED,
    NOT_IN_LIBRARY,
    NOT_RETRIEVED,
    PARTIAL,
    STATUSES,
    UNCERTAIN,
    UNKNOWN_SOURCE,
    UNSUPPORTED,
    VERIFIED,
    Citation,
    Reference,
    summarise,
)

# What each verdict means, for the legend's tooltips (DESIGN.md "Status values").
STATUS_HELP: Mapping[str, str] = {
    VERIFIED: "the cited paper was retrieved and its text supports the claim",
    PARTIAL: "one part of the claim is supported, another is not found: check the evidence",
    UNCERTAIN: "the paper may support the claim, but not clearly enough: check the evidence",
    UNSUPPORTED: "the cited paper was retrieved, but none of its text supports the claim",
    NOT_RETRIEVED: "the paper is in the library but was not among the passages searched",
    UNKNOWN_SOURCE: "no paper in the library matches this citation",
    NOT_IN_LIBRARY: "the manuscript's reference list names this work; your library has no copy",
    AMBIGUOUS: "several library papers match this citation equally",
    MALFORMED: "looks like a citation but has no usable author or year",
}

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:])")
_NOTE = '<div style="color:#6b7280;font-size:.875em;margin:.2em 0">{}</div>'
QUOTE_CHARS = 300  # evidence shown in a tooltip; longer quotes are cut (the dialog shows all)

_CHIP_STYLE = (
    "display:inline-block;padding:0 .45em;margin:0 .1em;border-radius:.6em;"
    "border:1px solid {fg};background:{bg};color:{fg};font-size:.85em;"
    "line-height:1.5;white-space:nowrap;cursor:help"
)


def md(text: object, lines: bool = False) -> str:
    """Text from a PDF, BibTeX or a model, made inert for widget labels and captions: every
    Markdown character (also Streamlit's ``:color[...]`` and ``$`` maths) is backslashed.
    ``lines`` keeps line breaks (tooltips); otherwise whitespace runs become one space."""
    if lines:
        return "  \n".join(md(line) for line in str(text).splitlines())
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def md_stream(text: str) -> str:
    """A piece of an answer as it streams in, made inert like ``md``: ``st.write_stream``
    renders what has arrived as Markdown, and the answer holds sentences of the papers, so an
    image link in a PDF (``![x](//host/pixel.png)``) would be fetched by every reader's browser.
    Spaces and line breaks are kept (the pieces are joined as they come); escaping is per
    character, so the escaped pieces joined are the escaped whole."""
    return _MD_SPECIAL.sub(r"\\\1", text)


# The login screen has nothing for a sidebar (Streamlit would keep an empty one after "Log out").
LOGGED_OUT_CSS = (
    "<style>section[data-testid='stSidebar'],[data-testid='stSidebarCollapsedControl'],"
    "[data-testid='stExpandSidebarButton']{display:none !important}</style>"
)
_LINK_SPECIAL = re.compile(r"([\\\[\]$])")


def inert(text: object) -> str:
    """A message for ``st.error`` and the like, which may quote a file name, a BibTeX key or a
    paper's label: no link, image or ``:color[...]`` (brackets), no maths (``$``) can form from
    it; the rest of its Markdown (our own `code` spans) is kept."""
    return _LINK_SPECIAL.sub(r"\\\1", str(text))


def esc(text: object) -> str:
    """Escape for element text and attribute values alike (quotes included)."""
    return html.escape(str(text), quote=True)


def _attr(text: str) -> str:
    """An attribute value: escaped, with line breaks kept as character references."""
    return esc(text).replace("\r", "").replace("\n", "&#10;")


def status_symbol(status: str) -> str:
    return STATUS_STYLE.get(status, ("?", status))[0]


def status_label(status: str) -> str:
    return STATUS_STYLE.get(status, ("?", status.replace("_", " ")))[1]


def _short(text: str, limit: int = QUOTE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def tooltip(c: Citation, paper: Paper | None = None) -> str:
    """Plain text: verdict and why, the work (title, label), the evidence page and quote."""
    lines = [f"{status_symbol(c.status)} {status_label(c.status)}"]
    if c.reason:
        lines[0] += f": {c.reason}"
    if paper is not None:
        lines.append(f"{paper.title} ({paper.label})" if paper.label else paper.title)
    if c.evidence is not None:
        lines.append(f"p. {c.evidence.page}: “{_short(c.evidence.text)}”")
    lines += [f"second-hand: cited by {c.via}"] if c.via else []
    return "\n".join([*lines, c.judge] if c.judge else lines)  # the model judge's opinion


def chip_html(status: str, text: str, title: str = "", number: int | None = None) -> str:
    """A verdict chip; ``number`` (a small superscript) ties it to its evidence button."""
    fg, bg = STATUS_COLOURS.get(status, STATUS_COLOURS[MALFORMED])
    style = _CHIP_STYLE.format(fg=fg, bg=bg)
    cls = f"ra-chip ra-{esc(status)}"
    tip = f' title="{_attr(title)}"' if title else ""
    sup = f"<sup>{number}</sup>" if number is not None else ""
    body = f"{esc(status_symbol(status))} {esc(text)}{sup}"
    return f'<span class="{cls}" style="{style}"{tip}>{body}</span>'


def citation_chip(
    c: Citation, paper: Paper | None = None, text: str | None = None, number: int | None = None
) -> str:
    marker = c.mention.marker if text is None else text
    return chip_html(c.status, marker, tooltip(c, paper), number)


def _work(c: Citation) -> str:
    """The short name of one work inside a multi-work bracket: "Smith et al., 2020a"."""
    m = c.mention
    name = m.first_author + (" et al." if m.et_al else "")
    return f"{name}, {m.year}" if m.year else name or m.marker


def _group_html(
    group: Sequence[tuple[int, Citation]], papers: Mapping[str, Paper], numbered: bool
) -> str:
    def chip(i: int, c: Citation, text: str | None = None) -> str:
        paper = papers.get(c.paper_key) if c.paper_key else None
        return citation_chip(c, paper, text, i + 1 if numbered else None)

    if len(group) == 1:
        return chip(*group[0])
    marker = group[0][1].mention.marker
    opener = marker[0] if marker[:1] in "[(" else ""
    closer = {"[": "]", "(": ")"}.get(opener, "")
    inner = "; ".join(chip(i, c, _work(c)) for i, c in group)
    return f"{esc(opener)}{inner}{esc(closer)}"


def _text_html(text: str) -> str:
    """Escaped prose; blank lines become paragraph breaks, single newlines line breaks."""
    paragraphs = [p for p in text.replace("\r\n", "\n").split("\n\n")]
    return "<br><br>".join(esc(p.strip("\n")).replace("\n", "<br>") for p in paragraphs)


def answer_html(
    text: str,
    citations: Sequence[Citation],
    papers: Mapping[str, Paper] | None = None,
    numbered: bool = False,
) -> str:
    """The text with each citation marker replaced by its verdict chip(s); ``numbered`` adds
    each citation's 1-based position in ``citations`` (the order of the evidence buttons)."""
    papers = papers or {}
    groups: dict[tuple[int, int], list[tuple[int, Citation]]] = {}
    for i, c in enumerate(citations):
        groups.setdefault((c.mention.start, c.mention.end), []).append((i, c))
    out: list[str] = []
    cursor = 0
    stray: list[str] = []
    for (start, end), group in sorted(groups.items()):
        marker = group[0][1].mention.marker
        if start < cursor or text[start:end] != marker:  # offsets of another text: find it
            start = text.find(marker, cursor) if marker else -1
            if start < 0:
                stray.append(_group_html(group, papers, numbered))
                continue
            end = start + len(marker)
        out.append(_text_html(text[cursor:start]))
        out.append(_group_html(group, papers, numbered))
        cursor = end
    out.append(_text_html(text[cursor:]))
    if stray:
        out.append("<br><br>Other citations: " + " ".join(stray))
    return f'<div class="ra-answer" style="line-height:1.7">{"".join(out)}</div>'


def legend_html(statuses: Sequence[str] = STATUSES) -> str:
    chips = " ".join(chip_html(s, status_label(s), STATUS_HELP.get(s, "")) for s in statuses)
    return f'<div class="ra-legend" style="line-height:2">{chips}</div>'


def summary_text(citations: Sequence[Citation]) -> str:
    """ "2 verified · 1 unsupported" in the order of STATUSES; "" when there are none."""
    counts = summarise(tuple(citations))
    return " · ".join(f"{n} {status_symbol(s)} {status_label(s)}" for s, n in counts.items())


def _doi_link(doi: str) -> str:
    doi = doi.strip()
    if not doi:
        return ""
    href = "https://doi.org/" + quote(doi, safe="/:;()._-")
    return f' <a href="{esc(href)}" target="_blank" rel="noopener noreferrer">doi:{esc(doi)}</a>'


def references_html(refs: Sequence[Reference]) -> str:
    """The reference list: each work with the verdicts of its citations and evidence pages."""
    if not refs:
        return ""
    items = []
    for r in refs:
        marks = " ".join(chip_html(s, status_label(s), STATUS_HELP.get(s, "")) for s in r.statuses)
        pages = ", ".join(str(p) for p in r.pages)
        where = f" <small>(evidence p. {esc(pages)})</small>" if pages else ""
        items.append(f"<li>{esc(r.text)}{_doi_link(r.doi)}{where}<br>{marks}</li>")
    return (
        '<div class="ra-references"><strong>References</strong>'
        f'<ol style="margin-top:.3em">{"".join(items)}</ol></div>'
    )


def quote_html(text: str) -> str:
    """An escaped block quote (claims and evidence); the line breaks of the PDF are dropped."""
    paragraphs = [" ".join(p.split()) for p in text.replace("\r\n", "\n").split("\n\n")]
    body = "<br><br>".join(esc(p) for p in paragraphs if p)
    return (
        '<div class="ra-quote" style="border-left:3px solid #d0d7de;padding:.2em .8em;'
        f'margin:.3em 0 .8em 0">{body}</div>'
    )


def evidence_label(number: int, c: Citation) -> str:
    """The label of a citation's evidence button (Markdown-inert): number, verdict, marker, page."""
    page = f" p. {c.evidence.page}" if c.evidence else ""
    return f"{number} {status_symbol(c.status)} {md(c.mention.marker)}{page}"


def evidence_html(c: Citation, paper: Paper | None, label: Callable[[str], str]) -> str:
    """The evidence dialog's text: verdict chip and paper, why, the claim, the evidence quote.
    ``label`` names a paper key (its author-year label) for candidates and second-hand cites."""
    name = f"<br><strong>{esc(paper.title)}</strong> ({esc(paper.label)})" if paper else ""
    parts = [f"<div>{citation_chip(c, paper)}{name}</div>"]
    notes = [n for n in (c.reason, c.judge) if n]  # why, and the model judge's opinion
    if c.candidates:
        notes.append("Could be: " + "; ".join(label(k) for k in c.candidates))
    if c.via:
        notes.append(f"Second-hand: cited near the evidence in {label(c.via)}")
    parts += [_NOTE.format(esc(n)) for n in notes]
    if c.claim:
        parts += ["<strong>Claim</strong>", quote_html(c.claim)]
    if c.evidence is not None:
        parts += [f"<strong>Evidence, page {c.evidence.page}</strong>", quote_html(c.evidence.text)]
    return f"<div>{''.join(parts)}</div>"


def flagged_html(row: Mapping[str, Any], paper: Paper | None) -> str:
    """One logged citation (a ``Store.flagged`` row): verdict and paper, claim, closest evidence."""
    verdict = chip_html(row["status"], row["marker"], STATUS_HELP.get(row["status"], ""))
    name = f" {esc(paper.label)}: {esc(paper.title)}" if paper else ""
    parts = [
        f"<div>{verdict}{name}</div>",
        "<strong>Claim</strong>",
        quote_html(row["claim"] or ""),
    ]
    if row["evidence"]:
        page, score = esc(row["page"]), f"{row['score']:.2f}"
        head = f"<strong>Closest evidence, page {page}</strong> (score {score})"
        parts += [head, quote_html(row["evidence"])]
    return f"<div>{''.join(parts)}</div>"


# ---- tables and option labels (plain text: st.dataframe and selectboxes do not render markup) --
ALREADY = "already in the library"
UNCHANGED = "BibTeX entry unchanged"
TROUBLE = ("refused", "BibTeX problem", "skipped")  # listed first: what needs the curator


def ingest_rows(
    report: IngestReport | None,
    refused: Sequence[tuple[str, str]],
    already: Sequence[tuple[str, str]] = (),
) -> list[dict[str, str]]:
    """The results table: one row per file (refused, skipped, already in the library, matched,
    inferred) and per BibTeX problem or entry; problems and skips first."""
    rows = [{"file": n, "result": "refused", "paper": "", "detail": r} for n, r in refused]
    rows += [{"file": n, "result": ALREADY, "paper": "", "detail": r} for n, r in already]
    if report is None:
        return sorted(rows, key=_trouble_first)
    for m in report.matches:
        name = Path(m.pdf).name
        if m.key:
            detail = f"by {m.method}" + (f" (score {m.score:.2f})" if m.method == "title" else "")
            rows.append({"file": name, "result": "matched", "paper": m.key, "detail": detail})
        else:
            rows.append({"file": name, "result": "inferred", "paper": "", "detail": (
                "no BibTeX entry matched: title and authors read from the PDF. "
                "Fix the match below if you know its entry.")})  # fmt: skip
    for s in report.skipped:
        rows.append(
            {"file": Path(s.path).name, "result": "skipped", "paper": "", "detail": s.reason}
        )
    for p in report.problems:
        where = f"{Path(p.source).name}:{p.line}" if p.line else Path(p.source).name
        rows.append(
            {"file": where, "result": "BibTeX problem", "paper": p.key, "detail": p.message}
        )
    for key in report.entries_without_pdf:
        rows.append({"file": "", "result": "entry without PDF", "paper": key, "detail": (
            "listed in the .bib, no PDF yet: upload its PDF, or assign one below")})  # fmt: skip
    rows += [{"file": "", "result": UNCHANGED, "paper": k, "detail": "the same as in the library"}
             for k in report.unchanged]  # fmt: skip
    return sorted(rows, key=_trouble_first)


def _trouble_first(row: Mapping[str, str]) -> int:
    return 0 if row["result"] in TROUBLE else 1  # a stable sort keeps each group's order


def paper_rows(papers: Sequence[Paper], query: str = "", with_pdf: bool = False,
               inferred: bool = False) -> list[dict[str, Any]]:  # fmt: skip
    q = query.casefold().strip()
    rows = []
    for p in papers:
        if q and not any(q in s.casefold() for s in (p.label, p.title, p.key)):
            continue
        if (with_pdf and not p.pdf) or (inferred and p.metadata != "inferred"):
            continue
        rows.append({"label": p.label, "title": p.title, "year": p.year, "key": p.key,
                     "pdf": p.pdf or "", "pages": p.pages, "chunks": p.chunks,
                     "metadata": p.metadata})  # fmt: skip
    return rows


def flagged_name(row: Mapping[str, Any]) -> str:
    question = (row["question"] or "checked text")[:70]
    return f"{status_symbol(row['status'])} {row['marker']} — {question}"


def run_name(runs: Sequence[Mapping[str, Any]]) -> Callable[[str], str]:
    """A format_func for a selectbox of logged run ids (Store.history rows)."""
    by_id = {r["id"]: r for r in runs}

    def name(run_id: str) -> str:
        r = by_id[run_id]
        what = r["question"] or "Checked text"
        return f"{r['created_at']:%Y-%m-%d %H:%M} · {what[:90]} ({r['source']}, {run_id})"

    return name


__all__ = [
    "QUOTE_CHARS",
    "STATUS_COLOURS",
    "STATUS_HELP",
    "answer_html",
    "chip_html",
    "citation_chip",
    "esc",
    "evidence_html",
    "evidence_label",
    "flagged_html",
    "flagged_name",
    "inert",
    "ingest_rows",
    "legend_html",
    "md",
    "md_stream",
    "paper_rows",
    "quote_html",
    "references_html",
    "run_name",
    "status_label",
    "status_symbol",
    "summary_text",
    "tooltip",
]
