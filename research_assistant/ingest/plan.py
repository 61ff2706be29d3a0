"""Planning an ingest: read the given files, pair PDFs with entries, decide what changes.

Nothing here writes to the library; ``Library.ingest`` commits the returned ``Plan``. PDF text
extraction and chunking run in a small process pool (PyMuPDF holds the GIL), so a second core is
used when there are several new PDFs.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from research_assistant.bib import parse as bibtex
from research_assistant.errors import BibtexError
from research_assistant.files import safe_name
from research_assistant.index import chunk_paper
from research_assistant.ingest import inference, matching
from research_assistant.ingest.collect import MAX_FILE_BYTES, collect
from research_assistant.ingest.readers import (
    POOL_MIN_FILES,
    Readers,
    read_many,
    read_or_reason,
    shared_readers,
)
from research_assistant.models import (
    BibProblem,
    Chunk,
    IngestReport,
    Match,
    Paper,
    PdfInfo,
    PdfNote,
    Skipped,
)

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Plan:
    papers: dict[str, Paper]  # the whole library after the change, labels not yet assigned
    chunks: dict[str, list[Chunk]]  # keys whose chunks are replaced
    removed: list[str]
    pdf_bytes: dict[str, bytes]  # file name in pdfs/ -> content
    files: list[tuple[str, str, str, int, int]]  # (sha256, name, original path, size, pages)
    shas: dict[str, str]  # paper key -> sha256 of its PDF, for the papers that got one
    report: IngestReport

    @property
    def changed(self) -> bool:
        r = self.report
        return bool(r.added or r.updated or self.removed)


def read_pdfs(
    paths: Sequence[Path],
    workers: int,
    progress: Progress | None,
    readers: Readers | None = None,
) -> list[PdfInfo | str]:
    """Several new PDFs are read (and chunked) by worker processes: PyMuPDF holds the GIL."""
    total = len(paths)
    done = 0
    lock = threading.Lock()

    def finished(i: int, result: PdfInfo | str) -> None:
        nonlocal done
        with lock:
            done += 1
            if progress:
                progress(done, total, paths[i].name)

    if readers is not None and total:
        return readers.read([str(p) for p in paths], finished)
    if workers > 1 and total >= POOL_MIN_FILES:
        return read_many([str(p) for p in paths], workers, finished)
    results: list[PdfInfo | str] = []
    for i, p in enumerate(paths):
        results.append(read_or_reason(str(p)))
        finished(i, results[-1])
    return results


def _read_bibs(
    bibs: Sequence[Path],
) -> tuple[dict[str, Paper], list[BibProblem], list[Skipped], int]:
    entries: dict[str, Paper] = {}
    problems: list[BibProblem] = []
    skipped: list[Skipped] = []
    count = 0
    for bib in bibs:
        try:
            result = bibtex.parse_bib_file(bib)
        except BibtexError as e:
            skipped.append(Skipped(str(bib), str(e)))
            continue
        count += result.entries
        problems.extend(result.problems)
        for paper in result.papers:
            if paper.key in entries:
                msg = "key already defined in an earlier .bib of this run; the first is kept"
                problems.append(BibProblem(bib.name, 0, paper.key, msg))
                continue
            entries[paper.key] = paper
    return entries, problems, skipped, count


def _same_metadata(a: Paper, b: Paper) -> bool:
    return replace(a, label="", pdf=None, pages=0, chunks=0, source="") == replace(
        b, label="", pdf=None, pages=0, chunks=0, source=""
    )


def plan(
    paths: Sequence[Path],
    *,
    existing: Mapping[str, Paper],
    known_shas: Mapping[str, str],
    pdf_dir: Path,
    progress: Progress | None = None,
    workers: int = 2,
    max_bytes: int = MAX_FILE_BYTES,
) -> Plan:

    pdf_paths, bibs, skipped = collect(paths)
    entries, problems, bib_skipped, entry_count = _read_bibs(bibs)
    skipped += bib_skipped
    papers = dict(existing)
    added: list[str] = []
    updated: list[str] = []
    unchanged: list[str] = []
    for key, entry in entries.items():
        old = existing.get(key)
        if old is None:
            papers[key] = entry
            added.append(key)
        else:
            merged = replace(entry, pdf=old.pdf, pages=old.pages, chunks=old.chunks)
            papers[key] = merged
            (unchanged if _same_metadata(old, merged) else updated).append(key)

    # PDFs: hash first, so files the library already holds are not parsed again
    by_sha = {sha: key for key, sha in known_shas.items() if sha}
    new_paths: list[Path] = []
    new_data: dict[str, tuple[bytes, str]] = {}  # path -> (bytes, sha)
    seen: dict[str, Path] = {}
    pool = ExitStack()  # reader processes, taken at the first new PDF (they warm up meanwhile)
    readers: Readers | None = None
    try:
        for p in pdf_paths:
            try:
                size = p.stat().st_size
                if size > max_bytes:
                    limit = max_bytes // 2**20
                    msg = f"{p.name} is {size // 2**20} MiB, over the {limit} MiB limit: split it"
                    skipped.append(Skipped(str(p), msg))
                    continue
                data = p.read_bytes()
            except OSError as e:
                skipped.append(Skipped(str(p), f"{p.name} could not be read: {e.strerror}"))
                continue
            sha = hashlib.sha256(data).hexdigest()
            if sha in seen:
                skipped.append(Skipped(str(p), f"{p.name} is the same file as {seen[sha].name}"))
                continue
            seen[sha] = p
            if sha in by_sha and by_sha[sha] in papers:
                if by_sha[sha] not in added + updated:
                    unchanged.append(by_sha[sha])
                continue
            new_paths.append(p)
            new_data[str(p)] = (data, sha)
            if readers is None and workers > 1 and len(pdf_paths) >= POOL_MIN_FILES:
                try:
                    readers = pool.enter_context(shared_readers(workers))
                except OSError:  # no subprocess here (a locked-down host): read in-process
                    workers = 1
        results = read_pdfs(new_paths, workers, progress, readers)
    finally:
        pool.close()
    infos: list[PdfInfo] = []
    for p, result in zip(new_paths, results, strict=True):
        if isinstance(result, str):
            skipped.append(Skipped(str(p), result))
        else:
            infos.append(replace(result, path=str(p), sha256=new_data[str(p)][1]))

    candidates = list(entries.values()) + [p for k, p in existing.items() if k not in entries]
    bib_dirs = [b.parent.resolve() for b in bibs]
    matches = matching.match_pdfs(infos, candidates, bib_dirs) if infos else ()
    chunks: dict[str, list[Chunk]] = {}
    pdf_bytes: dict[str, bytes] = {}
    files: list[tuple[str, str, str, int, int]] = []
    shas: dict[str, str] = {}
    unmatched: list[str] = []
    for info, match in zip(infos, matches, strict=True):
        data, sha = new_data[info.path]
        if match.key is None:
            inferred = inference.infer_paper(info, "")
            key = bibtex.generate_key(inferred.authors, inferred.year, inferred.title, papers)
            papers[key] = replace(inferred, key=key)
            unmatched.append(info.path)
            added.append(key)
        else:
            key = match.key
        if match.key is not None and key in existing and key not in added:
            if key not in updated:
                updated.append(key)
            if key in unchanged:
                unchanged.remove(key)
        name = safe_name(key, sha)
        cks = chunk_paper(key, sha, info.pages, info.spans)
        papers[key] = replace(papers[key], pdf=name, pages=info.page_count, chunks=len(cks))
        chunks[key] = cks
        pdf_bytes[name] = data
        shas[key] = sha
        files.append((sha, name, info.path, len(data), info.page_count))

    without_pdf = [k for k in entries if not papers[k].pdf]
    report = IngestReport(
        added=tuple(added),
        updated=tuple(updated),
        unchanged=tuple(dict.fromkeys(unchanged)),
        skipped=tuple(skipped),
        unmatched_pdfs=tuple(unmatched),
        entries_without_pdf=tuple(without_pdf),
        matches=tuple(
            Match(m.pdf, m.key, m.method, m.score) if m.key else Match(m.pdf, None, "none")
            for m in matches
        ),
        problems=tuple(problems),
        entries=entry_count,
        notes=tuple(PdfNote(info.path, note) for info in infos for note in info.notes),
    )
    return Plan(papers, chunks, [], pdf_bytes, files, shas, report)
