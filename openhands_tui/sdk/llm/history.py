"""A conversation's messages as the model is sent them, and what each request can reuse from
the one before.

A long run sends its whole history with every call, so whatever a request does per message
makes a step cost more the longer the run. At 2,000 steps (4,000 messages) here: litellm
copied every message to drop its empty fields (~4 ms), scanned them all for Gemini's thought
signatures (~3 ms), and encoded the whole request as JSON (~13 ms); we scanned them for
thinking blocks (~0.4 ms).

A `History` promises that a message in it is never changed in place: to change one, its owner
(`run/messages.py`) puts a new dict in its place. So a message that is the same object at the
same position as in the last request is the same message, and what was made of it then still
holds: litellm's cleaned copy of it, that copy's JSON, whether it has thinking blocks or a
signature. Only the messages new to a request are looked at; the rest cost one identity
comparison each, at C speed (~0.1 ms for 4,000 messages).

What litellm makes of a message is reused only for providers it sends through its OpenAI chat
transform (`REUSING_PROVIDERS`): we have read what that path does to the messages, and all of
it (litellm's copy dropping empty fields, its normalising of content parts in place) gives the
same result each time it is done again. Any other provider, and any other list of messages (a
caller's own, which it may change in place), gets none of this: every request computes
everything, as before.
"""

from __future__ import annotations

import json
import operator
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["REUSING_PROVIDERS", "History", "HistoryMemo", "memo_of", "sending", "sent_memo"]

#: litellm's providers whose requests reuse what litellm made of a History's messages.
REUSING_PROVIDERS = frozenset({"openai"})

#: The memo of the History whose request litellm is building, and where the request goes
#: (set by `llm/client.py` around the call; read where litellm is hooked, `llm/litellm_import.py`).
_SENDING: ContextVar[tuple[HistoryMemo, object] | None] = ContextVar("oh_tui_sending_history", default=None)


class History(list[dict[str, Any]]):
    """Messages that are never changed in place once added (put a new dict in a message's
    place to change it); requests built from it reuse what they computed for the messages they
    share with the last one. A copy or a slice is a plain list, without the promise."""

    memo: HistoryMemo

    def __init__(self, messages: Iterable[dict[str, Any]] = ()) -> None:
        super().__init__(messages)
        self.memo = HistoryMemo()

    def __reduce__(self) -> tuple[type[list[dict[str, Any]]], tuple[list[dict[str, Any]]]]:
        return list, (list(self),)  # a copy (copy, deepcopy, pickle) is a plain list: see above


def memo_of(messages: list[Any]) -> HistoryMemo | None:
    """The memo of `messages` if it is a History, else None."""
    return messages.memo if isinstance(messages, History) else None


@contextmanager
def sending(messages: list[Any], provider: str, destination: object) -> Iterator[None]:
    """Mark a request of `messages` through litellm `provider` to `destination` (the model and
    endpoint) as being built, for `sent_memo()`: if `messages` is a History and the provider
    one of `REUSING_PROVIDERS`."""
    memo = memo_of(messages)
    if memo is None or provider not in REUSING_PROVIDERS:
        yield
        return
    token = _SENDING.set((memo, destination))
    try:
        yield
    finally:
        _SENDING.reset(token)


def sent_memo() -> tuple[HistoryMemo, object] | None:
    """The memo of the History whose request is being built in this context, and where it goes."""
    return _SENDING.get()


class _ByPosition:
    """One value per message, computed once per message: kept while the same object is at the
    same position, computed again where another one is."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.values: list[Any] = []

    def update(self, messages: list[Any], compute: Callable[[Any], Any]) -> list[Any]:
        """`values` brought up to `messages` (computing a value for each message not seen where it is)."""
        if all(map(operator.is_, messages, self.messages)):  # the usual case: messages were added
            same: list[bool] = [True] * min(len(messages), len(self.messages))
        else:
            same = list(map(operator.is_, messages, self.messages))
        values = self.values
        del values[len(messages) :]
        values.extend([None] * (len(messages) - len(values)))
        for index in _changed(same, len(messages)):
            values[index] = compute(messages[index])
        self.messages = list(messages)
        return values

    def forget(self) -> None:
        self.messages, self.values = [], []


def _changed(same: list[bool], length: int) -> Iterator[int]:
    """The positions where `same` is False, then those past its end up to `length`."""
    index = -1
    while True:
        try:
            index = same.index(False, index + 1)
        except ValueError:
            break
        yield index
    yield from range(len(same), length)


def _thinks(message: Any) -> bool:
    return "thinking_blocks" in message


class HistoryMemo:
    """What requests of one History computed per message (thread-safe: litellm prepares a
    request in a worker thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thinking = _ByPosition()
        self._checks: dict[str, _ByPosition] = {}
        #: What litellm made of the messages for the last request, and its JSON: they hold for
        #: one destination (a new one starts them over).
        self._destination: object = None
        self._validated = _ByPosition()
        self._json = _ByPosition()

    def any_thinking(self, messages: list[Any]) -> bool:
        """Whether a message carries thinking blocks."""
        with self._lock:
            return any(self._thinking.update(messages, _thinks))

    def any_of(self, name: str, check: Callable[[Any], bool], messages: list[Any]) -> bool:
        """Whether `check` holds for any message; `name` keeps each check's answers apart."""
        with self._lock:
            return any(self._checks.setdefault(name, _ByPosition()).update(messages, check))

    def validated(
        self, messages: list[Any], validate: Callable[[list[Any]], list[Any]], destination: object
    ) -> list[Any]:
        """`validate(messages)` (litellm's per-message validation and clean copy), done once per
        message: a message where it was gets the copy made of it before."""
        with self._lock:
            self._use(destination)
            return list(self._validated.update(messages, lambda message: validate([message])[0]))

    def json_array(self, messages: list[Any], destination: object) -> str | None:
        """`json.dumps(messages)`, joined from each message's JSON of earlier requests where it
        is the same message. None where encoding the list whole is cheaper: when not one of the
        last request's messages is where it was (they were copied anew), and from then on until
        one is again."""
        with self._lock:
            self._use(destination)
            encoded = self._json
            if encoded.messages and not any(map(operator.is_, messages, encoded.messages)):
                encoded.forget()
                encoded.messages = list(messages)  # seen, not encoded: the next request tells
                return None
            if not encoded.values:
                encoded.forget()  # the first request, or one reusing those of a request encoded whole
            return "[" + ", ".join(encoded.update(messages, json.dumps)) + "]"

    def _use(self, destination: object) -> None:
        if destination != self._destination:
            self._validated.forget()
            self._json.forget()
            self._destination = destination
