"""A fake Anthropic Messages API on 127.0.0.1 for tests: scripted replies, recorded requests.

The real anthropic SDK is pointed at it with ``base_url`` (the SDK speaks httpx2, so respx and
httpx.MockTransport cannot intercept it; a real socket can). SEE: issue 4, "Pitfalls".

    def test_x(fake_claude):
        fake_claude.enqueue(answer("DLA clusters have D = 1.71 ", ("[Witten, 1981].", [cite(...)])))
        client = anthropic.Anthropic(api_key="test-key", base_url=fake_claude.base_url)
        ...
        assert fake_claude.requests[0]["model"] == ...

Replies are served in order, one per HTTP request (an SDK retry consumes the next one); with the
queue empty the server answers 400 with ``x-should-retry: false`` so a test fails fast and loud.
Streaming requests (``"stream": true``) get real SSE over chunked transfer encoding, so a cut
stream is seen by the client as an incomplete body, exactly like a dropped connection.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from tests.fake_http import QuietHandler, ScriptedServer

__all__ = ["FakeClaude", "Reply", "answer", "cite", "cut", "error", "fake_claude", "hang"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class Reply:
    """One scripted response. ``blocks`` are text blocks, each with its citation dicts."""

    blocks: tuple[tuple[str, tuple[dict[str, Any], ...]], ...] = ()
    status: int = 200
    error_type: str = ""  # with status 200 and streaming: an SSE `error` event mid-stream
    error_message: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    hang: bool = False  # answer nothing until the server closes: past any client timeout
    cut_after: int | None = None  # streaming: drop the connection after this many events
    stop_reason: str = "end_turn"
    input_tokens: int = 120
    output_tokens: int = 40
    piece_chars: int = 16  # size of each streamed text_delta

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.blocks)


def cite(
    cited_text: str, *, index: int = 0, source: str = "", title: str | None = None
) -> dict[str, Any]:
    """A search_result_location citation, as the API returns it."""
    return {
        "type": "search_result_location",
        "cited_text": cited_text,
        "search_result_index": index,
        "source": source,
        "title": title,
        "start_block_index": 0,
        "end_block_index": 1,
    }


def answer(*parts: str | tuple[str, Sequence[dict[str, Any]]], **options: Any) -> Reply:
    """A text answer; each part is a text block, a (text, citations) pair for a cited one."""
    blocks = tuple((p, ()) if isinstance(p, str) else (p[0], tuple(p[1])) for p in parts)
    return Reply(blocks=blocks, **options)


def error(status: int, error_type: str | None = None, message: str = "", **options: Any) -> Reply:
    """An HTTP error; ``retry-after-ms: 1`` makes the SDK's retry immediate (``retry-after: 0``
    alone falls back to its 0.5 s backoff)."""
    headers = (("retry-after", "0"), ("retry-after-ms", "1"))
    kind = error_type or _ERROR_TYPES.get(status, "api_error")
    return Reply(
        status=status, error_type=kind, error_message=message or kind, headers=headers, **options
    )


def hang(then: Reply | None = None) -> Reply:
    """Read the request, then answer nothing until the server closes: the client's timeout
    fires first, whatever its length, without the test racing a clock against it."""
    base = then or answer("A late answer.")
    return Reply(**{**base.__dict__, "hang": True})


def cut(*parts: str | tuple[str, Sequence[dict[str, Any]]], after_events: int = 4) -> Reply:
    """A streamed answer whose connection drops after ``after_events`` SSE events."""
    return answer(*parts, cut_after=after_events)


class FakeClaude(ScriptedServer[Reply]):
    """The server: ``enqueue`` replies, read ``requests`` (parsed JSON bodies) and ``headers``."""

    path = ""

    def __init__(self) -> None:
        super().__init__(_Handler)

    def __enter__(self) -> FakeClaude:
        return self


@pytest.fixture
def fake_claude() -> Iterator[FakeClaude]:
    with FakeClaude() as server:
        yield server


class _Handler(QuietHandler):
    def do_POST(self) -> None:  # noqa: N802 (the http.server name)
        fake: FakeClaude = self.server.fake
        body, headers = self.read_request()
        if self.path.split("?")[0] != "/v1/messages":
            self._json(404, _error_body("not_found_error", f"no route {self.path}"))
            return
        reply = fake._next(body, headers)
        try:
            if reply is None:
                self._json(
                    400,
                    _error_body("invalid_request_error", "fake_claude: queue empty"),
                    [("x-should-retry", "false")],
                )
                return
            if reply.hang:
                fake._closing.wait()
                return
            if reply.status != 200:
                body = _error_body(reply.error_type, reply.error_message)
                self._json(reply.status, body, reply.headers)
            elif body.get("stream"):
                self._stream(body, reply)
            else:
                self._json(200, _message(body, reply, complete=True))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout) before we answered

    def _json(self, status: int, payload: dict[str, Any], headers: Sequence[tuple[str, str]] = ()):
        self.send_json(status, payload, [("request-id", "req_fake"), *headers])

    def _stream(self, body: dict[str, Any], reply: Reply) -> None:
        self.start_stream()
        for sent, (name, data) in enumerate(_events(body, reply)):
            if reply.cut_after is not None and sent >= reply.cut_after:
                self.drop()
                return
            self.chunk(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        if reply.error_type:
            payload = json.dumps(_error_body(reply.error_type, reply.error_message))
            self.chunk(f"event: error\ndata: {payload}\n\n".encode())
        self.end_stream()


def _error_body(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def _message(body: dict[str, Any], reply: Reply, *, complete: bool) -> dict[str, Any]:
    content = []
    for text, citations in reply.blocks if complete else ():
        block: dict[str, Any] = {"type": "text", "text": text}
        if citations:
            block["citations"] = list(citations)
        content.append(block)
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-fake"),
        "content": content,
        "stop_reason": reply.stop_reason if complete else None,
        "stop_sequence": None,
        "usage": {
            "input_tokens": reply.input_tokens,
            "output_tokens": reply.output_tokens if complete else 1,
        },
    }


def _events(body: dict[str, Any], reply: Reply) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE events of a streamed message, in the order the Messages API sends them."""
    yield (
        "message_start",
        {"type": "message_start", "message": _message(body, reply, complete=False)},
    )
    yield "ping", {"type": "ping"}
    if reply.error_type:
        return  # the stream-level error event follows
    for index, (text, citations) in enumerate(reply.blocks):
        start: dict[str, Any] = {"type": "text", "text": ""}
        if citations:
            start["citations"] = []
        yield (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
        for citation in citations:
            delta = {"type": "citations_delta", "citation": citation}
            yield (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        for at in range(0, len(text), reply.piece_chars):
            delta = {"type": "text_delta", "text": text[at : at + reply.piece_chars]}
            yield (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": reply.output_tokens},
        },
    )
    yield "message_stop", {"type": "message_stop"}
