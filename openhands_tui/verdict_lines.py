"""One line for what a hook decided and what a critic said: the app's transcript and the
headless transcript show the same words (each front end makes them safe for its terminal)."""

from __future__ import annotations

from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.facts.event import CriticResultEvent, HookRanEvent
from openhands_tui.sdk.terminal_text import one_line


def hook_line(event: HookRanEvent) -> str:
    """`⚓ PreToolUse hook ./block.sh (.openhands/hooks.json) → denied: why`."""
    said = f": {one_line(event.said)}" if event.said else ""
    return f"⚓ {event.event} hook {one_line(event.hook)} ({event.source}) → {event.outcome}{said}"


def stars(score: float) -> str:
    """Five stars, one per 20 % (as the critic's own result shows itself)."""
    return CriticResult(score=score).stars


def critic_line(event: CriticResultEvent) -> str:
    """`★★☆☆☆ critic LLMCritic 40%: why (sent back: round 1 of 3)`, or why the critic failed."""
    if event.score is None:
        return f"☆ critic {event.critic} failed: {one_line(event.error)}"
    said = f": {one_line(event.message)}" if event.message else ""
    back = f" (sent back: round {event.round} of {event.max_rounds})" if event.refine else ""
    return f"{stars(event.score)} critic {event.critic} {event.score:.0%}{said}{back}"
