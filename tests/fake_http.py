"""The plumbing the fake model servers share: a threaded HTTP server on 127.0.0.1 that hands
each request to its fake, which answers from a queue of scripted replies and keeps every request
it saw (fake_claude.py speaks the Messages API, fake_openai.py Chat Completions)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections import deque
from collections.abc import Sequence
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

    def read_request(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The request's JSON body and its headers (names lower-cased)."""
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        return body, {k.lower(): v for k, v in self.headers.items()}

    def send_json(
        self, status: int, payload: dict[str, Any], headers: Sequence[tuple[str, str]] = ()
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self) -> None:
        """Server-sent events, chunked: ``chunk`` each event, then ``end_stream`` or ``drop``."""
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.send_header("cache-control", "no-cache")
        self.end_headers()

    def chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def drop(self) -> None:
        """Close the connection mid-stream (no final chunk): a dropped stream."""
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)
