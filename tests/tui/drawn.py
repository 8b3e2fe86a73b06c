"""What a test reads of the app: the text its current screen draws, as a terminal shows it."""

from __future__ import annotations

from textual.app import App


def drawn(app: App[object]) -> str:
    """The current screen's lines as drawn (notifications, footers and dialogs included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
