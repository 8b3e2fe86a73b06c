"""Allow and deny rules: decisions the user made once and wants remembered.

Rules live in the user's config directory (`$XDG_CONFIG_HOME/openhands-tui/permissions.toml`)
and, for a project, in `.openhands-tui/permissions.toml`:

    [[rule]]
    action = "allow"          # or "deny"
    command = "npm test"      # a command prefix, matched word by word
    [[rule]]
    action = "allow"
    command = "npm install"
    network = true            # user rules only: also runs it with network access
    [[rule]]
    action = "deny"
    path = "migrations/**"    # a path glob, relative to the workspace (file actions)
    [[rule]]
    action = "allow"
    mcp = "git/git_commit"    # an MCP server's tool (`mcp:git/git_commit`; `git/*`: all of them)
    [[rule]]
    action = "allow"
    read = "~/src/shared"     # user rules only: commands may read this path the sandbox hides

Deny beats allow, and deny rules apply even where the policy would not ask. An allow rule
approves a command only if it covers every part of it: `git status && rm -rf /` is not
covered by `git status`; nor is anything the parser cannot read, nor a redirection into a
file. A HIGH-risk action is approved by a rule only if it is an `exact` rule for that very
command (what "always" saves for one): a prefix rule the user wrote for `python3` must not
let `python3 -c "shutil.rmtree(...)"` through.

A cloned repository must not approve its own actions: the project file's *allow* rules are
used only once the user trusts that file's content (`security/trust.py`); its deny rules
always apply. "Always" answers are saved in the user's file, scoped to the workspace.
Every automatic decision names the rule and the file that made it.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shlex
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import ValidationError

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import FileChange, MCPCall, NetworkRequest, ShellCommand, Subject
from openhands_tui.sdk.files.private import one_writer
from openhands_tui.sdk.files.toml_file import TomlFileError, read_toml
from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.security.invocation import words
from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest, digest_of
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.shell.syntax import SimpleCommand


class PermissionRule(Model):
    action: Literal["allow", "deny"]
    command: str | None = None
    path: str | None = None
    #: An MCP tool as `server/tool` (a glob: `server/*`); a leading `mcp:` is allowed.
    mcp: str | None = None
    #: A web host the fetch tool may read from (`docs.python.org`: that host and its subdomains).
    domain: str | None = None
    #: Only this very command (every word), not commands it is a prefix of.
    exact: bool = False
    #: Commands this rule allows also run with network access (honoured in user rules only).
    network: bool = False
    #: A path outside the workspace the sandbox hides that commands may read ("always" for a
    #: read escalation; honoured in user rules only).
    read: str | None = None
    #: The workspace the rule was made in (None: every workspace).
    workspace: str | None = None
    source: str = ""

    def describe(self) -> str:
        if self.mcp is not None:
            target = f"mcp:{self.mcp_pattern}"
        elif self.read is not None:
            target = f"reading {self.read!r} in the sandbox"
        elif self.domain is not None:
            target = f"fetching from {self.domain}"
        else:
            target = f"command {self.command!r}" if self.command is not None else f"path {self.path!r}"
        target += " (exactly)" if self.exact else ""
        where = f" ({self.source})" if self.source else ""
        return f"{self.action} {target}{where}"

    @property
    def mcp_pattern(self) -> str:
        return (self.mcp or "").removeprefix("mcp:")

    def words(self) -> list[str]:
        """The rule's command as shell words (quotes respected), [] if it cannot be read."""
        try:
            return shlex.split(self.command or "")
        except ValueError:
            return []

    def covers(self, words: list[str]) -> bool:
        prefix = self.words()
        if self.exact:
            return bool(prefix) and words == prefix
        return bool(prefix) and words[: len(prefix)] == prefix

    def applies_in(self, workspace: Path | None) -> bool:
        if self.workspace is None or workspace is None:
            return True
        return os.path.realpath(self.workspace) == os.path.realpath(workspace)


class RuleDecision(Model):
    approved: bool
    rule: PermissionRule

    @property
    def decided_by(self) -> str:
        return f"rule: {self.rule.describe()}"


def project_rules_file(workspace: Path) -> Path:
    return workspace / ".openhands-tui" / "permissions.toml"


