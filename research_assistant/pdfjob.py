"""The PDF-reading job run in worker processes. Kept apart so that a worker imports only
pdf.py (PyMuPDF), not the retrieval stack: a forkserver child starts in about 0.2 s."""

from __future__ import annotations

from pathlib import Path

from research_assistant.errors import PdfError
from research_assistant.models import PdfInfo


def read_or_reason(path: str) -> PdfInfo | str:
    """A PdfInfo, or the readable reason the PDF cannot be used (one bad PDF never stops a run)."""
    from research_assistant.pdf import read_pdf

    try:
        return read_pdf(Path(path))
    except PdfError as e:
        return str(e)
    except Exception as e:
        return f"{Path(path).name}: could not be read ({type(e).__name__}: {e})"
