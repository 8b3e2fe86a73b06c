"""The analyzer port, the rule-based analyzer, and the minimal one kept for tests.

Analyzers rate an action's *subject* (what it touches), never a tool by its name.
`RuleAnalyzer` decides from rules: shell commands are parsed (never pattern-matched as
strings), paths are resolved, MCP tools are rated by their server's annotations (raised by a
command or a path among their arguments), and the result lists every reason. The model's
own estimate is not consulted here; the engine takes max(rules, model) so the model can only
raise it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from pydantic import Field

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import FileChange, MCPCall, NetworkRequest, ShellCommand, Subject
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.security.invocation import Finding
from openhands_tui.sdk.security.program_table import ProgramTable
from openhands_tui.sdk.security.trusted import TrustedFiles


class Assessment(Model):
    risk: Risk
    reasons: list[str] = Field(default_factory=list)
    #: The stable id of the rule behind each reason, in the same order ("" when none is known).
    rules: list[str] = Field(default_factory=list)

    @classmethod
    def from_findings(cls, findings: list[Finding]) -> Assessment:
        if not findings:
            return cls(risk=Risk.LOW, reasons=[])
        risk = Risk.max(*(f.risk for f in findings))
        # the reasons that set the level come first; lesser ones follow for context
        ordered = sorted(findings, key=lambda f: -f.risk.severity)
        return cls(risk=risk, reasons=[f.reason for f in ordered], rules=[f.rule for f in ordered])


class RiskAnalyzer(Protocol):
    def assess(self, subject: Subject, workspace: Path) -> Assessment: ...


class StateChangeAnalyzer:
    """Rates by whether the action can change anything: LOW if not, MEDIUM if so."""

    def assess(self, subject: Subject, workspace: Path) -> Assessment:
        if not subject.changes_state:
            return Assessment(risk=Risk.LOW, reasons=[f"{subject.kind}: read-only"])
        return Assessment(risk=Risk.MEDIUM, reasons=[f"{subject.kind}: can change the workspace"])


class RuleAnalyzer:
    """The default analyzer: commands, file actions and MCP calls are rated by rules.
    `trusted`: the session's trusted files (its strategy, what its MCP servers run...), writing
    any of which is HIGH; None: no session's (a fresh, empty record)."""

    def __init__(
        self, home: str | None = None, programs: ProgramTable | None = None, trusted: TrustedFiles | None = None
    ) -> None:
        self.home = home
        #: What the rules know about programs (the built-in table, tightened by the user's).
        self.programs = programs
        #: The session's trusted files (writing one is HIGH).
        self.trusted = trusted if trusted is not None else TrustedFiles()

    def assess(self, subject: Subject, workspace: Path) -> Assessment:
        from openhands_tui.sdk.security.commands import assess_command
        from openhands_tui.sdk.security.files import assess_edit, assess_read

        if isinstance(subject, ShellCommand):
            home = self.home or os.path.expanduser("~")
            findings = assess_command(
                subject.command,
                str(workspace),
                subject.cwd,
                home=home,
                parsed=subject.parsed(home),
                programs=self.programs,
                trusted=self.trusted,
            )
            return Assessment.from_findings(findings)
        if isinstance(subject, FileChange):
            if subject.operation == "view":
                return Assessment.from_findings(assess_read(subject.path, str(workspace), self.home, self.trusted))
            findings = assess_edit(
                subject.path, str(workspace), subject.operation, self.home, subject.after, self.trusted
            )
            return Assessment.from_findings(findings)
        if isinstance(subject, MCPCall):
            return _assess_mcp(subject, str(workspace), self.home, self.trusted)
        if isinstance(subject, NetworkRequest):
            from openhands_tui.sdk.security.urls import assess_url

            return Assessment.from_findings(assess_url(subject.url, subject.method))
        if not subject.changes_state:
            return Assessment(risk=Risk.LOW, reasons=[f"{subject.kind}: changes nothing"])
        return Assessment(risk=Risk.MEDIUM, reasons=[f"{getattr(subject, 'tool', subject.kind)} can change things"])


def _assess_mcp(call: MCPCall, workspace: str, home: str | None, trusted: TrustedFiles) -> Assessment:
    """The server's own hints: read-only is LOW, destructive is HIGH, anything else MEDIUM.
    A tool that says both (contradictory hints) is treated as destructive. Its arguments can
    only raise that: a command or a path in them is judged as the terminal's or the editor's."""
    from openhands_tui.sdk.security.mcp_arguments import argument_findings

    name = f"{call.server}/{call.tool}"
    if call.annotations.destructive:
        hint = Finding(Risk.HIGH, f"MCP tool {name} says it is destructive", "mcp:destructive")
    elif call.annotations.read_only:
        hint = Finding(Risk.LOW, f"MCP tool {name} says it only reads", "mcp:read-only")
    else:  # it may change whatever its server reaches: asked until the user allows this very tool
        reason = f"MCP tool {name} has no read-only hint: it may change things (asked until allowed)"
        hint = Finding(Risk.HIGH, reason, "mcp:no-hint")
    read_only = bool(call.annotations.read_only) and not call.annotations.destructive
    findings = argument_findings(call.arguments, workspace, read_only, home, tool=call.tool, trusted=trusted)
    raised = [
        f for f in findings if f.risk.severity > hint.risk.severity or (f.risk is Risk.HIGH and hint.risk is Risk.HIGH)
    ]
    return Assessment.from_findings([hint, *raised])


def assess_case(
    kind: str, value: Any, workspace: Path, cwd: Path | None = None, programs: ProgramTable | None = None
) -> Assessment:
    """Rate one action described the way `tui risk --json` takes it: `cmd` with a command
    string, `read` with `{"path": ...}`, `edit` with `{"path": ..., "op": ...}`."""
    from openhands_tui.sdk.security.commands import assess_command
    from openhands_tui.sdk.security.files import assess_edit, assess_read

    if kind == "cmd":
        if not isinstance(value, str):
            raise ValueError('"cmd" input must be the command string')
        return Assessment.from_findings(
            assess_command(value, str(workspace), str(cwd) if cwd else None, programs=programs)
        )
    if kind in ("read", "edit"):
        if not isinstance(value, dict) or not isinstance(value.get("path"), str):
            raise ValueError(f'"{kind}" input must be an object with a "path" string')
        if kind == "read":
            return Assessment.from_findings(assess_read(value["path"], str(workspace)))
        return Assessment.from_findings(assess_edit(value["path"], str(workspace), str(value.get("op", "edit"))))
    raise ValueError(f'unknown kind {kind!r} (expected "cmd", "edit" or "read")')
