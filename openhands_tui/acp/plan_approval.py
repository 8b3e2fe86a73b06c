"""Plan mode for editors: the `plan` session mode, and approving a plan in the editor.

A prompt in plan mode ends with the plan (the root agent's finish message). The editor is then
asked, as a permission request on a tool call of its own that shows the plan, whether to carry
it out: asking before risky steps (the session's confirmation mode, or `risky` if it was
`never`), without asking (`never`), or not yet (the user's next prompt is the note, still in plan
mode). Approving leaves plan mode within the same prompt: the editor hears the mode change and
the run that carries the plan out.
"""

from __future__ import annotations

import itertools
from typing import Any, Literal

from acp.schema import PermissionOption, SessionMode, ToolCallUpdate

from openhands_tui.sdk.run.confirmation import ConfirmationMode

PLAN_MODE = SessionMode(
    id="plan", name="Plan", description="Read-only: the agent looks around and ends with a plan for you to approve"
)
APPROVE, APPROVE_UNASKED, KEEP_PLANNING = "plan_approve", "plan_approve_unasked", "plan_keep_planning"
_ids = itertools.count(1)


async def approval(client: Any, session_id: str, plan: str, current: ConfirmationMode) -> ConfirmationMode | None:
    """Ask the editor whether to carry `plan` out; the confirmation mode to do it in, or None
    (keep planning, or no answer)."""
    from acp.helpers import start_tool_call, text_block, tool_content, update_tool_call

    asking = current if current is not ConfirmationMode.NEVER else ConfirmationMode.RISKY
    call_id = f"plan-{next(_ids)}"
    content = [tool_content(text_block(plan))]
    await client.session_update(
        session_id=session_id,
        update=start_tool_call(call_id, "Plan: carry it out?", kind="think", status="pending", content=content),
    )
    options = [
        PermissionOption(option_id=APPROVE, name=f"Yes, carry it out (ask: {asking.value})", kind="allow_once"),
        PermissionOption(option_id=APPROVE_UNASKED, name="Yes, carry it out without asking", kind="allow_always"),
        PermissionOption(option_id=KEEP_PLANNING, name="No, keep planning (say what to change)", kind="reject_once"),
    ]
    call = ToolCallUpdate(tool_call_id=call_id, title="Plan: carry it out?", kind="think", status="pending")
    try:
        answer = await client.request_permission(session_id=session_id, tool_call=call, options=options)
    except Exception:  # the editor could not answer: nothing is carried out unasked
        answer = None
    chosen = getattr(answer.outcome, "option_id", None) if answer is not None else None
    modes = {APPROVE: asking, APPROVE_UNASKED: ConfirmationMode.NEVER}
    mode = modes.get(chosen) if chosen is not None else None
    status: Literal["completed", "failed"] = "completed" if mode is not None else "failed"
    await client.session_update(session_id=session_id, update=update_tool_call(call_id, status=status))
    return mode
