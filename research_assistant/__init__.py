"""Citable: answers and checks in which every [Author, Year] citation is verified.

The public API (the app, the CLI, tests and benchmarks use it)::

    lib = Library.open(path)
    report = lib.ingest([paths...])
    answer = ask(lib, question, backend=None, user=None)
    checked = check_text(lib, text, user=None)

Names are imported lazily so that ``import research_assistant`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Answer",
    "CheckedText",
    "Citation",
    "IngestReport",
    "Library",
    "Paper",
    "ResearchAssistantError",
    "ask",
    "check_manuscript",
    "check_text",
    "export",
]

_WHERE = {
    "Answer": "results",
    "CheckedText": "results",
    "Citation": "results",
    "IngestReport": "models",
    "Paper": "models",
    "Library": "library",
    "ResearchAssistantError": "errors",
    "ask": "pipeline",
    "check_manuscript": "reviewing",
    "check_text": "pipeline",
    "export": "pipeline",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"research_assistant.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'research_assistant' has no attribute {name!r}")
