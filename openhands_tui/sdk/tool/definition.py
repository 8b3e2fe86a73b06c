"""What a tool is: an Action schema (the arguments the model fills in), an Observation (what
comes back), and how one turns into the other.

Two ways to write one, both first-class:
- this project's: a subclass sets `name`, `description`, `action_type` and implements
  `async run(action)` (the built-in tools do this);
- the OpenHands SDK's: a subclass `GrepTool(ToolDefinition[GrepAction, GrepObservation])`
  whose `create(conv_state, **params)` returns instances built with
  `cls(description=..., action_type=..., observation_type=..., executor=GrepExecutor())`;
  the executor's synchronous `__call__(action, conversation)` runs in a worker thread so a
  slow tool never blocks the other agents.
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC
from collections.abc import Sequence
from contextvars import ContextVar
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from openhands_tui.sdk.facts.attachment import AttachedImage
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import OtherSubject, Subject
from openhands_tui.sdk.llm.message import ImageContent, TextContent, content_text
from openhands_tui.sdk.model import Model, StrictModel, UnsupportedArgument
from openhands_tui.sdk.sandbox import SandboxDenial, SandboxGrant
from openhands_tui.sdk.tool.context import ToolContext
from openhands_tui.sdk.tool.schema import parameters_schema


class Action(Model):
    """Base of every tool's arguments. Field descriptions are written for the model to read."""

    model_config = ConfigDict(extra="forbid")


class RiskyAction(Action):
    """Arguments of a tool that can change things: the model also states its risk estimate."""

    security_risk: Risk | None = Field(
        default=None,
        description=(
            "Your estimate of this action's risk. LOW: reads only. MEDIUM: changes files in the "
            "project or runs its scripts/tests. HIGH: destructive, privileged, touches secrets, "
            "reaches outside the project, or downloads and runs code. The user's safety rules "
            "make the final call; your estimate can only raise it."
        ),
    )


class Observation(Model):
    """A tool's result. `text` is what the model sees; other fields are kept for UIs.

    SDK-style observations work too: give `content=` (a string or TextContent parts), or
    override the `to_llm_content` property; the text the model sees is taken from it."""

    text: str = ""
    is_error: bool = False
    #: Set when the sandbox stopped the action (no network, a read-only path): the engine may
    #: offer the user to run it again with what it lacked (`ToolDefinition.run_granted`).
    sandbox_denial: SandboxDenial | None = None
    content: str | list[TextContent | ImageContent] = Field(default="", exclude=True, repr=False)
    #: Images of the result kept for the model (set by the engine from `content`'s images, once
    #: stored in the session's attachments: `sdk/run/result_images.py`).
    images: list[AttachedImage] = Field(default_factory=list, exclude=True, repr=False)

    @model_validator(mode="after")
    def _settle_text(self) -> Observation:
        if not self.text:
            if type(self).to_llm_content is not Observation.to_llm_content:
                self.text = content_text(list(self.to_llm_content))
            elif self.content:
                self.text = content_text(self.content)
        return self

    @property
    def to_llm_content(self) -> Sequence[TextContent | ImageContent]:
        """The SDK's view of the result: the text as one TextContent."""
        return [TextContent(text=self.text)]

    @classmethod
    def from_text(cls, text: str, is_error: bool = False, **fields: Any) -> Observation:
        """The SDK's constructor: an observation of `text`."""
        return cls(text=text, is_error=is_error, **fields)

    def data(self) -> dict[str, Any]:
        """Structured details for the event log (everything except the text itself)."""
        return self.model_dump(exclude={"text", "is_error", "content", "images"}, mode="json")


class ToolAnnotations(StrictModel):
    """The SDK's (and MCP's) hints about a tool. `readOnlyHint=True` rates calls as reads."""

    title: str | None = None
    readOnlyHint: bool = False
    destructiveHint: bool = True
    idempotentHint: bool = False
    openWorldHint: bool = True


ActionT = TypeVar("ActionT", bound=Action)
ObservationT = TypeVar("ObservationT", bound=Observation)


class ToolExecutor(ABC, Generic[ActionT, ObservationT]):
    """The SDK's executor: `__call__(action, conversation=None)` does the work, synchronously
    (it runs in a worker thread). `conversation.state.workspace.working_dir` is the workspace."""

    def __call__(self, action: ActionT, conversation: Any = None) -> ObservationT:
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__(action, conversation)")

    def close(self) -> None:
        """Release what the executor holds when its agent's run ends."""


#: The id of the tool call being run, for tools that report it (e.g. delegation events).
CURRENT_TOOL_CALL_ID: ContextVar[str] = ContextVar("current_tool_call_id", default="")
#: The agent whose tool is running (set with CURRENT_TOOL_CALL_ID): who an MCP server's
#: progress, questions and model requests during the call belong to.
CURRENT_AGENT_ID: ContextVar[str] = ContextVar("current_agent_id", default="root")

_SDK_INIT = {"name", "description", "action_type", "observation_type", "executor", "annotations", "meta"}


