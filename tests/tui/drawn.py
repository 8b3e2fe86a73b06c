"""What a test reads of the app: the text its current screen draws, as a terminal shows it."""

from __future__ import annotations

from textual.app import App
from textual.widget import Widget
from textual.widgets._toast import Toast


def drawn(app: App[object]) -> str:
    """The current screen's lines as drawn (footers and dialogs included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def drawn_in(app: App[object], widget: Widget) -> str:
    """What `widget` draws: its region cut out of the screen, its lines joined by newlines."""
    region = widget.region
    lines = drawn(app).splitlines()[region.y : region.y + region.height]
    return "\n".join(line[region.x : region.right] for line in lines)


def drawn_notices(app: App[object]) -> list[str]:
    """Each notification on screen, its drawn lines cut out of the screen and joined into one
    line of words (the app must run with `run_test(notifications=True)`)."""
    lines = drawn(app).splitlines()
    notices = []
    for toast in app.screen.query(Toast):
        region = toast.region
        rows = lines[region.y : region.y + region.height]
        text = " ".join(row[region.x : region.right] for row in rows).replace("▌", " ")  # its left edge
        notices.append(" ".join(text.split()))
    return notices
