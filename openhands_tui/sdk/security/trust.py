"""Which project files the user has agreed to let widen what agents may do.

A repository can ship files that would approve actions or start programs: allow rules in
`.openhands-tui/permissions.toml`, MCP servers in `.mcp.json`. A cloned repository must not
be able to approve its own actions, so such a file is used only after the user trusted it —
asked once per *content*: if the file changes (say, an agent or a pull request edits it), it
has to be trusted again. Decisions are kept in the user's config directory, never in the
project.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from openhands_tui.sdk.files.private import one_writer, replace_privately
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.xdg import config_base

TrustKind = Literal["permissions", "mcp", "hooks"]


def trust_store_file() -> Path:
    return config_base() / "openhands-tui" / "trusted-projects.json"


@dataclass
class TrustRequest:
    """A project file waiting for the user's trust: what it is and what it would grant."""

    kind: TrustKind
    workspace: str
    file: str
    digest: str
    #: One line per thing it would grant ("allow command 'npm test'", "server git: uvx ...").
    grants: list[str] = field(default_factory=list)

    def describe(self) -> str:
        return f"{self.file} ({len(self.grants)} {'entry' if len(self.grants) == 1 else 'entries'})"


def digest_of(path: Path) -> str:
    return hashlib.sha256(read_regular(path)).hexdigest()


class ProjectTrust:
    """The user's trust decisions: workspace -> kind -> trusted content digests."""

    def __init__(self, store: Path | None = None) -> None:
        self.store = store or trust_store_file()

    def _load(self) -> dict[str, dict[str, list[str]]]:
        return self._read()[0]

    def _read(self) -> tuple[dict[str, dict[str, list[str]]], bool]:
        """(the decisions, whether a file is there that holds none we can read). Never a blocking
        read: a FIFO in its place would have held up every start that asks about trust."""
        try:
            data = json.loads(read_regular(self.store, 16 << 20))
        except FileNotFoundError:
            return {}, False  # no decisions yet
        except (OSError, ValueError, RecursionError):
            return {}, True  # a damaged file: nothing is trusted
        return (data, False) if isinstance(data, dict) else ({}, True)

    def is_trusted(self, request: TrustRequest) -> bool:
        entry = self._load().get(os.path.realpath(request.workspace), {})
        return isinstance(entry, dict) and request.digest in entry.get(request.kind, [])

    def trust(self, request: TrustRequest) -> None:
        """Remember that this content of this file may be used in this workspace."""
        with one_writer(self.store):  # two tuis trusting at once: both are remembered
            data, damaged = self._read()
            if damaged:  # kept beside it, not written over: the user's earlier decisions may be in it
                os.replace(self.store, self.store.with_name(self.store.name + ".damaged"))
            entry = data.setdefault(os.path.realpath(request.workspace), {})
            digests = entry.setdefault(request.kind, [])
            if request.digest not in digests:
                digests.append(request.digest)
            replace_privately(self.store, json.dumps(data, indent=2))
