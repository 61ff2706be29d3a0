"""A scripted answerer shared by the tests: a fake with a history, not a mock (STYLE.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from research_assistant.answer.base import AnswerRequest, Draft, RepairNote

REFUSE = "REFUSE"  # a scripted text that comes back as a refusal


class ScriptedAnswerer:
    """Returns the scripted texts in order, the first for ``answer`` and the next ones for
    ``repair`` (with none left, a repair keeps the draft, so its failing citations show).
    ``history`` records (kind, request, notes); ``requests`` the requests alone."""

    backend = "scripted"
    model = "scripted-1"

    def __init__(self, *texts: str) -> None:
        self.queue = list(texts)
        self.history: list[tuple[str, AnswerRequest, Sequence[RepairNote]]] = []

    @property
    def requests(self) -> list[AnswerRequest]:
        return [request for _, request, _ in self.history]

    def _draft(self, text: str) -> Draft:
        return Draft(text=text, model=self.model, backend=self.backend, refused=text == REFUSE)

    def answer(self, request: AnswerRequest, on_text: Callable[[str], None] | None = None) -> Draft:
        self.history.append(("answer", request, ()))
        draft = self._draft(self.queue.pop(0))
        if on_text:
            for word in draft.text.split(" "):
                on_text(word + " ")
        return draft

    def repair(
        self,
        request: AnswerRequest,
        draft: Draft,
        notes: Sequence[RepairNote],
        on_text: Callable[[str], None] | None = None,
    ) -> Draft:
        self.history.append(("repair", request, notes))
        return self._draft(self.queue.pop(0)) if self.queue else draft
