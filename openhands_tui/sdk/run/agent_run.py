"""One agent's side of a run: its history, its live tools, and one step at a time.

A step asks the model once (`model_calls.py`: condensing the history first when it has outgrown
the window), records what it said and what it cost, and hands the tool calls to
`actions.carry_out`. How a
step ends the run — finished, stuck, a limit, a failure — is an exception for the run loop
(`run/loop.py`) to handle in one place.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context.agent_context import (
    always_on,
    extra_info_block,
    listed,
    merge_skills,
    triggered_skills,
    workspace_block,
)
from openhands_tui.sdk.context.attachments import Attached
from openhands_tui.sdk.context.condenser import ContextGauge
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.executor import agent_executor
from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    Event,
    EventBase,
    MessageEvent,
    MicroagentTriggeredEvent,
    Status,
    StatusEvent,
    SystemPromptEvent,
    new_id,
)
from openhands_tui.sdk.hooks.engine import HookEngine
from openhands_tui.sdk.hooks.sources import code_source, paths_to_protect
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.mcp_config import microagent_servers
from openhands_tui.sdk.mcp_port import MCPTools
from openhands_tui.sdk.run.actions import carry_out, interrupted_observation, prepare, resume_calls, unfinished_actions
from openhands_tui.sdk.run.answer_ending import CUT_OFF_CALL, AnswerEndings, CallIds
from openhands_tui.sdk.run.ending_review import EndingReview, judge
from openhands_tui.sdk.run.messages import MessageBuilder
from openhands_tui.sdk.run.model_calls import ModelCalls
from openhands_tui.sdk.run.model_switch import fold_recorded_model
from openhands_tui.sdk.run.outcome import Finished, LimitReached, StuckDetected
from openhands_tui.sdk.run.plan_mode import PLAN_MODE_NOTE, READ_ONLY_NOTE
from openhands_tui.sdk.run.prefix_share import PrefixShare
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.run.stuck import StuckDetector
from openhands_tui.sdk.run.thinking import recorded_thinking
from openhands_tui.sdk.security.trusted import RUNS_AS_HOOK
from openhands_tui.sdk.tool import ChildSpawner, ToolContext, ToolDefinition, resolve_tools

E = TypeVar("E", bound=EventBase)


class AgentRun:
    def __init__(
        self,
        agent: Agent,
        runtime: Runtime,
        *,
        agent_id: str = "root",
        parent_id: str | None = None,
        depth: int = 0,
        spawner: Callable[[AgentRun], ChildSpawner] | None = None,
    ) -> None:
        self.agent = agent
        self.runtime = runtime
        self.agent_id = agent_id
        self.parent_id = parent_id
        self.depth = depth
        #: Where it works: the session's workspace, or its own working copy (a child with
        #: `isolation="worktree"`: sdk/timeline/child_copy.py). Its tools, its jail, the rating
        #: of its actions and what it is told about the workspace all use this.
        #: Where its commands and edits run: its Agent's `executor`, else the session's.
        self.executor = agent_executor(agent.executor, runtime.executor, f"{agent.name}'s Agent(executor=...)")
        self.workspace: Path = runtime.workspace
        if self.executor.workspace:  # an agent on a server of its own works in that server's folder
            self.workspace = Path(self.executor.workspace)
        #: Builds the port this agent's tools start children through (the engine's ChildRuns).
        self._spawner = spawner
        #: The last thing the agent said: a failed child's partial result.
        self.last_text = ""
        self.builder = MessageBuilder(agent_id, runtime.attachments.read)
        self.tools: dict[str, ToolDefinition[Any]] = {}
        self.schemas: list[dict[str, Any]] = []
        self.status = Status.IDLE
        self.iterations = 0
        self.user_messages = 0
        self.injected_skills: set[str] = set()
        self.skills: list[Skill] = []
        self.endings = AnswerEndings()
        self._awaiting_decision: list[ActionEvent] = []
        self.gauge = ContextGauge([])
        self.stuck = StuckDetector()
        self.call_ids = CallIds()
        #: Set by the parent for siblings that may share this agent's prompt prefix: its first
        #: call lets one of them write the prefix to the provider's cache before the others.
        self.shared_prefix: PrefixShare | None = None
        #: Its calls to its model (condensing, streaming, retries, cost).
        self.model_calls = ModelCalls(self)
        #: MCP servers this agent wants; their tools join before its next model call.
        self.mcp = MCPTools(runtime.mcp, self._warn, runtime.bus.redactor.add)
        #: This agent's own events, as published (what its critic judges).
        self.events: list[Event] = []
        #: Messages from the user (or a delegating parent), and the latest: what a critic judges against.
        self.turn = 0
        self.latest_task = ""
        #: Context for the next user message (what SessionStart hooks added).
        self.carried_context: list[str] = []
        self.ending_review = EndingReview()
        #: Held read-only by whoever started it (a parent that was read-only then), for good.
        self.held_read_only = False

    @property
    def read_only(self) -> bool:
        """Whether this agent only reads now (plan mode, `sdk/run/plan_mode.py`): its Agent says
        so, its parent was read-only when it started it, or it is the root of a planning session."""
        return self.agent.read_only or self.held_read_only or (self.depth == 0 and self.runtime.plan_mode)

    def offered_schemas(self) -> list[dict[str, Any]]:
        """The tools the model is offered for its next answer: all of them, or while read-only
        only what reads (each tool's `plan_schema`)."""
        if not self.read_only:
            return self.schemas
        offered = (tool.plan_schema() for tool in self.tools.values())
        return [schema for schema in offered if schema is not None]

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self, history: list[Event] | None = None) -> None:
        """Create live tools; start a fresh history or fold in a stored one."""
        own = [e for e in history or () if e.agent_id == self.agent_id]
        self.runtime.open_agents[self.agent_id] = self  # what a mid-session change can address
        self.skills = merge_skills(self.agent.context.skills, self.runtime.microagents.skills)
        if self.agent.llm.api_key is not None:
            self.runtime.bus.redactor.add(self.agent.llm.api_key.get_secret_value(), "API key")
        spawner = self._spawner(self) if self._spawner is not None else None
        ctx = ToolContext(
            self.workspace,
            self.agent_id,
            own,
            spawner,
            self.runtime.sandbox,
            skills=_Shelf(self),
            agents=self.runtime.agents,
            trusted=self.runtime.trusted,
            editor_writes=self.runtime.editor_writes,
            read_only=lambda: self.read_only,
            report=self.runtime.bus.from_any_thread(),
            services=self.runtime.services,
            executor=self.executor,
        )
        self.tool_context = ctx  # what its tools were given: where it works, for its critics too
        self._own_hooks()
        tools = resolve_tools(self.agent.tools, ctx)
        self.tools = {tool.name: tool for tool in tools}
        self.schemas = [tool.schema for tool in tools]
        self.gauge = ContextGauge(self.schemas)
        only = self.agent.mcp_tools
        if only is None and self.depth == 0:
            self.mcp.want(self.runtime.mcp_servers, "the session")
        elif only:  # the session's servers its tools name (an agent file's `mcp__github__*`)
            servers = {n: c for n, c in self.runtime.mcp_servers.items() if any(_server_matches(n, p) for p in only)}
            self.mcp.want(servers, f"{self.agent.name}'s MCP tools")
        self.mcp.want(self.agent.mcp_servers, f"{self.agent.name}'s Agent(mcp_config=...)")
        if own:
            self._replay(own)
        else:
            self.record(
                SystemPromptEvent,
                agent_name=self.agent.name,
                model=self.agent.llm.model,
                content=self.agent.build_system_prompt(),
                tools=self.schemas,
            )

    def _own_hooks(self) -> None:
        """Hooks the strategy gave this agent in code: the root's serve the whole session, a
        sub-agent's only itself (and the scripts they run are the session's trusted files)."""
        config = self.agent.hook_config
        if config is None or config.is_empty():
            return
        source = code_source(config, f"{self.agent.name}'s hook_config", self.runtime.workspace)
        for path in paths_to_protect(list(source.scripts), self.runtime.workspace):
            self.runtime.trusted.note(path, RUNS_AS_HOOK)
        if self.depth == 0:
            self.runtime.hooks.add(source)
        else:
            self.runtime.agent_hooks[self.agent_id] = HookEngine(
                self.runtime.workspace, [*self.runtime.hooks.sources, source]
            )

    async def close(self) -> None:
        self.runtime.open_agents.pop(self.agent_id, None)
        for tool in self.tools.values():
            await tool.close()
        own = self.runtime.agent_hooks.pop(self.agent_id, None)
        if own is not None:
            await own.aclose()

    def record(self, cls: type[E], **fields: Any) -> E:
        """Publish one of this agent's events; the model is later sent it as published (redacted)."""
        event: Any = cls(agent_id=self.agent_id, parent_agent_id=self.parent_id, **fields)
        published: Any = self.runtime.bus.publish(event)
        self.events.append(published)
        self.builder.add(published)
        self.stuck.observe(published)
        return published

    def set_status(self, status: Status, detail: str = "") -> None:
        if status != self.status or detail:
            self.status = status
            self.record(StatusEvent, status=status, detail=detail)

    @property
    def has_work(self) -> bool:
        """Whether a resumed agent has something to do without a new message."""
        return self.user_messages > 0 and self.status is not Status.FINISHED

    def _replay(self, own: list[Event]) -> None:
        self.call_ids = CallIds(e.tool_call_id for e in own if isinstance(e, ActionEvent))
        self.events = list(own)
        for event in own:
            self.builder.add(event)
            self.stuck.observe(event)
            if isinstance(event, MessageEvent) and event.role == "user":
                self.user_messages += 1
                if not event.source:
                    self.turn, self.latest_task = self.turn + 1, event.content
            elif isinstance(event, MicroagentTriggeredEvent):
                self.injected_skills.add(event.name)
                self._want_skill_servers(event.name)
            elif isinstance(event, StatusEvent):
                self.status = event.status
        ask_again, interrupted = unfinished_actions(own)
        self._awaiting_decision = ask_again  # asked but never answered: ask again, never assume
        for action in interrupted:
            interrupted_observation(self, action, self.runtime.earlier_sandbox in ("read-only", "workspace-write"))
        fold_recorded_model(self, own)  # a model chosen mid-session (/model) stays chosen

    # -- messages --------------------------------------------------------------------------

    def add_user_message(
        self,
        text: str,
        task: Skill | None = None,
        *,
        context_from_hooks: Sequence[str] = (),
        source: str = "",
        attached: Attached | None = None,
    ) -> MessageEvent:
        """Send `text` as the user; the first message carries the workspace context (with the
        always-on microagents) and any message carries the knowledge its words trigger, each
        microagent once per conversation. `task` is the task microagent `text` came from.
        `source`: who sends it when not the user ("critic", "stop hook": the engine, sending the
        agent back to work). `attached`: its images, the files it mentioned (their text joins the
        context) and a note per thing left out (said to the user, after the message)."""
        context: list[str] = []
        fired: list[tuple[Skill, str | None]] = []
        workspace = self.workspace
        if self.user_messages == 0:
            context.append(workspace_block(workspace, self.skills))
            fired += [(skill, None) for skill in always_on(self.skills)]
            # an always-on microagent with only servers (OpenHands' `default-tools`): its servers start now
            fired += [(skill, None) for skill in self.skills if skill.type == "repo" and skill.mcp_only]
        if task is not None:
            fired.append((task, f"/{task.name}"))
        for skill, keyword in triggered_skills(self.skills, text, self.injected_skills):
            context.append(extra_info_block(skill, keyword, workspace))
            fired.append((skill, keyword))
        suffix = self.agent.context.user_message_suffix
        if suffix:
            context.append(suffix.strip())
        if self.read_only:  # told, and held to it by the engine whatever the model makes of it
            context.append(PLAN_MODE_NOTE if self.depth == 0 and self.runtime.plan_mode else READ_ONLY_NOTE)
        context += [*self.carried_context, *context_from_hooks]
        self.carried_context = []
        attached = attached or Attached()
        context += attached.context + [f"[{note}]" for note in attached.notes]
        self.user_messages += 1
        if not source:
            self.turn, self.latest_task = self.turn + 1, text
        message = self.record(
            MessageEvent,
            role="user",
            content=text,
            context=context,
            source=source,
            images=attached.images,
            files=attached.files,
        )
        for note in attached.notes:
            self._warn(note)
        for skill, why in fired:
            self._triggered(skill, why)
        return message

    def _triggered(self, skill: Skill, keyword: str | None) -> None:
        self.injected_skills.add(skill.name)
        self._want_skill_servers(skill.name)
        self.record(
            MicroagentTriggeredEvent,
            name=skill.name,
            type=skill.type,
            keyword=keyword,
            source=skill.source,
            tokens=skill.tokens,
            content=skill.content,
        )

    def _want_skill_servers(self, name: str) -> None:
        """A microagent that fired brings its `mcp_tools` servers (started now, in the background)."""
        skill = next((s for s in self.skills if s.name == name and s.mcp_tools), None)
        if skill is not None:
            servers, problems, _ = microagent_servers(
                skill.mcp_tools,
                skill.source,
                self.runtime.workspace,
                origin=skill.origin,
                trust_project=self.runtime.trust_project,
                trust=self.runtime.trust,
            )
            for problem in problems:
                self._warn(problem)
            self.mcp.want(servers, f"microagent {skill.name}")

    def _warn(self, text: str) -> None:
        self.record(AgentErrorEvent, error=text)

    async def _attach_mcp(self) -> None:
        only = self.agent.mcp_tools
        for tool in await self.mcp.attach():
            if only is not None and not any(fnmatch.fnmatchcase(tool.name, pattern) for pattern in only):
                continue  # held to its declared tools by what it is given, not by asking the model
            if tool.name not in self.tools:
                self.tools[tool.name] = tool
                self.schemas.append(tool.schema)
        self.gauge = ContextGauge(self.schemas)

    # -- the step --------------------------------------------------------------------------

    async def step(self) -> None:
        if self._awaiting_decision:
            pending, self._awaiting_decision = self._awaiting_decision, []
            await resume_calls(self, self.runtime, self.tools, pending)
            return
        self._charge_iteration()
        if self.mcp.pending:
            await self._attach_mcp()
        response_id = new_id()
        response = await self.model_calls.ask(response_id)
        self.model_calls.record_usage(response, response_id, self.model_calls.answered_by)
        thinking = recorded_thinking(response, self.runtime.bus.redactor)
        if response.text or thinking or not response.tool_calls:
            said = self.record(
                MessageEvent, role="assistant", content=response.text, response_id=response_id, thinking=thinking
            )
            self.last_text = said.content or self.last_text
        cut = self.endings.check(response)  # a filtered answer, or one cut too often, ends the run
        if not response.tool_calls:
            try:
                self._answer_without_tools(self.last_text if response.text else "", cut)
            except Finished as end:
                await self._end(end.result)
            return
        calls = [prepare(self.tools, call) for call in self.call_ids.assign(response.tool_calls, response_id)]
        for prepared in calls if cut else ():  # its calls may be cut anywhere, even into valid JSON
            prepared.action, prepared.error = None, CUT_OFF_CALL
        finish_message = await carry_out(self, self.runtime, calls, response_id)
        if finish_message is not None:
            await self._end(finish_message)
            return
        critic = self.agent.critic
        if critic is not None and critic.mode == "all_actions":
            await judge(self, critic, final="", ending=False)
        why = self.stuck.verdict()
        if why is not None:
            raise StuckDetected(f"{self.agent.name} is stuck: {why}")

    async def _end(self, result: str) -> None:
        """The agent is ending: it finishes, unless a Stop hook or its critic sends it back."""
        follow_up = await self.ending_review.follow_up(self, result)
        if follow_up is None:
            raise Finished(result)
        self.add_user_message(follow_up.text, source=follow_up.source)

    async def ask_model(self, llm: LLM, messages: list[dict[str, Any]]) -> str:
        """One call to another model on this agent's behalf (a critic's): recorded and charged here."""
        response = await llm.complete(messages)
        self.model_calls.record_usage(response, new_id(), llm.model)
        return response.text

    def child_runs(self) -> ChildSpawner | None:
        return self._spawner(self) if self._spawner is not None else None

    def _charge_iteration(self) -> None:
        limit = self.agent.max_iterations
        if limit is not None and self.iterations >= limit:
            raise LimitReached(f"{self.agent.name} reached its iteration limit ({limit} model calls)")
        self.runtime.limits.charge_iteration()
        self.iterations += 1

    def _answer_without_tools(self, text: str, cut: bool = False) -> None:
        """A plain answer ends the run, like `finish`, unless it could not be the last word:
        empty, cut off, or a tool call written as text. Then the model is told (and the user)."""
        warning, nudge = self.endings.without_tools(text, cut)  # raises when the run ends
        if warning:
            self._warn(warning)
        self.add_user_message(nudge)


class _Shelf:
    """The `skill` tool's view of this agent: the Agent Skills it was told about."""

    def __init__(self, run: AgentRun) -> None:
        self._run = run

    def available(self) -> list[Skill]:
        return listed(self._run.skills)

    def opened(self, skill: Skill) -> None:
        self._run.injected_skills.add(skill.name)


def _server_matches(server: str, pattern: str) -> bool:
    """Whether a pattern over MCP tool names (`github__*`, `*`) can name a tool of `server`."""
    head = pattern.split("__", 1)[0]
    return fnmatch.fnmatchcase(server, head) or fnmatch.fnmatchcase(f"{server}__x", pattern)
