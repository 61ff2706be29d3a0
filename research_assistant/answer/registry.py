"""The answer backends by name: the CLI's choices, the app's selector and settings iterate this.

Adding a backend touches this table only. Factories import their module when called: the
Claude SDK takes about two seconds to import, which the offline path never pays.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from research_assistant.answer.base import DEFAULT_MODEL, Answerer
from research_assistant.errors import LLMError

__all__ = ["ANSWERERS", "Backend", "Options", "configured", "default_backend", "make_answerer"]

NO_KEY_MESSAGE = (
    "No Anthropic API key: set ANTHROPIC_API_KEY or use --backend extractive "
    "(the offline answerer needs no key)."
)


@dataclass(frozen=True)
class Options:
    model: str = DEFAULT_MODEL
    api_key: str | None = None
    base_url: str | None = None
    timeout_s: float = 60.0
    max_retries: int = 2


@dataclass(frozen=True)
class Backend:
    name: str
    description: str
    factory: Callable[[Options], Answerer]
    needs: str = ""  # the environment variable that configures it, "" when nothing is needed

    def is_configured(self) -> bool:
        return not self.needs or bool(os.environ.get(self.needs, "").strip())


def _extractive(_: Options) -> Answerer:
    from research_assistant.answer.extractive import ExtractiveAnswerer  # start-up time

    return ExtractiveAnswerer()


def _claude(opts: Options) -> Answerer:
    # Anthropic() constructs without a key and fails only at the first request, so decide
    # here. SEE: issue 4, "Pitfalls already found".
    key = opts.api_key or os.environ.get("ANTHROPIC_API_KEY", "")
    if not key.strip():
        raise LLMError(NO_KEY_MESSAGE, retryable=False)
    from research_assistant.answer.claude import ClaudeAnswerer  # start-up time: the SDK

    return ClaudeAnswerer(
        key,
        model=opts.model,
        base_url=opts.base_url,
        timeout_s=opts.timeout_s,
        max_retries=opts.max_retries,
    )


NO_SERVER_MESSAGE = (
    "No model server: set RA_OPENAI_BASE_URL to an OpenAI-compatible endpoint (Ollama: "
    "http://localhost:11434/v1, vLLM: http://localhost:8000/v1) or use --backend extractive."
)
NO_MODEL_MESSAGE = (
    "No model named for the model server: set RA_MODEL (or RA_OPENAI_MODEL) to a model it "
    "serves, e.g. RA_MODEL=qwen2.5:7b-instruct for Ollama (`ollama list` shows them)."
)


def _openai(opts: Options) -> Answerer:
    base_url = opts.base_url or os.environ.get("RA_OPENAI_BASE_URL", "").strip()
    if not base_url:
        raise LLMError(NO_SERVER_MESSAGE, retryable=False)
    if not opts.model.strip():
        raise LLMError(NO_MODEL_MESSAGE, retryable=False)
    from research_assistant.answer.openai import OpenAIAnswerer  # start-up time: the SDK

    return OpenAIAnswerer(
        base_url=base_url,
        model=opts.model,
        api_key=opts.api_key,
        timeout_s=opts.timeout_s,
        max_retries=opts.max_retries,
    )


ANSWERERS = MappingProxyType(
    {
        "extractive": Backend("extractive", "Offline extractive answerer", _extractive),
        "anthropic": Backend("anthropic", "Claude (Anthropic)", _claude, "ANTHROPIC_API_KEY"),
        "openai": Backend(
            "openai", "OpenAI-compatible server (local model)", _openai, "RA_OPENAI_BASE_URL"
        ),
    }
)


def configured() -> tuple[Backend, ...]:
    """The backends usable now (offline always; the others when their setting is present)."""
    return tuple(b for b in ANSWERERS.values() if b.is_configured())


def default_backend(choice: str = "") -> str:
    """``choice`` when given; else the first backend whose setting is present (a key that is set
    says it is wanted), else the first that needs nothing (the offline answerer)."""
    if choice:
        return choice
    keyed = [b.name for b in configured() if b.needs]
    return keyed[0] if keyed else next(b.name for b in ANSWERERS.values() if not b.needs)


def make_answerer(
    backend: str,
    *,
    model: str = DEFAULT_MODEL,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout_s: float = 60.0,
    max_retries: int = 2,
) -> Answerer:
    """The answerer for ``backend``; raises LLMError for an unknown backend or a missing key."""
    if backend not in ANSWERERS:
        raise LLMError(
            f"Unknown answer backend {backend!r}: use one of {', '.join(ANSWERERS)}.",
            retryable=False,
        )
    opts = Options(model, api_key, base_url, timeout_s, max_retries)
    return ANSWERERS[backend].factory(opts)
