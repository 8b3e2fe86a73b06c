"""Whether a model name can be called at all, before an agent is switched to it (`/model`).

A session's first model is not checked: its first call says soon enough what is wrong. A switch
mid-session is different: a typo would only show at the next call, after the user has typed the
next task, and the session would have recorded a change to a model that does not exist. So a
switch is refused, in one line, when litellm cannot tell which provider serves the name, or —
talking to a provider's own API — when litellm's model list does not have it. An endpoint of
your own (`--base-url`) or a gateway that serves models litellm does not list takes any name.
"""

from __future__ import annotations

from openhands_tui.sdk.llm.litellm_import import load_litellm

__all__ = ["model_problem", "provider_of"]

#: Providers that serve whatever models their operator installed, so litellm's list of them is
#: never complete: any name is taken.
OPEN_ENDED = frozenset(
    {
        "ollama",
        "ollama_chat",
        "openrouter",
        "hosted_vllm",
        "lm_studio",
        "litellm_proxy",
        "custom_openai",
        "openai_like",
        "huggingface",
        "llamafile",
    }
)


def provider_of(model: str, base_url: str | None) -> str | None:
    """The provider litellm would send `model` to (None: it cannot tell)."""
    try:
        return str(load_litellm().get_llm_provider(model, api_base=base_url)[1])
    except Exception:  # litellm raises its BadRequestError, among others, for a name it cannot place
        return None


def model_problem(model: str, base_url: str | None) -> str | None:
    """Why `model` cannot be switched to, in a few words; None if it can."""
    if not model.strip() or any(c.isspace() for c in model):
        return "a model name has no spaces"
    if not model.isprintable():
        return "a model name has no control characters"
    provider = provider_of(model, base_url)
    if provider is None:
        if base_url:  # an OpenAI-compatible endpoint, most likely
            return f"litellm cannot tell which provider serves it; prefix the provider, e.g. openai/{model}"
        return "litellm cannot tell which provider serves it; prefix the provider (anthropic/, openai/, gemini/...)"
    if base_url or provider in OPEN_ENDED:
        return None
    try:
        load_litellm().get_model_info(model)
    except Exception:  # litellm raises for a model it does not list
        return f"litellm does not list it among {provider}'s models; check the name"
    return None
