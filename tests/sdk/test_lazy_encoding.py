"""litellm's default tokenizer waits until there is text to count (`sdk/llm/lazy_encoding.py`).

A call whose provider reports usage never loads it (0.12 s and 41 MB saved per run); a provider
that reports none still gets litellm's own estimate, the same numbers as litellm without the
stand-in. Both probes run side by side, each a fresh process; fails if litellm starts using
the encoding for a call that reports usage, or estimates differently through the stand-in.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from openhands_tui.sdk.llm.lazy_encoding import LazyEncoding
from openhands_tui.testing import Script, Turn

PROBE = """
import asyncio, json, sys
mode, url = sys.argv[1], sys.argv[2]
if mode == "ours":
    from openhands_tui.sdk.llm.client import load_litellm
    litellm = load_litellm()
else:  # litellm as it comes, with our environment settings only
    from openhands_tui.sdk.llm.client import set_litellm_environment
    set_litellm_environment()
    import litellm

async def usage_of(text):
    stream = await litellm.acompletion(
        model="openai/scripted", api_base=url, api_key="k", messages=[{"role": "user", "content": text}],
        stream=True, stream_options={"include_usage": True},
    )
    usage = None
    async for chunk in stream:
        usage = getattr(chunk, "usage", None) or usage
    return [usage.prompt_tokens, usage.completion_tokens]

def loaded():
    module = sys.modules.get("litellm.litellm_core_utils.default_encoding")
    return module is not None and getattr(module.encoding, "loaded", True)

reported = asyncio.run(usage_of("[reported] hello"))
loaded_after_reported = loaded()
estimated = asyncio.run(usage_of("[estimated] " + "counting words, naïve ✓ 日本語 " * 40))
print(json.dumps({"reported": reported, "loaded_after_reported": loaded_after_reported,
                  "estimated": estimated, "loaded_after_estimated": loaded()}))
"""


@pytest.mark.subprocess
def test_the_tokenizer_loads_only_to_estimate_and_estimates_as_litellm_does(serve) -> None:
    answer = "an answer of several words " * 10
    server = serve(
        [
            Script(name="reported", match_user="[reported]", turns=[Turn(text=answer, repeat=2)]),
            Script(name="estimated", match_user="[estimated]", turns=[Turn(text=answer, fault="no_usage", repeat=2)]),
        ]
    )

    def probe(mode: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", PROBE, mode, server.base_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    children = {"ours": probe("ours"), "litellm": probe("litellm")}  # side by side: two imports
    seen: dict[str, dict[str, Any]] = {}
    for mode, child in children.items():
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        seen[mode] = json.loads(out.strip().splitlines()[-1])
    ours, plain = seen["ours"], seen["litellm"]
    assert ours["loaded_after_reported"] is False and plain["loaded_after_reported"] is True
    assert ours["reported"] == plain["reported"]
    assert ours["estimated"] == plain["estimated"]
    assert min(ours["estimated"]) > 10  # counted from the text, not zeros
    assert ours["loaded_after_estimated"] is True


class _Table:
    """A stand-in for a loaded encoding: what it was asked, and its answers."""

    n_vocab = 3

    def encode(self, text: str, **kwargs: Any) -> list[int]:
        return [ord(c) for c in text] + [len(kwargs)]


def test_name_and_empty_text_are_answered_without_loading() -> None:
    loads: list[str] = []
    encoding = LazyEncoding("cl100k_base", lambda name: loads.append(name) or _Table())
    assert encoding.name == "cl100k_base"
    assert encoding.encode("", disallowed_special=()) == []
    assert not encoding.loaded and loads == []
    assert "not loaded" in repr(encoding)


def test_anything_else_loads_once_and_is_the_real_encodings_answer() -> None:
    loads: list[str] = []
    encoding = LazyEncoding("cl100k_base", lambda name: loads.append(name) or _Table())
    assert encoding.encode("ab", disallowed_special=()) == [97, 98, 1]
    assert encoding.n_vocab == 3
    assert loads == ["cl100k_base"] and encoding.loaded
    with pytest.raises(AttributeError):
        encoding.no_such_attribute  # noqa: B018


def test_threads_asking_at_once_load_it_once() -> None:
    loads: list[str] = []

    def slow_load(name: str) -> _Table:
        loads.append(name)
        time.sleep(0.05)
        return _Table()

    encoding = LazyEncoding("cl100k_base", slow_load)
    threads = [threading.Thread(target=lambda: encoding.encode("x")) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loads == ["cl100k_base"]
