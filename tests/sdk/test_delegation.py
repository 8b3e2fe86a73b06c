"""Delegation: isolated children, caps, confirmations from any depth, parallelism, the tree."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from openhands_tui.sdk import Agent, AgentContext, Status
from openhands_tui.sdk.facts.event import DelegationClosedEvent, DelegationOpenedEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run


def _role(text: str) -> AgentContext:
    return AgentContext(system_message_suffix=text)


def _register(name: str, role: str, tools: list[Tool] | None = None, **agent_kwargs) -> None:
    def factory(llm):
        return Agent(llm=llm, name=name, tools=tools or [], agent_context=_role(role), **agent_kwargs)

    register_agent(name, factory, f"the {name}")


def _root(server, role: str = "ROLE:root", params: dict | None = None, tools: list[Tool] | None = None) -> Agent:
    delegate = Tool(name="DelegateTool", params=params or {})
    return Agent(llm=llm_for(server), name="root", tools=[delegate, *(tools or [])], agent_context=_role(role))


def delegate(agent: str, task: str) -> Turn:
    return Turn.call("delegate", agent=agent, task=task)


def opened(result) -> list[DelegationOpenedEvent]:
    return result.kinds("delegation_opened")


def closed(result) -> list[DelegationClosedEvent]:
    return result.kinds("delegation_closed")


async def test_child_result_comes_back_as_the_tool_result(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[delegate("helper", "count the files"), Turn.finish("ok")],
            ),
            Script(name="helper", match="ROLE:helper", turns=[Turn.finish("there are 3 files")]),
        ]
    )
    result = await run(_root(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    (open_event,) = opened(result)
    assert (open_event.agent_id, open_event.parent_agent_id) == ("helper-1", "root")
    assert open_event.task == "count the files" and open_event.depth == 1
    (close_event,) = closed(result)
    assert close_event.status == "finished" and close_event.result == "there are 3 files"
    assert close_event.tokens > 0
    observation = next(o for o in result.kinds("observation") if o.tool_name == "delegate")
    assert observation.content == "helper (helper-1) finished. Its report:\n\nthere are 3 files"
    assert server.requests_for("root")[-1].messages[-1]["content"] == observation.content
    child_events = [e for e in result.events if e.agent_id == "helper-1"]
    assert child_events and all(e.parent_agent_id == "root" for e in child_events)


async def test_the_model_sees_an_enum_of_described_agents(serve, workspace: Path) -> None:
    _register("designer", "ROLE:designer")
    _register("coder", "ROLE:coder")
    _register("secret", "ROLE:secret")
    server = serve([Script(turns=[Turn.finish()])])
    await run(_root(server, params={"agents": ["designer", "coder"]}), workspace, "go")
    tools = {t["function"]["name"]: t["function"] for t in server.requests[0].body["tools"]}
    assert tools["delegate"]["parameters"]["properties"]["agent"]["enum"] == ["designer", "coder"]
    assert "- designer: the designer\n- coder: the coder" in tools["delegate"]["description"]
    parallel = tools["delegate_parallel"]["parameters"]["properties"]["tasks"]["items"]["properties"]
    assert parallel["agent"]["enum"] == ["designer", "coder"]


async def test_children_are_isolated_from_the_parents_history(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper")

    async def child_first_request(chatter: int) -> list[dict]:
        thinking = [Turn.call("think", thought=f"parent secret thought number {i} " * 5) for i in range(chatter)]
        server = serve(
            [
                Script(
                    name="root",
                    match="ROLE:root",
                    turns=[*thinking, delegate("helper", "the task"), Turn.finish()],
                ),
                Script(name="helper", match="ROLE:helper", turns=[Turn.finish("done")]),
            ]
        )
        await run(_root(server), workspace, "PARENT-ONLY user message")
        return server.requests_for("helper")[0].messages

    short, long = await child_first_request(2), await child_first_request(20)
    assert [m["role"] for m in short] == ["system", "user"]
    assert short[1]["content"].startswith("the task\n\n<WORKSPACE_CONTEXT>")
    assert not any("PARENT-ONLY" in json.dumps(m) or "secret thought" in json.dumps(m) for m in long)
    assert len(json.dumps(long)) <= 1.05 * len(json.dumps(short))


async def test_parallel_children_run_at_the_same_time(serve, workspace: Path) -> None:
    _register("worker", "ROLE:worker")
    tasks = [{"agent": "worker", "task": f"part {i}"} for i in range(4)]
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate_parallel", tasks=tasks), Turn.finish()],
            ),
            Script(
                name="worker",
                match="ROLE:worker",
                turns=[
                    Turn(
                        delay=0.5,
                        tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "part done"})],
                    )
                ]
                * 4,
            ),
        ]
    )
    result = await run(_root(server), workspace, "go")
    assert server.max_in_flight == 4  # all four children were waiting on the model at once
    order = [e.kind for e in result.events if e.kind.startswith("delegation_")]
    assert order == ["delegation_opened"] * 4 + ["delegation_closed"] * 4
    report = next(o for o in result.kinds("observation") if o.tool_name == "delegate_parallel").content
    assert report.count(": finished\n") == 4 and "## 4. worker" in report


async def test_several_delegate_calls_in_one_response_run_concurrently(serve, workspace: Path) -> None:
    _register("a", "ROLE:a")
    _register("b", "ROLE:b")
    both = Turn(tool_calls=[ScriptedToolCall(name="delegate", arguments={"agent": n, "task": "t"}) for n in "ab"])
    slow_finish = Turn(delay=0.5, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "x"})])
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[both, Turn.finish()]),
            Script(name="a", match="ROLE:a", turns=[slow_finish]),
            Script(name="b", match="ROLE:b", turns=[slow_finish]),
        ]
    )
    await run(_root(server), workspace, "go")
    assert server.max_in_flight == 2


async def test_depth_four_is_refused_at_default(serve, workspace: Path) -> None:
    def nested(llm):
        return Agent(llm=llm, name="nested", tools=[Tool(name="DelegateTool")], agent_context=_role("ROLE:nested"))

    register_agent("nested", nested, "delegates again")
    down = Turn.call("delegate", agent="nested", task="go deeper")
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[down, Turn.finish("root done")]),
            Script(
                name="nested",
                match="ROLE:nested",
                turns=[down, down, down, Turn.finish("bottom"), Turn.finish("up"), Turn.finish("up")],
            ),
        ]
    )
    result = await run(_root(server), workspace, "go")
    depths = [(e.depth, e.agent_id) for e in opened(result)]
    assert [d for d, _ in depths] == [1, 2, 3, 4]
    rejected = [e for e in closed(result) if e.status == "rejected"]
    assert len(rejected) == 1 and "max_delegation_depth is 3" in rejected[0].reason
    assert "4 levels below the root" in rejected[0].reason
    assert result.outcome.result == "root done"


async def test_pair_cap_per_turn(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[
                    delegate("helper", "1"),
                    delegate("helper", "2"),
                    delegate("helper", "3"),
                    Turn.finish(),
                ],
            ),
            Script(name="helper", match="ROLE:helper", turns=[Turn.finish("r")] * 3),
        ]
    )
    result = await run(_root(server), workspace, "go")
    statuses = [e.status for e in closed(result)]
    assert statuses == ["finished", "finished", "rejected"]
    third = [o for o in result.kinds("observation") if o.tool_name == "delegate"][2]
    assert "max_delegations_per_pair_per_turn is 2" in third.content and third.outcome == "error"
    assert len(server.requests_for("helper")) == 2


async def test_max_parallel_per_assignee(serve, workspace: Path) -> None:
    _register("worker", "ROLE:worker")
    tasks = [{"agent": "worker", "task": f"part {i}"} for i in range(5)]
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate_parallel", tasks=tasks), Turn.finish()],
            ),
            Script(name="worker", match="ROLE:worker", turns=[Turn.finish("w")] * 5),
        ]
    )
    result = await run(_root(server), workspace, "go")
    assert sorted(e.status for e in closed(result)) == ["finished"] * 4 + ["rejected"]
    report = next(o for o in result.kinds("observation") if o.tool_name == "delegate_parallel").content
    assert "max_parallel for worker is 4" in report


async def test_unknown_agent_is_explained(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper")
    server = serve([Script(name="root", match="ROLE:root", turns=[delegate("ghost", "x"), Turn.finish()])])
    result = await run(_root(server), workspace, "go")
    observation = result.kinds("observation")[0]
    assert "no agent named 'ghost'" in observation.content and "Valid agents: helper" in observation.content


async def test_iteration_budget_covers_the_whole_tree(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper")
    busy = [Turn(tool_calls=[ScriptedToolCall(name="think", arguments={"thought": f"step {n}"})]) for n in range(20)]
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[delegate("helper", "work"), Turn.finish()]),
            Script(name="helper", match="ROLE:helper", turns=busy),
        ]
    )
    result = await run(_root(server), workspace, "go", limits=Limits(max_iterations=6))
    assert len(server.requests) == 6
    assert closed(result)[0].status == "limit"
    assert result.outcome.exit_code == 3 and "iteration limit reached (6" in result.outcome.detail


async def test_a_failing_child_reports_status_reason_and_partial_result(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper", max_iterations=2)
    chatty = Turn(
        text="Found the bug in parser.py line 12.",
        tool_calls=[ScriptedToolCall(name="think", arguments={"thought": "keep going"})],
    )
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[delegate("helper", "fix it"), Turn.finish("reported")]),
            Script(name="helper", match="ROLE:helper", turns=[chatty, chatty, chatty]),
        ]
    )
    result = await run(_root(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    text = next(o for o in result.kinds("observation") if o.tool_name == "delegate").content
    assert "did not finish: limit — helper reached its iteration limit (2 model calls)" in text
    assert "Found the bug in parser.py line 12." in text


async def test_grandchild_high_risk_action_reaches_the_confirmer_with_the_chain(serve, workspace: Path) -> None:
    (workspace / "precious.txt").write_text("keep")

    def coder(llm):
        return Agent(
            llm=llm,
            name="coder",
            tools=[Tool(name="DelegateTool", params={"agents": ["tester"]})],
            agent_context=_role("ROLE:coder"),
        )

    register_agent("coder", coder, "writes code")
    _register("tester", "ROLE:tester", tools=get_default_tools())
    rm = Turn(
        tool_calls=[
            ScriptedToolCall(name="terminal", arguments={"command": "rm precious.txt", "security_risk": "HIGH"})
        ]
    )
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[delegate("coder", "code"), Turn.finish("root done")]),
            Script(name="coder", match="ROLE:coder", turns=[delegate("tester", "test"), Turn.finish("coded")]),
            Script(name="tester", match="ROLE:tester", turns=[rm, Turn.finish("could not delete")]),
        ]
    )
    confirmer = ScriptedConfirmer([Decision(approved=False, reason="keep that file")])
    result = await run(_root(server, params={"agents": ["coder"]}), workspace, "go", confirmer=confirmer)
    (request,) = confirmer.requests
    assert request.chain == ["root", "coder", "tester"] and request.agent_id == "tester-2"
    assert request.summary == "$ rm precious.txt" and request.risk == "HIGH"
    assert (workspace / "precious.txt").exists()
    tester_saw = server.requests_for("tester")[-1].messages[-1]["content"]
    assert tester_saw.startswith("Rejected by the user: keep that file.")
    assert result.outcome.result == "root done"


async def test_siblings_keep_running_while_one_waits_for_confirmation(serve, workspace: Path) -> None:
    _register("asker", "ROLE:asker", tools=get_default_tools())
    _register("quick", "ROLE:quick")
    risky = Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "true", "security_risk": "HIGH"})])
    tasks = [{"agent": "asker", "task": "a"}, {"agent": "quick", "task": "q"}]
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate_parallel", tasks=tasks), Turn.finish()],
            ),
            Script(name="asker", match="ROLE:asker", turns=[risky, Turn.finish("asked")]),
            Script(name="quick", match="ROLE:quick", turns=[Turn.finish("quick done")]),
        ]
    )
    gate = asyncio.Event()
    closed_while_waiting: list[str] = []
    events: list = []

    class SlowConfirmer:
        async def confirm(self, request):
            closed_while_waiting.extend(e.agent_name for e in events if e.kind == "delegation_closed")
            gate.set()
            await asyncio.sleep(0.3)
            closed_while_waiting.extend(e.agent_name for e in events if e.kind == "delegation_closed")
            return Decision(approved=True)

    from openhands_tui.sdk import Conversation, ConversationParts

    parts = ConversationParts(confirmer=SlowConfirmer(), subscribers=[events.append])
    conversation = Conversation(_root(server), workspace=workspace, parts=parts)
    outcome = await conversation.run("go")
    await conversation.close()
    assert outcome.status is Status.FINISHED and gate.is_set()
    assert "quick" in closed_while_waiting  # the sibling finished while the asker waited


async def test_interrupting_the_root_interrupts_its_children(serve, workspace: Path) -> None:
    _register("sleeper", "ROLE:sleeper", tools=get_default_tools())
    nap = Turn.call("terminal", command="sleep 30")
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[delegate("sleeper", "nap"), Turn.finish()]),
            Script(name="sleeper", match="ROLE:sleeper", turns=[nap, Turn.finish()]),
        ]
    )
    events: list = []
    from openhands_tui.sdk import Conversation, ConversationParts

    parts = ConversationParts(subscribers=[events.append])
    conversation = Conversation(_root(server), workspace=workspace, parts=parts)
    task = asyncio.create_task(conversation.run("go"))
    while not any(e.kind == "action" and e.agent_id == "sleeper-1" for e in events):
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    task.cancel()
    outcome = await task
    await conversation.close()
    assert outcome.exit_code == 130 and outcome.detail == "interrupted"
    assert [e.status for e in events if e.kind == "delegation_closed"] == ["interrupted"]
    tree = DelegationTree.from_events(events)
    assert tree.nodes["sleeper-1"].status == "interrupted" and tree.nodes["root"].status == "paused"


async def test_tree_from_the_log_equals_the_live_tree_and_survives_resume(
    serve, workspace: Path, tmp_path: Path
) -> None:
    _register("helper", "ROLE:helper")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[
                    delegate("helper", "one"),
                    Turn.finish("a"),
                    delegate("helper", "two"),
                    Turn.finish("b"),
                ],
            ),
            Script(name="helper", match="ROLE:helper", turns=[Turn.finish("h1"), Turn.finish("h2")]),
        ]
    )
    store = SessionStore(tmp_path / "state")
    live = DelegationTree()
    from openhands_tui.sdk import Conversation, ConversationParts

    parts = ConversationParts(log=store.create(SessionMeta(id="s")), subscribers=[live.apply])
    conversation = Conversation(_root(server), workspace=workspace, parts=parts)
    await conversation.run("first")
    await conversation.close()
    stored = DelegationTree.from_events(store.open("s").load().events)
    assert stored.snapshot() == live.snapshot()
    assert live.render().splitlines()[0].startswith("root [finished]")

    log = store.open("s")
    parts = ConversationParts(log=log, history=log.load().events, subscribers=[live.apply])
    resumed = Conversation(_root(server), workspace=workspace, parts=parts)
    await resumed.run("second")
    await resumed.close()
    assert list(live.nodes) == ["root", "helper-1", "helper-2"]  # ids keep counting after resume
    assert DelegationTree.from_events(store.open("s").load().events).snapshot() == live.snapshot()
    assert live.subtree_tokens("root") == sum(n.tokens for n in live.nodes.values())


async def test_cost_budget_covers_the_whole_tree(serve, workspace: Path) -> None:
    _register("helper", "ROLE:helper")
    thoughts = [{"thought": "x" * 400 + str(n)} for n in range(50)]  # varied: the same one 4 times is stuck
    busy = [Turn(tool_calls=[ScriptedToolCall(name="think", arguments=t)]) for t in thoughts]
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[delegate("helper", "work"), Turn.finish()]),
            Script(name="helper", match="ROLE:helper", turns=busy),
        ]
    )
    priced = Agent(
        llm=llm_for(server, model="openai/gpt-4o-mini"),
        name="root",
        tools=[Tool(name="DelegateTool")],
        agent_context=_role("ROLE:root"),
    )
    result = await run(priced, workspace, "go", limits=Limits(max_iterations=None, max_budget=0.002))
    costs = [e.cost for e in result.kinds("llm_usage")]
    assert all(c is not None and c > 0 for c in costs)  # a priced model: every call has a cost
    assert result.outcome.exit_code == 3 and "budget limit reached" in result.outcome.detail
    assert sum(costs[:-1]) < 0.002 <= sum(costs)
    assert closed(result)[0].status == "limit" and closed(result)[0].cost > 0


async def test_resume_after_a_kill_inside_a_child(serve, workspace: Path, tmp_path: Path) -> None:
    _register("helper", "ROLE:helper", tools=get_default_tools())
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[delegate("helper", "work"), Turn.finish("a"), Turn.finish("after resume")],
            ),
            Script(
                name="helper",
                match="ROLE:helper",
                turns=[Turn.call("terminal", command="echo w"), Turn.finish()],
            ),
        ]
    )
    store = SessionStore(tmp_path / "state")
    full = await run(_root(server), workspace, "go", log=store.create(SessionMeta(id="full")))
    assert full.outcome.status is Status.FINISHED
    events = store.open("full").load().events
    cut = store.create(SessionMeta(id="cut"))
    for event in events:  # as if killed while the child's command ran
        cut.append(event)
        if event.kind == "action" and event.agent_id == "helper-1":
            break
    cut.close()
    log = store.open("cut")
    resumed = await run(_root(server), workspace, None, log=log, history=log.load().events)
    assert resumed.outcome.result == "after resume"
    tree = DelegationTree.from_events(store.open("cut").load().events)
    assert tree.nodes["helper-1"].status == "interrupted" and tree.nodes["root"].status == "finished"
    parent_saw = next(o for o in resumed.kinds("observation") if o.agent_id == "root")
    assert parent_saw.tool_name == "delegate" and parent_saw.outcome == "interrupted"
