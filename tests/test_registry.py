"""answer/registry.py as the settings and the app use it: one table of answer backends."""

from __future__ import annotations

import pytest

from research_assistant.answer.registry import ANSWERERS, default_backend
from research_assistant.settings import load_settings
from research_assistant.web import views


def test_the_offline_backend_needs_nothing_and_comes_first() -> None:
    assert list(ANSWERERS) == ["extractive", "anthropic", "openai"]
    assert [b.name for b in ANSWERERS.values()] == list(ANSWERERS)
    assert ANSWERERS["extractive"].is_configured() and not ANSWERERS["extractive"].needs


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "extractive"),
        ({"ANTHROPIC_API_KEY": "sk-test"}, "anthropic"),
        ({"ANTHROPIC_API_KEY": "   "}, "extractive"),  # a blank key configures nothing
        ({"ANTHROPIC_API_KEY": "sk-test", "RA_BACKEND": "extractive"}, "extractive"),
        ({"RA_BACKEND": "anthropic"}, "anthropic"),  # chosen: fails later with a clear message
    ],
)
def test_settings_default_backend(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert load_settings().default_backend() == expected == default_backend(load_settings().backend)


def test_the_apps_selector_and_notes_come_from_the_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert [views.backend_index(n) for n in ANSWERERS] == list(range(len(ANSWERERS)))
    assert views.backend_index("retired-backend") == 0
    assert views.backend_note("extractive", "m") == (
        False,
        "Offline extractive answerer — set ANTHROPIC_API_KEY to use Claude (Anthropic); "
        "set RA_OPENAI_BASE_URL to use OpenAI-compatible server (local model)",
    )
    assert views.backend_note("anthropic", "m") == (
        True,
        "Claude (Anthropic) needs ANTHROPIC_API_KEY: set it and restart, or answer offline.",
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert views.backend_note("anthropic", "claude-x") == (
        False,
        "Claude (Anthropic), model `claude-x`",
    )
    monkeypatch.setenv("RA_OPENAI_BASE_URL", "http://localhost:11434/v1")
    assert views.backend_note("extractive", "m") == (False, "Offline extractive answerer")
    run = {"backend": "anthropic", "model": "claude-x", "id": "abc"}
    assert views.run_caption(run).startswith("Claude \\(Anthropic\\) (claude\\-x) · id `abc`")


def test_an_empty_setting_is_an_unset_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """RA_LIBRARY_DIR="" must not mean the current folder: the library would be written there."""
    monkeypatch.setenv("RA_LIBRARY_DIR", "")
    monkeypatch.setenv("RA_TOP_K", "")
    settings = load_settings()
    assert str(settings.library_dir) == "library" and settings.top_k == 8
    monkeypatch.setenv("RA_LIBRARY_DIR", "/srv/lab-library")
    assert str(load_settings().library_dir) == "/srv/lab-library"


def test_settings_are_read_again_when_the_environment_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Kept per environment (every ask reads them), so a changed variable takes effect at the
    next call, and the kept copy cannot be changed by a caller."""
    monkeypatch.setenv("RA_TOP_K", "5")
    first = load_settings()
    assert first.top_k == 5 and load_settings() is first
    monkeypatch.setenv("RA_TOP_K", "12")
    assert load_settings().top_k == 12
    assert load_settings(top_k=3).top_k == 3 and load_settings().top_k == 12
    with pytest.raises(ValueError):
        first.top_k = 9  # type: ignore[misc]
    monkeypatch.delenv("RA_TOP_K")
    assert load_settings().top_k == 8
