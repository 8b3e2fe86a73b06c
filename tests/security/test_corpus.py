"""Every case of the shared risk corpus lands within its bounds (min_risk..max_risk)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command
from openhands_tui.sdk.security.files import assess_edit, assess_read

CASES = [json.loads(line) for line in (Path(__file__).parent / "risk_corpus.jsonl").read_text().splitlines()]


def test_the_corpus_is_complete() -> None:
    assert len(CASES) == 108


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_within_bounds(case: dict, project: Path) -> None:
    kind, value = case["kind"], case["input"]
    if kind == "cmd":
        findings = assess_command(value, str(project))
    elif kind == "read":
        findings = assess_read(value["path"], str(project))
    else:
        findings = assess_edit(value["path"], str(project), value.get("op", "edit"))
    assessment = Assessment.from_findings(findings)
    low, high = Risk(case["min_risk"]), Risk(case.get("max_risk", "HIGH"))
    assert low.severity <= assessment.risk.severity <= high.severity, (
        f"{case['id']} {value!r}: got {assessment.risk} ({assessment.reasons}), want {low}..{high}: {case['why']}"
    )
    assert assessment.reasons, "every verdict says why"
