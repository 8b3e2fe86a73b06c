"""Every case of the round-3 corpus (corpus_round3.txt) lands within its bounds, as the shared
risk corpus's cases do (test_corpus.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command
from openhands_tui.sdk.security.files import assess_edit, assess_read

_RISKS = {"L": Risk.LOW, "M": Risk.MEDIUM, "H": Risk.HIGH}
CASES = [
    line.split(" ", 3)
    for line in (Path(__file__).parent / "corpus_round3.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def test_the_corpus_is_whole() -> None:
    assert len(CASES) == 203 and all(low in _RISKS and high in _RISKS for low, high, _, _ in CASES)
    assert sum(low == "H" for low, _, _, _ in CASES) >= 100 and sum(high != "H" for _, high, _, _ in CASES) >= 50


@pytest.mark.parametrize("case", CASES, ids=[f"{kind}:{value[:60]}" for _, _, kind, value in CASES])
def test_case_within_bounds(case: list[str], project: Path) -> None:
    low, high, kind, value = case
    value = value.replace("/home/dev", str(Path.home()))
    if kind == "cmd":
        findings = assess_command(value, str(project))
    elif kind == "read":
        findings = assess_read(value, str(project))
    else:
        findings = assess_edit(value, str(project), "edit")
    assessment = Assessment.from_findings(findings)
    assert _RISKS[low].severity <= assessment.risk.severity <= _RISKS[high].severity, (value, assessment.reasons)
    assert assessment.reasons
