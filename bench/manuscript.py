"""Benchmark of manuscript checks (issue 15): reference-list matching precision and recall,
and the time to check a 30-page manuscript with 150 citations.

Run: .venv/bin/python bench/manuscript.py [--library DIR] [--corpus-lists]
1. Matching on printed references: the 19 library.bib papers printed in five styles (APA with
   DOI, IEEE, ACM, Vancouver, AAS without a title) must match their library paper; 300 entries
   of ../shared/corpus/bib/*.bib printed the same way must match nothing. Precision and recall
   per style and in all.
2. With --corpus-lists: the real reference lists of the 18 corpus PDFs against library.bib and
   against the 3,228 entries of bib/*.bib. The corpus papers cite none of these works (checked
   by hand: no corpus paper cites another, and the bib/*.bib libraries are of other fields), so
   every match found there is a false one.
3. A 30-page PDF manuscript, 150 numbered citations of 19 library papers and 20 works not in
   the library (claims of tests/data/verification.jsonl), rendered with PyMuPDF and checked with
   pipeline.check_manuscript: wall time and the verdicts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import pymupdf  # noqa: E402

from research_assistant import Library  # noqa: E402
from research_assistant.bib.parse import parse_bib_file  # noqa: E402
from research_assistant.check.resolve import Resolver  # noqa: E402
from research_assistant.ingest.pdf import html_pdf  # noqa: E402
from research_assistant.manuscript.match import match_references  # noqa: E402
from research_assistant.manuscript.read import read_manuscript  # noqa: E402
from research_assistant.manuscript.references import parse_entry  # noqa: E402
from research_assistant.models import Paper  # noqa: E402
from research_assistant.pipeline import check_manuscript, warm  # noqa: E402
from research_assistant.report.references import format_reference  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
CLAIMS = ROOT / "tests" / "data" / "verification.jsonl"
SEED, NEGATIVES, CITATIONS, OUTSIDE = 15, 300, 150, 20


def _initials(given: str) -> str:
    return " ".join(f"{g[0]}." for g in given.replace(".", " ").split() if g[:1].isalpha())


def styles(p: Paper) -> dict[str, str]:
    """``p`` printed as five reference styles would print it."""
    fams = [a.family for a in p.authors] or ["Anonymous"]
    given = [_initials(a.given) for a in p.authors] or [""]
    ieee_names = [f"{g} {f}".strip() for g, f in zip(given, fams, strict=True)]
    venue = p.venue or dict(p.fields).get("journal", "") or "Proceedings"
    year = p.year or 2000
    return {
        "apa": format_reference(p),
        "ieee": f"{', '.join(ieee_names)}, “{p.title},” {venue}, {year}.",
        "acm": f"{' and '.join(ieee_names)}. {year}. {p.title}. In {venue}.",
        "vancouver": f"{', '.join(f + ' ' + g.replace('.', '').replace(' ', '') for f, g in zip(fams, given, strict=True))}. {p.title}. {venue}. {year};1:1-10.",
        "aas": f"{', '.join(f'{f}, {g}' for f, g in zip(fams, given, strict=True))} {year}, {venue[:30]}, 12, 345",
    }  # fmt: skip


def matching_on_printed_styles(library: list[Paper]) -> None:
    resolver = Resolver(library)
    others = [p for b in sorted((CORPUS / "bib").glob("*.bib")) for p in parse_bib_file(b).papers]
    negatives = random.Random(SEED).sample([p for p in others if p.title], NEGATIVES)
    print(f"\n1. printed references: {len(library)} library papers, {len(negatives)} others")
    print(f"{'style':10} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7}  methods")
    total = Counter()
    for style in ("apa", "ieee", "acm", "vancouver", "aas"):
        pos = [parse_entry(styles(p)[style]) for p in library]
        neg = [parse_entry(styles(p)[style]) for p in negatives]
        got = match_references(pos + neg, resolver)
        tp = sum(m.key == p.key for m, p in zip(got, library, strict=False))
        fp = sum(m.key is not None for m in got[len(pos) :])
        fp += sum(m.key is not None and m.key != p.key for m, p in zip(got, library, strict=False))
        fn = len(pos) - tp
        methods = Counter(m.method for m in got[: len(pos)])
        total.update(tp=tp, fp=fp, fn=fn)
        print(f"{style:10} {tp:4} {fp:4} {fn:4} {_ratio(tp, tp + fp):>9} {_ratio(tp, tp + fn):>7}"
              f"  {dict(methods)}")  # fmt: skip
    tp, fp, fn = total["tp"], total["fp"], total["fn"]
    print(f"{'all':10} {tp:4} {fp:4} {fn:4} {_ratio(tp, tp + fp):>9} {_ratio(tp, tp + fn):>7}")


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def corpus_lists(library: list[Paper]) -> None:
    others = [p for b in sorted((CORPUS / "bib").glob("*.bib")) for p in parse_bib_file(b).papers]
    print("\n2. the corpus PDFs' own reference lists (no true match exists in either set)")
    for name, papers in (("library.bib", library), ("bib/*.bib", others)):
        resolver = Resolver(papers)
        entries = found = 0
        started = time.perf_counter()
        for pdf in sorted(CORPUS.glob("*.pdf")):
            refs = read_manuscript(pdf).references
            entries += len(refs)
            for e, m in zip(refs, match_references(refs, resolver), strict=True):
                if m.key:
                    found += 1
                    print(f"   false match {pdf.name}: {e.text[:80]} -> {m.key} ({m.method})")
        took = time.perf_counter() - started
        print(f"   against {name} ({len(papers)} entries): {entries} reference entries, "
              f"{found} matched (all false), {took:.1f} s")  # fmt: skip


def manuscript_pdf(path: Path, library: list[Paper]) -> Path:
    claims = [json.loads(line) for line in CLAIMS.read_text(encoding="utf-8").splitlines()]
    claims = [c for c in claims if c["group"] in ("supported", "changed_number", "wrong_paper")]
    keys = [p.key for p in library]
    others = [p for p in parse_bib_file(CORPUS / "bib" / "bbt-import-873-legacy-ai.bib").papers]
    outside = random.Random(SEED).sample([p for p in others if p.title and p.authors], OUTSIDE)
    refs = [styles(p)["ieee"] for p in library] + [styles(p)["ieee"] for p in outside]
    rng = random.Random(SEED)
    paragraphs = []
    filler = (
        "This paragraph discusses the setting of the study at some length, as a manuscript "
        "does between its cited claims, so that the pages hold prose as well as citations, and "
        "the checker reads a text of the length of a real article. "
    ) * 3
    for i in range(CITATIONS):
        c = claims[i % len(claims)]
        text = c["text"].rsplit("[", 1)[0].rsplit("(", 1)[0].strip().rstrip(".")
        n = keys.index(c["paper_key"]) + 1 if i % 8 else len(keys) + 1 + rng.randrange(OUTSIDE)
        paragraphs.append(f"<p>{text} [{n}]. {filler}</p>")
    html = "<h1>A long manuscript</h1>" + "".join(paragraphs) + "<h2>References</h2>"
    html += "".join(f"<p>[{i}] {r}</p>" for i, r in enumerate(refs, 1))
    path.write_bytes(html_pdf(html.replace("&", "&amp;")))
    return path


def timing(lib: Library, folder: Path, library: list[Paper]) -> None:
    path = manuscript_pdf(folder / "long.pdf", library)
    with pymupdf.open(path) as doc:
        pages = doc.page_count
    warm(lib)
    started = time.perf_counter()
    checked = check_manuscript(lib, path)
    took = time.perf_counter() - started
    print(f"\n3. a {pages}-page manuscript, {len(checked.citations)} citations, "
          f"{len(checked.references)} references: checked in {took:.1f} s")  # fmt: skip
    print(f"   verdicts: {checked.summary()}")
    print(f"   reference matches: {dict(Counter(m.method for m in checked.matches))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, help="a library of the corpus, already ingested")
    parser.add_argument("--corpus-lists", action="store_true")
    args = parser.parse_args()
    library = list(parse_bib_file(CORPUS / "library.bib").papers)
    matching_on_printed_styles(library)
    if args.corpus_lists:
        corpus_lists(library)
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(args.library or Path(tmp) / "lib")
        if not lib.papers():
            lib.ingest([CORPUS / "library.bib", *sorted(CORPUS.glob("*.pdf"))])
        timing(lib, Path(tmp), [p for p in library if lib.paper(p.key)])


if __name__ == "__main__":
    main()
