"""A fake OpenAI-compatible Chat Completions server on 127.0.0.1: scripted replies, recorded
requests. The real openai SDK is pointed at it with ``base_url`` (as at Ollama or vLLM).

    def test_x(fake_openai):
        fake_openai.enqueue(reply("DLA clusters have D = 1.71 [Witten and Sander, 1981]."))
        answerer = OpenAIAnswerer(base_url=fake_openai.base_url, model="llama-test")
        ...
        assert fake_openai.requests[0]["messages"][0]["role"] == "system"

Replies are served in order, one per HTTP request (an SDK retry consumes the next one); with the
queue empty the server answers 400 with ``x-should-retry: false`` so a test fails fast and loud.
Streaming requests (``"stream": true``) get real SSE (``data: {chunk}`` lines, then
``data: [DONE]``) over chunked transfer encoding, so a cut stream is seen by the client as an
incomplete body, exactly like a dropped connection.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from tests.fake_http import QuietHandler, ScriptedServer

__all__ = ["FakeOpenAI", "Reply", "cut", "error", "fake_openai", "hang", "reply"]


@dataclass(frozen=True)
class Reply:
    """One scripted response."""

    text: str = ""
    status: int = 200
    error_message: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    hang: bool = False  # answer nothing until the server closes: past any client timeout
    cut_after: int | None = None  # streaming: drop the connection after this many chunks
    # "stop", "length" (the token limit), or None: the stream ends cleanly without a finish
    # reason and without [DONE] (a server that gave up)
    finish_reason: str | None = "stop"
    prompt_tokens: int = 150
    completion_tokens: int = 30
    piece_chars: int = 12  # size of each streamed content delta


def reply(text: str, **options: Any) -> Reply:
    return Reply(text=text, **options)


def error(status: int, message: str = "", **options: Any) -> Reply:
    """An HTTP error; ``retry-after-ms: 1`` makes the SDK's retry immediate."""
    headers = (("retry-after", "0"), ("retry-after-ms", "1"))
    return Reply(status=status, error_message=message or f"fake error {status}", headers=headers,
                 **options)  # fmt: skip


def hang(then: Reply | None = None) -> Reply:
    """Read the request, then answer nothing until the server closes: the client's timeout fires
    first, whatever its length, without the test racing a clock against it."""
    return replace(then or reply("A late answer."), hang=True)


def cut(text: str, after_chunks: int = 3) -> Reply:
    """A streamed answer whose connection drops after ``after_chunks`` SSE chunks."""
    return Reply(text=text, cut_after=after_chunks)


class FakeOpenAI(ScriptedServer[Reply]):
    """The server: ``enqueue`` replies, read ``requests`` (parsed JSON bodies) and ``headers``."""

    path = "/v1"

    def __init__(self) -> None:
        super().__init__(_Handler)

    def __enter__(self) -> FakeOpenAI:
        return self


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


class _Handler(QuietHandler):
    def do_POST(self) -> None:  # noqa: N802 (the http.server name)
        fake: FakeOpenAI = self.server.fake
        body, headers = self.read_request()
        if self.path.split("?")[0] != "/v1/chat/completions":
            self.send_json(404, _error_body(f"no route {self.path}"))
            return
        scripted = fake._next(body, headers)
        try:
            if scripted is None:
                self.send_json(400, _error_body("fake_openai: queue empty"),
                           [("x-should-retry", "false")])  # fmt: skip
            elif scripted.hang:
                fake._closing.wait()
            elif scripted.status != 200:
                self.send_json(
                    scripted.status, _error_body(scripted.error_message), scripted.headers
                )
            elif body.get("stream"):
                self._stream(body, scripted)
            else:
                self.send_json(200, _completion(body, scripted))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout) before we answered

    def _stream(self, body: dict[str, Any], scripted: Reply) -> None:
        self.start_stream()
        for sent, chunk in enumerate(_chunks(body, scripted)):
            if scripted.cut_after is not None and sent >= scripted.cut_after:
                self.drop()
                return
            self.chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        if scripted.finish_reason is not None:
            self.chunk(b"data: [DONE]\n\n")
        self.end_stream()


def _error_body(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "fake_error", "code": None}}


def _completion(body: dict[str, Any], scripted: Reply) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake-model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": scripted.text},
                "finish_reason": scripted.finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": scripted.prompt_tokens,
            "completion_tokens": scripted.completion_tokens,
            "total_tokens": scripted.prompt_tokens + scripted.completion_tokens,
        },
    }


def _chunk_of(body: dict[str, Any], delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": body.get("model", "fake-model"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _chunks(body: dict[str, Any], scripted: Reply) -> Iterator[dict[str, Any]]:
    """The chunks of a streamed completion, as vLLM and Ollama send them."""
    yield _chunk_of(body, {"role": "assistant", "content": ""}, None)
    text, step = scripted.text, scripted.piece_chars
    for at in range(0, len(text), step):
        yield _chunk_of(body, {"content": text[at : at + step]}, None)
    if scripted.finish_reason is not None:
        yield _chunk_of(body, {}, scripted.finish_reason)
