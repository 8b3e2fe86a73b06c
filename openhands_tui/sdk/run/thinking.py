"""What of a response's thinking is written to its MessageEvent.

Claude's signed thinking blocks are recorded exactly as returned, because the same bytes must
go back with the tool calls they led to (on the next call, after a resume, after a
condensation). Two exceptions:
- a provider's plain reasoning text (no blocks) is kept as an unsigned block, for display;
- a block whose text holds a secret is redacted before it is stored, like every event, and a
  changed block would be refused by the provider, so its signature is dropped: it stays in the
  log for the user and is never sent back (`llm/provider.py` then turns thinking off for the one
  request that would have needed it).
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk.llm.response import LLMResponse
from openhands_tui.sdk.security.secrets import Redactor


def recorded_thinking(response: LLMResponse, redactor: Redactor) -> list[dict[str, Any]]:
    blocks = response.thinking
    if not blocks and response.reasoning:
        blocks = [{"type": "thinking", "thinking": response.reasoning, "signature": ""}]
    kept = []
    for block in blocks:
        text = block.get("thinking")
        if isinstance(text, str) and redactor.redact(text) != text:
            block = {**block, "thinking": redactor.redact(text), "signature": ""}
        kept.append(block)
    return kept