def user_rules_file() -> Path:
    return config_base() / "openhands-tui" / "permissions.toml"


class PermissionSet:
    def __init__(self, rules: list[PermissionRule] | None = None, workspace: Path | None = None) -> None:
        self.rules = [r for r in rules or [] if r.applies_in(workspace)]
        self.workspace = workspace

    @classmethod
    def load(
        cls, workspace: Path, *, trust: ProjectTrust | None = None, trust_project: bool = False
    ) -> tuple[PermissionSet, TrustRequest | None]:
        """The user's rules, the project's deny rules, and the project's allow rules if the
        user trusts that file (or `trust_project`); else the request to trust it."""
        rules = _read_rules(user_rules_file())
        project_file = project_rules_file(workspace)
        project = [r for r in _read_rules(project_file) if r.read is None]  # a clone never opens HOME
        rules += [r.model_copy(update={"network": False}) for r in project if r.action == "deny"]
        allows = [r.model_copy(update={"network": False}) for r in project if r.action == "allow"]
        request = None
        if allows:
            grants = [r.describe() for r in allows]
            request = TrustRequest("permissions", str(workspace), str(project_file), digest_of(project_file), grants)
            if trust_project or (trust or ProjectTrust()).is_trusted(request):
                rules += allows
                request = None
        return cls(rules, workspace), request

    def add_trusted(self, rules: list[PermissionRule]) -> None:
        """Project allow rules the user just agreed to."""
        self.rules += [r for r in rules if r.applies_in(self.workspace)]

    def decide(
        self, subject: Subject, risk: Risk = Risk.LOW, trusted: TrustedFiles | None = None
    ) -> RuleDecision | None:
        """A rule's verdict on `subject`, or None when no rule decides it. For a HIGH-risk
        action only an exact rule for that very command (or file) can approve. `trusted`: the
        session's trusted files, which an MCP call's arguments are judged with (None: none)."""
        if not self.rules:
            return None
        if isinstance(subject, ShellCommand):
            return self._decide_command(subject, high=risk is Risk.HIGH)
        if isinstance(subject, FileChange):
            return self._decide_path(subject.path, high=risk is Risk.HIGH)
        if isinstance(subject, MCPCall):
            return self._decide_mcp(subject, high=risk is Risk.HIGH, trusted=trusted)
        if isinstance(subject, NetworkRequest):
            return self._decide_domain(subject, high=risk is Risk.HIGH)
        return None

    def _decide_domain(self, request: NetworkRequest, high: bool) -> RuleDecision | None:
        """A host's rule ("always for docs.python.org") decides a fetch from it; an allow never
        approves a HIGH one (a URL carrying a secret or the workspace's content is asked every time)."""
        host = (urlsplit(request.url).hostname or "").lower().rstrip(".")
        for action in ("deny", "allow"):
            for rule in self._of(action, "domain"):
                domain = (rule.domain or "").lower().strip(".")
                if domain and (host == domain or host.endswith("." + domain)):
                    if action == "allow" and high:
                        return None
                    return RuleDecision(approved=action == "allow", rule=rule)
        return None

    def _decide_mcp(self, call: MCPCall, high: bool, trusted: TrustedFiles | None = None) -> RuleDecision | None:
        """A tool's own rule ("always" saves `mcp = "server/tool"`) approves that tool, whatever
        its hints (no read-only hint, destructive); it never approves what a call's arguments
        hold (`DROP TABLE`, code deleting outside the workspace, a token in a URL): such a call
        is asked every time. A glob (`server/*`) approves the server's tools too (a call without a
        read-only hint is HIGH only for want of the hint), but never a destructive one."""
        name = f"{call.server}/{call.tool}"
        for action in ("deny", "allow"):
            for rule in self._of(action, "mcp"):
                if action == "allow" and high and not _is_literal(rule.mcp_pattern) and call.annotations.destructive:
                    continue  # a glob never approves a destructive tool; the tool's own rule may
                if not fnmatch.fnmatchcase(name, rule.mcp_pattern):
                    continue
                if action == "allow" and high and self._arguments_are_high(call, trusted):
                    return None
                return RuleDecision(approved=action == "allow", rule=rule)
        return None

    def readable(self) -> list[str]:
        """Paths the user let commands read for good (user rules: project ones are dropped)."""
        return [r.read for r in self._of("allow", "read") if r.read is not None]

    def _arguments_are_high(self, call: MCPCall, trusted: TrustedFiles | None) -> bool:
        from openhands_tui.sdk.security.mcp_arguments import argument_findings

        read_only = bool(call.annotations.read_only) and not call.annotations.destructive
        workspace = str(self.workspace) if self.workspace is not None else os.getcwd()
        findings = argument_findings(call.arguments, workspace, read_only, tool=call.tool, trusted=trusted)
        return any(f.risk is Risk.HIGH for f in findings)

    def network_for(self, subject: ShellCommand) -> PermissionRule | None:
        """The user rule that grants `subject` network access, if every part is covered by one."""
        grants = [r for r in self._of("allow", "command") if r.network]  # project rules never carry it
        covered = self._cover(subject, grants)
        return covered[0] if covered else None

    def _decide_command(self, subject: ShellCommand, high: bool) -> RuleDecision | None:
        parsed = subject.parsed(os.path.expanduser("~"))
        parts = [_static_words(c) for c in parsed.commands if c.words]
        for rule in self._of("deny", "command"):
            if any(words is not None and rule.covers(words) for words in parts):
                return RuleDecision(approved=False, rule=rule)
        allows = [r for r in self._of("allow", "command") if r.exact or not high]
        chosen = self._cover(subject, allows)
        return RuleDecision(approved=True, rule=chosen[0]) if chosen else None

    def _cover(self, subject: ShellCommand, rules: list[PermissionRule]) -> list[PermissionRule]:
        """One covering rule per part of the command, or [] if any part is not covered."""
        parsed = subject.parsed(os.path.expanduser("~"))
        parts = [_static_words(c) for c in parsed.commands if c.words]
        if parsed.error or not parts or any(words is None for words in parts) or _writes_files(parsed.commands):
            return []
        chosen: list[PermissionRule] = []
        for part in parts:
            assert part is not None
            covering = next((r for r in rules if r.covers(part)), None)
            if covering is None:
                return []  # one part no rule covers: the whole command is not covered
            chosen.append(covering)
        return chosen

    def _decide_path(self, raw: str, high: bool) -> RuleDecision | None:
        relative = self._relative(raw)
        for action in ("deny", "allow"):
            for rule in self._of(action, "path"):
                if action == "allow" and high and (not rule.exact and not _is_literal(rule.path or "")):
                    continue  # a glob never approves a HIGH-risk edit; the exact file's rule may
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
        """Add `rule` now and append it to the user's `file`, scoped to this workspace, so it
        holds in later sessions here (and nowhere else)."""
        workspace = str(self.workspace) if self.workspace is not None else None
        stored = rule.model_copy(update={"source": str(file), "workspace": workspace, "network": False})
        self.rules.insert(0, stored)
        file.parent.mkdir(parents=True, exist_ok=True)
        entry = f'\n[[rule]]\naction = "{rule.action}"\n'
        entry += f"command = {json.dumps(rule.command)}\n" if rule.command is not None else ""
        entry += f"path = {json.dumps(rule.path)}\n" if rule.path is not None else ""
        entry += f"mcp = {json.dumps(rule.mcp_pattern)}\n" if rule.mcp is not None else ""
        entry += f"domain = {json.dumps(rule.domain)}\n" if rule.domain is not None else ""
        entry += f"read = {json.dumps(rule.read)}\n" if rule.read is not None else ""
        entry += "exact = true\n" if rule.exact else ""
        entry += f"workspace = {json.dumps(workspace)}\n" if workspace is not None else ""
        with one_writer(file), open(file, "a") as handle:  # two tuis answering "always" at once: both kept
            handle.write(entry)
            handle.flush()
            os.fsync(handle.fileno())


