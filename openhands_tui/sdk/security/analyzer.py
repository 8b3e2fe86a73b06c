"""The analyzer port and the minimal analyzer the engine starts with."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from openhands_tui.sdk.event import Risk


class Assessment(BaseModel):
    risk: Risk
    reasons: list[str] = Field(default_factory=list)


class RiskAnalyzer(Protocol):
    def assess(
        self, tool_name: str, arguments: dict[str, Any], changes_state: bool, workspace: Path
    ) -> Assessment: ...


class StateChangeAnalyzer:
    """Rates by whether the tool call can change anything: LOW if not, MEDIUM if so."""

    def assess(
        self, tool_name: str, arguments: dict[str, Any], changes_state: bool, workspace: Path
    ) -> Assessment:
        if not changes_state:
            return Assessment(risk=Risk.LOW, reasons=[f"{tool_name}: read-only call"])
        return Assessment(risk=Risk.MEDIUM, reasons=[f"{tool_name}: can change the workspace"])
