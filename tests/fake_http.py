"""The plumbing the fake model servers share: a threaded HTTP server on 127.0.0.1 that hands
each request to its fake, which answers from a queue of scripted replies and keeps every request
it saw (fake_claude.py speaks the Messages API, fake_openai.py Chat Completions)."""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Generic, TypeVar

R = TypeVar("R")


class ScriptedServer(Generic[R]):
    """``enqueue`` replies, read ``requests`` (parsed JSON bodies) and ``headers``."""

    path = ""  # appended to the address in ``base_url`` ("/v1" for OpenAI clients)

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.replies: deque[R] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.fake = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.path}"

    def enqueue(self, *replies: R) -> None:
        with self._lock:
            self.replies.extend(replies)

    def close(self) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedServer[R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> R | None:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            return self.replies.popleft() if self.replies else None


class QuietHandler(BaseHTTPRequestHandler):
    """A keep-alive handler that logs nothing and ignores clients that hang up."""

    protocol_version = "HTTP/1.1"
    server: Any

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep pytest output clean

    def handle(self) -> None:
        # the client may close a kept-alive connection (after an error, a timeout, a cut)
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            super().handle()
