"""Typed settings (environment variables with the RA_ prefix); the one place paths are resolved."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from research_assistant.answer import registry
from research_assistant.answer.base import DEFAULT_MODEL

__all__ = ["CHECK_TEXT_MAX_CHARS", "DEFAULT_MODEL", "Settings", "load_settings"]

# Restoring a backup (backup.py) unpacks a file anyone with the curator role may hand in. A
# backup holds PDFs (which gzip hardly shrinks), the DuckDB catalog and the BM25 index: the demo
# library's backup unpacks to 8x its size, mostly the catalog's empty blocks. An archive that
# unpacks to more than RESTORE_MAX_RATIO times its own size plus RESTORE_RATIO_SLACK_BYTES is a
# bomb (300 MiB of zeros is 0.3 MiB gzipped), not a library; RESTORE_MAX_BYTES and
# RESTORE_MAX_MEMBERS bound even an honest-looking archive (a 30,000-paper library has about
# 30,000 members). Member names longer than RESTORE_MAX_NAME_CHARS are refused: the library's
# own names are under 200 characters, and long nested names are how CVE-2025-4517 escapes.
RESTORE_MAX_BYTES = 64 * 2**30
RESTORE_MAX_MEMBERS = 200_000
RESTORE_MAX_RATIO = 20
RESTORE_RATIO_SLACK_BYTES = 64 * 2**20
RESTORE_MAX_NAME_CHARS = 400
# Check text (pipeline.check_text) reads every citation of a text against the library, in the
# process that serves the whole lab. 200,000 characters is a long thesis chapter or a review
# (about 30,000 words; a journal article is 30,000-60,000): with a citation in every sentence
# (1,190 citations) it takes 19 s on the 2-core test machine, 600,000 characters take 51 s.
# Longer texts are refused with this number in the message (check them a chapter at a time),
# and the app checks in a background job, CHECKS_AT_ONCE at a time (web/jobs.py).
CHECK_TEXT_MAX_CHARS = 200_000


class Settings(BaseSettings):
    # an empty variable is an unset one: RA_LIBRARY_DIR="" means ./library, never the cwd
    model_config = SettingsConfigDict(
        env_prefix="RA_", extra="ignore", env_ignore_empty=True, frozen=True
    )

    library_dir: Path = Field(Path("library"), description="The library folder (RA_LIBRARY_DIR).")
    backend: str = Field(
        "",
        description=f"The answer backend (RA_BACKEND): one of {', '.join(registry.ANSWERERS)}; "
        "empty: the first whose key is set, else the offline one (registry.default_backend).",
    )
    model: str = Field(DEFAULT_MODEL, description="Claude model id (RA_MODEL).")
    top_k: int = Field(8, ge=1, le=50, description="Chunks retrieved per question.")
    anthropic_base_url: str | None = Field(
        None, description="Messages API base URL (tests point it at a local fake server)."
    )
    # The OpenAI-compatible backend (answer/openai.py): Ollama, vLLM, llama.cpp, LM Studio
    openai_base_url: str | None = Field(
        None, description="Chat Completions base URL, e.g. http://localhost:11434/v1 (Ollama)."
    )
    openai_api_key: str | None = Field(
        None, description="Key for the OpenAI-compatible server; local servers need none."
    )
    openai_model: str = Field(
        "", description="Model for the OpenAI-compatible server; empty: RA_MODEL when it is set."
    )
    judge_answers: bool = Field(
        False,
        description="RA_JUDGE_ANSWERS: a model backend that judges also gives its second opinion "
        "on every citation of its own answers (one more call per answer), as verify --judge-every.",
    )
    llm_timeout_s: float = Field(60.0, description="Timeout of one Claude request, seconds.")
    llm_max_retries: int = Field(2, description="Retries on 429/529/5xx (the SDK's backoff).")
    max_upload_mb: int = Field(
        100, ge=1, description="Largest single PDF or .bib accepted, MiB (RA_MAX_UPLOAD_MB)."
    )
    max_batch_mb: int = Field(
        500, ge=1, description="Largest upload, all files of one submission together, MiB."
    )
    # Logins (auth.py, docs/deploy.md)
    auth: str = Field(
        "",
        description="'oidc', 'local' or 'none' (RA_AUTH); empty: oidc when .streamlit/secrets.toml "
        "has an [auth] section, else local when RA_AUTH_FILE is set, else none (no login).",
    )
    auth_file: Path | None = Field(
        None, description="Local accounts: a TOML file of bcrypt hashes and roles (RA_AUTH_FILE)."
    )
    curators: str = Field(
        "", description="Comma list of user names or e-mails with the curator role (RA_CURATORS)."
    )
    session_secret: str = Field(
        "",
        description="Signs the login cookie of local accounts (RA_SESSION_SECRET); empty: a "
        "random secret made once per library and kept in its catalog.",
    )
    session_hours: float = Field(
        12.0, gt=0, description="Hours a local login lasts in a browser (reloads, new tabs)."
    )

    def resolved_library(self) -> Path:
        return self.library_dir.expanduser().resolve()

    def curator_ids(self) -> frozenset[str]:
        return frozenset(c.strip().casefold() for c in self.curators.split(",") if c.strip())

    def default_backend(self) -> str:
        return registry.default_backend(self.backend)

    def model_for(self, backend: str) -> str:
        """The model ``backend`` answers with: RA_MODEL, Claude's default when it is unset; for
        the OpenAI-compatible server RA_OPENAI_MODEL, else RA_MODEL if set, else "" (no default
        fits every server)."""
        if backend != "openai":
            return self.model
        return self.openai_model or (self.model if "model" in self.model_fields_set else "")

    def answerer_options(self, backend: str) -> registry.Options:
        """What ``registry.make_answerer`` needs for ``backend`` from the settings."""
        openai = backend == "openai"
        return registry.Options(
            model=self.model_for(backend),
            api_key=self.openai_api_key if openai else None,
            base_url=self.openai_base_url if openai else self.anthropic_base_url,
            timeout_s=self.llm_timeout_s,
            max_retries=self.llm_max_retries,
        )


def load_settings(**overrides: object) -> Settings:
    """The settings as the environment sets them now (and ``overrides`` not None)."""
    given = {k: v for k, v in overrides.items() if v is not None}
    if given:
        return Settings(**given)  # type: ignore[arg-type]
    return _from_environment(tuple(sorted(os.environ.items())))


# Every ask reads the settings: pydantic-settings builds them in about 6 ms (a tenth of an
# offline ask at 10,000 papers). They are kept per environment, so a changed variable still
# takes effect at the next call; a frozen model, so no caller changes the shared copy.
@functools.lru_cache(maxsize=4)
def _from_environment(_environment: tuple[tuple[str, str], ...]) -> Settings:
    return Settings()  # type: ignore[call-arg]
