"""What an MCP call's arguments say it will touch, beyond its server's hints.

MCP servers run outside the sandbox, with the user's rights. A server's annotations are hints
its author wrote about the tool, not about this call: a "run a command" tool without a
read-only hint was MEDIUM (so it ran unasked under `--confirm risky`) whatever the command,
and a read-only file tool read `~/.ssh/id_rsa` as LOW. So the arguments are judged too, as the
terminal and the file editor judge theirs: a command-like argument by the shell rules, a
path-like one by what it points at (a secret; for a tool that may write, a file that steers
later sessions: shell start-up files, git hooks, agent instructions, CI). Only
arguments that name a command or a path are judged; free text (a message, a query) is not.
"""

from __future__ import annotations

import re
from typing import Any

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.security.invocation import Finding
from openhands_tui.sdk.security.paths import PathJudge, PathVerdict

#: Argument names whose value is a shell command line.
_COMMAND_KEY = re.compile(r"^(command|cmd|commandline|command_line|shell|shell_command|script|bash|sh)$", re.I)
#: Argument names whose value is a file or directory path.
_PATH_KEY = re.compile(r"(path|file|filename|dir|directory|folder|cwd|source|destination|target|dest|src)s?$", re.I)
_MAX_VALUES = 50


def assess_arguments(
    arguments: dict[str, Any], workspace: str, read_only: bool, home: str | None = None
) -> list[Finding]:
    """Findings for the command- and path-like values in `arguments` (nested objects and lists
    followed), each reason naming the argument."""
    from openhands_tui.sdk.security.commands import assess_command

    judge = PathJudge(workspace, home)
    findings: list[Finding] = []
    for key, value in _strings(arguments)[:_MAX_VALUES]:
        if _COMMAND_KEY.match(key) and value.strip():
            findings += [
                Finding(f.risk, f"argument {key!r}: {f.reason}") for f in assess_command(value, workspace, home=home)
            ]
        elif _PATH_KEY.search(key) and _looks_like_path(value):
            findings += _path_findings(judge.judge(value), key, read_only)
    return findings


def _path_findings(verdict: PathVerdict, key: str, read_only: bool) -> list[Finding]:
    """A secret read or written, or a file that steers later sessions written. A path merely
    outside the workspace is not raised: the user gave the server its own directories (a git
    server's repository elsewhere)."""
    if verdict.device:
        return []
    verb = "reads" if read_only else "writes"
    if verdict.secret:
        return [Finding(Risk.HIGH, f"argument {key!r} {verb} {verdict.resolved}: {verdict.secret}")]
    if verdict.sensitive and not read_only:
        return [Finding(Risk.HIGH, f"argument {key!r} writes {verdict.resolved} ({verdict.sensitive})")]
    return []


def _strings(value: Any, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in _strings(v, str(k))]
    if isinstance(value, list):
        return [pair for item in value for pair in _strings(item, key)]
    return []


def _looks_like_path(text: str) -> bool:
    return 0 < len(text) <= 4096 and "\n" not in text and "://" not in text
