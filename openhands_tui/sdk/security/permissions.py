"""Allow and deny rules: decisions the user made once and wants remembered.

Rules live in `.openhands-tui/permissions.toml` in the project and in the user's config
directory (`$XDG_CONFIG_HOME/openhands-tui/permissions.toml`):

    [[rule]]
    action = "allow"          # or "deny"
    command = "npm test"      # a command prefix, matched word by word
    [[rule]]
    action = "deny"
    path = "migrations/**"    # a path glob, relative to the workspace (file actions)

Deny beats allow, and deny rules apply even where the policy would not ask. An allow rule
approves a command only if it covers every part of it: `git status && rm -rf /` is not
covered by `git status`; nor is anything the parser cannot read, nor a redirection into a
file. Every automatic decision names the rule and the file that made it.
"""

from __future__ import annotations

import fnmatch
import json
import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.shell_syntax import SimpleCommand
from openhands_tui.sdk.subject import FileChange, ShellCommand, Subject


class PermissionRule(Model):
    action: Literal["allow", "deny"]
    command: str | None = None
    path: str | None = None
    source: str = ""

    def describe(self) -> str:
        target = f"command {self.command!r}" if self.command is not None else f"path {self.path!r}"
        where = f" ({self.source})" if self.source else ""
        return f"{self.action} {target}{where}"

    def covers(self, words: list[str]) -> bool:
        prefix = (self.command or "").split()
        return bool(prefix) and words[: len(prefix)] == prefix


class RuleDecision(Model):
    approved: bool
    rule: PermissionRule

    @property
    def decided_by(self) -> str:
        return f"rule: {self.rule.describe()}"


def project_rules_file(workspace: Path) -> Path:
    return workspace / ".openhands-tui" / "permissions.toml"


def user_rules_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "openhands-tui" / "permissions.toml"


class PermissionSet:
    def __init__(self, rules: list[PermissionRule] | None = None, workspace: Path | None = None) -> None:
        self.rules = rules or []
        self.workspace = workspace

    @classmethod
    def load(cls, workspace: Path) -> PermissionSet:
        rules: list[PermissionRule] = []
        for path in (project_rules_file(workspace), user_rules_file()):
            rules += _read_rules(path)
        return cls(rules, workspace)

    def decide(self, subject: Subject) -> RuleDecision | None:
        if not self.rules:
            return None
        if isinstance(subject, ShellCommand):
            return self._decide_command(subject)
        if isinstance(subject, FileChange):
            return self._decide_path(subject.path)
        return None

    def _decide_command(self, subject: ShellCommand) -> RuleDecision | None:
        parsed = subject.parsed(os.path.expanduser("~"))
        parts = [_static_words(c) for c in parsed.commands if c.words]
        for rule in self._of("deny", "command"):
            if any(words is not None and rule.covers(words) for words in parts):
                return RuleDecision(approved=False, rule=rule)
        if parsed.error or not parts or any(words is None for words in parts) or _writes_files(parsed.commands):
            return None
        chosen: list[PermissionRule] = []
        for words in parts:
            assert words is not None
            covering = next((r for r in self._of("allow", "command") if r.covers(words)), None)
            if covering is None:
                return None  # one part no rule covers: the whole command is not covered
            chosen.append(covering)
        return RuleDecision(approved=True, rule=chosen[0])

    def _decide_path(self, raw: str) -> RuleDecision | None:
        relative = self._relative(raw)
        for action in ("deny", "allow"):
            for rule in self._of(action, "path"):
                if rule.path and fnmatch.fnmatchcase(relative, rule.path):
                    return RuleDecision(approved=action == "allow", rule=rule)
        return None

    def _relative(self, raw: str) -> str:
        path = Path(raw).expanduser()
        if self.workspace is None:
            return str(path)
        resolved = Path(os.path.realpath(path if path.is_absolute() else self.workspace / path))
        try:
            return str(resolved.relative_to(os.path.realpath(self.workspace)))
        except ValueError:
            return str(resolved)

    def _of(self, action: str, kind: str) -> list[PermissionRule]:
        return [r for r in self.rules if r.action == action and getattr(r, kind) is not None]

    def remember(self, rule: PermissionRule, file: Path) -> None:
        """Add `rule` now and append it to `file` so it holds in later sessions too."""
        stored = rule.model_copy(update={"source": str(file)})
        self.rules.insert(0, stored)
        file.parent.mkdir(parents=True, exist_ok=True)
        entry = f'\n[[rule]]\naction = "{rule.action}"\n'
        entry += f"command = {json.dumps(rule.command)}\n" if rule.command is not None else ""
        entry += f"path = {json.dumps(rule.path)}\n" if rule.path is not None else ""
        with open(file, "a") as handle:
            handle.write(entry)


def suggest_rule(subject: Subject, workspace: Path, exact: bool = False) -> PermissionRule | None:
    """The rule an "always allow" answer would add: the program and its subcommand for a
    single command (`npm test`, `git status`), the exact file for an edit. `exact` (used for
    HIGH-risk commands) allows only this very command: approving `rm -rf build` once must not
    let every later `rm` through."""
    if isinstance(subject, ShellCommand):
        parsed = subject.parsed(os.path.expanduser("~"))
        commands = [c for c in parsed.commands if c.words]
        if parsed.error or len(commands) != 1 or _writes_files(commands):
            return None
        words = _static_words(commands[0])
        if not words:
            return None
        if exact:
            return PermissionRule(action="allow", command=" ".join(words))
        prefix = words[:2] if len(words) > 1 and words[1][:1].isalpha() and "/" not in words[1] else words[:1]
        return PermissionRule(action="allow", command=" ".join(prefix))
    if isinstance(subject, FileChange):
        return PermissionRule(action="allow", path=PermissionSet([], workspace)._relative(subject.path))
    return None


def _static_words(command: SimpleCommand) -> list[str] | None:
    """The command's words, or None when any of them is only known at run time."""
    if not command.words[0].plain or any(not w.static for w in command.words):
        return None
    return [w.value for w in command.words]


def _writes_files(commands: list[SimpleCommand]) -> bool:
    return any(
        r.target is not None and r.op not in ("<", "<<<") and not r.target.value.startswith("/dev/")
        for c in commands
        for r in c.redirects
    )


def _read_rules(path: Path) -> list[PermissionRule]:
    if not path.exists():
        return []
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise SettingsError(f"{path}: cannot read permission rules ({exc})") from None
    rules = []
    for index, entry in enumerate(data.get("rule", []), start=1):
        try:
            rule = PermissionRule.model_validate({**entry, "source": str(path)})
        except ValidationError as exc:
            raise SettingsError(f"{path}: rule {index} is invalid ({exc.errors()[0]['msg']})") from None
        if (rule.command is None) == (rule.path is None):
            raise SettingsError(f"{path}: rule {index} needs exactly one of `command` or `path`")
        rules.append(rule)
    return rules
