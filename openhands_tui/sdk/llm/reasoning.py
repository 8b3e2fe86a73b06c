"""How much a model thinks before it answers: the one list of levels `LLM.reasoning_effort`,
the settings (config, LLM_REASONING_EFFORT, a stored session) and `--reasoning-effort` share.
Its own module, importing only the standard library, so the command line offers these levels
without loading the model client."""

from __future__ import annotations

from typing import Literal, get_args

#: litellm maps each to the provider's own (Claude extended thinking with a budget, OpenAI
#: reasoning effort, Gemini thinking); "off" asks for no reasoning.
ReasoningEffort = Literal["low", "medium", "high", "off"]
REASONING_EFFORTS: tuple[ReasoningEffort, ...] = get_args(ReasoningEffort)
