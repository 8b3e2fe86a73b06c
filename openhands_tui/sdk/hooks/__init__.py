"""Hooks: the user's (and a trusted project's) own programs, run at points of a session.

The format Claude Code and OpenHands share, read from both tools' files; the SDK's
`HookConfig`, `HookMatcher`, `HookDefinition` for strategies that add hooks in code.
"""

from openhands_tui.sdk.hooks.config import EVENTS, HookConfig, HookDefinition, HookMatcher, HookType
from openhands_tui.sdk.hooks.engine import HookEngine, HookOutcome, HookRan
from openhands_tui.sdk.hooks.payload import HookInput, ToolView
from openhands_tui.sdk.hooks.sources import HookSource, LoadedHooks, load_hooks
from openhands_tui.sdk.hooks.types import HookDecision, HookEvent, HookEventType, HookResult

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
