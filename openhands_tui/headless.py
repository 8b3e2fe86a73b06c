"""Headless runs: a readable transcript (or JSON lines) on stdout, confirmations on the terminal.

Without a terminal to ask, a confirmation is rejected with the reason, and the model is
told: a risky action never runs silently just because nobody is watching.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable
from typing import TextIO

from openhands_tui.approval_details import approval_details
from openhands_tui.demo import resume_hint
from openhands_tui.launch import Launched, LaunchOptions, launch, log_to_session
from openhands_tui.sdk.context.attachments import Given
from openhands_tui.sdk.context.images import ImageRefused, read_image
from openhands_tui.sdk.errors import SessionError, SettingsError
from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    CheckpointEvent,
    ChildChangesEvent,
    CondensationEvent,
    ConfirmationResolvedEvent,
    CriticResultEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    HookRanEvent,
    JobEvent,
    MessageEvent,
    MicroagentsLoadedEvent,
    MicroagentTriggeredEvent,
    ObservationEvent,
    ResultsTruncatedEvent,
    Status,
    StatusEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.facts.subject import Finish
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationRequest, Decision
from openhands_tui.sdk.run.outcome import RunOutcome
from openhands_tui.sdk.run.plan_mode import approved_task, last_plan, planning_when_stored, revision_task
from openhands_tui.sdk.security.permissions import PermissionRule
from openhands_tui.sdk.terminal_text import inert_json, safe_for_terminal, shown_for_approval, strip_controls
from openhands_tui.standard_streams import QueuedOutput
from openhands_tui.timeline_lines import checkpoint_problem_line, checkpoint_skipped_line
from openhands_tui.verdict_lines import critic_line, hook_line

PREVIEW_LINES = 8
#: Ctrl+C, `kill`, and a closed terminal or dropped SSH connection all stop the run cleanly.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def write_out(out: TextIO, text: str) -> None:
    """Write and flush; when the reader has gone (`tui ... | head`), the rest of the output goes
    to /dev/null and the run carries on to its own end and exit code — no BrokenPipeError."""
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


class JsonPrinter:
    """One JSON object per persisted event per line: the events.jsonl schema."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def __call__(self, event: Event) -> None:
        if not event.transient:
            write_out(self.out, inert_json(event.model_dump_json()) + "\n")


