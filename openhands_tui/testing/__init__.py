"""A scripted OpenAI-compatible model server, for tests of the engine and of strategies."""

from openhands_tui.testing.script import Script, ScriptedToolCall, Turn, load_scripts
from openhands_tui.testing.server import ScriptedLLMServer

__all__ = ["Script", "ScriptedLLMServer", "ScriptedToolCall", "Turn", "load_scripts"]
