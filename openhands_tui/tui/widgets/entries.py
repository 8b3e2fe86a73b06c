"""One widget per transcript entry: messages, tool calls, delegations, microagents, notices.

Each widget renders from its Entry and re-renders only when the entry's version moved.
Tool calls are compact collapsible blocks (errors open, successes closed); file edits show a
coloured diff; assistant text is markdown and grows in place while it streams.
"""

from __future__ import annotations

import difflib
from typing import Any

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Collapsible, Markdown, Static

from openhands_tui.sdk.event import ActionEvent, ObservationEvent
from openhands_tui.tui.state import Entry

STATUS_ICONS = {
    "running": "⟳",
    "waiting_for_confirmation": "?",
    "finished": "✓",
    "failed": "✗",
    "rejected": "⊘",
    "interrupted": "■",
    "paused": "‖",
    "idle": "○",
    "limit": "✗",
}
MAX_OUTPUT_LINES = 400


class EntryWidget(Widget):
    DEFAULT_CSS = "EntryWidget { height: auto; }"

    def __init__(self, entry: Entry) -> None:
        super().__init__(classes=f"entry {entry.kind} {entry.level}")
        self.entry = entry
        self.shown_version = entry.version

    def refresh_entry(self) -> None:
        """Bring the widget up to date with its entry (called at most ~30 times a second)."""
        if self.shown_version != self.entry.version:
            self.shown_version = self.entry.version
            self.update_from_entry()

    def update_from_entry(self) -> None:
        self.refresh(recompose=True)


class UserEntry(EntryWidget):
    def compose(self) -> ComposeResult:
        extra = self.entry.data.get("context", 0)
        note = f"  [dim](+{extra} context block{'s' if extra != 1 else ''})[/dim]" if extra else ""
        yield Static(Text("› ", style="bold") + Text(self.entry.text), classes="user-text")
        if note:
            yield Static(note, classes="user-note")


class AssistantEntry(EntryWidget):
    def compose(self) -> ComposeResult:
        if self.entry.data.get("final"):
            self.add_class("final")
        self._markdown = Markdown(self.entry.text or " ", classes="assistant-text")
        self._length = len(self.entry.text)
        yield self._markdown

    def update_from_entry(self) -> None:
        text = self.entry.text
        if self.entry.streaming and len(text) > self._length:
            self._markdown.append(text[self._length :])  # streaming only ever appends
        else:
            self._markdown.update(text or " ")  # the final message may differ (redaction)
        self._length = len(text)


class ToolEntry(EntryWidget):
    """`▸ $ ls -la  ✓ exit 0` — expands to the output, or to the diff of an edit."""

    def compose(self) -> ComposeResult:
        action: ActionEvent = self.entry.data["action"]
        observation: ObservationEvent | None = self.entry.data.get("observation")
        error: str | None = self.entry.data.get("error")
        failed = error is not None or (observation is not None and observation.outcome != "ok")
        title = _tool_title(action, observation, error, self.entry.data.get("decision"))
        body = _tool_body(action, observation, error)
        collapsible = Collapsible(*body, title=title, collapsed=not failed, classes="tool-block")
        if failed:
            collapsible.add_class("failed")
        if action.risk == "HIGH":
            collapsible.add_class("high-risk")
        yield collapsible


def _tool_title(
    action: ActionEvent, observation: ObservationEvent | None, error: str | None, decision: str | None
) -> str:
    risk = f" [{action.risk}]" if action.risk and action.risk != "LOW" else ""
    if error is not None:
        state = "✗ invalid call"
    elif observation is None:
        state = "? waiting for you" if decision == "waiting for you" else "⟳ running"
    elif observation.outcome == "rejected":
        state = f"⊘ {decision or 'rejected'}"
    elif observation.outcome == "interrupted":
        state = "■ interrupted"
    else:
        exit_code = observation.data.get("exit_code")
        mark = "✓" if observation.outcome == "ok" else "✗"
        state = f"{mark} exit {exit_code}" if exit_code is not None else mark
        if decision and decision.startswith(("approved", "rejected")) and decision != "approved":
            state += f" · {decision}"
    return f"{action.summary}{risk}  {state}"


