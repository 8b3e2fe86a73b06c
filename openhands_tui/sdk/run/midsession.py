"""What a user changes or asks about an agent between (or during) its runs: its model
(`set_model`), condensing its history now (`compact`), and what fills its context window
(`context_usage`). Mixed into `Conversation`, which keeps to opening and running the session.

Each call runs on the engine's loop, like every other engine call (the app sends it there), and
refuses in one line, changing nothing, what it cannot do: an unknown model, an agent that is
not open, compacting an agent that is working or has too little to condense.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from openhands_tui.sdk.errors import SessionError, SettingsError
from openhands_tui.sdk.facts.event import CondensationEvent, Status
from openhands_tui.sdk.llm.model_names import model_problem, provider_of
from openhands_tui.sdk.llm.token_count import token_counter
from openhands_tui.sdk.run.agent_run import AgentRun
from openhands_tui.sdk.run.context_usage import ContextUsage, context_usage
from openhands_tui.sdk.run.model_switch import change_model, use_model

if TYPE_CHECKING:
    from openhands_tui.sdk.run.runtime import Runtime

#: An agent in one of these is in the middle of a run: its history is not to be rewritten now.
WORKING = (Status.RUNNING, Status.WAITING_FOR_CONFIRMATION)


@dataclass(frozen=True)
class ModelSwitch:
    """What `set_model` did: `agent_id` calls `model` from its next call (it called `previous`)."""

    agent_id: str
    model: str
    previous: str
    #: Something to know about the switch (the same key now goes to another provider), or "".
    note: str = ""

    @property
    def changed(self) -> bool:
        return self.model != self.previous


class MidSessionCalls:
    """Mixed into `Conversation`: the user's mid-session changes to its agents."""

    root: AgentRun
    runtime: Runtime

    if TYPE_CHECKING:

        async def open(self) -> None: ...

    def set_model(self, model: str, agent_id: str = "root") -> ModelSwitch:
        """Give agent `agent_id` (the root, or a running sub-agent) `model` from its next call on,
        recorded as a `ModelChangedEvent`. Raises SettingsError, changing nothing, for a name
        litellm cannot place (`llm/model_names.py`), SessionError for an agent that is not open."""
        run = self._agent(agent_id)
        model = model.strip()
        llm = run.agent.llm
        if model == llm.model:
            return ModelSwitch(run.agent_id, model, model)
        problem = model_problem(model, llm.base_url)
        if problem is not None:
            raise SettingsError(f"model {model}: {problem}")
        note = _provider_note(llm.model, model, llm.base_url, llm.api_key is not None)
        if run.agent_id not in self.runtime.open_agents:  # the root before the session opened
            use_model(run, model)  # its system prompt, recorded when it opens, names it
            log = self.runtime.bus.log
            if log is not None:
                log.save_meta(model=model)
            return ModelSwitch(run.agent_id, model, llm.model, note)
        event = change_model(run, model)
        return ModelSwitch(run.agent_id, event.model, event.previous, note)

    async def compact(self, focus: str = "", agent_id: str = "root") -> CondensationEvent:
        """Condense agent `agent_id`'s history now, its summary keeping especially `focus`; the
        condensation recorded (reason "user", with the tokens before and after). Raises
        SessionError, changing nothing, while the agent works or when there is too little to
        condense."""
        await self.open()
        run = self._agent(agent_id)
        if run.status in WORKING:
            raise SessionError(f"{run.agent.name} is working: compact between runs (Esc interrupts the run)")
        return await run.model_calls.compact(focus)

    def context_usage(self, agent_id: str = "root") -> ContextUsage:
        """What fills agent `agent_id`'s context window, by source, in tokens: its next request as
        it stands (`run/context_usage.py`). Counting may load litellm's tokenizer table (0.1 s)."""
        run = self._agent(agent_id)
        counter = token_counter()
        llm = run.agent.llm
        return context_usage(
            run.agent_id,
            llm.model,
            run.builder.messages,
            run.offered_schemas(),
            run.events,
            counter.count,
            window=llm.window(),
            method=counter.method,
            reported=run.gauge.last_reported,
        )

    async def stop_job(self, job_id: str, agent_id: str = "root") -> str:
        """Stop agent `agent_id`'s background job `job_id` (the user's `/jobs stop`): asked of
        each of its tools that keeps jobs (offers `stop_job`); what the job's line says now.
        Raises SessionError when none of them knows it."""
        run = self._agent(agent_id)
        for tool in run.tools.values():
            stop = getattr(tool, "stop_job", None)
            said = await stop(job_id) if stop is not None else None
            if said is not None:
                return str(said)
        raise SessionError(f"{run.agent.name} has no background job {job_id!r}")

    def current_model(self) -> CurrentModel:
        """The root agent's model as it is whenever it is read: what a front end shows."""
        return CurrentModel(self)

    def _agent(self, agent_id: str) -> AgentRun:
        if agent_id == self.root.agent_id:
            return self.root
        run = self.runtime.open_agents.get(agent_id)
        if not isinstance(run, AgentRun):
            raise SessionError(f"agent {agent_id} is not running: only the root and running sub-agents can be changed")
        return run


class CurrentModel:
    """The root agent's model, read when asked: its name and context window follow a switch."""

    def __init__(self, conversation: MidSessionCalls) -> None:
        self._conversation = conversation

    @property
    def model(self) -> str:
        return self._conversation.root.agent.llm.model

    def window(self) -> int | None:
        """Input tokens a request may hold, if known (may load litellm's model list)."""
        return self._conversation.root.agent.llm.window()


def _provider_note(previous: str, model: str, base_url: str | None, has_key: bool) -> str:
    """A word when the switch sends the same key to another provider: it may not be theirs."""
    if base_url or not has_key:
        return ""
    before, after = provider_of(previous, None), provider_of(model, None)
    if before == after or before is None:
        return ""
    return f"{after} gets the API key given for {before}: if it is not theirs, the next call fails"
