"""What an MCP call's arguments say it will touch, beyond its server's hints.

MCP servers run outside the sandbox, with the user's rights. A server's annotations are hints
its author wrote about the tool, not about this call: a "run a command" tool without a
read-only hint was MEDIUM (so it ran unasked under `--confirm risky`) whatever the command,
and a read-only file tool read `~/.ssh/id_rsa` as LOW. So the arguments are judged too, as the
terminal and the file editor judge theirs: a command-like argument by the shell rules, a
path-like one by what it points at (a secret; for a tool that may write, a file that steers
later sessions: shell start-up files, git hooks, agent instructions, CI). Only
arguments that name a command or a path are judged; free text (a message, a query) is not.
A `file://` URI is a path whatever its argument is called, and so, for secrets, is any value
that is nothing but an absolute or home path (`{"location": "~/.ssh/id_rsa"}`). Every path is
judged (they cost a `realpath` each) up to a generous bound, and every command up to fifty;
more than that is HIGH, so a call cannot bury one write under a pile of harmless ones.
"""

from __future__ import annotations

import re
import shlex
from typing import Any
from urllib.parse import unquote

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.security.invocation import Finding
from openhands_tui.sdk.security.paths import PathJudge, PathVerdict

#: Argument names whose value is a shell command line.
_COMMAND_KEY = re.compile(r"^(command|cmd|commandline|command_line|shell|shell_command|script|bash|sh)$", re.I)
#: Argument names whose value is a file or directory path.
_PATH_KEY = re.compile(r"(path|file|filename|dir|directory|folder|cwd|source|destination|target|dest|src)s?$", re.I)
#: A program named apart from its arguments (`{"command": "rm", "args": ["-rf", "~"]}`), or a
#: whole argument vector (`{"argv": ["rm", "-rf", "~"]}`): judged as the command line they make.
_PROGRAM_KEY = re.compile(r"^(command|cmd|program|executable|exe|binary|bin|file)$", re.I)
_ARGV_KEY = re.compile(r"^(args|arguments|argv|params|parameters|cmd|command|command_args)$", re.I)
_MAX_COMMANDS = 50
_MAX_PATHS = 1000
_FILE_URI = re.compile(r"^file://(?:localhost)?(/\S*)$", re.I)
_BARE_PATH = re.compile(r"^(?:/|~/?)\S*$")


def assess_arguments(
    arguments: dict[str, Any], workspace: str, read_only: bool, home: str | None = None
) -> list[Finding]:
    """Findings for the command- and path-like values in `arguments` (nested objects and lists
    followed), each reason naming the argument."""
    from openhands_tui.sdk.security.commands import assess_command

    judge = PathJudge(workspace, home)
    findings: list[Finding] = []
    commands = paths = 0
    for key, line in _command_lines(arguments):
        commands += 1
        if commands <= _MAX_COMMANDS:
            findings += [
                Finding(f.risk, f"argument {key!r}: {f.reason}") for f in assess_command(line, workspace, home=home)
            ]
    for key, value in _strings(arguments):
        uri = _FILE_URI.match(value)
        if _COMMAND_KEY.match(key) and value.strip():
            commands += 1
            if commands <= _MAX_COMMANDS:
                findings += [
                    Finding(f.risk, f"argument {key!r}: {f.reason}")
                    for f in assess_command(value, workspace, home=home)
                ]
        elif uri is not None or (_PATH_KEY.search(key) and _looks_like_path(value)):
            paths += 1
            if paths <= _MAX_PATHS:
                findings += _path_findings(judge.judge(unquote(uri.group(1)) if uri else value), key, read_only)
        elif _BARE_PATH.match(value) and len(value) <= 4096:
            verdict = judge.judge(value)  # a path under another name: only a secret raises it
            if verdict.secret and not verdict.device:
                findings.append(Finding(Risk.HIGH, f"argument {key!r} names {verdict.resolved}: {verdict.secret}"))
    if commands > _MAX_COMMANDS or paths > _MAX_PATHS:
        findings.append(
            Finding(
                Risk.HIGH,
                f"{commands} commands and {paths} paths among the arguments: more than are judged one by one",
            )
        )
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


def _command_lines(value: Any) -> list[tuple[str, str]]:
    """Every command line an object spells as a program and a list of its arguments, or as one
    argument vector: `{"command": "bash", "args": ["-c", "rm -rf ~"]}` runs `bash -c 'rm -rf ~'`,
    which no single string among them says."""
    found: list[tuple[str, str]] = []
    if isinstance(value, list):
        for item in value:
            found += _command_lines(item)
    if not isinstance(value, dict):
        return found
    program = next((k for k, v in value.items() if _PROGRAM_KEY.match(str(k)) and isinstance(v, str)), None)
    for key, item in value.items():
        vector = isinstance(item, list) and item and all(isinstance(word, str) for word in item)
        if vector and _ARGV_KEY.match(str(key)):
            words = [value[program], *item] if program is not None and key != program else list(item)
            found.append((str(key), shlex.join(words)))
        elif isinstance(item, dict | list):
            found += _command_lines(item)
    return found


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
