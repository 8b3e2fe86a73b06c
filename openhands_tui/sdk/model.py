"""The base of the engine's pydantic models, and of the models strategy authors construct.

Building a model's validator costs 0.5-30 ms at class creation; with `defer_build` it is paid on
first use instead, so start-up (the TUI's first frame) only pays for the models it touches.

`StrictModel` is for what strategies build (LLM, Agent, AgentContext, Skill, Condenser, Tool...).
Pydantic's default silently drops an argument it does not know, so a strategy converted from
the OpenHands SDK would lose settings without a word (`Skill(trigger=...)` became always-on).
Here every argument either works or fails, at load, with one line that names the argument
and what to use instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_validator


class Model(BaseModel):
    model_config = ConfigDict(defer_build=True)


class UnsupportedArgument(TypeError):
    """A strategy passed an argument a model does not take. A TypeError, so pydantic lets it
    through unchanged and the strategy loader reports its one-line message."""


class StrictModel(Model):
    """A model whose unknown arguments are errors naming what to use instead."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    #: Arguments the OpenHands SDK takes that this model does not, each with what to do instead.
    sdk_instead: ClassVar[dict[str, str]] = {}
    #: SDK argument names that mean one of this model's fields (old name -> field).
    sdk_renamed: ClassVar[dict[str, str]] = {}

    @model_validator(mode="before")
    @classmethod
    def _known_arguments(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if cls.sdk_renamed and any(key in cls.sdk_renamed for key in data):
            data = {cls.sdk_renamed.get(key, key): value for key, value in data.items()}
        known = cls._argument_names()
        for key in data:
            if key not in known:
                raise UnsupportedArgument(cls.explain_argument(str(key)))
        return data

    @classmethod
    def _argument_names(cls) -> set[str]:
        names = set(cls.model_fields)
        for name, field in cls.model_fields.items():
            if field.alias:
                names.add(field.alias)
            if name.startswith("_"):
                names.discard(name)
        return names

    @classmethod
    def explain_argument(cls, key: str) -> str:
        """One line: `Skill(trigers=...)` is unknown, and what to use instead."""
        where = f"{cls.__name__}({key}=...)"
        hint = cls.sdk_instead.get(key)
        if hint is not None:
            return f"{where} is not supported by openhands_tui: {hint}"
        valid = sorted(n for n in cls._argument_names() if not n.startswith("_"))
        close = difflib.get_close_matches(key, valid, n=1)
        suggestion = f"did you mean {close[0]!r}? " if close else ""
        return f"{where}: no such argument; {suggestion}valid: {', '.join(valid)}"

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
        """`model_copy(update=...)` does not validate in pydantic; here the copy is validated
        like a new model, so an unknown key or a bad value is the same error as in the
        constructor (the SDK's examples build condensers' LLMs this way)."""
        if not update:
            return super().model_copy(deep=deep)
        renamed = {self.sdk_renamed.get(key, key): value for key, value in update.items()}
        known = self._argument_names()
        for key in renamed:
            if key not in known:
                raise UnsupportedArgument(self.explain_argument(str(key)))
        source = super().model_copy(deep=deep)
        data = {name: getattr(source, name) for name in self.model_fields_set}
        data.update(renamed)
        return type(self).model_validate(data)
