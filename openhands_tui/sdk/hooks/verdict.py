"""What a hook said, read by Claude Code's documented contract (OpenHands follows it too).

- Exit 0: success. A JSON object on stdout is read for `decision` ("block"/"deny",
  "approve"/"allow", "ask"), `reason`, `additionalContext`, `systemMessage`, `continue`/
  `stopReason` and `hookSpecificOutput` (`permissionDecision`, `permissionDecisionReason`,
  `updatedInput`, `additionalContext`). Plain text on stdout is context for the model on
  UserPromptSubmit and SessionStart, and only recorded elsewhere.
- Exit 2: blocking. The reason is stderr (or the JSON's `reason`, as OpenHands' scripts print it).
- Any other exit, a timeout, or a hook that could not start: a non-blocking error, said in the
  transcript; the run goes on as if the hook had not been there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

Decision = Literal["allow", "deny", "ask"]

_DECISIONS: dict[str, Decision] = {
    "block": "deny",
    "deny": "deny",
    "approve": "allow",
    "allow": "allow",
    "ask": "ask",
}
#: Events whose plain stdout (exit 0) is context for the model.
_STDOUT_IS_CONTEXT = frozenset({"UserPromptSubmit", "SessionStart"})
MAX_SAID_CHARS = 4000


@dataclass
class HookRun:
    """What running one hook produced."""

    exit_code: int | None = 0
    stdout: str = ""
    stderr: str = ""
    #: Why it produced nothing usable: it timed out, could not start, or raised.
    error: str = ""
    #: A Python hook's answer (already a dict in the output format).
    output: dict[str, Any] | None = None
    elapsed_ms: float = 0.0


@dataclass
class Verdict:
    """One hook's decision, in the engine's terms."""

    decision: Decision | None = None
    reason: str = ""
    context: str = ""
    updated_input: dict[str, Any] | None = None
    system_message: str = ""
    #: `continue: false`: the run is to stop, with this reason.
    stop: str | None = None
    #: A non-blocking error (exit 1, a timeout...): said, otherwise ignored.
    problem: str = ""


def read_verdict(event: str, run: HookRun) -> Verdict:
    if run.error:
        return Verdict(problem=run.error)
    output = run.output if run.output is not None else _json_object(run.stdout)
    if run.exit_code == 2:
        reason = _text(output.get("reason")) if output else ""
        said = reason or run.stderr.strip() or run.stdout.strip() or "blocked by a hook (exit 2)"
        verdict = _from_output(event, output) if output else Verdict()
        verdict.decision, verdict.reason = "deny", _cap(said)
        return verdict
    if run.exit_code not in (0, None):
        detail = run.stderr.strip() or run.stdout.strip() or "no output"
        return Verdict(problem=_cap(f"exit {run.exit_code}: {detail}"))
    if output is not None:
        return _from_output(event, output)
    plain = run.stdout.strip()
    return Verdict(context=_cap(plain)) if plain and event in _STDOUT_IS_CONTEXT else Verdict()


def _from_output(event: str, output: dict[str, Any]) -> Verdict:
    specific = output.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision = _DECISIONS.get(_text(output.get("decision")).lower())
    reason = _text(output.get("reason"))
    permission = _DECISIONS.get(_text(specific.get("permissionDecision")).lower())
    if permission is not None:
        decision, reason = permission, _text(specific.get("permissionDecisionReason")) or reason
    context = "\n".join(
        part for part in (_text(output.get("additionalContext")), _text(specific.get("additionalContext"))) if part
    )
    updated = specific.get("updatedInput", output.get("updatedInput"))
    stop = None
    if output.get("continue") is False:
        stop = _text(output.get("stopReason")) or f"a {event} hook stopped the run"
    return Verdict(
        decision=decision,
        reason=_cap(reason),
        context=_cap(context),
        updated_input=updated if isinstance(updated, dict) else None,
        system_message=_cap(_text(output.get("systemMessage"))),
        stop=_cap(stop) if stop else None,
    )


def _json_object(text: str) -> dict[str, Any] | None:
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _cap(text: str) -> str:
    return text if len(text) <= MAX_SAID_CHARS else text[:MAX_SAID_CHARS] + f" [… {len(text):,} characters]"
