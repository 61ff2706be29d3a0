"""The OpenAI-compatible answerer: the only module importing openai.

Every common local model server speaks the Chat Completions API (Ollama, vLLM, llama.cpp's
server, LM Studio), so one client reaches them all: ``RA_OPENAI_BASE_URL`` names the server,
``RA_MODEL`` (or ``RA_OPENAI_MODEL``) the model it serves. The registry imports this module only
when the backend is chosen (the SDK takes about a second to import).

The prompt is Claude's (prompts.SYSTEM_PROMPT, USER_PROMPT, REPAIR_PROMPT) with the passages
inline and numbered. What a small model does wrong with it is made checkable by ``tidy`` and
noted on the draft; an answer that cites nothing is sent back once with UNCITED_PROMPT. Nothing
here decides what is verified: the pipeline checks every citation against the paper it names.
It is also a ``Judge`` (answer.base): a second opinion on claims the checker leaves open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import openai

from research_assistant.answer import prompts
from research_assistant.answer.base import (
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
    refusal_draft,
    repair_prompt,
)
from research_assistant.answer.tidy import cites_nothing, tidy, without_thinking
from research_assistant.errors import LLMError

__all__ = ["DEFAULT_MAX_TOKENS", "NO_KEY", "OpenAIAnswerer"]

# A short paragraph of cited prose needs a few hundred tokens; 1024 leaves room for a long one.
DEFAULT_MAX_TOKENS = 1024
# Local servers ignore the key but the SDK sends one; a placeholder, never the user's
# OPENAI_API_KEY (the SDK would read it from the environment and send it to any base URL).
NO_KEY = "not-needed"
# Finish reasons that mean the model ended its answer (not cut by the token limit or the server).
_FINISHED = {"stop", "eos", "end_turn"}


class OpenAIAnswerer:
    """Answers through an OpenAI-compatible Chat Completions endpoint, streaming or not.

    Temperature 0 by default: small models stray from the citation rules more when sampling.
    Retries (429, 5xx, timeouts) and their backoff are the SDK's own.
    """

    backend = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float | None = 0.0,
        stream: bool = True,
    ) -> None:
        self.model = model
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.stream = stream
        self._client = openai.OpenAI(
            api_key=api_key or NO_KEY,
            base_url=base_url,
            timeout=timeout_s,
            max_retries=max_retries,
        )

    def answer(self, request: AnswerRequest, on_text: Callable[[str], None] | None = None) -> Draft:
        if not request.passages:
            return refusal_draft(self.model, self.backend)
        messages = [*self._opening(request), {"role": "user", "content": _question(request)}]
        draft = self._complete(messages, request, on_text)
        if draft.refused or not cites_nothing(draft.text, request.passages):
            return draft
        # An uncited answer can be checked against nothing: ask once more, then let the
        # pipeline refuse it if it still cites nothing.
        follow_up = prompts.UNCITED_PROMPT.format(allowed_labels=labels_block(request))
        messages += [
            {"role": "assistant", "content": draft.text},
            {"role": "user", "content": follow_up},
        ]
        second = self._complete(messages, request, None)
        note = "the answer cited no passage: asked once more to cite"
        still = (
            ("it still cites none: refused",)
            if cites_nothing(second.text, request.passages)
            else ()
        )
        notes = (*draft.notes, note, *second.notes, *(() if second.refused else still))
        return _with(second, notes, draft)

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
        messages = [
            *self._opening(request),
            {"role": "user", "content": _question(request)},
            {"role": "assistant", "content": draft.text.strip() or prompts.REFUSAL_TEXT},
            {"role": "user", "content": repair_text},
        ]
        return self._complete(messages, request, on_text)

    def judge(self, items: Sequence[JudgeItem]) -> tuple[Ruling, ...]:
        """The Judge protocol (check/judging.py): one call with every claim the offline checker
        left open and the passages it was checked against; the reply's rulings. A garbled reply
        settles nothing (parse_rulings drops what it cannot read)."""
        if not items:
            return ()
        options: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": prompts.JUDGE_SYSTEM},
                {"role": "user", "content": judge_prompt(items)},
            ],
            "max_tokens": min(4096, 256 + 160 * len(items)),
        }
        if self.temperature is not None:
            options["temperature"] = self.temperature
        try:
            completion = self._client.chat.completions.create(**options)
        except openai.APIStatusError as exc:
            raise _status_error(exc, self) from exc
        except openai.APITimeoutError as exc:
            raise LLMError(
                f"The model server at {self.base_url} did not judge within {self.timeout_s:g} s "
                f"(tried {self.max_retries + 1} times)",
                retryable=True,
            ) from exc
        except (openai.OpenAIError, ValueError) as exc:
            raise LLMError(
                f"Could not get a judgement from the model server at {self.base_url}: {exc}",
                retryable=True,
            ) from exc
        choice = completion.choices[0] if completion.choices else None
        text = without_thinking((choice.message.content or "") if choice else "")
        return parse_rulings(text, [item.id for item in items])

    def _opening(self, request: AnswerRequest) -> list[dict[str, Any]]:
        return [
            {"role": "system", "content": prompts.SYSTEM_PROMPT},
            *history_messages(request.history),
        ]

    def _complete(
        self,
        messages: list[dict[str, Any]],
        request: AnswerRequest,
        on_text: Callable[[str], None] | None,
    ) -> Draft:
        options: dict[str, Any] = {"model": self.model, "messages": messages}
        options["max_tokens"] = self.max_tokens
        if self.temperature is not None:
            options["temperature"] = self.temperature
        started = False  # a chunk arrived: a connection error after it is a dropped stream
        try:
            if self.stream:
                pieces: list[str] = []
                finish, model, usage = None, "", None
                for chunk in self._client.chat.completions.create(**options, stream=True):
                    started = True
                    model = chunk.model or model
                    usage = chunk.usage or usage
                    for choice in chunk.choices[:1]:
                        text = choice.delta.content if choice.delta else None
                        if text:
                            pieces.append(text)
                            if on_text is not None:
                                on_text(text)
                        finish = choice.finish_reason or finish
                raw = "".join(pieces)
            else:
                completion = self._client.chat.completions.create(**options)
                choice = completion.choices[0] if completion.choices else None
                raw = (choice.message.content or "") if choice else ""
                finish = choice.finish_reason if choice else None
                model, usage = completion.model, completion.usage
                if on_text is not None and raw:
                    on_text(raw)
        except openai.APIStatusError as exc:
            raise _status_error(exc, self) from exc
        except openai.APITimeoutError as exc:
            raise LLMError(
                f"The model server at {self.base_url} did not answer within {self.timeout_s:g} s "
                f"(tried {self.max_retries + 1} times). Try again, or raise RA_LLM_TIMEOUT_S "
                "(a local model on a CPU can take minutes).",
                retryable=True,
            ) from exc
        except openai.APIConnectionError as exc:
            if started:
                raise _dropped(self) from exc
            raise LLMError(
                f"Could not reach the model server at {self.base_url} (tried "
                f"{self.max_retries + 1} times): is it running? Check RA_OPENAI_BASE_URL.",
                retryable=True,
            ) from exc
        except (openai.OpenAIError, ValueError) as exc:
            # An `error` object inside a stream that began with 200, or a malformed SSE event.
            raise LLMError(
                f"The model server at {self.base_url} failed while answering: {exc}. Try again.",
                retryable=True,
            ) from exc
        finished = finish in _FINISHED
        tidied = tidy(raw, request.passages, finished=finished)
        notes = tidied.notes
        if not finished:
            why = (
                f"finish_reason={finish}" if finish else "no finish_reason: the stream ended early"
            )
            notes = (f"the answer was cut ({why})", *notes)
        refused = not tidied.text or is_refusal(tidied.text)
        return Draft(
            text=tidied.text if not refused else prompts.REFUSAL_TEXT,
            model=model or self.model,
            backend=self.backend,
            refused=refused,
            input_tokens=(usage.prompt_tokens or 0) if usage else 0,
            output_tokens=(usage.completion_tokens or 0) if usage else 0,
            notes=notes,
        )


def _question(request: AnswerRequest) -> str:
    passages = prompts.PASSAGE_SEPARATOR.join(
        prompts.NUMBERED_PASSAGE_TEMPLATE.format(
            number=i, label=p.label, title=p.title, page=p.page, text=p.text
        )
        for i, p in enumerate(request.passages, start=1)
    )
    question = prompts.USER_PROMPT.format(
        question=" ".join(request.question.split()), allowed_labels=labels_block(request)
    )
    return prompts.PASSAGES_HEADER + passages + "\n\n" + question


def _with(draft: Draft, notes: tuple[str, ...], first: Draft) -> Draft:
    """``draft`` with ``notes`` and the tokens of both requests."""
    return Draft(
        text=draft.text,
        model=draft.model,
        backend=draft.backend,
        refused=draft.refused,
        input_tokens=draft.input_tokens + first.input_tokens,
        output_tokens=draft.output_tokens + first.output_tokens,
        notes=tuple(dict.fromkeys(notes)),
    )


def _dropped(answerer: OpenAIAnswerer) -> LLMError:
    return LLMError(
        f"The connection to the model server at {answerer.base_url} dropped before the answer "
        "was complete. Try again.",
        retryable=True,
    )


def _status_error(exc: openai.APIStatusError, answerer: OpenAIAnswerer) -> LLMError:
    status = exc.status_code
    body = exc.body if isinstance(exc.body, dict) else {}
    detail = " ".join(str(body.get("message") or exc.message or "").split())[:300]
    tries = f"tried {answerer.max_retries + 1} times"
    where = f"the model server at {answerer.base_url}"
    retryable = status in {408, 409, 429} or status >= 500
    if status == 401:
        message = f"{where} rejected the API key (401): set RA_OPENAI_API_KEY."
    elif status == 403:
        message = f"The API key may not use model {answerer.model!r} (403): {detail}"
    elif status == 404:
        message = (
            f"{where} does not serve model {answerer.model!r} (404): set RA_MODEL to a model it "
            "serves (for Ollama: `ollama list`), and check that RA_OPENAI_BASE_URL ends in /v1."
        )
    elif status == 429:
        message = f"{where} is busy (429, {tries}). Try again in a minute."
    elif retryable:
        message = f"{where} failed with a server error ({status}, {tries}). Try again."
    elif status in {400, 413, 422}:
        message = (
            f"{where} refused the request ({status}): {detail}. If the prompt is too long for "
            "the model's context, lower --top-k or raise the server's context size."
        )
    else:
        message = f"{where} refused the request ({status}): {detail}"
    message = message[0].upper() + message[1:]
    message = message.rstrip(": .") + "."
    return LLMError(
        message + " Or use --backend extractive to answer offline.", retryable=retryable
    )
