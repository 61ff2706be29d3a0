"""Typed settings (environment variables with the RA_ prefix); the one place paths are resolved."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

# The newest Sonnet in anthropic 2.12's model list; RA_MODEL overrides it.
DEFAULT_MODEL = "claude-sonnet-5-5"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RA_", extra="ignore")

    library_dir: Path = Field(Path("library"), description="The library folder (RA_LIBRARY_DIR).")
    backend: str = Field(
        "", description="'anthropic' or 'extractive'; empty: anthropic when a key is set."
    )
    model: str = Field(DEFAULT_MODEL, description="Claude model id (RA_MODEL).")
    top_k: int = Field(8, ge=1, le=50, description="Chunks retrieved per question.")
    anthropic_base_url: str | None = Field(
        None, description="Messages API base URL (tests point it at a local fake server)."
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

    def resolved_library(self) -> Path:
        return self.library_dir.expanduser().resolve()

    def curator_ids(self) -> frozenset[str]:
        return frozenset(c.strip().casefold() for c in self.curators.split(",") if c.strip())

    def default_backend(self) -> str:
        if self.backend:
            return self.backend
        return "anthropic" if os.environ.get("ANTHROPIC_API_KEY") else "extractive"


def load_settings(**overrides: object) -> Settings:
    return Settings(**{k: v for k, v in overrides.items() if v is not None})  # type: ignore[arg-type]
