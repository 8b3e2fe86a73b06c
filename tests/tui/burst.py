"""Keys as a fast typist or a paste-like burst delivers them: all queued before the app handles
the first. `pilot.press` waits for the app to go idle after each key, which hides every race
between a key and a focus change it causes."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.keys import _character_to_key


def typed_at_once(app: App[object], *keys: str) -> None:
    """Queue `keys` (single characters, or key names such as "enter") on the app's driver."""
    for key in keys:
        name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        event = events.Key(name, key if len(key) == 1 else None)
        event.set_sender(app)
        assert app._driver is not None
        app._driver.send_message(event)
