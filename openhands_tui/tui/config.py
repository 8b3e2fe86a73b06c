"""What the app is started with, built by the runner, tests and snapshots alike."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from openhands_tui.sdk.event import Event
from openhands_tui.tui.bridge import EventsReady
from openhands_tui.tui.themes import DEFAULT_THEME

if TYPE_CHECKING:
    from openhands_tui.launch import Launched


class ContextWindowKnown(EventsReady):
    def __init__(self, window: int | None) -> None:
        super().__init__()
        self.window = window


@dataclass
class AppConfig:
    launched: Launched | None = None
    history: list[Event] = field(default_factory=list)
    task: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    theme: str = DEFAULT_THEME
    remember_theme: bool = True
    read_only: bool = False
    demo: bool = False
    title: str = ""
    clock: Callable[[], float] = time.monotonic
    preload_litellm: bool = True
    #: Builds a fresh (or resumed) session for /new and /resume: resume id or None.
    relaunch: Callable[[str | None], Launched] | None = None
