"""How a run ends. Each ending is an exception raised from wherever it is detected and
caught in exactly one place, the run loop, which turns it into a RunOutcome."""

from __future__ import annotations

from openhands_tui.sdk.facts.event import Status
from openhands_tui.sdk.model import Model

#: The exit code of an interrupted run (as for SIGINT).
INTERRUPTED = 130


class RunEnded(Exception):
    status: Status = Status.ERROR
    exit_code = 1
    #: Why the model stopped, when that ended the run: "refusal" or "max_tokens" (an editor's
    #: ACP stop reason says it).
    stop_reason: str | None = None

    def __init__(self, detail: str = "") -> None:
        super().__init__(detail)
        self.detail = detail


class Finished(RunEnded):
    """The agent called `finish` or answered without a tool call."""

    status = Status.FINISHED
    exit_code = 0

    def __init__(self, result: str) -> None:
        super().__init__("finished")
        self.result = result


class LimitReached(RunEnded):
    """An iteration or budget limit stopped the run (resumable)."""

    status = Status.PAUSED
    exit_code = 3


class StuckDetected(RunEnded):
    status = Status.STUCK
    exit_code = 3


class StoppedByHook(RunEnded):
    """A hook answered `continue: false`: the run stops here, resumable, with its reason."""

    status = Status.PAUSED
    exit_code = 1

    def __init__(self, reason: str) -> None:
        super().__init__(f"stopped by a hook: {reason}")


class RunFailed(RunEnded):
    """The model or the engine failed in a way the agent cannot fix by itself."""

    status = Status.ERROR
    exit_code = 1


class AnswerRefused(RunFailed):
    """The provider stopped the model's answer: a refusal or a content filter."""

    stop_reason = "refusal"


class AnswerCutOff(RunFailed):
    """The model's answers kept reaching the output token limit."""

    stop_reason = "max_tokens"


class RunOutcome(Model):
    agent_id: str
    status: Status
    exit_code: int
    result: str = ""
    detail: str = ""
    stop_reason: str | None = None
