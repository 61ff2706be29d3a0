"""The Claude answerer: the only module importing anthropic.

The registry imports this module only when the anthropic backend is chosen: importing the SDK
takes about two seconds, which the offline path (CLI, benchmarks, the extractive answerer) must
not pay for a client it never builds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import anthropic
import httpx2  # the SDK's HTTP client; its read errors escape the SDK mid-stream

from research_assistant.answer import prompts
from research_assistant.answer.base import (
    DEFAULT_MODEL,
    AnswerRequest,
    Draft,
    JudgeItem,
    RepairNote,
    Ruling,
    history_messages,
    is_refusal,
    judge_prompt,
    labels_block,
    parse_rulings,
    passage_source,
    refusal_draft,
    repair_prompt,
)
from research_assistant.errors import LLMError

__all__ = ["DEFAULT_MAX_TOKENS", "ClaudeAnswerer"]

# A short paragraph of cited prose needs a few hundred tokens; 1024 leaves room for a long one.
DEFAULT_MAX_TOKENS = 1024


class ClaudeAnswerer:
    """Answers with Claude through the streaming Messages API.

    Each passage goes to Claude as a ``search_result`` block with citations enabled, so Claude
    grounds its prose in them. Its own citation events are not collected: every ``[Label]`` is
    checked by the verifier against the paper's text, which is the only verdict shown.
    Citations cannot be combined with structured JSON output (the API answers 400), so the
    answer is plain prose with ``[Label]`` markers. Retries and timeouts are the SDK's own.
    """

    backend = "anthropic"

    def __init__(
        self,
        api_key: str,
        *,
        model: str = DEFAULT_MODEL,
        base_url: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        use_citations: bool = True,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.use_citations = use_citations
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self._client = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )

    def answer(self, request: AnswerRequest, on_text: Callable[[str], None] | None = None) -> Draft:
        if not request.passages:
            return refusal_draft(self.model, self.backend)
        messages: list[dict[str, Any]] = [*history_messages(request.history)]
        messages.append({"role": "user", "content": self._question_content(request)})
        return self._stream(messages, on_text)

    def repair(
        self,
        request: AnswerRequest,
        draft: Draft,
        notes: Sequence[RepairNote],
        on_text: Callable[[str], None] | None = None,
    ) -> Draft:
        if not notes:
            return draft
        if not request.passages:
            return refusal_draft(self.model, self.backend)
        repair_text = repair_prompt(request, notes)
        messages: list[dict[str, Any]] = [
            *history_messages(request.history),
            {"role": "user", "content": self._question_content(request)},
            {"role": "assistant", "content": draft.text.strip() or prompts.REFUSAL_TEXT},
            {"role": "user", "content": repair_text},
        ]
        return self._stream(messages, on_text)

    def judge(self, items: Sequence[JudgeItem]) -> tuple[Ruling, ...]:
        """The Judge protocol: one call with every claim the offline checker left open and the
        passages it was checked against; the reply's rulings (check/judging.py combines them)."""
        if not items:
            return ()
        try:
            message = self._client.messages.create(
                model=self.model,
                max_tokens=min(4096, 256 + 160 * len(items)),
                system=prompts.JUDGE_SYSTEM,
                messages=[{"role": "user", "content": judge_prompt(items)}],
            )
        except anthropic.APIStatusError as exc:
            raise _status_error(exc, self) from exc
        except (anthropic.APITimeoutError, httpx2.TimeoutException) as exc:
            raise LLMError(
                f"Claude did not judge within {self.timeout_s:g} s "
                f"(tried {self.max_retries + 1} times)",
                retryable=True,
            ) from exc
        except (anthropic.AnthropicError, httpx2.HTTPError) as exc:
            raise _dropped() from exc
        text = "".join(block.text for block in message.content if block.type == "text")
        return parse_rulings(text, [item.id for item in items])

    def _question_content(self, request: AnswerRequest) -> list[dict[str, Any]]:
        question = prompts.USER_PROMPT.format(
            question=" ".join(request.question.split()), allowed_labels=labels_block(request)
        )
        if not self.use_citations:
            passages = prompts.PASSAGE_SEPARATOR.join(
                prompts.PASSAGE_TEMPLATE.format(
                    label=p.label, title=p.title, page=p.page, text=p.text
                )
                for p in request.passages
            )
            return [
                {"type": "text", "text": prompts.PASSAGES_HEADER + passages + "\n\n" + question}
            ]
        blocks: list[dict[str, Any]] = [
            {
                "type": "search_result",
                "source": passage_source(p),
                "title": p.label,
                "content": [{"type": "text", "text": p.text}],
                "citations": {"enabled": True},
            }
            for p in request.passages
        ]
        blocks.append({"type": "text", "text": question})
        return blocks

    def _stream(
        self,
        messages: list[dict[str, Any]],
        on_text: Callable[[str], None] | None,
    ) -> Draft:
        complete = False
        try:
            with self._client.messages.stream(
                model=self.model,
                max_tokens=self.max_tokens,
                system=prompts.SYSTEM_PROMPT,
                messages=messages,  # type: ignore[arg-type]
            ) as stream:
                for event in stream:
                    if event.type == "text":
                        if on_text is not None and event.text:
                            on_text(event.text)
                    elif event.type == "message_stop":
                        complete = True
                message = stream.get_final_message() if complete else None
        except anthropic.APIStatusError as exc:
            raise _status_error(exc, self) from exc
        except (anthropic.APITimeoutError, httpx2.TimeoutException) as exc:
            raise LLMError(
                f"Claude did not answer within {self.timeout_s:g} s "
                f"(tried {self.max_retries + 1} times). Try again, or raise RA_LLM_TIMEOUT_S.",
                retryable=True,
            ) from exc
        except anthropic.APIConnectionError as exc:
            raise LLMError(
                f"Could not reach Claude's API at {self._client.base_url} "
                f"(tried {self.max_retries + 1} times): check the network and try again.",
                retryable=True,
            ) from exc
        except (anthropic.AnthropicError, httpx2.HTTPError) as exc:
            # A connection dropped mid-stream surfaces as a raw httpx2 read error (e.g.
            # RemoteProtocolError: incomplete chunked read), which the SDK does not retry.
            # SEE: issue 4, "Pitfalls already found".
            raise _dropped() from exc
        if message is None:
            raise _dropped()
        text = "".join(block.text for block in message.content if block.type == "text").strip()
        return Draft(
            text=text,
            model=message.model or self.model,
            backend=self.backend,
            refused=is_refusal(text),
            input_tokens=message.usage.input_tokens or 0,
            output_tokens=message.usage.output_tokens or 0,
        )


