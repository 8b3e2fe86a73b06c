"""An MCP server's question to the user (`elicitation/create`): its message and a form of
primitive fields, answered with Send, Decline or Cancel.

The server is a program the user started, but the text is the server's: it is shown with its
escape sequences removed (done where the request is built, `mcp/callbacks.py`) and nothing in
it is a key binding. Sending is a "yes" (the user's words go to the server), so it waits out the
same arming delay as an approval; declining and cancelling work at once. Numbers are checked
here, so a server gets the types its schema asked for or nothing.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Input, Select, Static

from openhands_tui.sdk.mcp_host import ElicitationAnswer, ElicitationRequest, FormField
from openhands_tui.tui.screens.arming import ArmedDialog

Value = str | int | float | bool


class ElicitScreen(ArmedDialog[ElicitationAnswer]):
    BINDINGS = [
        Binding("ctrl+s", "send", "Send"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__(classes="elicit-screen")
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="elicit-dialog"):
            yield Static(Text(f"MCP server {request.server} asks:", style="bold"), id="elicit-header")
            with VerticalScroll(id="elicit-body"):
                yield Static(Text(request.message), id="elicit-message")
                for number, field in enumerate(request.fields):
                    label = field.title or field.name
                    yield Static(Text(label + (" *" if field.required else ""), style="bold"), classes="elicit-label")
                    if field.description:
                        yield Static(Text(field.description, style="dim"), classes="elicit-description")
                    yield _widget(field, f"elicit-field-{number}")
            with Horizontal(id="elicit-buttons"):
                yield Button("Send (ctrl+s)", id="send", variant="success")
                yield Button("Decline", id="decline", variant="error")
                yield Button("Cancel (esc)", id="cancel")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "send":
            self.action_send()
        elif event.button.id == "decline":
            self.dismiss(ElicitationAnswer(action="decline"))
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_send()

    def action_cancel(self) -> None:
        self.dismiss(ElicitationAnswer(action="cancel"))

    def action_send(self) -> None:
        if not self.armed("Send"):
            return
        content: dict[str, Value] = {}
        for number, field in enumerate(self.request.fields):
            widget = self.query_one(f"#elicit-field-{number}")
            try:
                value = _value(field, widget)
            except ValueError as problem:
                self.notify(str(problem), severity="error", timeout=5)
                widget.focus()
                return
            if value is not None:
                content[field.name] = value
        self.dismiss(ElicitationAnswer(action="accept", content=content))


def _widget(field: FormField, widget_id: str) -> Any:
    if field.kind == "boolean":
        return Checkbox(field.title or field.name, value=bool(field.default), id=widget_id)
    if field.kind == "enum":
        options = [(choice, choice) for choice in field.choices]
        default = field.default if field.default in field.choices else Select.BLANK
        return Select(options, value=default, id=widget_id, allow_blank=not field.required or default is Select.BLANK)
    placeholder = {"number": "a number", "integer": "a whole number"}.get(field.kind, "")
    default = "" if field.default is None else str(field.default)
    return Input(value=default, placeholder=placeholder, id=widget_id)


def _value(field: FormField, widget: Any) -> Value | None:
    """What the user gave for `field` in the type its schema asks for (None: left empty);
    ValueError names the field and what is wrong."""
    name = field.title or field.name
    if field.kind == "boolean":
        return bool(widget.value)
    if field.kind == "enum":
        chosen = widget.value
        if chosen is Select.BLANK or chosen is None:
            if field.required:
                raise ValueError(f"{name}: choose one")
            return None
        return str(chosen)
    text = str(widget.value).strip()
    if not text:
        if field.required:
            raise ValueError(f"{name}: required")
        return None
    if field.kind == "integer":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{name}: {text!r} is not a whole number") from None
    if field.kind == "number":
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"{name}: {text!r} is not a number") from None
    return text
