"""Dialogs that grant something (approve an action, trust a project file) take no "yes" in
their first `ARMING_DELAY` seconds.

A dialog opens while the user may be typing: in the prompt when an agent asks for approval,
or right after launching `tui`, whose first keys land in whatever is on screen. A `y` or an
Enter meant for the prompt must not grant what was never read. Saying no works at once.
"""

from __future__ import annotations

import time
from typing import TypeVar

from textual.screen import ModalScreen

#: Seconds after a dialog is shown before it takes a yes (a person reads for longer).
ARMING_DELAY = 0.5

ResultT = TypeVar("ResultT")


class ArmedDialog(ModalScreen[ResultT]):
    def __init__(self, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self._shown_at = time.monotonic()

    def on_screen_resume(self) -> None:
        """Shown (again: another screen can cover a dialog, and it comes back)."""
        self._shown_at = time.monotonic()

    def armed(self, key: str) -> bool:
        """Whether a yes (`key`, or its button) counts now; if not, the user is told why."""
        if time.monotonic() - self._shown_at >= ARMING_DELAY:
            return True
        self.notify(f"The dialog had just opened, so {key} was not taken: read it, then press {key} again.", timeout=4)
        return False
