"""uploads.py: names, content checks, size limits and duplicates, before the library sees a file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from research_assistant.errors import ResearchAssistantError, UploadError
from research_assistant.web.uploads import (
    check_upload,
    read_text_upload,
    safe_upload_name,
    stage,
)

MIB = 2**20
PDF = b"%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
BIB = b"@article{smith2020, title={Growth}, year={2020}}\n"


def staged(folder: Path, *files: tuple[str, bytes], known: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return stage(list(files), folder, max_file_bytes=MIB, max_batch_bytes=2 * MIB, known=known)


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("../../etc/passwd.pdf", "passwd.pdf"),
        ("/etc/passwd.pdf", "passwd.pdf"),
        ("C:\\Users\\me\\paper.pdf", "paper.pdf"),
        ("..", "upload"),
        ("", "upload"),
        ("we ird;$(rm -rf).pdf", "we ird_(rm -rf).pdf"),
        ("Müller (2020) – Growth.pdf", "Müller (2020) _ Growth.pdf"),
        ("a\x00b.pdf", "a_b.pdf"),
        ("x" * 300 + ".pdf", "x" * 196 + ".pdf"),  # cut to 200 bytes, the suffix kept
        ("論" * 100 + ".pdf", "論" * 65 + ".pdf"),  # by UTF-8 bytes, never inside a character
        ("é" * 150, "é" * 100),
    ],
)
def test_upload_names_cannot_escape(name: str, safe: str) -> None:
    assert safe_upload_name(name) == safe


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("../../etc/passwd.pdf", b"root:x:0:0:root:/root:/bin/bash\n", "passwd.pdf is not a PDF"),
        ("photo.pdf", PNG, "photo.pdf is not a PDF (it does not start with %PDF-)"),
        ("empty.pdf", b"", "empty.pdf is empty (0 bytes)"),
        ("big.pdf", PDF + b"0" * MIB, "big.pdf is 1 MiB, over the 1 MiB limit per file"),
        ("notes.docx", b"PK\x03\x04", "notes.docx: only PDF and .bib files can be added"),
        ("refs.bib", b"just some words", "refs.bib has no BibTeX entries"),
        ("refs.bib", b"@article{x,\x00\x00", "refs.bib is a binary file, not BibTeX"),
    ],
)
def test_bad_uploads_are_refused_with_a_reason(name: str, data: bytes, message: str) -> None:
    with pytest.raises(UploadError) as e:
        check_upload(name, data, MIB)
    assert message in str(e.value)
    assert isinstance(e.value, ResearchAssistantError)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("paper.PDF", PDF),
        ("junk-first.pdf", b"\r\n" * 100 + PDF),  # the spec allows bytes before the header
        ("latin1.bib", "@misc{k, title={Müller}}".encode("latin-1")),
        ("refs.bib", BIB),
    ],
)
def test_good_uploads_pass(name: str, data: bytes) -> None:
    assert check_upload(name, data, MIB) == name


def test_a_real_pdf_passes(corpus: Path) -> None:
    path = corpus / "smith07.pdf"
    assert check_upload(path.name, path.read_bytes(), 100 * MIB) == "smith07.pdf"


def test_stage_writes_accepted_files_into_the_folder_only(tmp_path: Path) -> None:
    folder = tmp_path / "stage" / "inner"
    folder.mkdir(parents=True)
    out = staged(
        folder,
        ("../../etc/passwd.pdf", b"root:x:0:0"),
        ("../../../escape.pdf", PDF),
        ("refs.bib", BIB),
    )
    assert [p.name for p in out.paths] == ["escape.pdf", "refs.bib"]
    assert all(p.parent == folder.resolve() for p in out.paths)
    assert [name for name, _ in out.refused] == ["passwd.pdf"]
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["escape.pdf", "refs.bib"]


def test_the_same_file_twice_is_staged_once(tmp_path: Path) -> None:
    out = staged(tmp_path, ("a.pdf", PDF), ("sub/b.pdf", PDF))
    assert [p.name for p in out.paths] == ["a.pdf"]
    assert out.already == [("b.pdf", "b.pdf is the same file as a.pdf: added once.")]


def test_a_pdf_the_library_holds_is_not_staged(tmp_path: Path) -> None:
    known = {hashlib.sha256(PDF).hexdigest(): "Smith, 2020"}
    out = staged(tmp_path, ("mine.pdf", PDF), known=known)
    assert out.paths == []
    assert out.already == [
        ("mine.pdf", "mine.pdf is already in the library (as Smith, 2020): not added again.")
    ]


def test_two_files_with_one_name_are_both_kept(tmp_path: Path) -> None:
    out = staged(tmp_path, ("a/paper.pdf", PDF), ("b/paper.pdf", PDF + b"%v2\n"))
    assert [p.name for p in out.paths] == ["paper.pdf", "paper-1.pdf"]


def test_an_upload_over_the_batch_limit_is_refused_whole(tmp_path: Path) -> None:
    files = [(f"p{i}.pdf", PDF + bytes([i]) * (MIB - 1000)) for i in range(3)]
    with pytest.raises(UploadError, match=r"over the 2 MiB limit per upload \(RA_MAX_BATCH_MB\)"):
        stage(files, tmp_path, max_file_bytes=MIB, max_batch_bytes=2 * MIB)
    assert list(tmp_path.iterdir()) == []


def test_text_uploads() -> None:
    assert read_text_upload("a.md", "Ünïcode [Smith, 2020]".encode()) == "Ünïcode [Smith, 2020]"
    assert read_text_upload("a.txt", "Müller".encode("latin-1")) == "Müller"
    with pytest.raises(UploadError, match=r"a\.docx is not a text file"):
        read_text_upload("a.docx", b"PK\x03\x04\x00\x00")


def test_a_file_that_cannot_be_saved_is_refused_without_the_server_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    def full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    out = staged(tmp_path, ("a.pdf", PDF))
    assert out.paths == []
    ((name, reason),) = out.refused
    assert name == "a.pdf" and "No space left on device" in reason
    assert str(tmp_path) not in reason
