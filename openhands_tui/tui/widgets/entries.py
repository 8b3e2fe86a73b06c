"""One widget per transcript entry: messages, tool calls, delegations, microagents, notices.

Each entry is a single widget that renders from its Entry (no sub-widgets), so hundreds of
them mount quickly; it re-renders only when the entry's version moved. Tool calls,
delegations and microagents are folds: a one-line title that opens (click, or Enter when
focused) to the output, the diff of an edit, a child's report, or a microagent's content.
Failures start open; successes start closed.
"""

from __future__ import annotations

import difflib
from functools import lru_cache

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import Static

from openhands_tui.sdk.facts.event import ActionEvent, ObservationEvent
from openhands_tui.sdk.facts.subject import FileChange, Subject
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


class EntryWidget(Static):
    DEFAULT_CSS = "EntryWidget { height: auto; }"

    def __init__(self, entry: Entry) -> None:
        super().__init__(classes=f"entry {entry.kind} {entry.level}")
        self.entry = entry
        self.shown_version = entry.version

    def on_mount(self) -> None:
        self.update(self.render_entry())

    def refresh_entry(self) -> None:
        """Bring the widget up to date with its entry (called at most ~30 times a second)."""
        if self.shown_version != self.entry.version:
            self.shown_version = self.entry.version
            self.update(self.render_entry())

    def render_entry(self) -> RenderableType:
        return Text(self.entry.text)


class UserEntry(EntryWidget):
    def render_entry(self) -> RenderableType:
        source = self.entry.data.get("source")
        if source:  # the engine sent the agent back to work: say who, not "you"
            text = Text(f"↻ {source} › ", style="bold italic") + Text(self.entry.text, style="italic")
        else:
            text = Text("› ", style="bold") + Text(self.entry.text, style="bold")
        for label in self.entry.data.get("attachments") or ():  # plain text: a file name is never markup
            text.append(f"\n  {label}", style="dim not bold")
        extra = self.entry.data.get("context", 0)
        if extra:
            text.append(f"\n  (+{extra} context block{'s' if extra != 1 else ''})", style="dim not bold")
        return text


class AssistantEntry(EntryWidget):
    """Markdown via Rich: one widget, cheap to re-render while tokens stream in."""

    def on_mount(self) -> None:
        if self.entry.data.get("final"):
            self.add_class("final")
        super().on_mount()

    def render_entry(self) -> RenderableType:
        return markdown(self.entry.text)


@lru_cache(maxsize=1024)
def markdown(text: str) -> RenderableType:
    """Parsed once per text: switching back to an agent re-mounts its entries, and building a
    Markdown renderable (a parser and a link matcher each time) is most of the cost of a mount."""
    if not text.strip():
        return Text("…")
    from rich.markdown import Markdown  # 25 ms to import: paid at the first message, not at start-up

    return Markdown(text, code_theme="ansi_dark")


class FoldEntry(EntryWidget):
    """A title that opens to a body, built only when first opened."""

    can_focus = True
    BINDINGS = [Binding("enter,space", "fold", "Open/close", show=False)]

    def __init__(self, entry: Entry) -> None:
        super().__init__(entry)
        self.expanded = self.starts_open()

    def starts_open(self) -> bool:
        return False

    def title(self) -> Text:
        return Text(self.entry.text)

    def body(self) -> list[RenderableType]:
        return []

    def render_entry(self) -> RenderableType:
        marker = "▼ " if self.expanded else "▶ "
        title = Text(marker) + self.title()
        if not self.expanded:
            return title
        return Group(title, *(Padding(part, (0, 0, 0, 2)) for part in self.body()))

    def action_fold(self) -> None:
        self.expanded = not self.expanded
        self.update(self.render_entry())

    def on_click(self, event: events.Click) -> None:
        self.action_fold()


class ToolEntry(FoldEntry):
    """`▶ $ ls -la  ✓ exit 0` — opens to the output, or to the diff of an edit."""

    def starts_open(self) -> bool:
        return self._failed()

    def _failed(self) -> bool:
        observation: ObservationEvent | None = self.entry.data.get("observation")
        return "error" in self.entry.data or (observation is not None and observation.outcome != "ok")

    def refresh_entry(self) -> None:
        if self.shown_version != self.entry.version and self._failed():
            self.expanded = True  # a failure opens itself
        self.set_class(self._failed(), "failed")
        super().refresh_entry()

    def on_mount(self) -> None:
        action: ActionEvent = self.entry.data["action"]
        self.set_class(action.risk == "HIGH", "high-risk")
        self.set_class(self._failed(), "failed")
        super().on_mount()

    def title(self) -> Text:
        return Text(
            _tool_title(
                self.entry.data["action"],
                self.entry.data.get("observation"),
                self.entry.data.get("error"),
                self.entry.data.get("decision"),
                self.entry.data.get("progress"),
            )
        )

    def body(self) -> list[RenderableType]:
        return _tool_body(self.entry.data["action"], self.entry.data.get("observation"), self.entry.data.get("error"))


