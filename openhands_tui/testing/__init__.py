"""Scripted model servers for tests of the engine and of strategies: an OpenAI-compatible one
(`ScriptedLLMServer`) and an Anthropic Messages one (`ScriptedAnthropicServer`), both driven
by the same scripts."""

from openhands_tui.testing.anthropic import ScriptedAnthropicServer
from openhands_tui.testing.http import RecordedRequest, ScriptedServer
from openhands_tui.testing.script import Script, ScriptedToolCall, Turn, load_scripts
from openhands_tui.testing.server import ScriptedLLMServer

__all__ = [
    "RecordedRequest",
    "Script",
    "ScriptedAnthropicServer",
    "ScriptedLLMServer",
    "ScriptedServer",
    "ScriptedToolCall",
    "Turn",
    "load_scripts",
]
