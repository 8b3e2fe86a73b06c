"""The run loop: step an agent until something ends its run.

`run_agent` is the only loop in the engine, for root agents and delegated children alike.
Every ending (finished, limit, stuck, model failure, interrupt) arrives as an exception and
is turned into a RunOutcome here, in one place.
"""

from __future__ import annotations

import asyncio
import logging

from openhands_tui.sdk.errors import LLMAuthError, LLMError, StorageError
from openhands_tui.sdk.facts.event import Status
from openhands_tui.sdk.run.agent_run import AgentRun
from openhands_tui.sdk.run.outcome import INTERRUPTED, Finished, RunEnded, RunOutcome

logger = logging.getLogger(__name__)

__all__ = ["INTERRUPTED", "run_agent"]


async def run_agent(run: AgentRun) -> RunOutcome:
    """Step `run` until it ends; return how it ended. Never raises for a run that ended."""
    run.set_status(Status.RUNNING)
    result, stop = "", None
    try:
        while True:
            await run.step()
    except Finished as end:
        status, code, detail, result = end.status, end.exit_code, "", end.result
    except RunEnded as end:
        status, code, detail, stop = end.status, end.exit_code, end.detail, end.stop_reason
    except StorageError as exc:  # the log cannot be written: stop the whole tree, say where
        if run.depth > 0:
            run.set_status(Status.ERROR, str(exc))
            raise
        status, code, detail = Status.ERROR, exc.exit_code, str(exc)
    except LLMAuthError as exc:
        status, code, detail = Status.ERROR, 1, f"the model provider refused the credentials: {exc}"
    except LLMError as exc:
        status, code, detail = Status.ERROR, 1, f"the model call failed: {exc}"
    except asyncio.CancelledError:
        if run.depth > 0:  # a child: record it, then let the interrupt reach the root
            run.set_status(Status.PAUSED, "interrupted")
            raise
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()  # handled here: the session stays usable and resumable
        status, code, detail = Status.PAUSED, INTERRUPTED, "interrupted"
    except Exception as exc:  # an engine bug: record it, keep the session resumable
        logger.exception("agent %s crashed", run.agent_id)
        status, code, detail = Status.ERROR, 1, f"internal error: {type(exc).__name__}: {exc}"
    run.set_status(status, detail)
    return RunOutcome(
        agent_id=run.agent_id, status=status, exit_code=code, result=result, detail=detail, stop_reason=stop
    )
