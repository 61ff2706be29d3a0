"""The Check page's manuscript upload (web/manuscripts.py and pages/4_Check_text.py), run with
AppTest on the demo library: upload a PDF manuscript, see its verdicts, download the reports
and the annotated PDF."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest
import streamlit as st

from research_assistant import store
from research_assistant.demo import build_demo
from research_assistant.errors import UploadError
from research_assistant.ingest import pdf
from research_assistant.library import Library
from research_assistant.web import manuscripts
from tests.test_ui import DLA, SUPPORTED, UNRELATED, assert_ok, run, shared_library

PAGE = "pages/4_Check_text.py"


@pytest.fixture(autouse=True)
def _fresh_resources() -> Iterator[None]:
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()
    store.close_all()


@pytest.fixture
def demo_lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    monkeypatch.setenv("RA_LIBRARY_DIR", str(tmp_path / "library"))
    lib = shared_library(tmp_path / "library")
    lib.ingest(build_demo(tmp_path / "demo-src"))
    return lib


def _manuscript() -> bytes:
    """A one-page PDF: a supported claim [1], an unrelated one [1], a reference list."""
    return pdf.html_pdf(
        f"<h1>Draft</h1><p>{SUPPORTED} [1].</p><p>{UNRELATED} [1].</p>"
        "<h2>References</h2><p>[1] E. Lindqvist and S. Haddad. Diffusion-limited aggregation: "
        "how random walkers build fractals. 2021.</p><p>[2] Someone. A <b>bold</b> &lt;script&gt; "
        "entry, 2020.</p>"
    )


def test_upload_a_manuscript_see_the_verdicts_and_download_the_annotated_pdf(
    demo_lib: Library,
) -> None:
    at = run(PAGE)
    uploader = next(u for u in at.get("file_uploader") if u.proto.label == "Manuscript")
    uploader.set_value([("../../draft.pdf", _manuscript(), "application/pdf")])
    at.run()
    next(b for b in at.button if b.label == "Check the manuscript").click().run()
    assert_ok(at)
    assert not at.error, [e.value for e in at.error]
    done = at.session_state["ra_manuscript"]
    statuses = [(c.citation.status, c.citation.paper_key) for c in done.checked.citations]
    assert statuses == [("verified", DLA), ("unsupported", DLA)]
    assert done.checked.name == "draft.pdf"  # the path of the upload was stripped
    headline = (
        "**draft\\.pdf**: 1 ✅ verified · 1 ⚠ unsupported · 2 references, 1 not in your library"
    )
    assert headline in [m.value for m in at.markdown]
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["HTML report", "Word report", "Missing references (.bib)", "Annotated PDF"]
    with pymupdf.open(stream=done.annotated, filetype="pdf") as doc:
        notes = [a.info["content"] for a in doc[0].annots()]
    assert len(notes) == 2 and notes[0].startswith("[1]: verified")
    assert b"&lt;script&gt;" in done.html and b"<script>" not in done.html


def test_a_manuscript_of_the_wrong_type_is_refused_by_name(demo_lib: Library) -> None:
    with pytest.raises(UploadError, match=re.escape("notes.rtf is not a manuscript")):
        manuscripts.check_manuscript_upload(demo_lib, "notes.rtf", b"{\\rtf1}", "tester")