class TranscriptPrinter:
    """A plain-text transcript a person can follow (and grep)."""

    def __init__(self, out: TextIO, err: TextIO | None = None) -> None:
        self.out = out
        self.err = err  # None: sys.stderr as it is when a warning is printed
        self.names: dict[str, str] = {}
        self.depths: dict[str, int] = {}
        self.finishing: set[str] = set()
        self.checkpoints_said: set[str] = set()  # what a checkpoint could not do, said once a run

    def __call__(self, event: Event) -> None:
        line = self._format(event)
        if line is not None:  # model text and command output never reach the terminal raw
            write_out(self.out, safe_for_terminal(line) + "\n")

    def _who(self, event: Event) -> str:
        """Children are tagged with their name and indented by their depth in the tree."""
        if event.parent_agent_id is None:
            return ""
        name = self.names.get(event.agent_id, event.agent_id)
        return "  " * (self.depths.get(event.agent_id, 1) - 1) + f"[{name}] "

    def _format(self, event: Event) -> str | None:
        if isinstance(event, DelegationOpenedEvent):
            self.names[event.agent_id], self.depths[event.agent_id] = _shown(event.agent_name), event.depth
            return None
        who = self._who(event)
        if isinstance(event, SystemPromptEvent):
            self.names.setdefault(event.agent_id, _shown(event.agent_name))
            return f"{who}── agent {_shown(event.agent_name)} · {_shown(event.model)}"
        if isinstance(event, MicroagentTriggeredEvent):
            why = f"keyword {_shown(repr(event.keyword))}" if event.keyword else "always on"
            return f"{who}  ◆ microagent {_shown(event.name)} ({event.type}, {why}, {event.tokens} tokens)"
        if isinstance(event, CheckpointEvent):
            said = checkpoint_problem_line(event) if event.problem else checkpoint_skipped_line(event)
            if (event.problem or event.skipped) and said not in self.checkpoints_said:
                self.checkpoints_said.add(said)
                print(f"warning: {strip_controls(said)}", file=self.err or sys.stderr)
            return None
        if isinstance(event, MicroagentsLoadedEvent):
            for problem in [*event.warnings, *event.shadowed]:
                print(f"warning: {strip_controls(problem)}", file=self.err or sys.stderr)
            return None
        if isinstance(event, DelegationClosedEvent) and event.status == "rejected":
            return f"{who}✗ not started: {_shown(event.reason)}"
        if isinstance(event, MessageEvent):
            if event.role == "user":
                sender = f"↻ {event.source} " if event.source else ""  # sent back by a critic or a Stop hook
                said = f"{who}{sender}› {_shown(event.content)}"
                return "\n".join([said, *(f"{who}  {_shown(label)}" for label in event.attachment_labels())])
            lines = [thinking_marker(who, event)] if event.thinking else []
            if event.content.strip():
                lines.append(f"{who}{_shown(event.content)}")
            return "\n".join(lines) or None
        if isinstance(event, ActionEvent):
            if isinstance(event.subject, Finish):
                self.finishing.add(event.tool_call_id)  # its message is the run's result, printed at the end
            risk = f"  [{event.risk}]" if event.risk and event.risk != "LOW" else ""
            together = "⇉ " if event.parallel > 1 else ""  # ran side by side with its neighbours
            return f"{who}  ▸ {together}{_shown(event.summary)}{risk}"
        if isinstance(event, ObservationEvent):
            if event.tool_call_id in self.finishing:
                return None
            return _indent(_preview(_shown(event.content)), f"{who}    ")
        if isinstance(event, ConfirmationResolvedEvent) and event.decided_by.startswith(("rule:", "hook ")):
            verdict = "✓ approved" if event.approved else "⊘ rejected"  # which rule (and file) decided
            return f"{who}    {verdict} ({_shown(event.decided_by)})"
        if isinstance(event, AgentErrorEvent):
            return f"{who}  ! {_shown(event.error)}"
        if isinstance(event, HookRanEvent):
            return None if event.outcome == "ran" and not event.said else f"{who}  {_shown(hook_line(event))}"
        if isinstance(event, CriticResultEvent):
            return f"{who}  {_shown(critic_line(event))}"
        if isinstance(event, JobEvent | ChildChangesEvent):
            return f"{who}  {_shown(event.line())}"
        if isinstance(event, ResultsTruncatedEvent):
            return f"{who}  ⇊ shortened {len(event.positions)} tool result(s) to fit the context window"
        if isinstance(event, CondensationEvent):
            return (
                f"{who}  ⇊ condensed {event.removed} messages ({event.reason}): "
                f"{event.tokens_before:,} → {event.tokens_after:,} tokens"
            )
        if isinstance(event, StatusEvent) and event.status in ("finished", "error", "stuck", "paused"):
            said_at_the_end = event.parent_agent_id is None and event.status == "error"  # the closing line says why
            detail = f": {_shown(event.detail)}" if event.detail and not said_at_the_end else ""
            return f"{who}● {event.status}{detail}"
        return None


def thinking_marker(who: str, event: MessageEvent) -> str:
    """One line for what the model thought first (`--json` carries the blocks themselves)."""
    chars = sum(len(block.get("thinking") or "") for block in event.thinking)
    redacted = sum(1 for block in event.thinking if block.get("type") == "redacted_thinking")
    hidden = f", {redacted} redacted by the provider" if redacted else ""
    return f"{who}  ✻ thought ({chars:,} chars{hidden})"


def usage_line(tree: DelegationTree) -> str | None:
    """Tokens, the share read from the prompt cache, and cost of the whole run."""
    if tree.root_id is None:
        return None
    prompt, read, written = tree.subtree_cache(tree.root_id)
    output = tree.subtree_tokens(tree.root_id) - prompt
    if not prompt:
        return None
    cache = f" ({100 * read / prompt:.1f}% read from the prompt cache, {written:,} written)" if read or written else ""
    cost, unpriced = tree.subtree_cost(tree.root_id), tree.subtree_unpriced(tree.root_id)
    money = f" · ${cost:.4f}" if cost else ""
    if unpriced:  # no price for the model: say so rather than show a cost too low or none
        money = f"{money} · cost unknown{f' for {unpriced:,} calls' if cost else ''} (no price for the model)"
    return f"tokens: {prompt:,} in{cache} · {output:,} out{money}"


