"""The second wall: what a command may touch at all, whatever the risk rules missed.

Rules decide whether to *ask*; the sandbox decides what a command *can do*. Every terminal
command and every stdio MCP server runs inside it (bubblewrap on Linux; `openhands_tui/jail`
builds it from this policy):

- Deny by default: HOME, other people's folders and the workspace's parents are empty; only
  toolchains (and `readable`) are bound back, read-only, without the credentials and sockets
  inside them. `workspace-write` (default): the workspace, a private `/tmp` and HOME, and the
  paths the user lists are writable; `read-only`: not the workspace either; `off`: none of this
  (the user's explicit choice).
- No network (its own network namespace) unless allowed, here or by a user rule for a
  command prefix; its own PID namespace and `/proc`, so a command cannot read the parent's
  environment or command line, and every process it started dies with the session. Limits on
  processes, file size and the private folders' size.
- Inside the workspace, the files that steer later sessions stay read-only even in
  workspace-write (`security/protected_paths.py`, the same table the risk rules read). Changing them
  goes through the file editor, rated HIGH and confirmed.
- Credential stores in the home directory stay hidden even when the workspace is HOME
  (`HIDDEN_IN_HOME`).

A command the sandbox stopped (a read-only path, a hidden one, no network), as the jail itself
confirms, reports a `SandboxDenial`; the engine offers the user to run it again with a
`SandboxGrant`, or tells the model why not.
"""

from __future__ import annotations

import hashlib
import os
from typing import Literal

from pydantic import Field

from openhands_tui.sdk.model import Model

SandboxMode = Literal["read-only", "workspace-write", "off"]

#: Relative to the home directory: hidden from commands (keys, tokens, our own API key).
HIDDEN_IN_HOME = (
    ".ssh",
    ".aws",
    ".azure",
    ".gnupg",
    ".kube",
    ".docker",
    ".password-store",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".config/openhands-tui",
    ".local/state/openhands-tui",
    ".openhands",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".vault-token",
)


class SandboxPolicy(Model):
    """How commands are confined for a whole session (`--sandbox`, `[sandbox]` in config)."""

    mode: SandboxMode = Field(default="workspace-write", description="read-only, workspace-write or off.")
    network: bool = Field(default=False, description="Let every command reach the network.")
    writable: list[str] = Field(
        default_factory=list, description="Paths outside the workspace commands may write (caches a build needs)."
    )
    readable: list[str] = Field(
        default_factory=list,
        description="Paths outside the workspace commands may read, beyond the toolchains bound by default.",
    )
    keep_env: list[str] = Field(
        default_factory=list,
        description="Environment variables the agent's shell gets beyond the ones a shell needs (`AWS_*` globs).",
    )
    max_processes: int = Field(default=512, ge=16, le=65536, description="Processes and threads a command may run.")
    tmp_size_mb: int = Field(default=512, ge=16, description="Size of the jail's private /tmp and HOME, in MiB.")
    max_file_mb: int = Field(default=8192, ge=1, description="Largest file a command may write, in MiB.")

    @property
    def enabled(self) -> bool:
        return self.mode != "off"


class SandboxGrant(Model):
    """More than the policy allows, for one command the user (or a user rule) approved."""

    network: bool = False
    write: list[str] = Field(default_factory=list)
    #: Paths the jail hides that this command may read.
    read: list[str] = Field(default_factory=list)


class SandboxDenial(Model):
    """What the sandbox stopped a command from doing, and what grant would let it."""

    reason: str
    network: bool = False
    write: list[str] = Field(default_factory=list)
    read: list[str] = Field(default_factory=list)
    #: False when no grant can help (a protected path: that change goes through the editor).
    grantable: bool = True

    def grant(self) -> SandboxGrant:
        return SandboxGrant(network=self.network, write=list(self.write), read=list(self.read))

    def asks_for(self) -> str:
        """What running it again would allow, in words for the confirmation prompt."""
        wants = ["network access"] if self.network else []
        wants += [f"write access to {path}" for path in self.write]
        wants += [f"read access to {path}" for path in self.read]
        return " and ".join(wants) or "nothing more"


_MAX_CHECKED_BYTES = 64 * 1024 * 1024
_MAX_CHECKED_ENTRIES = 2000


class EditorWrites:
    """Files the file editor changed in one session, with a digest of what it wrote (None when
    the change removed the file). Each such change was rated (HIGH for a protected path) and
    confirmed, so the terminal must not take a protected path the editor made for the work of a
    process a command left running, and undo it; but only while it holds what the editor wrote:
    that process (in a jail started before the path existed, so not bound there) may append to
    it. One record per session (`Runtime.editor_writes`), handed to its editors and terminals."""

    def __init__(self) -> None:
        self._digests: dict[str, bytes | None] = {}

    def note(self, path: str, digest: bytes | None = None) -> None:
        """`digest`: sha256 of the bytes the editor left there (None: it removed the file)."""
        self._digests[os.path.realpath(path)] = digest

    def wrote_under(self, path: str) -> bool:
        """Whether the file editor changed `path` or something below it, and everything there is
        still what the editor wrote: no other file, no link, no byte added since."""
        root = os.path.realpath(path)
        written = {w: d for w, d in self._digests.copy().items() if w == root or w.startswith(root + os.sep)}
        if not written:
            return False
        if os.path.islink(path):
            return False
        if not os.path.isdir(root):
            return _holds(root, written.get(root))
        seen = 0
        for directory, subdirectories, files in os.walk(root):
            seen += len(subdirectories) + len(files)
            if seen > _MAX_CHECKED_ENTRIES:
                return False
            for name in subdirectories:
                if os.path.islink(os.path.join(directory, name)):
                    return False
            for name in files:
                file = os.path.join(directory, name)
                if file not in written or not _holds(file, written[file]):
                    return False
        return True


def _holds(file: str, digest: bytes | None) -> bool:
    if digest is None or os.path.islink(file):
        return False
    try:
        with open(file, "rb") as handle:
            content = handle.read(_MAX_CHECKED_BYTES + 1)
    except OSError:
        return False
    return len(content) <= _MAX_CHECKED_BYTES and hashlib.sha256(content).digest() == digest