def suggest_rule(subject: Subject, workspace: Path, exact: bool = False) -> PermissionRule | None:
    """The rule an "always allow" answer would add: the program and its subcommand for a
    single command (`npm test`, `git status`), the exact file for an edit. `exact` (used for
    HIGH-risk commands) allows only this very command: approving `rm -rf build` once must not
    let every later `rm` through. A shell, interpreter or wrapper (`bash`, `python3`, `env`,
    `make`, `xargs`, `git -c`...) is never offered as a prefix: whatever it runs would be
    allowed with it, so only that exact command is."""
    if isinstance(subject, ShellCommand):
        parsed = subject.parsed(os.path.expanduser("~"))
        commands = [c for c in parsed.commands if c.words]
        if parsed.error or len(commands) != 1 or _writes_files(commands):
            return None
        words = _static_words(commands[0])
        if not words:
            return None
        program = os.path.basename(words[0])
        subcommand = len(words) > 1 and _is_subcommand(words[1])
        wraps = program in RUNS_OTHER_CODE or (subcommand and (program, words[1]) in RUNS_OTHER_CODE_AS)
        if exact or wraps or (len(words) > 1 and not subcommand):
            return PermissionRule(action="allow", command=shlex.join(words), exact=True)
        prefix = words[:2] if subcommand else words[:1]
        return PermissionRule(action="allow", command=shlex.join(prefix))
    if isinstance(subject, FileChange):
        path = PermissionSet([], workspace)._relative(subject.path)
        return PermissionRule(action="allow", path=path, exact=exact)
    if isinstance(subject, MCPCall):  # that tool of that server, never the whole server
        return PermissionRule(action="allow", mcp=f"{subject.server}/{subject.tool}", exact=True)
    if isinstance(subject, NetworkRequest):  # reading from that host ("always for docs.python.org")
        host = urlsplit(subject.url).hostname
        return PermissionRule(action="allow", domain=host.lower()) if host else None
    return None


