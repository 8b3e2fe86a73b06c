"""Events read back from a session log that another version of tui may have written.

A newer version may add a field to an event: reading its log with the field ignored keeps the
session resumable (events are strict when built, so a typo in our own code still fails). A kind
of event this version has never heard of cannot be skipped safely (it may be what the
conversation turns on), so it is named, with what to do, instead of being called damage or, as
the last line, cut off as if torn.
"""

from __future__ import annotations

import json
import typing
from functools import lru_cache

from pydantic import BaseModel, ValidationError

from openhands_tui.sdk.facts.event import Event, parse_event


class UnknownEventKind(ValueError):
    """A well-formed event of a kind this version does not know: written by a newer tui."""

    def __init__(self, kind: object) -> None:
        super().__init__(f"an event of kind {str(kind)[:80]!r}, which this version of tui does not know")
        self.kind = kind


@lru_cache(maxsize=1)
def _models_by_kind() -> dict[str, type[BaseModel]]:
    union = typing.get_args(Event)[0]
    return {model.model_fields["kind"].default: model for model in typing.get_args(union)}


def parse_stored_event(payload: bytes) -> Event:
    """One stored event; fields a newer version added are dropped, an unknown kind raises
    UnknownEventKind, anything else malformed raises pydantic's ValidationError."""
    try:
        return parse_event(payload)
    except ValidationError:
        try:
            data = json.loads(payload)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise
        model = _models_by_kind().get(data.get("kind"))  # type: ignore[arg-type]
        if model is None:
            raise UnknownEventKind(data.get("kind")) from None
        known = {name: value for name, value in data.items() if name in model.model_fields}
        if len(known) == len(data):  # not a newer version's extra fields: report the real problem
            raise
        return model.model_validate(known)  # type: ignore[return-value]
