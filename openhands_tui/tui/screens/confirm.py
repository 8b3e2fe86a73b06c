"""The confirmation prompt, for any agent at any depth.

It shows who is asking (the agent chain), what (the command, or the diff of an edit), how
risky and why. y approves, n rejects (then an optional reason), a approves and remembers
the suggested rule, d shows every argument, Esc interrupts the run; its own footer lists
these keys. Several pending requests are answered one by one; the count of those still
waiting is on screen.

For its first `ARMING_DELAY` seconds nothing approves (not y, a, Enter on a button, nor a
click): see `arming.py`. Rejecting and interrupting work at once.
"""

from __future__ import annotations

import json

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, Static

from openhands_tui.sdk.facts.subject import MCPCall, ShellCommand
from openhands_tui.sdk.run.confirmation import ConfirmationRequest, Decision
from openhands_tui.sdk.security.permissions import PermissionRule
from openhands_tui.sdk.terminal_text import shown_for_approval
from openhands_tui.tui.screens.arming import ArmedDialog
from openhands_tui.tui.widgets.entries import highlighted, proposed_diff

#: The answer Esc gives: a rejection that also asks the app to interrupt the run.
INTERRUPT = Decision(approved=False, reason="the user interrupted the run")


def is_interrupt(decision: Decision | None) -> bool:
    return decision is not None and not decision.approved and decision.reason == INTERRUPT.reason


class ConfirmScreen(ArmedDialog[Decision]):
    BINDINGS = [
        Binding("y", "approve", "Approve"),
        Binding("n", "reject", "Reject"),
        Binding("a", "always", "Always allow"),
        Binding("d", "details", "Details"),
        Binding("escape", "interrupt", "Interrupt the run"),
    ]

    def __init__(self, request: ConfirmationRequest, queued: int = 0) -> None:
        super().__init__(classes="confirm-screen")
        self.request = request
        self.queued = queued
        self._asking_reason = False

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="confirm-dialog", classes=f"risk-{request.risk.lower()}"):
            yield Static(self._header(), id="confirm-header")
            with VerticalScroll(id="confirm-body"):
                subject = request.subject
                diff = proposed_diff(subject)
                if isinstance(subject, ShellCommand):
                    yield Static(highlighted(shown_for_approval(subject.command), "bash"), id="confirm-command")
                    yield Static(Text(f"in {shown_for_approval(subject.cwd)}", style="dim"), id="confirm-cwd")
                elif isinstance(subject, MCPCall):
                    yield Static(
                        Text(shown_for_approval(f"MCP server {subject.server} · tool {subject.tool}"), style="bold")
                    )
                    yield Static(Text(json.dumps(subject.arguments, indent=2)), id="confirm-mcp-arguments")
                else:
                    yield Static(Text(shown_for_approval(request.summary), style="bold"), id="confirm-summary")
                if diff:  # the new text is the model's: what hides in it must show (as in the command)
                    yield Static(highlighted(shown_for_approval(diff), "diff"), id="confirm-diff")
                reasons = "\n".join(_why(request)) or "• no reasons given"
                yield Static(Text("Why it is rated so:\n" + reasons), id="confirm-reasons")
                yield Static(Text(json.dumps(request.arguments, indent=2)), id="confirm-details", classes="hidden")
            yield Input(placeholder="Why not? (optional, Enter to reject)", id="confirm-reason", classes="hidden")
            with Horizontal(id="confirm-buttons"):
                yield Button("Approve (y)", id="approve", variant="success")
                yield Button("Reject (n)", id="reject", variant="error")
                if request.suggested_rule:
                    rule = PermissionRule.model_validate(request.suggested_rule)
                    target = next(
                        t
                        for t in (
                            rule.command,
                            rule.path,
                            f"mcp:{rule.mcp_pattern}" if rule.mcp else None,
                            rule.read,
                            "",
                        )
                        if t is not None
                    )
                    yield Button(
                        f"Always allow '{shown_for_approval(target or '')}' (a)", id="always", variant="primary"
                    )
                yield Button("Details (d)", id="details")
        yield Footer()  # the dialog's own keys, where the app's footer was

    def _header(self) -> Text:
        header = Text()
        header.append(f" {self.request.risk} ", style="bold reverse")
        who = shown_for_approval(" → ".join(self.request.chain))  # agent names a model may have chosen
        if self.request.escalation:
            again = shown_for_approval(self.request.escalation)
            header.append(f"  {who}: the sandbox stopped it — run it again with {again}?")
        else:
            header.append(f"  {who} wants to run {shown_for_approval(self.request.tool_name)}")
        if self.queued:
            header.append(f"   (+{self.queued} more waiting)", style="bold")
        return header

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers "a Always allow" only where there is a rule to remember: a request
        without one has no such button, and its footer said it had."""
        return action != "always" or bool(self.request.suggested_rule)

    def set_queued(self, queued: int) -> None:
        """More requests arrived while this one is shown: say how many wait behind it."""
        self.queued = queued
        if self.is_mounted:
            self.query_one("#confirm-header", Static).update(self._header())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "approve": self.action_approve,
            "reject": self.action_reject,
            "always": self.action_always,
            "details": self.action_details,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    def action_approve(self) -> None:
        if self.armed("y"):
            self.dismiss(Decision(approved=True))

    def action_always(self) -> None:
        if not self.armed("a"):
            return
        if not self.request.suggested_rule:  # hidden then (`check_action`): only a click could come here
            return
        self.dismiss(Decision(approved=True, remember=PermissionRule.model_validate(self.request.suggested_rule)))

    def action_interrupt(self) -> None:
        """Esc: stop the run (this action is rejected on the way); while typing a reason, just reject."""
        self.dismiss(Decision(approved=False) if self._asking_reason else INTERRUPT)

    def action_reject(self) -> None:
        if self._asking_reason:
            return
        self._asking_reason = True
        reason = self.query_one("#confirm-reason", Input)
        reason.remove_class("hidden")
        reason.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(Decision(approved=False, reason=event.value.strip()))

    def action_details(self) -> None:
        self.query_one("#confirm-details").toggle_class("hidden")


def _why(request: ConfirmationRequest) -> list[str]:
    """Each reason with the id of the rule that gave it (`· npm.publish`), so a user can look the
    rule up, tighten it in their own programs.toml, or report it by name."""
    rules = request.rules + [""] * (len(request.reasons) - len(request.rules))
    return [
        f"• {shown_for_approval(reason)}" + (f"  · {shown_for_approval(rule)}" if rule else "")
        for reason, rule in zip(request.reasons, rules, strict=False)
    ]
