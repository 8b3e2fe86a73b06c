"""git as `tui` itself runs it (unconfined, in its own process, on a workspace it does not
trust): with every setting that makes git run a program turned off for that call.

A repository's own `.git/config` travels with a tarball or a copied folder: `core.fsmonitor`
names a program `git ls-files` and `git status` run; `core.hooksPath`, `core.sshCommand`,
`core.pager` and the like name others. The agent's commands cannot write that file (the jail
keeps it read-only), but a workspace can arrive with one.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

#: `-c` settings that win over the repository's config for one call.
_HARDENED = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.sshCommand=false",
    "core.pager=cat",
    "core.askPass=false",
    "credential.helper=",
    "protocol.ext.allow=never",
    "diff.external=",
)


def run_git(
    workspace: Path, args: list[str], timeout: float = 5, settings: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes] | None:
    """`git -C workspace ARGS` hardened, its output as bytes; None if git cannot run. `settings`:
    more config for this call, passed in the environment (GIT_CONFIG_COUNT), where a key may hold
    any character — `-c` splits `filter.a=b.clean=cat` at its first `=`."""
    command = ["git", "-C", str(workspace)]
    for setting in _HARDENED:
        command += ["-c", setting]
    environment = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    for index, (key, value) in enumerate((settings or {}).items()):
        environment[f"GIT_CONFIG_KEY_{index}"], environment[f"GIT_CONFIG_VALUE_{index}"] = key, value
    if settings:
        environment["GIT_CONFIG_COUNT"] = str(len(settings))
    try:
        return subprocess.run([*command, *args], capture_output=True, timeout=timeout, check=False, env=environment)
    except (OSError, subprocess.SubprocessError):
        return None