def _shown(text: str) -> str:
    """Text from an event, made safe before the transcript's own prefixes are put around it: a
    carriage return in a file name or a command's output (`a\\r● finished`) flattened after the
    prefix was added erased the indentation, and the line read as one of the run's own."""
    return safe_for_terminal(text)


def _preview(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= PREVIEW_LINES:
        return "\n".join(lines)
    hidden = len(lines) - PREVIEW_LINES
    return "\n".join([*lines[: PREVIEW_LINES - 1], f"… ({hidden} more lines)", lines[-1]])


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


class TerminalConfirmer:
    """Asks y/n on the controlling terminal when there is one; otherwise rejects, saying why."""

    def __init__(
        self, mode: ConfirmationMode, interactive: bool | None = None, before_asking: Callable[[], object] | None = None
    ) -> None:
        self.mode = mode
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        #: Called (on a worker thread) before a question is shown: the transcript so far is
        #: written first, so the question is never above the action it asks about.
        self.before_asking = before_asking
        self._one_at_a_time = asyncio.Lock()  # parallel children's questions queue up

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        if not self.interactive:
            return Decision(
                approved=False,
                decided_by="policy",
                reason=(
                    f"this headless run has no terminal to ask for approval of {request.risk} actions "
                    f"(--confirm {self.mode})"
                ),
            )
        chain = shown_for_approval(" → ".join(request.chain))
        rules = request.rules + [""] * (len(request.reasons) - len(request.rules))
        reasons = shown_for_approval(
            "; ".join(f"{r} [{rule}]" if rule else r for r, rule in zip(request.reasons, rules, strict=False))
        )
        always = ""
        if request.suggested_rule:
            rule = PermissionRule.model_validate(request.suggested_rule)
            always = f", a = always ({shown_for_approval(rule.describe())})"
        wants = (
            f"was stopped by the sandbox; run it again with {shown_for_approval(request.escalation)}"
            if request.escalation
            else "wants to run"
        )
        details = approval_details(request.subject)
        prompt = (
            f"\n[{chain}] {wants} ({request.risk}: {reasons}):\n"
            f"  {shown_for_approval(request.summary)}\n{details + chr(10) if details else ''}"
            f"Approve? [y = yes, N = no{always}, or type a reason to reject] "
        )
        async with self._one_at_a_time:
            if self.before_asking is not None:
                await asyncio.to_thread(self.before_asking)
            answer = (await asyncio.to_thread(_ask, prompt)).strip()
        if answer.lower() in ("y", "yes"):
            return Decision(approved=True)
        if answer.lower() in ("a", "always") and request.suggested_rule:
            return Decision(approved=True, remember=PermissionRule.model_validate(request.suggested_rule))
        reason = "" if answer.lower() in ("", "n", "no") else answer
        return Decision(approved=False, reason=reason)


def _ask(prompt: str) -> str:
    _drop_typeahead()
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return sys.stdin.readline()


def _drop_typeahead() -> None:
    """Discard what was typed before the question was shown: a `y` and Enter pressed while output
    scrolled by (or meant for an earlier prompt) approved an action nobody had read."""
    try:
        import termios

        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):  # not a terminal we can flush: nothing queued to drop
        pass


def plan_task(options: LaunchOptions, launched: Launched) -> str | None:
    """The task a headless run sends: `--approve-plan` sends the session's last plan (plan mode
    is already off: `launch` saw to it) with `--task` as a note; `--plan --task NOTE` on a
    session that presented a plan asks for a revised one; otherwise `--task` as given."""
    plan = last_plan(launched.history)
    if options.approve_plan:
        if plan is None:
            raise SessionError(
                f"--approve-plan: session {launched.log.id} has presented no plan (start one with --plan)"
            )
        return approved_task(plan, options.task or "")
    if options.plan and options.task and plan is not None and planning_when_stored(launched.history):
        return revision_task(options.task)
    return options.task


