"""Anthropic prompt caching, simulated the way the API documents it.

A request is a sequence of blocks in the order the API hashes them: tools, then system
blocks, then each message's content blocks. A block carrying `cache_control` is a breakpoint.
- A breakpoint *writes* the prefix that ends at it (if that prefix has at least the model's
  minimum cacheable length), for its TTL (5 minutes unless `"ttl": "1h"`).
- A request *reads* the longest written prefix that ends at a block boundary at most 20
  blocks before one of its breakpoints (the breakpoint included); a hit refreshes the TTL.
- At most 4 breakpoints; more is a 400.
- An entry becomes readable once the response that wrote it has begun: `plan()` happens when
  the request arrives, `commit()` when its answer starts, so requests sent at the same moment
  all miss — which is why parallel siblings should let one go first.
Usage: `cache_read_input_tokens` is the prefix read, `cache_creation_input_tokens` what lies
between it and the last written breakpoint, `input_tokens` the rest.

`cache_control` itself is not content: moving a breakpoint never changes a prefix. Changing
the thinking settings changes every message block (as the API invalidates message caches
then), never the tools or the system prompt.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LOOKBACK = 20
MAX_BREAKPOINTS = 4
TTL_SECONDS = {"5m": 300.0, "1h": 3600.0}


class CacheRequestError(ValueError):
    """The request breaks a caching rule (the API answers 400)."""


@dataclass(frozen=True)
class Block:
    key: str
    tokens: int
    #: Seconds the prefix ending here is kept if this block is a breakpoint; None otherwise.
    ttl: float | None


@dataclass
class CachePlan:
    """What a request reads and writes, decided when it arrives."""

    input_tokens: int
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    read: str | None = None
    writes: list[tuple[str, float]] = field(default_factory=list)
    breakpoints: int = 0
    #: The tokens written, by TTL in seconds: those up to a breakpoint are kept as long as it says.
    creation_by_ttl: dict[float, int] = field(default_factory=dict)

    @property
    def cache_creation(self) -> dict[str, int]:
        """The API's breakdown of `cache_creation_input_tokens` by TTL."""
        return {
            "ephemeral_5m_input_tokens": self.creation_by_ttl.get(TTL_SECONDS["5m"], 0),
            "ephemeral_1h_input_tokens": self.creation_by_ttl.get(TTL_SECONDS["1h"], 0),
        }

    @property
    def usage(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
        }


def block_tokens(canonical: str) -> int:
    return max(1, len(canonical) // 4)  # about four characters a token


def _canonical(block: Any) -> str:
    if isinstance(block, dict):
        block = {k: v for k, v in block.items() if k != "cache_control"}
    return json.dumps(block, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _ttl(block: Any) -> float | None:
    control = block.get("cache_control") if isinstance(block, dict) else None
    if not control:
        return None
    ttl = control.get("ttl", "5m")
    if control.get("type") != "ephemeral" or ttl not in TTL_SECONDS:
        raise CacheRequestError(f"cache_control: unsupported value {json.dumps(control)}")
    return TTL_SECONDS[ttl]


def request_blocks(body: dict[str, Any]) -> list[Block]:
    """The blocks of a Messages API request, in the order the cache hashes them."""
    blocks: list[Block] = []

    def add(key: str, raw: Any) -> None:
        canonical = _canonical(raw)
        blocks.append(Block(f"{key}{canonical}", block_tokens(canonical), _ttl(raw)))

    for tool in body.get("tools") or ():
        add("tool:", tool)
    system = body.get("system")
    if isinstance(system, str):
        system = [{"type": "text", "text": system}] if system else []
    for part in system or ():
        add("system:", part)
    thinking = _canonical(body.get("thinking"))
    for number, message in enumerate(body.get("messages") or ()):
        content = message.get("content")
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for position, part in enumerate(parts):
            # The first block of a message says where the message starts (and, as the API
            # does, message blocks depend on the thinking settings).
            prefix = f"{thinking}|{message.get('role')}:" if number == 0 and position == 0 else ""
            add(f"msg:{prefix}{message.get('role') if position == 0 else ''}:", part)
    return blocks


class PromptCache:
    """The cache of one simulated organisation: prefix hash -> (expiry, ttl). Thread-safe."""

    def __init__(self, min_tokens: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        self.min_tokens = min_tokens
        self.clock = clock
        self._entries: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def plan(self, blocks: list[Block], model: str) -> CachePlan:
        breakpoints = [i for i, block in enumerate(blocks) if block.ttl is not None]
        if len(breakpoints) > MAX_BREAKPOINTS:
            raise CacheRequestError(
                f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {len(breakpoints)}."
            )
        hashes: list[str] = []
        cumulative: list[int] = []
        digest = hashlib.sha256(model.encode())
        total = 0
        for block in blocks:
            digest.update(b"\x00" + block.key.encode())
            hashes.append(digest.copy().hexdigest())
            total += block.tokens
            cumulative.append(total)
        read_at = self._longest_hit(hashes, breakpoints)
        read_tokens = cumulative[read_at] if read_at is not None else 0
        floor = read_at if read_at is not None else -1
        writes = [
            (hashes[b], blocks[b].ttl or 0.0) for b in breakpoints if b > floor and cumulative[b] >= self.min_tokens
        ]
        last_write = max((b for b in breakpoints if b > floor and cumulative[b] >= self.min_tokens), default=None)
        creation = cumulative[last_write] - read_tokens if last_write is not None else 0
        by_ttl: dict[float, int] = {}
        written_up_to = read_tokens
        for b in breakpoints:
            if b > floor and cumulative[b] >= self.min_tokens and cumulative[b] > written_up_to:
                ttl = blocks[b].ttl or 0.0
                by_ttl[ttl] = by_ttl.get(ttl, 0) + cumulative[b] - written_up_to
                written_up_to = cumulative[b]
        return CachePlan(
            input_tokens=total - read_tokens - creation,
            cache_read_input_tokens=read_tokens,
            cache_creation_input_tokens=creation,
            read=hashes[read_at] if read_at is not None else None,
            writes=writes,
            breakpoints=len(breakpoints),
            creation_by_ttl=by_ttl,
        )

    def _longest_hit(self, hashes: list[str], breakpoints: list[int]) -> int | None:
        now = self.clock()
        best: int | None = None
        with self._lock:
            for point in breakpoints:
                for index in range(point, max(point - LOOKBACK, -1), -1):
                    entry = self._entries.get(hashes[index])
                    if entry is not None and entry[0] > now:
                        if best is None or index > best:
                            best = index
                        break  # the longest hit for this breakpoint
        return best

    def commit(self, plan: CachePlan) -> None:
        """The response to the planned request has begun: its writes become readable and the
        prefix it read is kept alive for another TTL."""
        now = self.clock()
        with self._lock:
            if plan.read is not None and plan.read in self._entries:
                ttl = self._entries[plan.read][1]
                self._entries[plan.read] = (now + ttl, ttl)
            for key, ttl in plan.writes:
                self._entries[key] = (now + ttl, ttl)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
