"""Where a session's agents work: a folder on this machine (checked to exist, not to be HOME or
above without `--workspace-is-home`, and to be writable unless read-only), or a folder on an
OpenHands agent-server (`--executor agent-server:URL`: an absolute path there, the server
asked once that it answers and takes the key)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.executor import ExecutorSpec
from openhands_tui.sdk.facts.store import SessionMeta


def home_or_above(folder: Path) -> str:
    """What `folder` is if it is too wide to be a workspace: "your home directory", "/", "a
    folder that holds your home directory"; "" if it is not."""
    try:
        real, home = folder.resolve(), Path(os.path.expanduser("~")).resolve()
    except (OSError, RuntimeError):
        return ""
    if real == home:
        return "your home directory"
    if real == Path("/"):
        return "/"
    return "a folder that holds your home directory" if real in home.parents else ""


def local_workspace(options: LaunchOptions, meta: SessionMeta | None, read_only: bool) -> Path:
    """The folder on this machine agents work in: `--workspace`, a resumed session's, or the
    current one; a folder that is not one, is too wide or cannot be written is one line."""
    if options.workspace is not None:
        raw, label = options.workspace, "--workspace"
    elif meta is not None:
        raw, label = Path(meta.workspace), "the session's workspace"
    else:
        try:
            raw, label = Path.cwd(), "the current directory"
        except OSError:  # deleted under the shell that started tui
            raise SettingsError("the current directory no longer exists; pass --workspace DIR") from None
    if not raw.is_dir():
        raise SettingsError(f"{label} {raw}: not a directory")
    too_wide = home_or_above(raw)
    if too_wide and not options.workspace_is_home:
        raise SettingsError(
            f"{label} {raw} is {too_wide}: commands the agent runs could change every project and your shell's "
            "start-up files; cd into a project, or pass --workspace-is-home if you mean it"
        )
    if not read_only:
        try:  # found now, not halfway through a task
            with tempfile.TemporaryFile(dir=raw):
                pass
        except OSError as exc:
            raise SettingsError(
                f"{label} {raw}: cannot write there ({exc.strerror or exc}); use --sandbox read-only "
                "to work on it without changing it"
            ) from None
    return raw.resolve()


def server_workspace(options: LaunchOptions, meta: SessionMeta | None, executor: ExecutorSpec) -> Path:
    """The workspace on the agent-server: `--workspace` (or a resumed session's), an absolute path
    there; the server is asked once that it answers and takes the key."""
    from openhands_tui.executors.agent_server.client import check_reachable

    raw = str(options.workspace) if options.workspace is not None else (meta.workspace if meta else "")
    if not raw:
        raise SettingsError("--executor agent-server:URL needs --workspace DIR, a folder on the server")
    if not raw.startswith("/"):
        raise SettingsError(f"--workspace {raw}: give the folder's absolute path on the agent-server")
    problem = check_reachable(executor)
    if problem:
        raise SettingsError(f"--executor: {problem}")
    return Path(raw)
