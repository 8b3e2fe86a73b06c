"""What an executor offers the tools: a persistent shell, file operations, path resolution, a
description and the workspace's changes as a diff.

An executor is where one agent's commands and file edits are carried out: this machine in the
session's jail (`local/`, the default), this machine unconfined (`--sandbox off`, the same
class without a jail), or an OpenHands agent-server (`agent_server/`). The terminal and the
file editor are faces over it (`tools/terminal`, `tools/file_editor`): their schema, rating
and approvals are the same whatever executes, and only `executors/__init__.py` picks one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any


class ExecutorError(Exception):
    """The executor could not carry out a file operation or reach its shell; one line, said to the agent."""


@dataclass
class CommandResult:
    """One command's outcome, from any shell."""

    output: str
    exit_code: int | None
    cwd: str
    timed_out: bool = False
    omitted_bytes: int = 0
    shell_restarted: bool = False
    #: Protected paths (instructions, hooks, CI...) the command created or replaced, now undone.
    undone: list[str] = field(default_factory=list)
    #: A process still inside the jail after the command (the shell), for the jail's own word
    #: on what it stopped; None without a jail or once the shell is gone.
    jail_pid: int | None = None
    #: Outbound attempts the jail's network namespace saw fail during the command.
    failed_outbound: int = 0


class Shell(ABC):
    """A persistent shell: `cd` and `export` carry over from one `run` to the next."""

    #: Where the next command starts.
    cwd: str
    #: The wall that confines it on this machine (`jail.Jail`), None where there is none here.
    jail: Any = None
    #: Its background jobs (`local.jobs.JobTable`), None where it offers none.
    jobs: Any = None

    @abstractmethod
    async def run(self, command: str, timeout: float) -> CommandResult: ...

    @abstractmethod
    async def close(self) -> None: ...


@dataclass(frozen=True)
class FileInfo:
    kind: str  # "file", "folder", "link" or "other"
    size: int


class Executor(ABC):
    """One agent's place of work. File paths are absolute or relative to `workspace`."""

    workspace: str

    @abstractmethod
    def describe(self) -> str:
        """Where it runs, in a few words for the user ("local, in the sandbox")."""

    @abstractmethod
    def open_shell(self, max_output_bytes: int = 30_000) -> Shell:
        """A new persistent shell in the workspace; its opener closes it."""

    @abstractmethod
    def resolve(self, path: str) -> str:
        """The absolute path `path` names, as the rules should judge it."""

    @abstractmethod
    async def read(self, path: str) -> bytes | None:
        """A file's bytes; None when there is no such file."""

    @abstractmethod
    async def write(self, path: str, data: bytes) -> None:
        """Replace the file whole (readers see the old or the new), making its folders."""

    @abstractmethod
    async def stat(self, path: str) -> FileInfo | None:
        """What is at `path` (a link is not followed); None when nothing is."""

    @abstractmethod
    async def list(self, path: str, depth: int = 2) -> list[str]:
        """Paths under a folder, `depth` levels deep, hidden ones left out, sorted."""

    @abstractmethod
    async def remove(self, path: str) -> None:
        """Remove a file (not a folder); nothing happens when there is none."""

    @abstractmethod
    async def make_folders(self, path: str) -> None: ...

    @abstractmethod
    async def changes(self) -> str | None:
        """The workspace's changes against its git HEAD as one patch, files git does not track
        yet (and does not ignore) as new files in it ("": none); None when the workspace is not
        a git repository. No program the repository's config names (a filter, an external diff, a
        text conversion, an fsmonitor) runs where it could reach more than the agent may."""
