"""Hand-written event sequences for snapshots: deterministic ids, clocks, tokens and paths."""

from __future__ import annotations

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    ConfirmationRequestEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    LLMUsageEvent,
    MessageEvent,
    MicroagentsLoadedEvent,
    MicroagentTriggeredEvent,
    ObservationEvent,
    Risk,
    Status,
    StatusEvent,
    SystemPromptEvent,
    TextDeltaEvent,
    use_deterministic_ids,
)
from openhands_tui.sdk.facts.subject import FileChange, Finish, ShellCommand

WORKSPACE = "/home/dev/project"
DOCKER = "- Prefer small, pinned base images.\n- Never bake secrets into images."


def _start(agent: str = "root", name: str = "waterfall", parent: str | None = None) -> list[Event]:
    return [
        SystemPromptEvent(
            agent_id=agent, parent_agent_id=parent, agent_name=name, model="openai/gpt-4o", content="system"
        )
    ]


def _usage(agent: str, prompt: int, completion: int, parent: str | None = None, cost: float = 0.0) -> Event:
    return LLMUsageEvent(
        agent_id=agent,
        parent_agent_id=parent,
        model="openai/gpt-4o",
        response_id="r",
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost=cost,
    )


def _loaded() -> Event:
    return MicroagentsLoadedEvent(
        agent_id="root",
        microagents=[
            {"name": "agents", "type": "repo", "triggers": [], "source": f"{WORKSPACE}/AGENTS.md", "tokens": 42},
            {
                "name": "docker",
                "type": "knowledge",
                "triggers": ["docker", "dockerfile"],
                "source": "builtin/docker.md",
                "tokens": 179,
            },
            {
                "name": "testing",
                "type": "knowledge",
                "triggers": ["test", "pytest"],
                "source": "builtin/testing.md",
                "tokens": 168,
            },
        ],
        warnings=[f"{WORKSPACE}/.openhands/microagents/broken.md: skipped, broken YAML frontmatter"],
        shadowed=[],
    )


def idle() -> list[Event]:
    use_deterministic_ids()
    return [*_start(), _loaded()]


def streaming() -> list[Event]:
    use_deterministic_ids()
    events = [
        *_start(),
        _loaded(),
        MessageEvent(agent_id="root", role="user", content="Add a Dockerfile for the API", context=["ctx"]),
        MicroagentTriggeredEvent(
            agent_id="root",
            name="docker",
            type="knowledge",
            keyword="docker",
            source="builtin/docker.md",
            tokens=179,
            content=DOCKER,
        ),
        StatusEvent(agent_id="root", status=Status.RUNNING),
    ]
    text = "I'll start from a **slim Python base image**, copy the lock file first so installs are cached, and then"
    events += [TextDeltaEvent(agent_id="root", delta=text[i : i + 9], response_id="r1") for i in range(0, len(text), 9)]
    return events


def nested(depth_statuses: tuple[str, ...] = ("finished", "running", "waiting")) -> list[Event]:
    use_deterministic_ids()
    events: list[Event] = [
        *_start(),
        _loaded(),
        MessageEvent(agent_id="root", role="user", content="Build a REST API for todos"),
        StatusEvent(agent_id="root", status=Status.RUNNING),
        _usage("root", 1800, 120, cost=0.004),
    ]
    events += [
        DelegationOpenedEvent(
            agent_id="designer-1", parent_agent_id="root", agent_name="designer", task="Design a todo REST API", depth=1
        ),
        *_start("designer-1", "designer", "root"),
        _usage("designer-1", 900, 400, "root", cost=0.002),
        StatusEvent(agent_id="designer-1", parent_agent_id="root", status=Status.FINISHED),
        DelegationClosedEvent(
            agent_id="designer-1",
            parent_agent_id="root",
            agent_name="designer",
            status="finished",
            result="Design: GET/POST /todos",
            tokens=1300,
        ),
        DelegationOpenedEvent(
            agent_id="coder-2",
            parent_agent_id="root",
            agent_name="coder",
            task="Implement GET/POST /todos with tests",
            depth=1,
        ),
        *_start("coder-2", "coder", "root"),
        _usage("coder-2", 2400, 600, "root", cost=0.006),
        StatusEvent(agent_id="coder-2", parent_agent_id="root", status=Status.RUNNING),
        DelegationOpenedEvent(
            agent_id="tester-3",
            parent_agent_id="coder-2",
            agent_name="tester",
            task="Run the API tests and report failures",
            depth=2,
        ),
        *_start("tester-3", "tester", "coder-2"),
        _usage("tester-3", 1200, 80, "coder-2", cost=0.001),
        StatusEvent(agent_id="tester-3", parent_agent_id="coder-2", status=Status.RUNNING),
        DelegationOpenedEvent(
            agent_id="checker-4",
            parent_agent_id="tester-3",
            agent_name="checker",
            task="Check the test database is clean",
            depth=3,
        ),
        *_start("checker-4", "checker", "tester-3"),
        _usage("checker-4", 600, 30, "tester-3"),
        StatusEvent(agent_id="checker-4", parent_agent_id="tester-3", status=Status.WAITING_FOR_CONFIRMATION),
    ]
    return events


