"""The MCP panel (`/mcp`, or the palette): every server this session started, how it is doing,
and its tools. It reads what the engine's events last said twice a second, so a server that is
still starting shows up as running (or failed, with why) while the panel is open."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from openhands_tui.sdk.facts.event import MCPServerStatus
from openhands_tui.sdk.terminal_text import strip_controls

_MARKS = {"running": ("●", "green"), "starting": ("◌", "yellow"), "failed": ("✖", "red"), "stopped": ("○", "dim")}

EMPTY = (
    "No MCP servers in this session. Add one with `tui mcp add NAME -- COMMAND [ARGS]...` or "
    "`tui mcp add NAME URL`, put them in the project's .mcp.json, or give them in the strategy "
    "(Agent(mcp_config=...))."
)


def describe(servers: list[MCPServerStatus]) -> Text:
    """The panel's text: one block per server (mark, name, state, what it runs, its tools)."""
    if not servers:
        return Text(EMPTY, style="dim")
    text = Text()
    for server in servers:
        mark, style = _MARKS.get(server.state, ("?", ""))
        text.append(f"{mark} ", style=style)
        text.append(strip_controls(server.name), style="bold")
        text.append(f"  {server.state}", style=style)
        text.append(f"  {strip_controls(server.target)}\n", style="dim")
        if server.error:
            text.append(f"    {strip_controls(server.error)}\n", style="red")
        if server.tools:
            tools = ", ".join(strip_controls(tool) for tool in server.tools)
            text.append(f"    {len(server.tools)} tools: {tools}\n")
    return text


class MCPScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, status: Callable[[], list[MCPServerStatus]]) -> None:
        super().__init__()
        self.status = status

    def compose(self) -> ComposeResult:
        with Vertical(id="mcp-dialog"):
            yield Static(Text("MCP servers", style="bold"))
            with VerticalScroll():
                yield Static(describe(self.status()), id="mcp-servers")
            yield Button("Close (esc)", id="close")

    def on_mount(self) -> None:
        self.set_interval(0.5, self._refresh)

    def _refresh(self) -> None:
        self.query_one("#mcp-servers", Static).update(describe(self.status()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)
