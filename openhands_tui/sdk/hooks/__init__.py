"""Hooks: the user's (and a trusted project's) own programs, run at points of a session.

The format Claude Code and OpenHands share, read from both tools' files; the SDK's
`HookConfig`, `HookMatcher`, `HookDefinition` for strategies that add hooks in code.

Each name is imported on first use (PEP 562): `Agent` needs only `hooks.config`, and the
engine, runner and file sources stay out of start-up until a session uses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openhands_tui.sdk.lazy_names import lazy_getattr

if TYPE_CHECKING:
    from openhands_tui.sdk.hooks.config import EVENTS, HookConfig, HookDefinition, HookMatcher, HookType
    from openhands_tui.sdk.hooks.engine import HookEngine, HookOutcome, HookRan
    from openhands_tui.sdk.hooks.payload import HookInput, ToolView
    from openhands_tui.sdk.hooks.sources import HookSource, LoadedHooks, load_hooks
    from openhands_tui.sdk.hooks.types import HookDecision, HookEvent, HookEventType, HookResult

_HOMES = {
    **dict.fromkeys(
        ["EVENTS", "HookConfig", "HookDefinition", "HookMatcher", "HookType"], "openhands_tui.sdk.hooks.config"
    ),
    **dict.fromkeys(["HookEngine", "HookOutcome", "HookRan"], "openhands_tui.sdk.hooks.engine"),
    **dict.fromkeys(["HookInput", "ToolView"], "openhands_tui.sdk.hooks.payload"),
    **dict.fromkeys(["HookSource", "LoadedHooks", "load_hooks"], "openhands_tui.sdk.hooks.sources"),
    **dict.fromkeys(["HookDecision", "HookEvent", "HookEventType", "HookResult"], "openhands_tui.sdk.hooks.types"),
}

__all__ = [
    "EVENTS",
    "HookConfig",
    "HookDecision",
    "HookDefinition",
    "HookEngine",
    "HookEvent",
    "HookEventType",
    "HookInput",
    "HookMatcher",
    "HookOutcome",
    "HookRan",
    "HookResult",
    "HookSource",
    "HookType",
    "LoadedHooks",
    "ToolView",
    "load_hooks",
]
__getattr__ = lazy_getattr(__name__, _HOMES, globals())
