"""What an MCP call's arguments hold, judged by content, beyond its server's hints.

A server's annotations are hints its author wrote about the tool, not about this call, and a
server names its arguments as it likes. So every string among the arguments (nested objects and
lists followed) is judged by what it is (`mcp_content.py`): SQL by its statements, code
(Python, JavaScript, a shell line) by the shell rules as `python3 -c`/`node -e`/the terminal
would be, a URL by what it carries out (a known or secret-shaped token, a payload), any value by
whether it holds a secret. Key names still help where content cannot tell: a `command`/`cmd`
argument is a command line, a program with its argument vector is one, a `path`/`file` argument
is a path judged as the editor judges one (a secret; for a tool that may write, a file that
steers later sessions), and so is a `file://` URI or an absolute or home path anywhere. Every
path is judged up to a generous bound, and every command up to fifty; more than that is HIGH, so
a call cannot bury one write under a pile of harmless ones.

A call to a tool without a read-only hint is HIGH (the analyzer's hint), so it is asked under the default
`--confirm risky` unless the user allowed that tool ("always": `mcp = "server/tool"`); the
user's rule approves the tool, never arguments judged HIGH by content (`permissions.py`).
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Finding
from openhands_tui.sdk.security.mcp_content import (
    RUNS_CODE_TOOL,
    code_command,
    secret_finding,
    secret_matcher,
    sql_findings,
    url_findings,
)
from openhands_tui.sdk.security.paths import PathJudge, PathVerdict
from openhands_tui.sdk.security.secrets import SECRET_NAME, SHELL_SECRET_NAME, dotenv_secrets
from openhands_tui.sdk.security.trusted import TrustedFiles

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
_MAX_TEXT = 200_000
_FILE_URI = re.compile(r"^file://(?:localhost)?(/\S*)$", re.I)
_BARE_PATH = re.compile(r"^(?:/|~/?)\S*$")


def argument_findings(
    arguments: dict[str, Any],
    workspace: str,
    read_only: bool,
    home: str | None = None,
    *,
    tool: str = "",
    secrets: dict[str, str] | None = None,
    trusted: TrustedFiles | None = None,
) -> list[Finding]:
    """Findings for what the string values of `arguments` hold (nested objects and lists
    followed), each reason naming the argument. `tool`: the tool's name (one that runs code
    has its text judged as code); `secrets`: known secret values by label (default: the
    environment's secret-named values and the workspace's `.env` values); `trusted`: the session's
    trusted files (None: none)."""
    from openhands_tui.sdk.security.commands import assess_command

    judge = PathJudge(workspace, home, trusted)
    known = secret_matcher(secrets if secrets is not None else known_secrets(workspace))
    runs_code = bool(tool) and RUNS_CODE_TOOL.search(tool) is not None
    findings: list[Finding] = []
    commands = paths = 0

    def command(key: str, line: str) -> None:
        nonlocal commands
        commands += 1
        if commands <= _MAX_COMMANDS:
            findings.extend(
                Finding(f.risk, f"argument {key!r}: {f.reason}")
                for f in assess_command(line, workspace, home=home, trusted=trusted)
            )

    for key, line in _command_lines(arguments):
        command(key, line)
    for key, value in _strings(arguments):
        uri = _FILE_URI.match(value)
        secret = secret_finding(value, key, known)
        findings += [secret] if secret is not None else []
        findings += url_findings(value, key, known)
        if _COMMAND_KEY.match(key) and value.strip():
            command(key, value)
        elif uri is not None or (_PATH_KEY.search(key) and _looks_like_path(value)):
            paths += 1
            if paths <= _MAX_PATHS:
                findings += _path_findings(judge.judge(unquote(uri.group(1)) if uri else value), key, read_only)
        elif _BARE_PATH.match(value) and len(value) <= 4096:
            verdict = judge.judge(value)  # a path under another name: only a secret raises it
            if verdict.secret and not verdict.device:
                findings.append(Finding(Risk.HIGH, f"argument {key!r} names {verdict.resolved}: {verdict.secret}"))
        else:
            sql = sql_findings(value, key) if len(value) <= _MAX_TEXT else None
            if sql is not None:
                findings += sql
                continue
            code = code_command(value, runs_code)
            if code is not None:
                command(key, code)
    if commands > _MAX_COMMANDS or paths > _MAX_PATHS:
        findings.append(
            Finding(
                Risk.HIGH,
                f"{commands} commands and {paths} paths among the arguments: more than are judged one by one",
            )
        )
    return findings


def known_secrets(workspace: str, environ: dict[str, str] | None = None) -> dict[str, str]:
    """Secret values a call could carry out, by label: the environment's secret-named values
    (what the shell is never handed) and the workspace's `.env` values."""
    environ = dict(os.environ) if environ is None else environ
    found = {
        value: f"environment variable {name}"
        for name, value in environ.items()
        if (SECRET_NAME.search(name) or SHELL_SECRET_NAME.search(name)) and len(value) >= 8 and " " not in value
    }
    found.update(dotenv_secrets(Path(workspace)))
    return found


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
