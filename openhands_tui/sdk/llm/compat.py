"""OpenHands SDK `LLM` arguments that have no meaning here, each with what to do instead.

`LLM(drop_params=True)` in a strategy converted from the SDK fails when the strategy loads,
with this advice, rather than being accepted and silently ignored.
"""

_ENGINE_SETS_IT = "openhands_tui sets this itself; remove it"
#: OpenHands SDK `LLM` arguments this LLM does not take, and what to do instead.
SDK_LLM_INSTEAD = {
    **dict.fromkeys(
        ("drop_params", "modify_params", "native_tool_calling", "force_string_serializer", "custom_tokenizer"),
        _ENGINE_SETS_IT,
    ),
    "max_message_chars": "long tool output is cut by each tool (terminal keeps head and tail); remove it",
    "caching_prompt": "the system prompt never changes, so provider prompt caches hit by themselves; remove it",
    "prompt_cache_retention": "prompt caching is left to the provider's defaults; remove it",
    "log_completions": "every request and answer is in the session log (events.jsonl); remove it",
    "log_completions_folder": "every request and answer is in the session log (events.jsonl); remove it",
    "openrouter_site_url": "set the OR_SITE_URL environment variable instead",
    "openrouter_app_name": "set the OR_APP_NAME environment variable instead",
    "aws_access_key_id": "set AWS_ACCESS_KEY_ID in the environment instead",
    "aws_secret_access_key": "set AWS_SECRET_ACCESS_KEY in the environment instead",
    "aws_region_name": "set AWS_REGION_NAME in the environment instead",
    "ollama_base_url": "use base_url",
    "disable_vision": "tool results are text here; remove it",
    "disable_stop_word": "no stop words are sent; remove it",
    "extended_thinking_budget": "not passed to the provider; remove it",
    "reasoning_summary": "not passed to the provider; remove it",
    "enable_encrypted_reasoning": "not passed to the provider; remove it",
    "safety_settings": "not passed to the provider; remove it",
    "litellm_extra_body": "not passed to the provider; remove it",
    "retry_multiplier": "backoff doubles from retry_min_wait up to retry_max_wait; remove it",
    "model_canonical_name": "set context_window when litellm does not know the model's window; remove it",
    "retry_listener": "every retry is recorded as an agent_error event; remove it",
    "model_info": "set context_window instead",
}
