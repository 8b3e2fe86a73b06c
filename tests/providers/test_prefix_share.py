"""Siblings taking turns to write their shared prompt prefix (run/prefix_share.py), on its own."""

from __future__ import annotations

import asyncio
import time

from openhands_tui.sdk.run import prefix_share
from openhands_tui.sdk.run.prefix_share import PrefixShare


async def test_the_first_claim_writes_and_the_others_wait_for_its_answer() -> None:
    share = PrefixShare()
    accepted = await share.claim("k")
    assert accepted is not None
    waiting = asyncio.ensure_future(share.claim("k"))
    other_key = await share.claim("other")  # another prefix has its own writer
    await asyncio.sleep(0.05)
    assert other_key is not None and not waiting.done()
    accepted()
    assert await asyncio.wait_for(waiting, 1) is None
    assert await share.claim("k") is None  # written: later siblings go at once


async def test_a_slow_writer_holds_its_siblings_only_so_long() -> None:
    share = PrefixShare(max_wait=0.1)
    assert await share.claim("k") is not None
    started = time.monotonic()
    assert await share.claim("k") is None
    assert 0.09 <= time.monotonic() - started < 1


async def test_a_write_older_than_the_cache_lifetime_is_written_again(monkeypatch) -> None:
    share = PrefixShare()
    accepted = await share.claim("k")
    assert accepted is not None
    accepted()
    now = time.monotonic()
    monkeypatch.setattr(prefix_share, "_clock", lambda: now + prefix_share.FRESH_SECONDS + 1)
    assert await share.claim("k") is not None