def _tool_body(action: ActionEvent, observation: ObservationEvent | None, error: str | None) -> list[Widget]:
    parts: list[Widget] = []
    if action.risk_reasons and action.risk != "LOW":
        parts.append(Static(Text("risk: " + "; ".join(action.risk_reasons), style="dim"), classes="risk-reasons"))
    diff = (observation.data.get("diff") if observation else "") or proposed_diff(action)
    if diff:
        parts.append(Static(Syntax(diff, "diff", theme="ansi_dark", word_wrap=True), classes="diff"))
    if error is not None:
        parts.append(Static(Text(error), classes="tool-error"))
    elif observation is not None and (not diff or observation.outcome != "ok"):
        parts.append(Static(Text(_clip(observation.content)), classes="tool-output"))
    return parts or [Static("…")]


def proposed_diff(action: ActionEvent) -> str:
    """The diff an editor call would make, from its arguments (shown before it runs)."""
    args: dict[str, Any] = action.arguments
    if action.tool_name != "file_editor":
        return ""
    path = str(args.get("path", "file"))
    if args.get("command") == "create":
        before, after = "", str(args.get("file_text") or "")
    elif args.get("command") == "str_replace":
        before, after = str(args.get("old_str") or ""), str(args.get("new_str") or "")
    elif args.get("command") == "insert":
        before, after = "", str(args.get("new_str") or "")
    else:
        return ""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{path}",
        tofile=f"b/{path}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _clip(text: str) -> str:
    lines = text.split("\n")
    if len(lines) <= MAX_OUTPUT_LINES:
        return text
    half = MAX_OUTPUT_LINES // 2
    return "\n".join([*lines[:half], f"… {len(lines) - MAX_OUTPUT_LINES} more lines …", *lines[-half:]])


class DelegationEntry(EntryWidget):
    """`⇢ coder — Implement the design  ✓ finished` (select it in the tree to follow the child)."""

    def compose(self) -> ComposeResult:
        data = self.entry.data
        status = data.get("status", "running")
        icon = STATUS_ICONS.get(status, "•")
        title = f"⇢ {data['agent']} ({data['child']}) — {self.entry.text.splitlines()[0][:90]}  {icon} {status}"
        details: list[Widget] = [Static(Text(self.entry.text), classes="delegation-task")]
        if data.get("result") or data.get("reason"):
            details.append(Markdown(data.get("result") or data.get("reason", ""), classes="delegation-result"))
        yield Collapsible(*details, title=title, collapsed=True, classes=f"delegation-block {status}")


class MicroagentEntry(EntryWidget):
    def compose(self) -> ComposeResult:
        event = self.entry.data["event"]
        why = f"keyword '{event.keyword}'" if event.keyword else "always on"
        title = f"◆ microagent {event.name} · {event.type} · {why} · +{event.tokens} tokens"
        yield Collapsible(Markdown(event.content), title=title, collapsed=True, classes="microagent-block")


class NoticeEntry(EntryWidget):
    def compose(self) -> ComposeResult:
        yield Static(Text(self.entry.text), classes=f"notice-text {self.entry.level}")


WIDGETS: dict[str, type[EntryWidget]] = {
    "user": UserEntry,
    "assistant": AssistantEntry,
    "tool": ToolEntry,
    "delegation": DelegationEntry,
    "microagent": MicroagentEntry,
    "notice": NoticeEntry,
}


def widget_for(entry: Entry) -> EntryWidget:
    return WIDGETS[entry.kind](entry)


class EntryGroup(Vertical):
    DEFAULT_CSS = "EntryGroup { height: auto; }"
