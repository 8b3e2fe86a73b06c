"""What to ask with when a provider refuses a parameter we send it, short of changing `llm.py`.

Some proxies and older OpenAI-compatible servers answer a streamed request carrying
`stream_options` (which asks for the usage at the end of the stream) with a 400. Without
streaming, the request carries no `stream_options` and the answer reports its usage itself,
so tokens and cost stay the provider's own figures; only the live text is lost (the answer
shows when it is complete). The agent keeps that LLM for the rest of its run.
"""

from __future__ import annotations

from openhands_tui.sdk.errors import LLMUnsupportedParameterError
from openhands_tui.sdk.llm import LLM


def without_refused_parameter(llm: LLM, error: LLMUnsupportedParameterError) -> LLM | None:
    """An LLM whose requests leave out what the provider refused; None if there is none."""
    if error.parameter == "stream_options" and llm.stream:
        return llm.model_copy(update={"stream": False})
    return None


def fallback_notice(error: LLMUnsupportedParameterError) -> str:
    return f"{error}; asking again without streaming (each answer shows when it is complete)"