def _tool_title(
    action: ActionEvent,
    observation: ObservationEvent | None,
    error: str | None,
    decision: str | None,
    progress: str | None = None,
) -> str:
    risk = f" [{action.risk}]" if action.risk and action.risk != "LOW" else ""
    if error is not None:
        state = "✗ invalid call"
    elif observation is None:
        state = {"waiting for you": "? waiting for you", "not answered": "■ not answered"}.get(
            decision or "", f"⟳ {progress}" if progress else "⟳ running"
        )
    elif observation.outcome == "rejected":
        state = f"⊘ {decision or 'rejected'}"
    elif observation.outcome == "interrupted":
        state = "■ interrupted"
    else:
        exit_code = observation.data.get("exit_code")
        mark = "✓" if observation.outcome == "ok" else "✗"
        state = f"{mark} exit {exit_code}" if exit_code is not None else mark
        if decision and decision != "approved" and decision.startswith(("approved", "rejected")):
            state += f" · {decision}"
    return f"{action.summary}{risk}  {state}"


def _tool_body(action: ActionEvent, observation: ObservationEvent | None, error: str | None) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if action.risk_reasons and action.risk != "LOW":
        parts.append(Text("risk: " + "; ".join(action.risk_reasons), style="dim"))
    diff = (observation.data.get("diff") if observation else "") or proposed_diff(action.subject)
    if diff:
        parts.append(highlighted(diff, "diff"))
    if error is not None:
        parts.append(Text(error, style="bold"))
    elif observation is not None and (not diff or observation.outcome != "ok"):
        parts.append(Text(_clip(observation.content)))
    return parts or [Text("…")]


def proposed_diff(subject: Subject | None) -> str:
    """The diff a file change would make, from its subject (shown before it runs)."""
    if not isinstance(subject, FileChange) or subject.operation not in ("create", "edit", "insert"):
        return ""
    before, after = subject.before or "", subject.after or ""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{subject.path}",
        tofile=f"b/{subject.path}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _clip(text: str) -> str:
    lines = text.split("\n")
    if len(lines) <= MAX_OUTPUT_LINES:
        return text
    half = MAX_OUTPUT_LINES // 2
    return "\n".join([*lines[:half], f"… {len(lines) - MAX_OUTPUT_LINES} more lines …", *lines[-half:]])


class DelegationEntry(FoldEntry):
    """`⇢ coder — Implement the design  ✓ finished` (select it in the tree to follow the child)."""

    def on_mount(self) -> None:
        self.add_class(str(self.entry.data.get("status", "running")))
        super().on_mount()

    def title(self) -> Text:
        data = self.entry.data
        status = data.get("status", "running")
        task = self.entry.text.splitlines()[0][:90] if self.entry.text else ""
        return Text(f"⇢ {data['agent']} ({data['child']}) — {task}  {STATUS_ICONS.get(status, '•')} {status}")

    def body(self) -> list[RenderableType]:
        data = self.entry.data
        parts: list[RenderableType] = [Text(self.entry.text, style="italic")]
        if data.get("result") or data.get("reason"):
            parts.append(markdown(data.get("result") or data.get("reason", "")))
        return parts


class MicroagentEntry(FoldEntry):
    def title(self) -> Text:
        event = self.entry.data["event"]
        why = f"keyword '{event.keyword}'" if event.keyword else "always on"
        return Text(f"◆ microagent {event.name} · {event.type} · {why} · +{event.tokens} tokens")

    def body(self) -> list[RenderableType]:
        return [markdown(self.entry.data["event"].content)]


class CondensationEntry(FoldEntry):
    """The history was condensed: how much, why, and (opened) the summary the model now reads."""

    def title(self) -> Text:
        event = self.entry.data["event"]
        why = {
            "tokens": "near the context window",
            "messages": "many messages",
            "overflow": "the model refused",
            "user": f"you asked: keep {event.focus}" if event.focus else "you asked",
        }
        note = "" if event.summarized else " · no summary (the call failed)"
        return Text(
            f"⇊ condensed {event.removed} messages ({why[event.reason]}) · "
            f"{event.tokens_before:,} → {event.tokens_after:,} tokens{note}"
        )

    def body(self) -> list[RenderableType]:
        return [markdown(self.entry.data["event"].summary)]


class ThinkingEntry(FoldEntry):
    """`▶ ✻ thinking · 1,234 chars — the first words…`: what the model thought before it
    answered, folded (it can be long); open it to read it all."""

    def title(self) -> Text:
        text, data = self.entry.text, self.entry.data
        words = " ".join(text.split())
        preview = f" — {words[:80]}{'…' if len(words) > 80 else ''}" if words else ""
        redacted = data.get("redacted", 0)
        hidden = f" · {redacted} redacted by the provider" if redacted else ""
        state = "…" if self.entry.streaming else f" · {len(text):,} chars"
        return Text(f"✻ thinking{state}{hidden}{preview}", style="dim italic")

    def body(self) -> list[RenderableType]:
        return [Text(self.entry.text or "(nothing shown: the provider sent this thinking encrypted)", style="dim")]


class NoticeEntry(EntryWidget):
    def on_mount(self) -> None:
        self.add_class(f"notice-{self.entry.level}")
        super().on_mount()


WIDGETS: dict[str, type[EntryWidget]] = {
    "user": UserEntry,
    "assistant": AssistantEntry,
    "thinking": ThinkingEntry,
    "tool": ToolEntry,
    "delegation": DelegationEntry,
    "microagent": MicroagentEntry,
    "condensation": CondensationEntry,
    "notice": NoticeEntry,
}


def widget_for(entry: Entry) -> EntryWidget:
    return WIDGETS[entry.kind](entry)


def highlighted(code: str, lexer: str) -> RenderableType:
    """Syntax-highlighted code; rich.syntax (pygments) costs 30 ms to import, so only on first use."""
    from rich.syntax import Syntax

    return Syntax(code, lexer, theme="ansi_dark", word_wrap=True)
