"""The hook engine: which hooks an event runs, running them side by side, and what they decided.

Every hook whose matcher matches runs at once (as in Claude Code); identical commands run once.
Their verdicts combine: a deny anywhere wins, then an ask, then an allow; reasons and added
context are joined; the last `updatedInput` in configuration order is kept. Each hook's own
outcome is handed back (`HookOutcome.ran`) for the run to record as an event, so the user sees
which hook said what. An `async` hook is started and not waited for; its outcome is reported
when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openhands_tui.sdk.hooks.config import EVENT_BY_NAME, HookDefinition, HookMatcher, HookType
from openhands_tui.sdk.hooks.payload import HookInput
from openhands_tui.sdk.hooks.runner import run_hook
from openhands_tui.sdk.hooks.sources import HookSource, script_state
from openhands_tui.sdk.hooks.verdict import HookRun, Verdict, read_verdict


@dataclass
class HookRan:
    """One hook's run, as recorded: which hook, from where, and what it said."""

    event: str
    source: str
    hook: str
    matcher: str
    outcome: str
    said: str = ""
    exit_code: int | None = None
    elapsed_ms: float = 0.0


@dataclass
class HookOutcome:
    """What the hooks of one event decided together."""

    decision: str | None = None
    reason: str = ""
    context: str = ""
    updated_input: dict[str, Any] | None = None
    system_messages: list[str] = field(default_factory=list)
    stop: str | None = None
    ran: list[HookRan] = field(default_factory=list)
    #: The label of the hook whose decision this is (for "decided by").
    decided_by: str = ""


@dataclass(frozen=True)
class _Planned:
    source: HookSource
    matcher: HookMatcher
    hook: HookDefinition


#: Called with each async hook's outcome when it ends.
Reporter = Callable[[HookRan], None]

_DECISION_OUTCOME = {"deny": "denied", "ask": "asked", "allow": "allowed"}


class HookEngine:
    """The session's hooks. Cheap when there are none: `has(event)` is a lookup."""

    def __init__(self, workspace: Path, sources: list[HookSource] | None = None) -> None:
        self.workspace = workspace
        self.sources: list[HookSource] = []
        self._background: set[asyncio.Task[None]] = set()
        self._events: set[str] = set()
        for source in sources or ():
            self.add(source)

    def add(self, source: HookSource) -> None:
        self.sources.append(source)
        self._events |= {name for name in EVENT_BY_NAME if source.config.matchers(name)}

    def has(self, event: str) -> bool:
        return event in self._events

    def environment(self) -> dict[str, str]:
        root = str(self.workspace)
        return {**os.environ, "CLAUDE_PROJECT_DIR": root, "OPENHANDS_PROJECT_DIR": root}

    def _plan(self, hook_input: HookInput) -> list[_Planned]:
        spec = EVENT_BY_NAME[hook_input.event]
        names = hook_input.match_names()
        planned: list[_Planned] = []
        commands: set[str] = set()
        for source in self.sources:
            for matcher in source.config.matchers(hook_input.event):
                if spec.matches is not None and not matcher.matches(names):
                    continue
                for hook in matcher.hooks:
                    if hook.type is HookType.COMMAND:
                        if hook.command in commands:
                            continue  # the same command from two files runs once
                        commands.add(hook.command)
                    planned.append(_Planned(source, matcher, hook))
        return planned

    async def run(self, hook_input: HookInput, report: Reporter | None = None) -> HookOutcome:
        """Run the hooks `hook_input` matches and combine what they said."""
        planned = self._plan(hook_input)
        waited = [p for p in planned if not p.hook.async_]
        for item in planned:
            if item.hook.async_:
                self._start_in_background(item, hook_input, report)
        results = await asyncio.gather(*(self._run_one(p, hook_input) for p in waited))
        return _combine(results)

    def start(self, hook_input: HookInput, report: Reporter) -> None:
        """Run the hooks `hook_input` matches in the background (a Notification: nobody waits)."""
        for item in self._plan(hook_input):
            self._start_in_background(item, hook_input, report)

    async def _run_one(self, item: _Planned, hook_input: HookInput) -> tuple[_Planned, Verdict, HookRan]:
        changed = self._changed_script(item.source)
        if changed is not None:
            verdict = Verdict(problem=f"not run: {changed} changed since this project's hooks were trusted")
            return item, verdict, _ran(item, hook_input, verdict, HookRun(exit_code=None), "skipped")
        environment = {**self.environment(), **item.source.environment}
        run = await run_hook(item.hook, hook_input.payload(item.source.dialect), self.workspace, environment)
        verdict = read_verdict(hook_input.event, run)
        return item, verdict, _ran(item, hook_input, verdict, run)

    def _changed_script(self, source: HookSource) -> str | None:
        if source.origin != "project":
            return None
        for path, state in source.scripts.items():
            if script_state(path) != state:
                return os.path.relpath(path, self.workspace)
        return None

    def _start_in_background(self, item: _Planned, hook_input: HookInput, report: Reporter | None) -> None:
        async def run() -> None:
            _, _, ran = await self._run_one(item, hook_input)
            if report is not None:
                report(ran)

        task = asyncio.ensure_future(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def aclose(self) -> None:
        """Stop hooks still running in the background (their process groups are killed)."""
        for task in list(self._background):
            task.cancel()
        for task in list(self._background):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _ran(item: _Planned, hook_input: HookInput, verdict: Verdict, run: HookRun, outcome: str = "") -> HookRan:
    if not outcome:
        if verdict.problem:
            outcome = "timed out" if "timed out" in verdict.problem else "failed"
        elif verdict.stop is not None:
            outcome = "stopped the run"
        elif verdict.decision is not None:
            outcome = _DECISION_OUTCOME[verdict.decision]
            if verdict.decision == "deny" and EVENT_BY_NAME[hook_input.event].matches != "tool":
                outcome = "blocked"
        elif verdict.updated_input is not None:
            outcome = "changed the input"
        elif verdict.context:
            outcome = "added context"
        else:
            outcome = "ran"
    said = verdict.problem or verdict.stop or verdict.reason or verdict.context or verdict.system_message
    if not said and outcome == "ran":
        said = (run.stdout.strip() or run.stderr.strip())[:500]
    return HookRan(
        event=hook_input.event,
        source=item.source.label,
        hook=item.hook.label(),
        matcher=item.matcher.matcher,
        outcome=outcome,
        said=said,
        exit_code=run.exit_code,
        elapsed_ms=run.elapsed_ms,
    )


def _combine(results: list[tuple[_Planned, Verdict, HookRan]]) -> HookOutcome:
    outcome = HookOutcome(ran=[ran for _, _, ran in results])
    for rank in ("deny", "ask", "allow"):
        deciding = [(item, verdict) for item, verdict, _ in results if verdict.decision == rank]
        if deciding:
            outcome.decision = rank
            outcome.reason = "; ".join(v.reason for _, v in deciding if v.reason)
            outcome.decided_by = f"hook {deciding[0][0].hook.label()} ({deciding[0][0].source.label})"
            break
    outcome.context = "\n\n".join(v.context for _, v, _ in results if v.context)
    for _, verdict, _ in results:
        if verdict.updated_input is not None:
            outcome.updated_input = verdict.updated_input
        if verdict.system_message:
            outcome.system_messages.append(verdict.system_message)
        if verdict.stop is not None and outcome.stop is None:
            outcome.stop = verdict.stop
    return outcome
