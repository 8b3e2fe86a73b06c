"""Asked once per content of a project file that would widen what agents may do (its allow
rules, its MCP servers, its hooks): a cloned repository must not approve its own actions. It shows as
the app starts, where keys typed at launch land: no yes is taken in its first moments
(`arming.py`)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from openhands_tui.sdk.security.trust import TrustRequest
from openhands_tui.sdk.terminal_text import shown_for_approval
from openhands_tui.tui.screens.arming import ArmedDialog

_WHAT = {
    "permissions": "approves actions without asking you",
    "mcp": "starts programs (MCP servers) whose tools agents may call",
    "hooks": "runs commands as you, outside the sandbox, at points of every session (hooks)",
}


class TrustScreen(ArmedDialog[bool]):
    """True: use the file as it is now (asked again if it changes); False: ignore it."""

    BINDINGS = [Binding("y", "trust", "Trust"), Binding("n,escape", "ignore", "Ignore")]

    def __init__(self, request: TrustRequest) -> None:
        super().__init__(classes="confirm-screen")
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="confirm-dialog", classes="risk-high"):
            header = Text(" TRUST? ", style="bold reverse")
            what = _WHAT.get(request.kind, "widens access")
            header.append(f"  This project ships {shown_for_approval(request.file)}, which {what}.")
            yield Static(header, id="confirm-header")
            with VerticalScroll(id="confirm-body"):
                # the repository's words, shown as an approval is: no escapes, CRs or bidi hiding a part
                grants = [f"• {shown_for_approval(grant)}" for grant in request.grants]
                yield Static(Text("\n".join(grants) or "• (empty)"))
                yield Static(
                    Text(
                        "A repository you cloned can contain this file. Trust it only if you wrote it or reviewed "
                        "it; if it changes, you will be asked again.",
                        style="dim",
                    )
                )
            with Horizontal(id="confirm-buttons"):
                yield Button("Trust it (y)", id="trust", variant="warning")
                yield Button("Ignore it (n)", id="ignore", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "trust":
            self.action_trust()
        else:
            self.dismiss(False)

    def action_trust(self) -> None:
        if self.armed("y"):
            self.dismiss(True)

    def action_ignore(self) -> None:
        self.dismiss(False)
