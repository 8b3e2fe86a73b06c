"""The app's responsiveness.

1. Launch -> first interactive frame, in a real terminal (tmux): from starting `tui` until the
   prompt is on screen (target <= 0.5 s; OpenHands CLI 1.16 takes 4.2 s here).
2. A session of 2,000 events and 50 agents loaded: key press -> screen updated, for typing,
   toggling the tree, and switching to another agent's transcript (target <= 50 ms).
3. Streaming: token deltas posted from another thread (as the engine does) at a given rate
   for 3 s, one assistant message per rate; the lag from the last delta to the frame that
   shows it. The transcript keeps up while the lag stays at a few frames (< 100 ms).

Usage: python tests/bench/bench_tui.py [startup|keys|stream|all] [runs]
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import time

from _common import describe, first_frame_times


def startup(runs: int, bytecode_cache: bool = True) -> None:
    """`bytecode_cache=False` forces every module to be compiled at each start (what
    PYTHONDONTWRITEBYTECODE=1 does to an editable install); users normally have the cache."""
    if shutil.which("tmux") is None:
        print("startup: tmux is not installed")
        return
    tui = shutil.which("tui") or os.path.join(os.path.dirname(sys.executable), "tui")
    home = tempfile.mkdtemp()
    cache = "-u PYTHONDONTWRITEBYTECODE" if bytecode_cache else "PYTHONDONTWRITEBYTECODE=1"
    env = (
        f"env -u COLUMNS -u LINES {cache} HOME={home} XDG_STATE_HOME={home}/s "
        f"XDG_CONFIG_HOME={home}/c TERM=xterm-256color"
    )
    args = shlex.join([tui, "--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--workspace", home])
    times = first_frame_times(f"{env} {args}", "Type a task", runs)
    label = "with bytecode cache" if bytecode_cache else "without bytecode cache"
    print(f"launch -> interactive frame (tmux, {label}): {describe(times)}")


def _big_session(agents: int = 50, total: int = 2000) -> list:
    from openhands_tui.sdk.facts.event import (
        ActionEvent,
        DelegationOpenedEvent,
        LLMUsageEvent,
        MessageEvent,
        ObservationEvent,
        SystemPromptEvent,
        use_deterministic_ids,
    )

    use_deterministic_ids()
    events: list = [
        SystemPromptEvent(agent_id="root", agent_name="root", model="openai/x", content="s"),
        MessageEvent(agent_id="root", role="user", content="big job"),
    ]
    ids = ["root"]
    for n in range(1, agents):
        parent = ids[(n - 1) // 3]  # a bushy tree, several levels deep
        agent = f"worker-{n}"
        ids.append(agent)
        events += [
            DelegationOpenedEvent(
                agent_id=agent, parent_agent_id=parent, agent_name="worker", task=f"part {n} of the job", depth=1
            ),
            SystemPromptEvent(
                agent_id=agent, parent_agent_id=parent, agent_name="worker", model="openai/x", content="s"
            ),
        ]
    step = 0
    while len(events) < total:
        agent = ids[step % len(ids)]
        parent = None if agent == "root" else "root"
        call = f"c{step}"
        events += [
            MessageEvent(
                agent_id=agent,
                parent_agent_id=parent,
                role="assistant",
                content=f"Step {step}: looking at **module {step}**.",
                response_id=call,
            ),
            ActionEvent(
                agent_id=agent,
                parent_agent_id=parent,
                tool_call_id=call,
                tool_name="terminal",
                arguments={"command": f"grep -n TODO src/m{step}.py"},
                summary=f"$ grep -n TODO src/m{step}.py",
                response_id=call,
            ),
            ObservationEvent(
                agent_id=agent,
                parent_agent_id=parent,
                tool_call_id=call,
                tool_name="terminal",
                content="\n".join(f"{i}: TODO item" for i in range(20)),
                data={"exit_code": 0},
            ),
            LLMUsageEvent(
                agent_id=agent,
                parent_agent_id=parent,
                model="openai/x",
                response_id=call,
                prompt_tokens=1000 + step,
                completion_tokens=40,
            ),
        ]
        step += 1
    return events[:total]


async def _latency(app, pilot, act) -> float:
    """Seconds from an input to the first screen update after it (the app's own frames)."""
    frames: list[float] = app._bench_frames
    started = time.perf_counter()
    act()
    while not frames or frames[-1] < started:
        await asyncio.sleep(0.0005)
        if time.perf_counter() - started > 5:
            raise RuntimeError("no screen update")
    latency = frames[-1] - started
    await pilot.pause()
    return latency


async def keys(runs: int) -> None:
    from textual import events as textual_events

    from openhands_tui.tui.app import OpenHandsApp
    from openhands_tui.tui.config import AppConfig
    from openhands_tui.tui.widgets.tree import AgentTree

    events = _big_session()
    app = OpenHandsApp(AppConfig(history=events, preload_litellm=False, remember_theme=False))
    app._bench_frames = []
    display = app._display

    def spy(*args, **kwargs):  # every frame the app renders goes through _display
        app._bench_frames.append(time.perf_counter())
        return display(*args, **kwargs)

    app._display = spy
    started = time.perf_counter()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        loaded = time.perf_counter() - started
        driver = app._driver

        def key(name: str, char: str | None = None):
            return lambda: driver.send_message(textual_events.Key(name, char))

        tree = app.query_one(AgentTree)
        timings: dict[str, list[float]] = {"type a character": [], "toggle the tree": [], "switch agent": []}
        for n in range(runs):
            timings["type a character"].append(await _latency(app, pilot, key("x", "x")))
            timings["toggle the tree"].append(await _latency(app, pilot, key("ctrl+b")))
            await _latency(app, pilot, key("ctrl+b"))
            node = tree._agent_nodes[f"worker-{n % 49 + 1}"]
            timings["switch agent"].append(await _latency(app, pilot, lambda node=node: tree.select_node(node)))
    print(f"session: {len(events)} events, {len(app.view.tree.nodes)} agents, loaded in {loaded:.2f} s")
    for name, values in timings.items():
        ms = [v * 1000 for v in values]
        p95 = statistics.quantiles(ms, n=20)[-1] if len(ms) >= 20 else max(ms)
        print(f"  key press -> screen updated, {name}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms")


async def streaming(rates: tuple[int, ...] = (100, 500, 1000, 2000, 4000, 8000), seconds: float = 3.0) -> None:
    import threading

    from openhands_tui.sdk.facts.event import MessageEvent, SystemPromptEvent, TextDeltaEvent
    from openhands_tui.tui.app import OpenHandsApp
    from openhands_tui.tui.bridge import EngineBridge
    from openhands_tui.tui.config import AppConfig

    history = [
        SystemPromptEvent(agent_id="root", agent_name="root", model="openai/x", content="s"),
        MessageEvent(agent_id="root", role="user", content="write a long answer"),
    ]
    bridge = EngineBridge()
    app = OpenHandsApp(AppConfig(history=history, bridge=bridge, preload_litellm=False, remember_theme=False))
    frames: list[float] = []
    display = app._display

    def spy(*args, **kwargs):
        frames.append(time.perf_counter())
        return display(*args, **kwargs)

    app._display = spy  # type: ignore[method-assign]
    folded: list[tuple[float, int]] = []  # (when a batch was folded in, deltas seen so far)
    feed = app.feed

    def counting_feed(events):
        events = list(events)
        feed(events)
        count = sum(1 for e in events if e.kind == "text_delta")
        folded.append((time.perf_counter(), (folded[-1][1] if folded else 0) + count))

    app.feed = counting_feed  # type: ignore[method-assign]
    async with app.run_test(size=(140, 40)) as pilot:
        words = [
            "The",
            "quick",
            "brown",
            "fox",
            "jumps",
            "over",
            "the",
            "lazy",
            "dog,",
            "**again**,",
            "and",
            "`again`.\n",
        ]
        for rate in rates:
            folded.clear()
            total = int(rate * seconds)
            response = f"r{rate}"

            def produce(rate=rate, total=total, response=response):
                started = time.perf_counter()
                for n in range(total):
                    delay = started + n / rate - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)
                    delta = words[n % len(words)] + " "
                    bridge.subscriber(TextDeltaEvent(agent_id="root", delta=delta, response_id=response))
                produce.last = time.perf_counter()  # type: ignore[attr-defined]

            producer = threading.Thread(target=produce)
            producer.start()
            while producer.is_alive():
                await asyncio.sleep(0.01)
            last_posted = produce.last  # type: ignore[attr-defined]
            deadline = time.perf_counter() + 30
            while not folded or folded[-1][1] < total:
                await asyncio.sleep(0.001)
                if time.perf_counter() > deadline:
                    raise RuntimeError("deltas never arrived")
            shown_after = folded[-1][0]
            while not frames or frames[-1] < shown_after:
                await asyncio.sleep(0.001)
            lag = frames[-1] - last_posted
            verdict = "keeps up" if lag < 0.1 else "falls behind"
            print(
                f"  {rate:>5} tokens/s for {seconds:g} s: last token on screen {lag * 1000:6.0f} ms after it arrived "
                f"({verdict})"
            )
            text = "".join(words[n % len(words)] + " " for n in range(total))
            app.feed([MessageEvent(agent_id="root", role="assistant", content=text, response_id=response)])
            await pilot.pause(0.2)
        bridge.close()


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    if which in ("startup", "all"):
        startup(runs)
        startup(runs, bytecode_cache=False)
    if which in ("keys", "all"):
        asyncio.run(keys(runs))
    if which in ("stream", "all"):
        print("streaming into one assistant message:")
        asyncio.run(streaming())
