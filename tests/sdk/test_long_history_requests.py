"""A long history costs litellm no copy per request: its pass that strips Gemini's thought
signatures from tool-call ids runs only on a history that holds one, and still strips them
there. Fails if litellm renames the pass (the skip would silently stop working)."""

from __future__ import annotations

import asyncio
from typing import Any

from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.llm.litellm_import import load_litellm
from openhands_tui.testing import Script, Turn


def _history(call_id: str, steps: int = 3) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for step in range(steps):
        identifier = call_id if step == 0 else f"call_{step}"
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": identifier, "type": "function", "function": {"name": "terminal", "arguments": "{}"}}
                ],
            }
        )
        messages.append({"role": "tool", "tool_call_id": identifier, "content": f"out {step}"})
    return messages


def test_a_history_without_signatures_is_handed_on_uncopied() -> None:
    litellm = load_litellm()
    from litellm.litellm_core_utils.prompt_templates.factory import THOUGHT_SIGNATURE_SEPARATOR

    messages = _history("call_0", steps=200)
    assert litellm.utils._remove_thought_signatures_from_messages(messages, THOUGHT_SIGNATURE_SEPARATOR) is messages


def test_a_signed_tool_call_id_still_reaches_another_provider_without_its_signature(serve) -> None:
    load_litellm()
    from litellm.litellm_core_utils.prompt_templates.factory import THOUGHT_SIGNATURE_SEPARATOR

    server = serve([Script(turns=[Turn.finish("done")])])
    signed = f"call_0{THOUGHT_SIGNATURE_SEPARATOR}c2lnbmF0dXJl"
    llm = LLM(model="openai/scripted", api_key="k", base_url=server.base_url)
    asyncio.run(llm.complete(_history(signed), []))
    (request,) = server.requests
    sent = [m for m in request.body["messages"] if m["role"] in ("assistant", "tool")]
    assert sent[0]["tool_calls"][0]["id"] == "call_0"
    assert sent[1]["tool_call_id"] == "call_0"
    assert not [m for m in sent if THOUGHT_SIGNATURE_SEPARATOR in str(m)]
