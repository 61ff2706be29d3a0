"""The one exception root of the package.

ResearchAssistantError
├── SettingsError          a setting or path is invalid
├── BibtexError            a .bib file cannot be read at all (bad entries are reported, not raised)
├── PdfError               a PDF cannot be used; subclasses say why
│   ├── NotAPdfError       zero bytes, wrong file type, or not a PDF at all
│   ├── CorruptPdfError    the file claims to be a PDF but cannot be opened
│   ├── EncryptedPdfError  a password is needed to read the text
│   └── ScannedPdfError    no text layer (a scan): OCR it first
├── LibraryError           the library folder or an operation on it failed
│   └── UploadError        an uploaded file was refused (size, type, name, duplicate)
├── SearchIndexError            the retrieval index cannot be built or loaded
├── StoreError             the DuckDB catalog or log failed
├── LLMError               the answer model failed (``retryable`` says whether to try later)
└── AuthError              login failed
    └── PermissionDeniedError  a member tried what only curators may do (roles.require_curator)
"""

from __future__ import annotations


class ResearchAssistantError(Exception):
    """Root of every error this package raises on purpose; the message is for the scientist."""


class SettingsError(ResearchAssistantError): ...


class BibtexError(ResearchAssistantError): ...


class PdfError(ResearchAssistantError): ...


class NotAPdfError(PdfError): ...


class CorruptPdfError(PdfError): ...


class EncryptedPdfError(PdfError): ...


class ScannedPdfError(PdfError): ...


class LibraryError(ResearchAssistantError): ...


class UploadError(LibraryError): ...


class SearchIndexError(ResearchAssistantError): ...


class StoreError(ResearchAssistantError): ...


class AuthError(ResearchAssistantError): ...


class PermissionDeniedError(AuthError): ...


class LLMError(ResearchAssistantError):
    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
