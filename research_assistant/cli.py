"""The command line: a thin layer over the Python API. JSON on stdout with --json; progress,
logs and errors on stderr. Exit codes: 0 ok, 1 a ResearchAssistantError, 2 usage."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from research_assistant.answer.registry import ANSWERERS
from research_assistant.errors import ResearchAssistantError
from research_assistant.models import IngestReport
from research_assistant.report.exports import EXPORTERS

DESCRIPTION = "Citable: answers whose every [Author, Year] citation is checked against the paper."


def _progress_bar(stream: TextIO) -> Any:
    def show(done: int, total: int, name: str) -> None:
        if not stream.isatty() and done not in (total,) and done % 10:
            return  # in logs, one line per 10 files is enough
        width = 30
        filled = int(width * done / max(total, 1))
        end = "\n" if done == total else ""
        cr = "\r" if stream.isatty() else ""
        stream.write(
            f"{cr}[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {name[:40]:40}{end}"
        )
        if not stream.isatty() and end == "":
            stream.write("\n")
        stream.flush()

    return show


def _print_report(report: IngestReport, out: TextIO) -> None:
    out.write(
        f"added {len(report.added)}, updated {len(report.updated)}, unchanged "
        f"{len(report.unchanged)}, skipped {len(report.skipped)}\n"
    )
    for m in report.matches:
        how = f"{m.method}" + (f" {m.score:.0f}" if m.method == "title" else "")
        out.write(f"  {Path(m.pdf).name} -> {m.key or '(no entry: metadata inferred)'} [{how}]\n")
    for s in report.skipped:
        out.write(f"  skipped {s.path}: {s.reason}\n")
    for n in report.notes:
        out.write(f"  note {Path(n.path).name}: {n.note}\n")
    if report.entries_without_pdf:
        out.write(f"  {len(report.entries_without_pdf)} entries without a PDF (metadata only)\n")
    if report.problems:
        out.write(f"  {len(report.problems)} BibTeX problems:\n")
        for p in report.problems[:20]:
            out.write(f"    {p.message}\n")  # the message names the file, line and key
        if len(report.problems) > 20:
            out.write(f"    ... and {len(report.problems) - 20} more (see --json)\n")


def cmd_ingest(args: argparse.Namespace, lib: Any) -> Any:
    report = lib.ingest(args.paths, progress=None if args.json else _progress_bar(sys.stderr))
    if args.json:
        return report.to_dict()
    _print_report(report, sys.stdout)
    return None


def cmd_papers(args: argparse.Namespace, lib: Any) -> Any:
    papers = lib.papers()
    if args.json:
        return [p.to_dict() for p in papers]
    for p in papers:
        pdf = f"{p.pages} pp, {p.chunks} chunks" if p.pdf else "no PDF"
        flag = " (metadata inferred from the PDF)" if p.metadata == "inferred" else ""
        print(f"[{p.label}] {p.title} — {p.key}, {pdf}{flag}")
    print(f"{len(papers)} papers", file=sys.stderr)
    return None


def cmd_demo(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant import demo  # start-up time

    if args.if_empty and lib.papers():
        print(f"The library in {lib.root} already has papers: demo not added.", file=sys.stderr)
        return {"added": [], "updated": [], "skipped": []} if args.json else None
    with tempfile.TemporaryDirectory() as tmp:
        paths = demo.build_demo(Path(tmp))
        report = lib.ingest(paths)
    if args.json:
        return report.to_dict()
    print(f"Demo library ready in {lib.root}: {len(lib.papers())} papers.")
    return None


def _print_citations(citations: Sequence[Any], references: Sequence[Any]) -> None:
    from research_assistant.report.references import STATUS_STYLE  # start-up time

    for c in citations:
        symbol, label = STATUS_STYLE[c.status]
        where = f" p. {c.evidence.page}" if c.evidence else ""
        print(f"  {symbol} {c.mention.marker} {label}: {c.paper_key or '-'}{where}  {c.reason}")
    if references:
        print("\nReferences")
        for r in references:
            print(f"  {r.text}")


def cmd_ask(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant.pipeline import ask  # start-up time

    def stream(piece: str) -> None:
        sys.stdout.write(piece)
        sys.stdout.flush()

    answer = ask(
        lib, args.question, backend=args.backend, top_k=args.top_k,
        on_text=stream if args.stream and not args.json else None,
    )  # fmt: skip
    if args.json:
        return answer.to_dict()
    if args.stream:
        print("\n")
    print(
        answer.answer if not args.stream or answer.mode == "refuse" else "(verified answer above)"
    )
    _print_citations(answer.citations, answer.references)
    if answer.closest:  # a refusal: what came closest, plainly not an answer
        print("\nClosest papers (not an answer):")
        for c in answer.closest:
            print(f"  [{c.label}] {c.title}, p. {c.page}: {c.text}")
    cited = "" if answer.coverage is None else f" · {answer.coverage:.0%} of sentences cited"
    print(f"\nid {answer.id} · {answer.backend} {answer.model}{cited}", file=sys.stderr)
    for note in answer.notes:  # what was fixed in the model's output
        print(f"note: {note}", file=sys.stderr)
    return None


def cmd_verify(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant.pipeline import check_text  # start-up time

    if args.file == "-":
        text = sys.stdin.read()
    else:
        path = Path(args.file)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise ResearchAssistantError(f"Cannot read {path}: {e.strerror}") from e
    checked = check_text(lib, text, judge=_judge(args), judge_every=args.judge_every)
    if args.json:
        return checked.to_dict()
    _print_citations(checked.citations, checked.references)
    summary = checked.to_dict()["summary"]
    print(", ".join(f"{n} {s}" for s, n in summary.items()) or "no citations found")
    return None


def _judge(args: argparse.Namespace) -> Any:
    """The model judge ``--judge`` names (None without it)."""
    from research_assistant.pipeline import get_judge  # start-up time

    if args.judge_every and not args.judge:
        raise ResearchAssistantError("--judge-every needs --judge BACKEND (the model that judges)")
    return get_judge(args.judge) if args.judge else None


def _judge_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--judge", choices=sorted(n for n in ANSWERERS if n != "extractive"),
        help="a model backend gives a second opinion on the citations the offline checker "
        "cannot settle (uncertain, partial, near the threshold)",
    )  # fmt: skip
    p.add_argument(
        "--judge-every", action="store_true",
        help="the judge also reads every citation the checker verified or did not find stated "
        "(never one it found contradicted): a claim is verified only when the model finds it "
        "stated too, and one in other words than the paper's can be (one call per 10 citations)",
    )  # fmt: skip


def cmd_check_manuscript(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant.manuscript import outputs  # start-up time: pymupdf, python-docx
    from research_assistant.reviewing import check_manuscript  # start-up time

    checked = check_manuscript(
        lib, Path(args.file), Path(args.bib) if args.bib else None,
        judge=_judge(args), judge_every=args.judge_every,
    )  # fmt: skip
    written = []
    for out in (args.out, args.docx):
        if out:
            outputs.write_report(checked, Path(out))
            written.append(out)
    if args.annotated:
        n = outputs.annotate(checked, Path(args.file), Path(args.annotated))
        written.append(f"{args.annotated} ({n} of {len(checked.citations)} sentences highlighted)")
    if args.missing_bib:
        from research_assistant.report.manuscript import missing_bibtex  # start-up time

        Path(args.missing_bib).write_text(missing_bibtex(checked), encoding="utf-8")
        written.append(args.missing_bib)
    for line in [*checked.notes, *(f"wrote {w}" for w in written)]:
        print(line, file=sys.stderr)
    if args.json:
        return checked.to_dict()
    _print_citations([c.citation for c in checked.citations], [])
    summary = checked.summary()
    print(", ".join(f"{n} {s}" for s, n in summary.items()) or "no citations found")
    missing = len(checked.missing())
    print(f"{len(checked.references)} references, {missing} not in your library")
    return None


def cmd_export(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant.pipeline import export, export_bytes  # start-up time

    if EXPORTERS[args.format].binary:  # a Word file: its bytes, to a file or a pipe
        if args.json:
            raise ResearchAssistantError(f"--json holds text: export {args.format} without it.")
        sys.stdout.buffer.write(export_bytes(lib, args.id, args.format))
        return None
    text = export(lib, args.id, args.format)
    if args.json:
        return {"id": args.id, "format": args.format, "content": text}
    sys.stdout.write(text)
    return None


def cmd_eval(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant.evaluate import evaluate, load_questions  # start-up time

    questions = load_questions(args.questions)
    report = evaluate(
        lib, questions, backend=args.backend, top_k=args.top_k,
        progress=None if args.json else _progress_bar(sys.stderr),
    )  # fmt: skip
    if args.json:
        return report.to_dict()
    print(f"{'id':32} {'hold':4} {'top-k':5} {'mode':6} {'cites':5}  citations")
    for r in report.rows:
        hold = "yes" if r.answerable else "no"
        hit = ("yes" if r.retrieval_hit else "NO") if r.answerable else "-"
        cites = ("yes" if r.cites_answer_paper else "NO") if r.answerable else "-"
        statuses = ", ".join(r.statuses) or "-"
        print(f"{r.id[:32]:32} {hold:4} {hit:5} {r.mode:6} {cites:5}  {statuses}")

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}%"

    a, n_ans, n_un = report.aggregates(), len(report.answerable), len(report.unanswerable)
    print(f"\n{report.backend} ({report.model}), top-k {report.top_k}, {a['questions']} questions")
    print(
        f"  retrieval hit (a paper holding the answer in the top k): {pct(report.retrieval_hit_rate)}"
    )
    print(f"  answer cites a holding paper, verified: {pct(report.cites_answer_rate)} of {n_ans}")
    print(f"  citations verified: {pct(report.verified_share)} of {a['citations']}")
    print(f"  citations carrying a verdict: {pct(report.status_share)}")
    print(f"  unverified citations shown unflagged: {a['unflagged_unverified']}")
    print(f"  unanswerable refused: {a['refused_unanswerable']} of {n_un}")
    print(f"  answerable refused (false refusals): {a['false_refusals']} of {n_ans}")
    print(f"  the answer states it (its hint phrase): {pct(report.hint_rate)}")
    print(f"  answers whose every citation is verified: {pct(report.all_verified_rate)}")
    for kind, k in a["by_kind"].items():
        states = f", states it {k['states_answer']}/{k['with_hint']}" if k["with_hint"] else ""
        print(
            f"    {kind}: {k['questions']} questions, cites {k['cites_answer_paper']}"
            f"{states}, refused {k['refused']}"
        )
    return None


def cmd_backup(args: argparse.Namespace, lib: Any) -> Any:
    from research_assistant.backup import backup  # start-up time

    dest = backup(lib, Path(args.dest))
    if args.json:
        return {"backup": str(dest), "papers": len(lib.papers())}
    print(f"Backed up {len(lib.papers())} papers and the log to {dest}")
    return None


def cmd_restore(args: argparse.Namespace) -> Any:
    from research_assistant.backup import restore  # start-up time

    lib = restore(Path(args.archive), Path(args.target))
    if args.json:
        return {"restored": str(lib.root), "papers": len(lib.papers())}
    print(f"Restored {len(lib.papers())} papers into {lib.root}")
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m research_assistant", description=DESCRIPTION)
    parser.add_argument("--library", help="library folder (else RA_LIBRARY_DIR, else ./library)")
    parser.add_argument("--json", action="store_true", help="machine output on stdout")
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name: str, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_)
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
        return p

    p = add("ingest", "add PDFs, .bib files or folders to the library")
    p.add_argument("paths", nargs="+", type=Path)
    p.set_defaults(func=cmd_ingest)
    add("papers", "list the papers in the library").set_defaults(func=cmd_papers)
    p = add("demo", "add the embedded demo library")
    p.add_argument("--if-empty", action="store_true", help="only when the library is empty")
    p.set_defaults(func=cmd_demo)
    p = add("ask", "answer a question from the library, every citation checked")
    p.add_argument("question")
    p.add_argument("--backend", choices=list(ANSWERERS))
    p.add_argument("--top-k", type=int, default=None)
    p.add_argument("--stream", action="store_true", help="print the answer as it is written")
    p.set_defaults(func=cmd_ask)
    p = add("verify", "check the citations in a text file (or - for standard input)")
    p.add_argument("file")
    _judge_options(p)
    p.set_defaults(func=cmd_verify)
    p = add("check-manuscript", "check every citation of a manuscript (PDF, .docx, .tex, .md)")
    p.add_argument("file")
    p.add_argument("--bib", help="the manuscript's .bib (LaTeX and pandoc citation keys)")
    p.add_argument("--out", help="write the report: .html, .docx or .md")
    p.add_argument("--docx", help="also write the report as a Word document")
    p.add_argument("--annotated", help="write a copy of the PDF with every citation annotated")
    p.add_argument("--missing-bib", help="write the references not in the library as .bib")
    _judge_options(p)
    p.set_defaults(func=cmd_check_manuscript)
    p = add("export", "export an answer or checked text by id")
    p.add_argument("id")
    p.add_argument("--format", choices=list(EXPORTERS), default="md")
    p.set_defaults(func=cmd_export)
    p = add("eval", "evaluate answers on a labelled question set (JSON Lines)")
    p.add_argument("questions", type=Path)
    p.add_argument("--backend", choices=list(ANSWERERS))
    p.add_argument("--top-k", type=int, default=None)
    p.set_defaults(func=cmd_eval)
    p = add("backup", "write the whole library (papers, index, log) to a .tar.gz")
    p.add_argument("dest")
    p.set_defaults(func=cmd_backup)
    p = add("restore", "unpack a backup into a new or empty library folder")
    p.add_argument("archive")
    p.add_argument("target")
    p.set_defaults(func=None, restore=cmd_restore)
    return parser


def _os_message(e: OSError) -> str:
    """An operating-system error no layer turned into a message: what failed, where, and what
    to do (a full disk says how much is free), instead of a traceback."""
    from research_assistant.files import disk_full, is_disk_full  # start-up time

    where = e.filename or "the library folder"
    if is_disk_full(e):
        return (
            f"{disk_full(Path(str(where)).parent)} (writing {where}): free some space, then retry."
        )
    return (
        f"{e.strerror or e} ({where}): check that the path exists and can be written, then retry."
    )


def _start_readers(paths: Sequence[Path]) -> None:
    """For an ingest of several PDFs: start the reader processes and have them read the PDFs
    while this process imports and opens the library (those the library holds already are
    dropped from their queue once it is open)."""
    from research_assistant.ingest.collect import readable_pdfs  # start-up time
    from research_assistant.ingest.readers import POOL_MIN_FILES, start_shared  # start-up time

    pdfs = readable_pdfs(paths)
    if len(pdfs) >= POOL_MIN_FILES:
        start_shared(workers=2, prefetch=[str(p) for p in pdfs])  # Library.ingest's default


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "ingest":
        _start_readers(args.paths)
    from research_assistant.library import Library  # start-up time

    try:
        if args.command == "restore":  # opens the restored folder, not --library
            result = args.restore(args)
        else:
            lib = Library.open(args.library)
            result = args.func(args, lib)
    except (ResearchAssistantError, OSError) as e:
        message = str(e) if isinstance(e, ResearchAssistantError) else _os_message(e)
        if args.json:
            print(json.dumps({"error": message, "type": type(e).__name__}))
        print(f"error: {message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    return 0
