"""The session log: how fast events are appended, and how long resuming a big session takes.

1. Append rate: realistic events (messages, actions, observations with ~1 KB of output),
   each written as a checksummed line and flushed (no fsync, as for most events), then the
   same with an fsync after every event (the worst case: one per action is what runs do).
2. Resume: a 10,000-event session (100 agents' worth of steps, one root), from `tui --resume`'s
   point of view: read and verify the log, then rebuild the root agent's messages, tools and
   tree (Conversation.open). Target <= 1 s.

Usage: python tests/bench/bench_store.py [events]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from _common import describe

import openhands_tui.tools  # noqa: F401
from openhands_tui.sdk import LLM, Agent, Conversation, ConversationParts
from openhands_tui.sdk.facts.event import (
    ActionEvent,
    Event,
    LLMUsageEvent,
    MessageEvent,
    ObservationEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.tools.preset.default import get_default_tools

OUTPUT = "\n".join(f"src/module_{i}.py:{i}: TODO tidy this up" for i in range(30))  # ~1 KB


def session(total: int) -> list[Event]:
    events: list[Event] = [
        SystemPromptEvent(agent_id="root", agent_name="agent", model="openai/x", content="You are a coding agent."),
        MessageEvent(agent_id="root", role="user", content="tidy the TODOs"),
    ]
    step = 0
    while len(events) < total:
        call = f"call-{step}"
        command = f"grep -n TODO src/module_{step}.py"
        events += [
            MessageEvent(agent_id="root", role="assistant", content=f"Looking at module {step}.", response_id=call),
            ActionEvent(
                agent_id="root",
                tool_call_id=call,
                tool_name="terminal",
                arguments={"command": command},
                raw_arguments=f'{{"command": "{command}"}}',
                summary=f"$ {command}",
                response_id=call,
            ),
            ObservationEvent(agent_id="root", tool_call_id=call, tool_name="terminal", content=OUTPUT),
            LLMUsageEvent(agent_id="root", model="openai/x", response_id=call, prompt_tokens=1000 + step),
        ]
        step += 1
    return events[:total]


def append_rate(events: list[Event], fsync: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        log = SessionStore(Path(tmp)).create(SessionMeta(id="s"))
        started = time.perf_counter()
        for event in events:
            log.append(event)
            if fsync:
                log.sync()
        elapsed = time.perf_counter() - started
        log.close()
    return len(events) / elapsed


async def resume_time(events: list[Event], runs: int = 5) -> tuple[list[float], list[float], int]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SessionStore(Path(tmp))
        log = store.create(SessionMeta(id="s"))
        for event in events:
            log.append(event)
        log.close()
        size = log.events_path.stat().st_size
        agent = Agent(llm=LLM(model="openai/x", api_key="k"), tools=get_default_tools())
        loads, totals = [], []
        for _ in range(runs):
            started = time.perf_counter()
            loaded = store.open("s").load()
            loads.append(time.perf_counter() - started)
            DelegationTree.from_events(loaded.events)
            conversation = Conversation(agent, workspace=Path(tmp), parts=ConversationParts(history=loaded.events))
            await conversation.open()
            totals.append(time.perf_counter() - started)
            assert len(conversation.root.builder.messages) > len(events) // 2
            await conversation.close()
    return loads, totals, size


def main() -> None:
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    events = session(total)
    print(f"append, flushed per event:        {append_rate(events, fsync=False):,.0f} events/s")
    print(f"append, fsynced per event:        {append_rate(events[:2000], fsync=True):,.0f} events/s")
    loads, totals, size = asyncio.run(resume_time(events))
    print(f"resume a {total:,}-event session ({size / 1e6:.1f} MB):")
    print(f"  read and verify the log:        {describe(loads)}")
    print(f"  + rebuild messages, tools, tree: {describe(totals)}  (target <= 1 s)")


if __name__ == "__main__":
    main()
