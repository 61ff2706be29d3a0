"""The one pymupdf seam: page text, first-page identifiers and title, highlights, writing.

Page text is stored as MuPDF extracts it, with ligatures expanded by MuPDF itself and a few
one-to-one character fixes, so chunk offsets keep pointing into the stored text. The one other
change: a raised exponent or footnote marker gets a "^" before it ("10^6.6", "10^-22",
"word^1"), so that a number never glues to the one before it. What is worked out from the
extracted text (the marks, the title, the identifiers) is pure and lives in layout.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pymupdf
from rapidfuzz import fuzz

from research_assistant.errors import (
    CorruptPdfError,
    EncryptedPdfError,
    NotAPdfError,
    ScannedPdfError,
)
from research_assistant.files import write_atomic
from research_assistant.ingest.layout import (
    as_printed,
    before_references,
    find_arxiv,
    find_doi,
    mark_raised,
    pick_title,
)
from research_assistant.models import PageText, PdfInfo
from research_assistant.text import fold

Rect = tuple[float, float, float, float]

# Ligatures (ﬁ, ﬂ) expanded by MuPDF: "Klassiﬁzierung" would not match a typed query.
_TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
_WORD_FLAGS = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
# One-to-one replacements only, so offsets stay valid: NUL bytes break DuckDB strings, and
# REVTeX fonts map capital omega to the OHM SIGN (SOURCES.md, 1001._0908.0054.pdf).
_SAFE_FIXES = str.maketrans({"\x00": " ", "\u2126": "\u03a9"})

_MAGIC_WINDOW = 1024  # the PDF spec tolerates junk before %PDF-; readers look at the first 1 KiB
TITLE_ZONE = 0.6  # share of page 1, from the top, searched for the title (all corpus titles fit)
MOSTLY_EMPTY_SHARE = 0.2  # below this share of pages with text, the reader is told


def read_pdf(path: Path, *, max_pages: int | None = None, hashed: bool = True) -> PdfInfo:
    """Read the text of ``path`` page by page and sniff its first page.

    ``max_pages`` limits how many pages are read (for a quick look); ``page_count`` then
    counts only those. ``hashed=False`` leaves ``sha256`` empty, for a caller that hashed the
    file already (an ingest hashes every file first, to skip those the library holds).
    """
    path = Path(path)
    data = _read_bytes(path)
    doc = _open(path, data)
    with doc:
        notes: list[str] = []
        if doc.metadata and doc.metadata.get("encryption"):
            notes.append("encrypted with an empty password; text extracted")
        pages, unreadable, sniffed = _page_texts(doc, max_pages)
        if unreadable:
            notes.append(f"pages {_ranges(unreadable)} could not be read; the file may be damaged")
        with_text = sum(1 for p in pages if p.text.strip())
        if not pages or with_text == 0:
            raise ScannedPdfError(
                f"{path.name} has no text layer (a scan): run OCR, e.g. ocrmypdf, and add it again"
            )
        if with_text < MOSTLY_EMPTY_SHARE * len(pages):
            notes.append(f"only {with_text} of {len(pages)} pages have text; the rest may be scans")
        front = "\n".join(before_references(p.text) for p in pages[:2])
        meta = doc.metadata or {}
        return PdfInfo(
            path=str(path),
            sha256=hashlib.sha256(data).hexdigest() if hashed else "",
            pages=tuple(pages),
            doi=find_doi(front),
            arxiv_id=find_arxiv(before_references(pages[0].text)),
            title=sniffed or (meta.get("title") or "").strip(),
            metadata_title=(meta.get("title") or "").strip(),
            metadata_author=(meta.get("author") or "").strip(),
            first_page_text=pages[0].text,
            notes=tuple(notes),
        )


def _read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise NotAPdfError(f"{path.name} cannot be read ({exc.strerror}): check the path") from exc
    if not data:
        raise NotAPdfError(f"{path.name} is empty (0 bytes): export or download the PDF again")
    if b"%PDF-" not in data[:_MAGIC_WINDOW]:
        raise NotAPdfError(
            f"{path.name} is not a PDF (its content does not start with %PDF-): "
            "add the paper's PDF file instead"
        )
    return data


def _open(path: Path, data: bytes) -> pymupdf.Document:
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # MuPDF raises its own FzError family and RuntimeError
        raise CorruptPdfError(
            f"{path.name} is damaged and cannot be opened ({exc}): download it again"
        ) from exc
    if doc.needs_pass:
        doc.close()
        raise EncryptedPdfError(
            f"{path.name} is protected by a password: remove it and add the file again"
        )
    if doc.page_count == 0:
        doc.close()
        raise CorruptPdfError(f"{path.name} is damaged (no readable pages): download it again")
    return doc


def _page_texts(
    doc: pymupdf.Document, max_pages: int | None
) -> tuple[list[PageText], list[int], str]:
    """Each page's text, the pages that could not be read, and the title sniffed on page 1."""
    count = doc.page_count if max_pages is None else min(doc.page_count, max_pages)
    pages: list[PageText] = []
    unreadable: list[int] = []
    title = ""
    for i in range(count):
        try:
            page = doc[i]
            textpage = page.get_textpage(flags=_TEXT_FLAGS)
            text = _page_text(textpage)
            if i == 0:  # from the same text page: a second one for the title cost 4 ms a PDF
                with contextlib.suppress(Exception):
                    title = _sniff_title(page, textpage)
        except Exception:  # one broken content stream must not lose the rest of the paper
            text = ""
            unreadable.append(i + 1)
        pages.append(PageText(number=i + 1, text=text))
    return pages, unreadable, title


