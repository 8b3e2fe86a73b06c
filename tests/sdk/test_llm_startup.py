"""What the model client's first call costs a fresh process: litellm's check for its proxy's
MCP gateway tools is skipped (through litellm's own switch), so the `mcp` SDK is not imported,
and the switch never reaches the provider. Fails if litellm renames or drops the switch."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn

PROBE = """
import asyncio, json, sys
from openhands_tui.sdk.llm.client import LLM
tool = {"type": "function", "function": {"name": "terminal", "description": "Run a command.",
        "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}}
llm = LLM(model="openai/scripted", api_key="k", base_url=sys.argv[1])
response = asyncio.run(llm.complete([{"role": "user", "content": "list"}], [tool]))
print(json.dumps({
    "calls": [call.name for call in response.tool_calls],
    "mcp": sorted(m for m in sys.modules if m.split(".")[0] == "mcp" or m.endswith(".chat_completions_handler")),
}))
"""


@pytest.mark.subprocess
def test_a_call_with_tools_neither_imports_mcp_nor_sends_the_switch(serve) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "ls"})])])])
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, server.base_url], capture_output=True, text=True, timeout=120, check=True
    )
    seen = json.loads(probe.stdout.strip().splitlines()[-1])
    assert seen == {"calls": ["terminal"], "mcp": []}
    (request,) = server.requests
    assert [tool["function"]["name"] for tool in request.body["tools"]] == ["terminal"]
    assert not [key for key in request.body if "mcp" in key.lower() or key.startswith("_")]


DOTENV_PROBE = """
import os, sys
sys.ps1 = ">>> "  # python-dotenv then looks in the working directory rather than above litellm's files
from openhands_tui.sdk.llm.client import load_litellm
load_litellm()
print(os.environ.get("OHT_DOTENV_PROBE", "absent"))
"""


@pytest.mark.subprocess
def test_importing_litellm_does_not_load_a_stray_env_file(tmp_path) -> None:
    """litellm's default mode loads the first `.env` above its install directory (a project's
    own, when the virtualenv is inside it; `~/.env`) into the process; ours takes settings only
    from flags, the environment and its config. With litellm's mode forced back, the probe sees
    the file: the test would notice if the switch stopped working."""
    import os

    (tmp_path / ".env").write_text("OHT_DOTENV_PROBE=loaded\nHTTPS_PROXY=http://evil.example:3128\n")
    env = {k: v for k, v in os.environ.items() if k not in ("LITELLM_MODE", "OHT_DOTENV_PROBE")}

    def probe(extra: dict[str, str]) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", DOTENV_PROBE],
            cwd=tmp_path,
            env={**env, **extra},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    ours, litellms_default = probe({}), probe({"LITELLM_MODE": "DEV"})  # side by side: two imports
    seen = []
    for child in (ours, litellms_default):
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        seen.append(out.strip().splitlines()[-1])
    assert seen == ["absent", "loaded"]
