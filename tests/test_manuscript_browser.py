"""The Check page's manuscript upload in a real browser (Debian's chromium, Playwright, against
`streamlit run`, see tests/test_browser.py): upload a PDF manuscript, see its verdicts, download
the annotated PDF and read its notes back."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.test_browser import UI_TIMEOUT_MS, app_url, launch, offline
from tests.test_manuscript_web import _manuscript

pytestmark = pytest.mark.browser
__all__ = ["app_url"]  # the fixture, shared with test_browser.py


def test_upload_a_manuscript_and_download_the_annotated_pdf(app_url: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    draft = tmp_path / "draft.pdf"
    draft.write_bytes(_manuscript())
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(UI_TIMEOUT_MS)
            outside = offline(page)
            page.goto(f"{app_url}/Check_text")
            uploader = page.get_by_test_id("stFileUploader").filter(
                has=page.get_by_text("Manuscript", exact=True)
            )
            uploader.locator("input[type=file]").set_input_files(str(draft))
            expect(uploader).to_contain_text("draft.pdf")
            page.get_by_role("button", name="Check the manuscript").click()
            expect(page.get_by_text("2 references, 1 not in your library")).to_be_visible()
            expect(page.get_by_text("1 ✅ verified · 1 ⚠ unsupported")).to_be_visible()
            with page.expect_download() as download:
                page.get_by_role("button", name="Annotated PDF").click()
            saved = tmp_path / "checked.pdf"
            download.value.save_as(saved)
        finally:
            browser.close()
    assert outside == [], "a request left 127.0.0.1"
    with pymupdf.open(saved) as doc:
        notes = [a.info["content"] for a in doc[0].annots()]
    assert [n.split("\n")[0] for n in notes] == ["[1]: verified", "[1]: unsupported"]