def _page_text(textpage: pymupdf.TextPage) -> str:
    """The page's plain text, with "^" before an exponent or a footnote marker."""
    # Plain extraction: sort=True costs ~30x and the stored order is what offsets use.
    text = textpage.extractText()
    xhtml = textpage.extractXHTML()  # the raised characters (see "Superscripts" in layout.py)
    if "<sup>" in xhtml:
        with contextlib.suppress(Exception):  # the plain text stands: no page lost to its marks
            text = mark_raised(text, xhtml)
    if "\x00" in text or "\u2126" in text:  # str.translate is slow: only when needed
        text = text.translate(_SAFE_FIXES)
    return text


def _ranges(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers[:10]) + (" ..." if len(numbers) > 10 else "")


def _sniff_title(page: pymupdf.Page, textpage: pymupdf.TextPage) -> str:
    """The first run of consecutive lines set in the largest font on the page (its text page:
    the spans of lines that start in the upper part of page 1, where titles sit)."""
    lines: list[tuple[float, str]] = []
    top = page.rect.y0 + page.rect.height * TITLE_ZONE
    for block in textpage.extractDICT()["blocks"]:
        for line in block.get("lines", ()):
            if line["bbox"][1] >= top or abs(line["dir"][0] - 1.0) > 0.01:
                continue  # below the title zone; the vertical arXiv stamp, rotated margin notes
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            text = " ".join("".join(s["text"] for s in line["spans"]).split())
            lines.append((round(max(s["size"] for s in spans), 1), text))
    return pick_title(lines)


# Highlighting --------------------------------------------------------------------------------

QUOTE_MIN_SCORE = 80.0  # partial_ratio of folded words; below this the quote is not on the page


def quote_rects(path: Path, page: int, quote: str) -> list[Rect]:
    """PDF-point rectangles of ``quote`` on 1-based ``page``, one per line; [] if not found."""
    with _open(Path(path), _read_bytes(Path(path))) as doc:
        return _quote_rects(_page(doc, page, path), quote)


def _page(doc: pymupdf.Document, page: int, path: Path) -> pymupdf.Page:
    if not 1 <= page <= doc.page_count:
        raise CorruptPdfError(f"{Path(path).name} has no page {page} (it has {doc.page_count})")
    return doc[page - 1]


def _quote_rects(pg: pymupdf.Page, quote: str) -> list[Rect]:
    quote = " ".join(quote.split())
    if not quote:
        return []
    found = pg.search_for(quote)
    printed = as_printed(quote)
    if not found and printed != quote:  # the page has no "^": "10^-22" is printed 10−22
        found = pg.search_for(printed)
    if found:
        return [tuple(r) for r in found]
    return _fuzzy_rects(pg, printed)


