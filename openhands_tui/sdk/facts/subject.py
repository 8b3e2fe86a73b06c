"""What an action touches: the one description every consumer reads.

A tool turns each call into a typed *subject* — a shell command with its working directory,
a file change with the text before and after, a network request, an MCP call with the
server's annotations, a delegation, the end of the task, or something else. The risk
analyzer, the permission rules, the sandbox, the confirmation screen, transcripts and
editors all read the subject; none of them knows a tool by its name or its argument names.

The subject is recorded on the action event, so a resumed or viewed session shows exactly
what the live one judged. A shell command is parsed at most once per action (`parsed()`),
however many consumers look at it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, PrivateAttr

from openhands_tui.sdk.model import Model

if TYPE_CHECKING:
    from openhands_tui.sdk.shell.syntax import ParsedShell


class ShellCommand(Model):
    """A command line for a shell, run in `cwd`."""

    kind: Literal["shell"] = "shell"
    command: str
    cwd: str
    _parsed: dict[str, ParsedShell] = PrivateAttr(default_factory=dict)

    @property
    def changes_state(self) -> bool:
        return True

    def parsed(self, home: str) -> ParsedShell:
        """The command's syntax tree, parsed once and shared by every consumer."""
        cached = self._parsed.get(home)
        if cached is None:
            from openhands_tui.sdk.shell.syntax import parse_shell

            cached = self._parsed[home] = parse_shell(self.command, home=home, cwd=self.cwd)
        return cached


FileOperation = Literal["view", "create", "edit", "insert", "undo"]


class FileChange(Model):
    """A file read or written by path. `before`/`after` hold the text being replaced and its
    replacement (or a new file's content), enough to show a diff before the action runs."""

    kind: Literal["file"] = "file"
    path: str
    operation: FileOperation
    before: str | None = None
    after: str | None = None

    @property
    def changes_state(self) -> bool:
        return self.operation != "view"


class NetworkRequest(Model):
    kind: Literal["network"] = "network"
    url: str
    method: str = "GET"

    @property
    def changes_state(self) -> bool:
        return self.method.upper() not in ("GET", "HEAD", "OPTIONS")


class MCPAnnotations(Model):
    """What an MCP server says about one of its tools (hints, not guarantees)."""

    title: str | None = None
    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None


class MCPCall(Model):
    kind: Literal["mcp"] = "mcp"
    server: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    annotations: MCPAnnotations = Field(default_factory=MCPAnnotations)

    @property
    def changes_state(self) -> bool:
        return self.annotations.read_only is not True


class Delegation(Model):
    """Work handed to other agents; their own actions are what get rated and confirmed."""

    kind: Literal["delegation"] = "delegation"
    agents: list[str] = Field(default_factory=list)

    @property
    def changes_state(self) -> bool:
        return False


class Finish(Model):
    """The agent ends its task with this message."""

    kind: Literal["finish"] = "finish"

    @property
    def changes_state(self) -> bool:
        return False


class OtherSubject(Model):
    """Anything else: the tool says only whether it can change something."""

    kind: Literal["other"] = "other"
    tool: str
    changes: bool = True
    #: "think" for reasoning out loud, "plan" for the agent's own task list, "jobs" for the
    #: agent's own background jobs (listed, read or stopped: nothing else is touched); else "other".
    category: Literal["think", "plan", "jobs", "other"] = "other"

    @property
    def changes_state(self) -> bool:
        return self.changes


Subject = Annotated[
    ShellCommand | FileChange | NetworkRequest | MCPCall | Delegation | Finish | OtherSubject,
    Field(discriminator="kind"),
]