def _dropped() -> LLMError:
    return LLMError(
        "The connection to Claude dropped before the answer was complete. Try again.",
        retryable=True,
    )


# Error types that mean "later may work", also when they arrive as an SSE `error` event in a
# stream that began with HTTP 200 (the SDK then reports status 200 with the body's type).
_RETRYABLE_TYPES = {"overloaded_error", "rate_limit_error", "api_error", "timeout_error"}


def _status_error(exc: anthropic.APIStatusError, answerer: ClaudeAnswerer) -> LLMError:
    status, kind = exc.status_code, exc.type or ""
    detail = exc.api_message or ""
    tries = f"tried {answerer.max_retries + 1} times"
    retryable = status in {408, 409, 429} or status >= 500 or kind in _RETRYABLE_TYPES
    if status == 401 or kind == "authentication_error":
        message = "Claude rejected the API key (401): check ANTHROPIC_API_KEY."
    elif status == 403 or kind == "permission_error":
        message = f"The API key may not use model {answerer.model!r} (403): {detail}"
    elif status == 404 or kind == "not_found_error":
        message = f"Claude model {answerer.model!r} was not found (404): set RA_MODEL."
    elif status == 413 or kind == "request_too_large":
        message = "The question and passages are too large for Claude (413): lower --top-k."
    elif status == 429 or kind == "rate_limit_error":
        message = f"Claude's rate limit was reached (429, {tries}). Try again in a minute."
    elif status == 529 or kind == "overloaded_error":
        message = f"Claude is overloaded (529, {tries}). Try again shortly."
    elif retryable:
        message = f"Claude's API failed with a server error ({status}, {tries}). Try again."
    else:
        message = f"Claude refused the request ({status} {kind}): {detail}"
    message = message.rstrip(": ")
    message += "" if message.endswith(".") else "."
    return LLMError(
        message + " Or use --backend extractive to answer offline.", retryable=retryable
    )