def _fuzzy_rects(pg: pymupdf.Page, quote: str) -> list[Rect]:
    """Locate the quote as the best-matching run of page words (hyphenation, line breaks)."""
    tokens = _page_tokens(pg)
    if not tokens:
        return []
    haystack = ""
    owner: list[int] = []  # token index of each character of haystack
    for i, (word, _, _) in enumerate(tokens):
        haystack += word + " "
        owner.extend([i] * (len(word) + 1))
    needle = " ".join(fold(quote).split())
    hit = fuzz.partial_ratio_alignment(needle, haystack)
    if hit is None or hit.score < QUOTE_MIN_SCORE:
        return []
    first, last = owner[hit.dest_start], owner[max(hit.dest_start, hit.dest_end - 1)]
    by_line: dict[tuple[int, int], list[float]] = {}
    for _, rects, in_line in tokens[first : last + 1]:
        for key, r in zip(in_line, rects, strict=True):
            box = by_line.setdefault(key, [r[0], r[1], r[2], r[3]])
            box[:] = [min(box[0], r[0]), min(box[1], r[1]), max(box[2], r[2]), max(box[3], r[3])]
    return [(b[0], b[1], b[2], b[3]) for b in by_line.values()]


def _page_tokens(pg: pymupdf.Page) -> list[tuple[str, list[Rect], list[tuple[int, int]]]]:
    """Folded words with their rects; a word hyphenated at a line end is joined again."""
    tokens: list[tuple[str, list[Rect], list[tuple[int, int]]]] = []
    words = pg.get_text("words", flags=_WORD_FLAGS)
    i = 0
    while i < len(words):
        x0, y0, x1, y1, text, block, line, _ = words[i]
        rects: list[Rect] = [(x0, y0, x1, y1)]
        keys = [(block, line)]
        nxt = words[i + 1] if i + 1 < len(words) else None
        if text.endswith("-") and nxt and (nxt[5], nxt[6]) != (block, line):
            text = text[:-1] + nxt[4]
            rects.append(tuple(nxt[:4]))
            keys.append((nxt[5], nxt[6]))
            i += 1
        folded = " ".join(fold(text).split())
        if folded:
            tokens.append((folded, rects, keys))
        i += 1
    return tokens


def page_png(path: Path, page: int, quote: str = "", zoom: float = 1.5) -> bytes:
    """The page rendered to PNG, with ``quote`` highlighted; the file itself is never changed."""
    with _open(Path(path), _read_bytes(Path(path))) as doc:  # an in-memory copy
        pg = _page(doc, page, path)
        for rect in _quote_rects(pg, quote) if quote else []:
            pg.draw_rect(pymupdf.Rect(rect), color=None, fill=(1, 0.9, 0), fill_opacity=0.35)
        return pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom)).tobytes("png")


# Annotating a manuscript ---------------------------------------------------------------------


@dataclass(frozen=True)
class PdfAnnotation:
    """A note to put on a PDF: ``quote`` highlighted on 1-based ``page`` in ``colour`` (RGB,
    0..1), with ``note`` as the highlight's pop-up text."""

    page: int
    quote: str
    colour: tuple[float, float, float]
    note: str


_NOTE_TITLE = "Citable"
_NOTE_OPACITY = 0.4
_QUOTE_MAX = 300  # characters of a quote searched on the page: a claim's first lines suffice


