"""Importing litellm, once, configured: the only module that imports it.

Its settings go into the environment before the import (and again in a `tui warm` child given
a new environment), the import runs with the garbage collector paused, its default tokenizer
is made lazy, and its printing and logging are turned down. `sdk/llm/client.py` uses it for every call.

litellm's passes over every message of every request look only at the messages a request adds
to a `History` (`llm/history.py`): its validation and clean copy of each message, the check for
Gemini's thought signatures, its OpenAI transform's checks for tool results with images or
tool references and for `developer` messages, and the JSON encoding of the request body.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import threading
from functools import partial
from types import ModuleType
from typing import Any

from openhands_tui.sdk.llm.history import sent_memo
from openhands_tui.sdk.llm.lazy_encoding import LazyEncoding
from openhands_tui.startup import collector_paused

__all__ = ["load_litellm", "set_litellm_environment"]

_LITELLM_ENV = {
    # Use the price list shipped inside litellm instead of downloading one at import.
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    # In its default "DEV" mode, `import litellm` loads the first `.env` found above its own
    # install directory into our environment: the project's, when the virtualenv lives in the
    # project, or `~/.env` — settings, proxies and keys nobody gave us (a FIFO there blocks the
    # import for good). We take settings from flags, the environment and our config only.
    "LITELLM_MODE": "PRODUCTION",
    # litellm scans every message of every request for base64 to shorten in its own logs;
    # we log nothing through litellm, and the scan grows with the history (O(n) per step).
    "MAX_BASE64_LENGTH_FOR_LOGGING": "0",
    # Send OpenAI-compatible requests with litellm's own httpx handler rather than the
    # OpenAI SDK, whose per-message request transform costs ~0.1 ms per history message
    # per call (measured: 290 ms/step at 1,000 steps vs 20 ms with this handler).
    "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER": "true",
}

_lock = threading.Lock()
_litellm: ModuleType | None = None


def set_litellm_environment() -> None:
    """Put our litellm settings in the environment unless the user set them (before the import,
    and again in a process that was given a new environment after it: a warm start's child)."""
    for key, value in _LITELLM_ENV.items():
        os.environ.setdefault(key, value)


def load_litellm() -> ModuleType:
    """Import and configure litellm once (thread-safe; the TUI calls this in the background)."""
    global _litellm
    if _litellm is not None:
        return _litellm
    with _lock:
        if _litellm is None:
            set_litellm_environment()
            # The import leaves ~1M objects that live for the whole run (price tables, provider
            # configs, ~1,900 pydantic models): collecting while it runs frees nothing, and
            # freezing them afterwards keeps full collections cheap for the rest of a long
            # session (measured: the slowest tenth of steps at 1,000 steps, 45 -> 30 ms).
            with collector_paused():
                import litellm

                _defer_default_encoding()
            _skip_signature_pass_without_signatures()
            _validate_sent_messages_once()
            _skip_openai_transform_with_nothing_to_do()
            _encode_sent_messages_once()

            # litellm prints provider hints to stdout in places; stdout belongs to our output.
            litellm.suppress_debug_info = True
            litellm.drop_params = True
            for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
                logging.getLogger(name).setLevel(logging.ERROR)
            _litellm = litellm
    return _litellm


def _defer_default_encoding() -> None:
    """Have litellm's default tokenizer read from disk only when it has text to count
    (`llm/lazy_encoding.py` says why). litellm's own module still runs (it points tiktoken at the
    tokenizer files litellm ships, so nothing is downloaded); only the table's load waits."""
    module = "litellm.litellm_core_utils.default_encoding"
    if module in sys.modules:
        return
    import tiktoken

    get_encoding = tiktoken.get_encoding
    setattr(tiktoken, "get_encoding", lambda name: LazyEncoding(name, get_encoding))  # noqa: B010 (typed as Encoding)
    try:
        importlib.import_module(module)
    except ImportError:  # a litellm without the module: its first call loads the tokenizer as before
        logging.getLogger(__name__).debug("litellm's default encoding module is gone", exc_info=True)
    finally:
        setattr(tiktoken, "get_encoding", get_encoding)  # noqa: B010


def _skip_signature_pass_without_signatures() -> None:
    """Have litellm copy the history to strip Gemini's thought signatures from tool-call ids only
    when an id carries one. It copies every message of every request for every model but
    Gemini's, which made each step cost more the longer the history (measured: 9 ms a step at
    1,000 steps, half of all the growth). The check that decides is a scan without copies; a
    history that holds a signature is still handed to litellm's own pass.
    """
    utils = sys.modules.get("litellm.utils")
    original = getattr(utils, "_remove_thought_signatures_from_messages", None)
    if original is None or getattr(original, "skips_unsigned_histories", False):
        return  # a litellm without the pass (nothing to skip), or already wrapped

    def strip_signatures(messages: list[Any], separator: str) -> list[Any]:
        sent = sent_memo()
        if sent is None:
            carries = _may_carry_signature(messages, separator)
        else:  # a History's messages are checked once each
            carries = sent[0].any_of(f"signature {separator}", partial(_carries_signature, separator), messages)
        return original(messages, separator) if carries else messages

    strip_signatures.skips_unsigned_histories = True  # type: ignore[attr-defined]
    setattr(utils, "_remove_thought_signatures_from_messages", strip_signatures)  # noqa: B010


def _carries_signature(separator: str, message: Any) -> bool:
    return _may_carry_signature([message], separator)


def _may_carry_signature(messages: list[Any], separator: str) -> bool:
    """Whether any tool-call id in `messages` holds `separator` (anything not a plain dict is
    assumed to, so litellm's own pass sees it)."""
    for message in messages:
        if not isinstance(message, dict):
            return True
        if separator in (message.get("tool_call_id") or ""):
            return True
        for call in message.get("tool_calls") or ():
            if not isinstance(call, dict) or separator in (call.get("id") or ""):
                return True
    return False


def _validate_sent_messages_once() -> None:
    """Have litellm validate and copy (without its empty fields) each message of a History once,
    not every message of every request (measured: ~4 ms a step at 2,000 steps). A message where
    it was gets the copy litellm made of it for the last request, which is also what lets the
    request's JSON be reused (`_encode_sent_messages_once`)."""
    main = sys.modules.get("litellm.main")
    original = getattr(main, "validate_and_fix_openai_messages", None)
    if original is None or getattr(original, "once_per_message", False):
        return  # a litellm without the pass (nothing to reuse), or already wrapped

    def validate(messages: list[Any]) -> list[Any]:
        sent = sent_memo()
        if sent is None or not isinstance(messages, list):
            validated: list[Any] = original(messages)
            return validated
        return sent[0].validated(messages, original, sent[1])

    validate.once_per_message = True  # type: ignore[attr-defined]
    setattr(main, "validate_and_fix_openai_messages", validate)  # noqa: B010


def _transformed(message: Any) -> bool:
    """Whether litellm's OpenAI transform of the messages changes or moves `message`: the
    content parts of a user message (image URLs, files) and of a tool result (images moved to a
    user message, tool references dropped)."""
    if not isinstance(message, dict):
        return True
    return message.get("role") in ("user", "tool") and isinstance(message.get("content"), list)


def _developer(message: Any) -> bool:
    return not isinstance(message, dict) or message.get("role", "developer") == "developer"


def _skip_openai_transform_with_nothing_to_do() -> None:
    """Skip two of litellm's passes over a History's messages when none of them is one the pass
    acts on, as found once per message (measured: ~2.5 ms a step at 2,000 steps): its OpenAI
    transform, which looks at every message for tool results with images or tool references
    and for user messages with content parts (and else returns the messages as they were), and
    its mapping of `developer` messages to `system` (else a copy of the list)."""
    try:
        openai_chat = importlib.import_module("litellm.llms.openai.chat.gpt_transformation")
        base_chat = importlib.import_module("litellm.llms.base_llm.chat.transformation")
    except ImportError:  # a litellm without them: nothing to skip
        logging.getLogger(__name__).debug("litellm's OpenAI transform modules are gone", exc_info=True)
        return
    config = getattr(openai_chat, "OpenAIGPTConfig", None)
    transform = getattr(config, "_transform_messages", None)
    if transform is not None and not getattr(transform, "skips_plain_histories", False):

        def transform_messages(self: Any, messages: list[Any], model: str, is_async: bool = False) -> Any:
            sent = sent_memo()
            if sent is None or sent[0].any_of("openai transform", _transformed, messages):
                return transform(self, messages, model, is_async)
            return _returning(messages) if is_async else messages

        transform_messages.skips_plain_histories = True  # type: ignore[attr-defined]
        setattr(config, "_transform_messages", transform_messages)  # noqa: B010
    developer_to_system = getattr(base_chat, "map_developer_role_to_system_role", None)
    if developer_to_system is not None and not getattr(developer_to_system, "skips_plain_histories", False):

        def map_developer(messages: list[Any]) -> list[Any]:
            sent = sent_memo()
            if sent is None or sent[0].any_of("developer role", _developer, messages):
                mapped: list[Any] = developer_to_system(messages=messages)
                return mapped
            return list(messages)

        map_developer.skips_plain_histories = True  # type: ignore[attr-defined]
        setattr(base_chat, "map_developer_role_to_system_role", map_developer)  # noqa: B010


async def _returning(messages: list[Any]) -> list[Any]:
    return messages


#: litellm's module that encodes the request body of OpenAI-compatible providers (and others
#: it sends with its own HTTP handler) with `json.dumps(data)`.
_HTTP_HANDLER = "litellm.llms.custom_httpx.llm_http_handler"


def _encode_sent_messages_once() -> None:
    """Have litellm's HTTP handler encode a History's request from each message's JSON of the
    requests before (`llm/history.py`): only the messages new to the request are encoded. It
    encoded the whole request each time (measured: 13 ms at 2,000 steps, most of what a step
    still grew by). The body is the same, byte for byte."""
    try:
        handler = importlib.import_module(_HTTP_HANDLER)
    except ImportError:  # a litellm without the module: it encodes requests its own way
        logging.getLogger(__name__).debug("litellm's HTTP handler module is gone", exc_info=True)
        return
    encoder = getattr(handler, "json", None)
    if isinstance(encoder, ModuleType):  # not already wrapped
        setattr(handler, "json", RequestJSON(encoder))  # noqa: B010


class RequestJSON:
    """The `json` module as litellm's HTTP handler sees it: `dumps` of a request whose messages
    are a History's (sent from `llm/client.py`) joins each message's JSON from earlier requests;
    anything else is the `json` module's own."""

    #: Stands for the messages in the request encoded without them (a NUL and a random tail: it
    #: cannot be in anything else the request holds).
    _PLACEHOLDER = f"\x00oh-tui-messages-{os.urandom(8).hex()}"

    def __init__(self, module: ModuleType) -> None:
        self._json = module
        self._placeholder = module.dumps(self._PLACEHOLDER)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._json, name)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        sent = sent_memo() if not kwargs and isinstance(obj, dict) else None
        messages = obj.get("messages") if sent is not None else None
        if sent is None or not isinstance(messages, list):
            return str(self._json.dumps(obj, **kwargs))
        memo, destination = sent
        array = memo.json_array(messages, destination)
        if array is None:
            return str(self._json.dumps(obj))
        head, placeholder, tail = self._json.dumps({**obj, "messages": self._PLACEHOLDER}).partition(self._placeholder)
        if not placeholder:  # cannot happen: the placeholder is in what was encoded
            return str(self._json.dumps(obj))
        return head + array + tail