#: Programs whose arguments are code or another command: a rule naming only the program would
#: approve anything at all they might run.
RUNS_OTHER_CODE = frozenset(
    words("""
    sh bash zsh dash ksh fish csh tcsh busybox toybox env sudo doas su nohup nice ionice timeout
    stdbuf time watch xargs parallel exec eval command builtin source . flock setsid chroot unshare
    nsenter script expect python python2 python3 pypy pypy3 ipython node nodejs deno bun ruby irb
    perl php lua luajit tclsh Rscript julia osascript pwsh powershell jshell groovy awk gawk mawk nawk
    make gmake npx pnpx bunx uvx pipx uv poetry pipenv conda docker podman kubectl ssh tmux screen
    """)
)
#: Subcommands that run whatever follows them (`npm exec`, `yarn dlx`...).
RUNS_OTHER_CODE_AS = frozenset(
    {("npm", "exec"), ("npm", "x"), ("yarn", "dlx"), ("yarn", "exec"), ("pnpm", "dlx"), ("pnpm", "exec")}
    | {("git", "submodule"), ("cargo", "run"), ("go", "run"), ("dotnet", "run")}
)


def _is_subcommand(word: str) -> bool:
    """`test` in `npm test`, `status` in `git status`: a plain word, not a flag, path or code."""
    return word[:1].isalpha() and all(c.isalnum() or c in "-_:." for c in word) and "/" not in word


def _is_literal(pattern: str) -> bool:
    return not any(c in pattern for c in "*?[")


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
    try:
        data = read_toml(path, missing_ok=True)
    except TomlFileError as exc:
        raise SettingsError(f"{path}: cannot read permission rules ({exc.problem})") from None
    entries = data.get("rule", [])
    if not isinstance(entries, list):
        raise SettingsError(f"{path}: write each rule as [[rule]] (an array of tables), not [rule]")
    rules = []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise SettingsError(f"{path}: rule {index} is not a table of settings")
        unknown = sorted(set(entry) - set(PermissionRule.model_fields) - {"source"})
        if unknown:
            valid = "action, command, path, mcp, domain, read, exact, network, workspace"
            raise SettingsError(f"{path}: rule {index} has unknown setting {unknown[0]!r} (valid: {valid})")
        try:
            rule = PermissionRule.model_validate({**entry, "source": str(path)})
        except ValidationError as exc:
            raise SettingsError(f"{path}: rule {index} is invalid ({exc.errors()[0]['msg']})") from None
        if [rule.command, rule.path, rule.mcp, rule.domain, rule.read].count(None) != 4:
            raise SettingsError(
                f"{path}: rule {index} needs exactly one of `command`, `path`, `mcp`, `domain` or `read`"
            )
        rules.append(rule)
    return rules