def annotate_pdf(source: Path, dest: Path, notes: Sequence[PdfAnnotation]) -> int:
    """Write a copy of ``source`` to ``dest`` (atomically) with every note added; ``source`` is
    never changed. A quote not found on its page becomes a sticky note in the page's top margin.
    Returns how many quotes were highlighted."""
    highlighted = 0
    with _open(Path(source), _read_bytes(Path(source))) as doc:
        margin_notes: dict[int, int] = {}
        for n in notes:
            pg = _page(doc, n.page, source)
            rects = _quote_rects(pg, n.quote[:_QUOTE_MAX]) if n.quote.strip() else []
            if rects:
                annot = pg.add_highlight_annot([pymupdf.Rect(r) for r in rects])
                highlighted += 1
            else:  # stacked down the left margin, so that several stay readable
                k = margin_notes[n.page] = margin_notes.get(n.page, -1) + 1
                annot = pg.add_text_annot(pymupdf.Point(12, 20 + 18 * (k % 40)), n.note)
            annot.set_colors(stroke=n.colour)
            annot.set_opacity(_NOTE_OPACITY)  # the verdict's colour, the words still legible
            annot.set_info(content=n.note, title=_NOTE_TITLE)
            annot.update()
        data = doc.tobytes(garbage=3, deflate=True)
    write_atomic(Path(dest), data)
    return highlighted


def read_annotations(path: Path) -> list[tuple[int, str, tuple[float, ...], str]]:
    """(page, type, stroke colour, note) of every annotation in ``path``: reading back what
    annotate_pdf wrote."""
    out: list[tuple[int, str, tuple[float, ...], str]] = []
    with _open(Path(path), _read_bytes(Path(path))) as doc:
        for pg in doc:
            for a in pg.annots() or ():
                colour = tuple(a.colors.get("stroke") or ())
                out.append((pg.number + 1, a.type[1], colour, a.info.get("content", "")))
    return out


# Writing -------------------------------------------------------------------------------------

_CSS = """
body { font-family: sans-serif; font-size: 12pt; line-height: 1.4; }
h1 { font-size: 18pt; margin-bottom: 6pt; }
p.authors { font-size: 12pt; margin: 0; }
p.banner { font-size: 9pt; color: #a00000; font-weight: bold; margin: 4pt 0 12pt 0; }
h2 { font-size: 13pt; margin-top: 12pt; margin-bottom: 4pt; }
p { margin: 0 0 6pt 0; text-align: justify; }
"""
_MARGIN = 60


def html_pdf(html: str, page_size: tuple[float, float] = (595, 842), css: str = "") -> bytes:
    """A PDF of ``html`` (trusted markup: escape what goes into it), flowed over as many pages
    as it takes; the demo papers and the tests' manuscripts are written with it."""
    width, height = page_size
    story = pymupdf.Story(html=html, user_css=css)
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    more = True
    while more:
        device = writer.begin_page(pymupdf.Rect(0, 0, width, height))
        more, _ = story.place(pymupdf.Rect(_MARGIN, _MARGIN, width - _MARGIN, height - _MARGIN))
        story.draw(device)
        writer.end_page()
    writer.close()
    return buffer.getvalue()


def write_pdf(
    path: Path,
    *,
    title: str,
    authors: str,
    banner: str,
    sections: Sequence[tuple[str, str]],
    page_size: tuple[float, float] = (595, 842),
) -> int:
    """Write a simple paper (paragraphs split on blank lines) atomically; returns its page count.

    The banner is printed under the authors and again at the foot of every page. The output is
    byte-for-byte deterministic, and an identical existing file is left untouched.
    """
    html = [f"<h1>{escape(title)}</h1>", f'<p class="authors">{escape(authors)}</p>']
    html.append(f'<p class="banner">{escape(banner)}</p>')
    for heading, body in sections:
        html.append(f"<h2>{escape(heading)}</h2>")
        html += [f"<p>{escape(' '.join(p.split()))}</p>" for p in body.split("\n\n") if p.strip()]
    height = page_size[1]
    with pymupdf.open(stream=html_pdf("\n".join(html), page_size, _CSS), filetype="pdf") as doc:
        for pg in doc:
            footer = f"{banner} - page {pg.number + 1} of {doc.page_count}"
            pg.insert_text((_MARGIN, height - _MARGIN / 2), footer, fontsize=8, color=(0.6, 0, 0))
        doc.set_metadata({"title": title, "author": authors, "subject": banner})
        pages = doc.page_count
        data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    write_atomic(Path(path), data)
    return pages


__all__ = [
    "PdfAnnotation",
    "annotate_pdf",
    "html_pdf",
    "page_png",
    "quote_rects",
    "read_annotations",
    "read_pdf",
    "write_pdf",
]