class ToolDefinition(ABC, Generic[ActionT]):
    """One function the model can call. See the module docstring for the two ways to write one.

    `ToolDefinition[A]` and the SDK's `ToolDefinition[A, O]` are both accepted."""

    name: str = ""
    description: str = ""
    action_type: type[Action]
    observation_type: type[Observation] | None = None
    executor: Any = None
    annotations: ToolAnnotations | None = None
    #: The SDK's conversation state this tool was created for (what its executor sees).
    conv_state: Any = None
    #: Calls of a concurrent tool in one model response may run at the same time.
    concurrent: ClassVar[bool] = False
    #: Whatever its arguments, a call changes nothing outside the agent (think, finish, a skill
    #: read): offered whole in plan mode (see `plan_schema`).
    reads_only: ClassVar[bool] = False

    def __class_getitem__(cls, params: Any) -> Any:
        if isinstance(params, tuple) and len(params) == 2:
            params = params[0]  # the SDK's [Action, Observation]: the observation type is not needed
        return super().__class_getitem__(params)  # type: ignore[misc]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("name"):
            cls.name = _snake(cls.__name__).removesuffix("_tool")  # GrepTool -> "grep", as the SDK names it

    def __init__(self, **fields: Any) -> None:
        """The SDK's constructor: `cls(description=..., action_type=..., executor=...)`."""
        unknown = sorted(set(fields) - _SDK_INIT)
        if unknown:
            raise UnsupportedArgument(
                f"{type(self).__name__}({unknown[0]}=...): no such argument; valid: {', '.join(sorted(_SDK_INIT))}"
            )
        for key, value in fields.items():
            if key == "meta":
                continue
            if key == "annotations" and isinstance(value, dict):
                value = ToolAnnotations(**value)
            setattr(self, key, value)
        if getattr(self, "action_type", None) is None or not issubclass(self.action_type, BaseModel):
            raise UnsupportedArgument(f"{type(self).__name__}: action_type must be an Action subclass")

    @classmethod
    def create(cls, conv_state: Any = None, **params: Any) -> Sequence[ToolDefinition[Any]]:
        """The SDK's factory: return the tools to register. Subclasses written in the SDK's
        style implement it; `register_tool(name, TheClass)` calls it for each agent."""
        raise NotImplementedError(f"{cls.__name__} does not implement create(conv_state, **params)")

    def subject(self, action: ActionT) -> Subject:
        """What this call touches: the risk analyzer, permission rules, confirmations and UIs
        read this, never the tool's name. Tools that run commands, change files, call servers
        or delegate say so here; the default is "other", able to change things unless the
        tool's annotations say it only reads."""
        read_only = self.annotations is not None and self.annotations.readOnlyHint
        return OtherSubject(tool=self.name, changes=not read_only)

    def plan_schema(self) -> dict[str, Any] | None:
        """What the model is offered while its agent is read-only (plan mode): the whole schema
        for a tool that only reads (`reads_only`, or annotations with `readOnlyHint`), None to
        hide it. A tool with read-only calls among others narrows its schema to those (the file
        editor offers `view`). Only an offer: the engine refuses a call that could change
        something whatever was offered (`sdk/run/plan_mode.py`)."""
        read_only = self.reads_only or (self.annotations is not None and self.annotations.readOnlyHint)
        return self.schema if read_only else None

    def summarize(self, action: ActionT) -> str:
        """One line that tells a human what the call does."""
        return f"{self.name} {action.model_dump_json(exclude_none=True)}"

    async def run(self, action: ActionT) -> Observation:
        """Run the call. The default hands it to the SDK-style `executor` in a worker thread."""
        if self.executor is None:
            raise NotImplementedError(f"tool {self.name!r} has neither run() nor an executor")
        result = await asyncio.to_thread(self.executor, action, _ConversationView(self))
        return _as_observation(result, self.observation_type)

    async def run_granted(self, action: ActionT, grant: SandboxGrant) -> Observation:
        """Run with more than the sandbox normally allows, because the user (or a user rule)
        agreed. Tools that run nothing in a sandbox just run."""
        return await self.run(action)

    async def close(self) -> None:
        """Release what the tool holds (processes, files) when its agent's run ends."""
        close = getattr(self.executor, "close", None)
        if callable(close):
            await asyncio.to_thread(close)

    @cached_property
    def schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": parameters_schema(self.action_type),
            },
        }


class _ConversationView:
    """What an SDK executor's `conversation` argument offers: `.state.workspace.working_dir`."""

    def __init__(self, tool: ToolDefinition[Any]) -> None:
        self.state = getattr(tool, "conv_state", None)


def _as_observation(result: Any, expected: type[Observation] | None) -> Observation:
    if isinstance(result, Observation):
        return result
    if isinstance(result, str):
        return Observation(text=result)
    if isinstance(result, dict):
        return (expected or Observation).model_validate(result)
    if isinstance(result, BaseModel):
        return (expected or Observation).model_validate(result.model_dump())
    raise TypeError(f"the executor returned {type(result).__name__}, expected an Observation")


def _snake(name: str) -> str:
    first = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", first).lower()


__all__ = [
    "CURRENT_TOOL_CALL_ID",
    "Action",
    "Observation",
    "RiskyAction",
    "ToolAnnotations",
    "ToolContext",
    "ToolDefinition",
    "ToolExecutor",
]
