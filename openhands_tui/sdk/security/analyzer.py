"""The analyzer port, the rule-based analyzer, and the minimal one kept for tests.

`RuleAnalyzer` decides from rules: shell commands are parsed (never pattern-matched as
strings), paths are resolved, and the result lists every reason. The model's own estimate
is not consulted here; the engine takes max(rules, model) so the model can only raise it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from pydantic import Field

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.security.invocation import Finding


class Assessment(Model):
    risk: Risk
    reasons: list[str] = Field(default_factory=list)

    @classmethod
    def from_findings(cls, findings: list[Finding]) -> Assessment:
        if not findings:
            return cls(risk=Risk.LOW, reasons=[])
        risk = Risk.max(*(f.risk for f in findings))
        # the reasons that set the level come first; lesser ones follow for context
        ordered = sorted(findings, key=lambda f: -f.risk.severity)
        return cls(risk=risk, reasons=[f.reason for f in ordered])


class RiskAnalyzer(Protocol):
    def assess(
        self,
        tool_name: str,
        arguments: dict[str, Any],
        changes_state: bool,
        workspace: Path,
        cwd: Path | None = None,
    ) -> Assessment: ...


class StateChangeAnalyzer:
    """Rates by whether the tool call can change anything: LOW if not, MEDIUM if so."""

    def assess(
        self,
        tool_name: str,
        arguments: dict[str, Any],
        changes_state: bool,
        workspace: Path,
        cwd: Path | None = None,
    ) -> Assessment:
        if not changes_state:
            return Assessment(risk=Risk.LOW, reasons=[f"{tool_name}: read-only call"])
        return Assessment(risk=Risk.MEDIUM, reasons=[f"{tool_name}: can change the workspace"])


class RuleAnalyzer:
    """The default analyzer: terminal commands and file actions are rated by rules."""

    def assess(
        self,
        tool_name: str,
        arguments: dict[str, Any],
        changes_state: bool,
        workspace: Path,
        cwd: Path | None = None,
    ) -> Assessment:
        from openhands_tui.sdk.security.commands import assess_command
        from openhands_tui.sdk.security.files import assess_edit, assess_read

        if tool_name == "terminal":
            command = str(arguments.get("command", ""))
            return Assessment.from_findings(assess_command(command, str(workspace), str(cwd) if cwd else None))
        if tool_name == "file_editor":
            path = str(arguments.get("path", ""))
            operation = str(arguments.get("command", "edit"))
            if operation == "view":
                return Assessment.from_findings(assess_read(path, str(workspace)))
            verb = {"create": "create", "undo_edit": "undo"}.get(operation, "edit")
            return Assessment.from_findings(assess_edit(path, str(workspace), verb))
        if not changes_state:
            return Assessment(risk=Risk.LOW, reasons=[f"{tool_name} changes nothing"])
        return Assessment(risk=Risk.MEDIUM, reasons=[f"{tool_name} can change the workspace"])


def assess_case(kind: str, value: Any, workspace: Path, cwd: Path | None = None) -> Assessment:
    """Rate one action described the way `tui risk --json` takes it: `cmd` with a command
    string, `read` with `{"path": ...}`, `edit` with `{"path": ..., "op": ...}`."""
    from openhands_tui.sdk.security.commands import assess_command
    from openhands_tui.sdk.security.files import assess_edit, assess_read

    if kind == "cmd":
        if not isinstance(value, str):
            raise ValueError('"cmd" input must be the command string')
        return Assessment.from_findings(assess_command(value, str(workspace), str(cwd) if cwd else None))
    if kind in ("read", "edit"):
        if not isinstance(value, dict) or not isinstance(value.get("path"), str):
            raise ValueError(f'"{kind}" input must be an object with a "path" string')
        if kind == "read":
            return Assessment.from_findings(assess_read(value["path"], str(workspace)))
        return Assessment.from_findings(assess_edit(value["path"], str(workspace), str(value.get("op", "edit"))))
    raise ValueError(f'unknown kind {kind!r} (expected "cmd", "edit" or "read")')
