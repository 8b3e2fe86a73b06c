"""The OpenHands SDK's names, used the way SDK code uses them (not copies of its examples):
a conversation driven from plain synchronous code, events the model is shown, the SDK's
confirmation policies, sub-agent registration from `openhands_tui.sdk` — and the names whose
feature is not here failing in one line that says what is missing and what to use instead."""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from typing import Any

import pytest

from openhands_tui.sdk import (
    LLM,
    Agent,
    BaseConversation,
    Conversation,
    ConversationExecutionStatus,
    LLMConvertibleEvent,
    LocalConversation,
    Message,
    TextContent,
    Tool,
)
from openhands_tui.sdk.conversation import ConversationVisualizerBase
from openhands_tui.sdk.conversation.state import ConversationState
from openhands_tui.sdk.event import ActionEvent, Event, ObservationEvent
from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.security.confirmation_policy import AlwaysConfirm, ConfirmRisky, NeverConfirm, SecurityRisk
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.file_editor import FileEditorTool
from openhands_tui.tools.terminal import TerminalTool
from tests.conftest import llm_for


def echo(text: str) -> Turn:
    return Turn.call("terminal", command=f"echo {text}")


def agent_for(server: Any, **extra: Any) -> Agent:
    return Agent(llm=llm_for(server), tools=[Tool(name=TerminalTool.name), Tool(name=FileEditorTool.name)], **extra)


