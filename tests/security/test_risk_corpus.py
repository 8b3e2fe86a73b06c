"""Every case of the risk corpus (risk_corpus.jsonl) is rated within its bounds, with a reason.

The file holds one JSON object a line, one case each:

- `id`: unique; the test's id (`cmd-001`, `read-254`, `edit-499`).
- `kind`: `cmd` (a shell command), `read` (the file editor reads a file) or `edit` (it changes one).
- `input`: for `cmd` the command line; for `read` and `edit` an object with `path`, and for
  `edit` optionally `op` (`edit` unless said) and `summary` (what the change does, for people).
- `min_risk`, `max_risk`: the bounds, `LOW`, `MEDIUM` or `HIGH`; `max_risk` is `HIGH` unless
  given. The rating must lie within them.
- `home` (optional): a path in `input` that stands for the home directory of whoever runs the
  tests (`/home/dev`); the test puts that directory in its place. Elsewhere `/home/dev` is a path
  like any other.
- `why`, `category`, `context`, `source` (optional): for people. `source` says where the case
  comes from; the cases written for this project say `openhands-tui:` first. They must keep the
  corpus balanced: false positives cost as much as misses.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command
from openhands_tui.sdk.security.files import assess_edit, assess_read

CASES = [json.loads(line) for line in (Path(__file__).parent / "risk_corpus.jsonl").read_text().splitlines()]
OWN = [case for case in CASES if case["source"].startswith("openhands-tui:")]
RISKS = {risk.value for risk in Risk}


def test_the_corpus_is_complete() -> None:
    assert len(CASES) == 311 and len(OWN) == 203
    assert len({case["id"] for case in CASES}) == len(CASES)
    assert all(case["kind"] in ("cmd", "read", "edit") for case in CASES)
    assert all(case["min_risk"] in RISKS and case.get("max_risk", "HIGH") in RISKS for case in CASES)


def test_the_projects_own_cases_are_balanced() -> None:
    """At least 100 of them must be HIGH, and at least 50 must stay below HIGH."""
    assert sum(case["min_risk"] == "HIGH" for case in OWN) >= 100
    assert sum(case.get("max_risk", "HIGH") != "HIGH" for case in OWN) >= 50


def _at_home(value: str | dict, stand_in: str) -> str | dict:
    """`value` with the test's home directory where `stand_in` was."""
    if isinstance(value, str):
        return value.replace(stand_in, str(Path.home()))
    return {**value, "path": value["path"].replace(stand_in, str(Path.home()))}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_within_bounds(case: dict, project: Path) -> None:
    kind, value = case["kind"], case["input"]
    if "home" in case:
        value = _at_home(value, case["home"])
    if kind == "cmd":
        findings = assess_command(value, str(project))
    elif kind == "read":
        findings = assess_read(value["path"], str(project))
    else:
        findings = assess_edit(value["path"], str(project), value.get("op", "edit"))
    assessment = Assessment.from_findings(findings)
    low, high = Risk(case["min_risk"]), Risk(case.get("max_risk", "HIGH"))
    assert low.severity <= assessment.risk.severity <= high.severity, (
        f"{case['id']} {value!r}: got {assessment.risk} ({assessment.reasons}), want {low}..{high}: {case.get('why')}"
    )
    assert assessment.reasons, "every verdict says why"