def transcript() -> list[Event]:
    """A finished exchange with a passing and a failing command and an edit."""
    use_deterministic_ids()
    edit = ActionEvent(
        agent_id="root",
        tool_call_id="c2",
        tool_name="file_editor",
        arguments={"command": "str_replace", "path": "app.py", "old_str": "return 1", "new_str": "return 2"},
        subject=FileChange(path="app.py", operation="edit", before="return 1", after="return 2"),
        summary="edit app.py",
        risk=Risk.MEDIUM,
        risk_reasons=["edits a file inside the workspace"],
    )
    return [
        *_start(),
        MessageEvent(agent_id="root", role="user", content="Fix the failing test"),
        StatusEvent(agent_id="root", status=Status.RUNNING),
        MessageEvent(agent_id="root", role="assistant", content="Let me run the tests first.", response_id="a"),
        ActionEvent(
            agent_id="root",
            tool_call_id="c1",
            tool_name="terminal",
            arguments={"command": "pytest -q"},
            subject=ShellCommand(command="pytest -q", cwd="/home/dev/project"),
            summary="$ pytest -q",
            risk=Risk.MEDIUM,
            response_id="a",
        ),
        ObservationEvent(
            agent_id="root",
            tool_call_id="c1",
            tool_name="terminal",
            outcome="error",
            content="F\n1 failed in 0.02s\n[exit code 1 · cwd /home/dev/project]",
            data={"exit_code": 1},
        ),
        edit,
        ObservationEvent(
            agent_id="root",
            tool_call_id="c2",
            tool_name="file_editor",
            content="Edited app.py",
            data={"diff": "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-return 1\n+return 2\n"},
        ),
        ActionEvent(
            agent_id="root",
            tool_call_id="c3",
            tool_name="terminal",
            arguments={"command": "pytest -q"},
            subject=ShellCommand(command="pytest -q", cwd="/home/dev/project"),
            summary="$ pytest -q",
            risk=Risk.MEDIUM,
        ),
        ObservationEvent(
            agent_id="root",
            tool_call_id="c3",
            tool_name="terminal",
            content=".\n1 passed in 0.01s\n[exit code 0 · cwd /home/dev/project]",
            data={"exit_code": 0},
        ),
        _usage("root", 5200, 310, cost=0.0071),
        ActionEvent(agent_id="root", tool_call_id="c4", tool_name="finish", subject=Finish(), summary="finish"),
        ObservationEvent(
            agent_id="root",
            tool_call_id="c4",
            tool_name="finish",
            content="Fixed `app.py`: the function returned 1 instead of 2. The test passes.",
        ),
        StatusEvent(agent_id="root", status=Status.FINISHED),
    ]


def failed() -> list[Event]:
    use_deterministic_ids()
    return [
        *_start(),
        MessageEvent(agent_id="root", role="user", content="Summarise the repo"),
        StatusEvent(agent_id="root", status=Status.RUNNING),
        AgentErrorEvent(agent_id="root", error="model call failed (Rate limit reached); retry 1 in 2.0s"),
        StatusEvent(
            agent_id="root",
            status=Status.ERROR,
            detail="the model provider refused the credentials: Incorrect API key provided",
        ),
    ]


def edit_request(
    agent: str = "checker-4",
    chain: tuple[str, ...] = ("waterfall", "coder", "tester", "checker"),
) -> ConfirmationRequestEvent:
    return ConfirmationRequestEvent(
        agent_id=agent,
        parent_agent_id="tester-3",
        action_id="a1",
        tool_call_id="c9",
        tool_name="file_editor",
        summary="edit .github/workflows/ci.yml",
        arguments={
            "command": "str_replace",
            "path": ".github/workflows/ci.yml",
            "old_str": "run: pytest -q",
            "new_str": "run: pytest -q --maxfail=1\n        env:\n          CI: true",
        },
        subject=FileChange(
            path=".github/workflows/ci.yml",
            operation="edit",
            before="run: pytest -q",
            after="run: pytest -q --maxfail=1\n        env:\n          CI: true",
        ),
        risk=Risk.HIGH,
        reasons=["edits .github/workflows/ci.yml (CI configuration)"],
        chain=list(chain),
        suggested_rule={"action": "allow", "path": ".github/workflows/ci.yml"},
    )


def command_request(n: int) -> ConfirmationRequestEvent:
    return ConfirmationRequestEvent(
        agent_id=f"worker-{n}",
        parent_agent_id="root",
        action_id=f"q{n}",
        tool_call_id=f"q{n}",
        tool_name="terminal",
        summary=f"$ rm -rf build/{n}",
        arguments={"command": f"rm -rf build/{n}"},
        subject=ShellCommand(command=f"rm -rf build/{n}", cwd="/home/dev/project"),
        risk=Risk.HIGH,
        reasons=["rm -rf deletes whole directory trees without asking"],
        chain=["fanout", "worker"],
        suggested_rule={"action": "allow", "command": "rm"},
    )