def in_plain_thread(work: Any) -> Any:
    """Run `work` where no event loop is running, as an SDK script's main code does."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = work()
        except BaseException as exc:
            result["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the conversation did not come back"
    if "error" in result:
        raise result["error"]
    return result.get("value")


def test_send_message_then_run_blocks_and_keeps_the_shell_between_runs(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command="export MARK=kept"),
                    Turn.finish("one"),
                    echo("$MARK"),
                    Turn.finish("two"),
                ]
            )
        ]
    )
    seen: list[Any] = []

    def script() -> None:
        conversation = Conversation(agent=agent_for(server), callbacks=[seen.append], workspace=str(workspace))
        conversation.send_message("set a mark")
        conversation.run()
        assert conversation.state.execution_status == ConversationExecutionStatus.FINISHED
        conversation.send_message(Message(role="user", content=[TextContent(text="show the mark")]))
        conversation.run()
        conversation.close()

    in_plain_thread(script)
    results = [e.content for e in seen if isinstance(e, ObservationEvent) and e.tool_name == "terminal"]
    assert results[-1].startswith("kept")  # the second run used the first run's shell
    assert [r.messages[-1]["content"] for r in server.requests if r.messages[-1]["role"] == "user"][-1].startswith(
        "show the mark"
    )


async def test_run_awaited_from_async_code_is_the_engines_run(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    conversation = Conversation(agent_for(server), workspace=workspace)
    outcome = await conversation.run("hello")
    await conversation.close()
    assert outcome.status == "finished" and outcome.result == "done"


def test_events_the_model_is_shown_convert_to_messages(serve, workspace: Path) -> None:
    server = serve([Script(turns=[echo("hi"), Turn.finish("done")])])
    messages: list[Message] = []

    def callback(event: Event) -> None:
        if isinstance(event, LLMConvertibleEvent):
            messages.append(event.to_llm_message())

    def script() -> None:
        conversation = LocalConversation(agent=agent_for(server), callbacks=[callback], workspace=workspace)
        conversation.send_message("say hi")
        conversation.run()
        conversation.close()

    in_plain_thread(script)
    roles = [m.role for m in messages]
    assert roles[:2] == ["system", "user"] and "tool" in roles
    call = next(m for m in messages if m.tool_calls)
    assert call.tool_calls[0]["function"]["name"] == "terminal"
    result = next(m for m in messages if m.role == "tool")
    assert result.tool_call_id == call.tool_calls[0]["id"] and result.text.startswith("hi")
    # the first request the model got is what the events say it was sent
    assert server.requests[0].messages[0]["content"] == messages[0].text


def test_state_and_stats_come_from_the_events(serve, workspace: Path) -> None:
    server = serve([Script(turns=[echo("x"), Turn.finish("done")])])

    def script() -> Any:
        conversation = Conversation(agent=agent_for(server), workspace=workspace)
        assert isinstance(conversation, BaseConversation)
        assert conversation.state.execution_status == "idle"
        conversation.send_message("go")
        conversation.run()
        conversation.close()
        return conversation

    conversation = in_plain_thread(script)
    combined = conversation.conversation_stats.get_combined_metrics()
    assert len(combined.token_usages) == len(server.requests) == 2
    assert combined.accumulated_token_usage.prompt_tokens > 0
    assert any(isinstance(e, ActionEvent) for e in conversation.state.events)
    assert ConversationState.get_unmatched_actions(conversation.state.events) == []


def test_a_custom_visualizer_sees_every_event(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])

    class Kinds(ConversationVisualizerBase):
        def __init__(self) -> None:
            super().__init__()
            self.kinds: list[str] = []

        def on_event(self, event: Event) -> None:
            self.kinds.append(event.kind)

    visualizer = Kinds()

    def script() -> None:
        conversation = Conversation(agent=agent_for(server), workspace=workspace, visualizer=visualizer)
        conversation.send_message("hello")
        conversation.run()
        conversation.close()

    in_plain_thread(script)
    assert {"system_prompt", "message", "status"} <= set(visualizer.kinds)
    assert visualizer.conversation_stats is not None


def test_confirmation_stops_run_until_approved_or_rejected(serve, workspace: Path) -> None:
    server = serve(
        [Script(turns=[echo("first"), Turn.call("terminal", command="echo second > made.txt"), Turn.finish("done")])]
    )

    def script() -> list[str]:
        conversation = Conversation(agent=agent_for(server), workspace=workspace)
        conversation.set_confirmation_policy(AlwaysConfirm())
        conversation.send_message("two commands")
        statuses = []
        conversation.run()
        statuses.append(conversation.state.execution_status.value)
        (waiting,) = ConversationState.get_unmatched_actions(conversation.state.events)
        assert waiting.arguments["command"] == "echo first"
        conversation.run()  # approves it
        statuses.append(conversation.state.execution_status.value)
        conversation.reject_pending_actions("not that one")
        conversation.run()
        statuses.append(conversation.state.execution_status.value)
        conversation.close()
        return statuses

    assert in_plain_thread(script) == ["waiting_for_confirmation", "waiting_for_confirmation", "finished"]
    assert not (workspace / "made.txt").exists()
    assert "not that one" in server.requests[2].messages[-1]["content"]


def test_sdk_policies_map_onto_the_engines_modes(serve, workspace: Path) -> None:
    conversation = Conversation(agent=agent_for(serve([])), workspace=workspace)
    conversation.set_confirmation_policy(ConfirmRisky(threshold=SecurityRisk.MEDIUM))
    assert (conversation.runtime.policy.mode, conversation.runtime.policy.threshold) == ("risky", "MEDIUM")
    conversation.set_confirmation_policy(NeverConfirm())
    assert conversation.runtime.policy.mode == "never"
    with pytest.raises(ValueError, match="UNKNOWN"):
        ConfirmRisky(threshold=SecurityRisk.UNKNOWN)


def test_pause_from_another_thread_then_run_continues(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="sleep 2"), Turn.finish("resumed")])])
    conversation = Conversation(agent=agent_for(server), workspace=workspace)
    conversation.send_message("wait a while")

    def script() -> None:
        worker = threading.Thread(target=conversation.run)
        worker.start()
        while not any(isinstance(e, ActionEvent) for e in conversation.state.events):
            threading.Event().wait(0.05)
        threading.Event().wait(1)  # the command is running (not its shell still starting)
        conversation.pause()
        worker.join(30)
        assert conversation.state.execution_status == ConversationExecutionStatus.PAUSED
        conversation.run()
        assert conversation.state.execution_status == ConversationExecutionStatus.FINISHED
        conversation.close()

    in_plain_thread(script)


def test_register_agent_from_the_engine_package_reaches_delegation() -> None:
    from openhands_tui.sdk import register_agent, register_agent_if_absent
    from openhands_tui.tools.delegate import get_agent, registry
    from openhands_tui.tools.task import TaskToolSet

    saved = registry.unregister_all()

    def helper(llm: LLM) -> Agent:
        return Agent(llm=llm, tools=[])

    try:
        register_agent(name="helper", factory_func=helper, description="Helps.")
        entry = get_agent("helper")
        assert entry is not None and entry.description == "Helps."
        assert register_agent_if_absent(name="helper", factory_func=helper) is False
        assert TaskToolSet.name == "delegate"
    finally:
        registry.restore(saved)


UNSUPPORTED_MODULES = [
    ("openhands_tui.tools.browser_use", "there is no browser here"),
    ("openhands_tui.tools.tom_consult", "the Tom agent service is not available here"),
    ("openhands_tui.tools.workflow", "workflow scripts are not here"),
    ("openhands_tui.sdk.llm.router", "one LLM serves an agent here"),
    ("openhands_tui.sdk.llm.llm_profile_store", "LLM profiles are not stored here"),
    ("openhands_tui.sdk.conversation.goal", "goal loops are not here"),
]


@pytest.mark.parametrize(("module", "why"), UNSUPPORTED_MODULES)
def test_a_missing_feature_fails_on_import_in_one_line(module: str, why: str) -> None:
    with pytest.raises(ImportError) as failure:
        importlib.import_module(module)
    text = str(failure.value)
    assert text.startswith(f"{module} is not supported by openhands_tui: {why}") and "\n" not in text


def test_unsupported_sdk_classes_import_but_fail_when_built() -> None:
    from openhands_tui.sdk import RemoteConversation
    from openhands_tui.sdk.security import EnsembleSecurityAnalyzer, LLMSecurityAnalyzer

    for cls, why in [
        (LLMSecurityAnalyzer, "a model does not rate risk"),
        (EnsembleSecurityAnalyzer, "there is one analyzer"),
        (RemoteConversation, "there is no remote agent-server here"),
    ]:
        with pytest.raises(UnsupportedArgument) as failure:
            cls()
        assert str(failure.value).startswith(f"{cls.__name__} is not supported by openhands_tui: {why}")
        assert "\n" not in str(failure.value)


def test_sdk_conversation_arguments_that_cannot_work_say_why(serve, workspace: Path) -> None:
    agent = agent_for(serve([]))
    with pytest.raises(
        UnsupportedArgument, match=r"^Conversation\(secrets=\.\.\.\) is not supported by openhands_tui: "
    ):
        Conversation(agent=agent, workspace=workspace, secrets={"TOKEN": "x"})
    with pytest.raises(UnsupportedArgument, match=r"^Conversation\(persistence_dir=\.\.\.\) is not supported"):
        Conversation(agent=agent, workspace=workspace, persistence_dir=str(workspace / ".conversations"))
    conversation = Conversation(agent=agent, workspace=workspace)
    with pytest.raises(UnsupportedArgument, match="send_message\\(\\) with ImageContent is not supported"):
        from openhands_tui.sdk import ImageContent

        conversation.send_message(Message(role="user", content=[ImageContent(image_urls=["http://x/y.png"])]))
    with pytest.raises(UnsupportedArgument, match="set_security_analyzer\\(\\) is not supported"):
        conversation.set_security_analyzer(object())


def test_the_sdk_mcp_server_spec_is_an_mcp_config_entry(serve) -> None:
    from openhands_tui.sdk.mcp import MCPServer

    agent = Agent(llm=llm_for(serve([])), tools=[], mcp_config={"files": MCPServer(command="true", args=["-x"])})
    (config,) = agent.mcp_servers.values()
    assert (config.command, config.args) == ("true", ["-x"])