def given_images(options: LaunchOptions) -> Given:
    """The `--image` files, read and checked before a session is started: a missing, fake or
    too big one stops the run in one line naming the flag (exit 2)."""
    images = []
    for path in options.images:
        try:
            images.append(read_image(path))
        except ImageRefused as exc:
            raise SettingsError(f"--image {exc}") from None
    return Given(images=images)


async def _run(launched: Launched, task: str | None, inputs: dict[str, str], given: Given = Given()) -> RunOutcome:
    conversation = launched.conversation
    loop = asyncio.get_running_loop()
    current = asyncio.current_task()
    assert current is not None

    def interrupt() -> None:
        current.cancel()
        for sig in STOP_SIGNALS:  # a second signal ends the process at once
            loop.remove_signal_handler(sig)

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, interrupt)
    try:
        return await conversation.run(task, inputs, given=given)
    finally:
        await conversation.close()


def run_headless(options: LaunchOptions, *, json_output: bool) -> int:
    """Run to the end and return the exit code (0 finished, 1 error, 3 limit/stuck, 130 interrupted)."""
    output = QueuedOutput(sys.stdout, sys.stderr)  # a stalled reader must not stall the run
    # With --json, stdout carries the events and nothing else (as in ACP mode): what else prints
    # there (a strategy's print(), a library) goes to stderr.
    with contextlib.redirect_stdout(sys.stderr) if json_output else contextlib.nullcontext():
        return _run_to_the_end(options, json_output, output)


def _run_to_the_end(options: LaunchOptions, json_output: bool, output: QueuedOutput) -> int:
    out = output.stdout
    printer = JsonPrinter(out) if json_output else TranscriptPrinter(out, output.stderr)
    confirmer = TerminalConfirmer(options.confirm, before_asking=output.drain)
    try:
        given = given_images(options)
        launched = launch(options, confirmer=confirmer, subscribers=[printer])
    except BaseException:
        output.close(timeout=1)
        raise
    log_to_session(launched)
    logging.captureWarnings(True)  # a library's warnings (an unawaited coroutine after Ctrl-C) go to tui.log
    for warning in launched.warnings:
        print(f"warning: {warning}", file=output.stderr)
    for request in launched.trust_requests:
        what = "hooks, which would run outside the sandbox," if request.kind == "hooks" else "own approvals"
        print(
            f"warning: ignoring {request.describe()}: this project's {what} are not trusted "
            "(review them, then pass --trust-project or trust them in the app)",
            file=output.stderr,
        )
    verb = "resuming" if launched.resumed else "session"
    what = f"{launched.strategy.name} · {launched.agent.llm.model} · sandbox {launched.sandbox}"
    planning = launched.conversation.runtime.plan_mode
    print(f"{verb} {launched.log.id} · {what}{' · plan mode (read-only)' if planning else ''}", file=output.stderr)
    try:
        task = plan_task(options, launched)
        outcome = asyncio.run(_run(launched, task, launched.inputs, given))
    except BaseException:
        output.close(timeout=1)
        raise
    if not json_output and outcome.result:
        write_out(out, f"\n{safe_for_terminal(outcome.result)}\n")
    # An interrupted run does not wait on a reader that stopped reading; a finished one hands
    # over all of its output, as any program in a pipeline does.
    output.close(timeout=1 if outcome.exit_code == 130 else None)
    usage = usage_line(launched.conversation.runtime.tree)
    if usage:
        print(usage, file=sys.stderr)
    why = f": {safe_for_terminal(outcome.detail)}" if outcome.detail and outcome.exit_code else ""
    again = resume_hint(launched.log.id, launched.agent.llm.model)
    if planning and outcome.status is Status.FINISHED and outcome.result.strip():
        print(
            f"plan ready · session {launched.log.id}\n"
            f"  carry it out:  {again} --headless --approve-plan   (add --confirm never to approve every step)\n"
            f'  revise it:     {again} --headless --plan --task "what to change"',
            file=sys.stderr,
        )
    else:
        print(f"{outcome.status.value}{why} · session {launched.log.id} (resume with: {again})", file=sys.stderr)
    if output.lost is not None:
        print(
            f"tui: standard output: cannot write ({output.lost}); "
            f"the whole run is in the session: tui view {launched.log.id}",
            file=sys.stderr,
        )
        return outcome.exit_code or 1
    return outcome.exit_code
