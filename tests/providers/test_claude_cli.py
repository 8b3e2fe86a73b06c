"""`tui` with a Claude model, end to end: the real CLI in a child process (forked from a
pre-warmed launcher), litellm's Anthropic path, the scripted Messages server (prompt caching,
signed thinking, the API's refusals)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from openhands_tui.sdk.facts.event import LLMUsageEvent, MessageEvent
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui
from tests.providers.test_caching import echo_steps


def _session_events(state: Path) -> list:
    store = SessionStore(state / "openhands-tui")
    (meta,) = store.list_sessions()
    return store.open(meta.id).load().events


def test_high_reasoning_effort_a_twenty_step_run_and_its_resume(
    serve, workspace: Path, isolated_home: Path, forker, tmp_path: Path
) -> None:
    server = serve(
        [
            Script(
                turns=[
                    *echo_steps(20, thinking="Next, the following echo."),
                    Turn.finish("twenty done"),
                    *echo_steps(3, thinking="Three more."),
                    Turn.finish("three done"),
                ]
            )
        ],
        api="anthropic",
    )
    args = ["--headless", "--task", "echo twenty times", "--reasoning-effort", "high", "--workspace", str(workspace)]
    first = forker.run([*args, *model_args(server)], tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("✻ thought (") == 21  # one line per answer, not the thinking itself
    assert first.stdout.count("✻ thought (25 chars)") == 20
    assert "Next, the following echo." not in first.stdout
    assert re.search(r"tokens: [\d,]+ in \(9\d\.\d% read from the prompt cache", first.stderr), first.stderr
    # resumed without the flag: the session remembers its reasoning effort
    second = forker.run(["--headless", "--resume", "last", "--task", "three more", *model_args(server)], tmp_path)
    assert second.returncode == 0, second.stderr
    assert "three done" in second.stdout
    assert server.refusals == []
    assert len(server.requests) == 25
    assert all(r.body["thinking"] == {"type": "enabled", "budget_tokens": 4096} for r in server.requests)
    events = _session_events(isolated_home / "state")
    thinking = [b for e in events if isinstance(e, MessageEvent) for b in e.thinking]
    assert len(thinking) == 25 and all(server.signer.valid(b) for b in thinking)


def test_the_cost_shown_for_a_cached_run_is_litellms_cached_price(
    serve, workspace: Path, forker, tmp_path: Path
) -> None:
    server = serve([Script(turns=[*echo_steps(5), Turn.finish("done")])], api="anthropic")
    args = ["--headless", "--json", "--task", "echo", "--workspace", str(workspace)]
    result = forker.run([*args, *model_args(server)], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    usage = [LLMUsageEvent.model_validate(line) for line in lines if line["kind"] == "llm_usage"]
    assert len(usage) == 6 and sum(u.cache_read_tokens for u in usage) > 0  # --json carries the cache figures
    prices = load_litellm().get_model_info(server.model)
    expected_total = 0.0
    for call in usage:
        uncached = call.prompt_tokens - call.cache_read_tokens - call.cache_write_tokens
        expected = (
            uncached * prices["input_cost_per_token"]
            + call.cache_read_tokens * prices["cache_read_input_token_cost"]
            + call.cache_write_tokens * prices["cache_creation_input_token_cost"]
            + call.completion_tokens * prices["output_cost_per_token"]
        )
        assert call.cost is not None and abs(call.cost - expected) < 1e-12
        expected_total += expected
    uncached_price = sum(
        u.prompt_tokens * prices["input_cost_per_token"] + u.completion_tokens * prices["output_cost_per_token"]
        for u in usage
    )
    assert expected_total < 0.5 * uncached_price  # the cache is what makes it cheap
    shown = re.search(r"· \$(\d+\.\d{4})", result.stderr)
    assert shown is not None and float(shown.group(1)) == round(expected_total, 4)


def test_a_bad_reasoning_effort_is_one_line(serve, workspace: Path, monkeypatch) -> None:
    server = serve([Script(turns=[Turn.finish()])], api="anthropic")
    flag = run_tui("--headless", "--task", "t", "--reasoning-effort", "extreme", *model_args(server))
    assert flag.returncode == 2 and "--reasoning-effort" in flag.stderr and "Traceback" not in flag.stderr
    monkeypatch.setenv("LLM_REASONING_EFFORT", "extreme")
    env = run_tui("--headless", "--task", "t", "--workspace", str(workspace), *model_args(server))
    assert env.returncode == 2
    assert env.stderr.strip() == "tui: LLM_REASONING_EFFORT: expected low, medium, high or off, got 'extreme'"
    assert server.requests == []
