"""The status bar: model, plan mode and confirmation badges, tokens (and the share read from the prompt cache),
cost, context use, elapsed, run state."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from openhands_tui.tui.widgets.tree import compact, elapsed_text


class StatusBar(Static):
    def show(
        self,
        *,
        model: str,
        mode: str,
        prompt_tokens: int,
        completion_tokens: int,
        cost: float,
        cache_hit: float | None = None,
        context_tokens: int,
        context_window: int | None,
        elapsed: float,
        state: str,
        demo: bool,
        plan: bool = False,
        jobs: int = 0,
    ) -> None:
        text = Text()
        if demo:
            text.append(" DEMO ", style="bold reverse")
            text.append(" ")
        text.append(model, style="bold")
        badge = {"always": " ASK ALWAYS ", "risky": " ASK IF RISKY ", "never": " NEVER ASK "}[mode]
        text.append("  ")
        if plan:  # plan mode: nothing changes, whatever the confirmation mode says
            text.append(" PLAN · read-only ", style="bold reverse green")
            text.append(" ")
        text.append(badge, style="reverse" if mode != "never" else "bold reverse red")
        text.append(f"  ↑{compact(prompt_tokens)} ↓{compact(completion_tokens)} tok")
        if cache_hit is not None:
            text.append(f"  cache {100 * cache_hit:.0f}%")
        text.append(f"  ${cost:.4f}" if cost else "  $-")
        if context_window:
            share = 100 * context_tokens / context_window
            text.append(f"  ctx {compact(context_tokens)}/{compact(context_window)} ({share:.0f}%)")
        elif context_tokens:
            text.append(f"  ctx {compact(context_tokens)}")
        text.append(f"  {elapsed_text(elapsed)}")
        if jobs:  # background jobs still running (/jobs lists and stops them)
            text.append(f"  ⚙ {jobs} job{'s' if jobs != 1 else ''}", style="bold")
        text.append(f"  {state}", style="bold")
        self.update(text)
