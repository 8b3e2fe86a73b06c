"""What a tool is: an Action schema (the arguments the model fills in), an Observation (what
comes back), and `run()` that turns one into the other."""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextvars import ContextVar
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import ConfigDict, Field

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.sandbox import SandboxDenial, SandboxGrant
from openhands_tui.sdk.subject import OtherSubject, Subject
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
    """A tool's result. `text` is what the model sees; other fields are kept for UIs."""

    text: str
    is_error: bool = False
    #: Set when the sandbox stopped the action (no network, a read-only path): the engine may
    #: offer the user to run it again with what it lacked (`ToolDefinition.run_granted`).
    sandbox_denial: SandboxDenial | None = None

    def data(self) -> dict[str, Any]:
        """Structured details for the event log (everything except the text itself)."""
        return self.model_dump(exclude={"text", "is_error"})


#: The id of the tool call being run, for tools that report it (e.g. delegation events).
CURRENT_TOOL_CALL_ID: ContextVar[str] = ContextVar("current_tool_call_id", default="")

ActionT = TypeVar("ActionT", bound=Action)


class ToolDefinition(ABC, Generic[ActionT]):
    """One function the model can call. Subclasses set the class attributes and `run`."""

    name: ClassVar[str]
    description: ClassVar[str]
    action_type: ClassVar[type[Action]]
    #: Calls of a concurrent tool in one model response may run at the same time.
    concurrent: ClassVar[bool] = False

    def subject(self, action: ActionT) -> Subject:
        """What this call touches: the risk analyzer, permission rules, confirmations and UIs
        read this, never the tool's name. Tools that run commands, change files, call servers
        or delegate say so here; the default is "other", able to change things."""
        return OtherSubject(tool=self.name)

    def summarize(self, action: ActionT) -> str:
        """One line that tells a human what the call does."""
        return f"{self.name} {action.model_dump_json(exclude_none=True)}"

    @abstractmethod
    async def run(self, action: ActionT) -> Observation: ...

    async def run_granted(self, action: ActionT, grant: SandboxGrant) -> Observation:
        """Run with more than the sandbox normally allows, because the user (or a user rule)
        agreed. Tools that run nothing in a sandbox just run."""
        return await self.run(action)

    async def close(self) -> None:
        """Release what the tool holds (processes, files) when its agent's run ends."""

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


__all__ = ["CURRENT_TOOL_CALL_ID", "Action", "Observation", "RiskyAction", "ToolContext", "ToolDefinition"]
