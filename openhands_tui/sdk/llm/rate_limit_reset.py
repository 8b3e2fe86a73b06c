"""When a spent rate limit resets, from the headers a 429 carries when it has no `retry-after`.

OpenAI sends `x-ratelimit-remaining-requests` / `-tokens` with `x-ratelimit-reset-requests` /
`-tokens` as durations (`1s`, `6m0s`, `20ms`); Anthropic sends
`anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-remaining` with `-reset` as an
RFC 3339 time. The limit that stopped the request is one with nothing remaining; waiting for
it (rather than backing off 1, 2, 4 s and giving up) is what lets a run through a limit that
resets in minutes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def spent_limit_resets_in(headers: Mapping[str, Any] | Any) -> float | None:
    """Seconds until the latest reset among limits with nothing remaining (all limits when
    none says what remains); None if the headers say nothing of it."""
    try:
        lowered = {str(key).lower(): str(value).strip() for key, value in headers.items()}
    except (AttributeError, TypeError):
        return None
    waits: list[float] = []
    for key, value in lowered.items():
        if key.startswith("x-ratelimit-reset-"):
            remaining = lowered.get("x-ratelimit-remaining-" + key.removeprefix("x-ratelimit-reset-"))
            seconds = duration_seconds(value)
        elif key.startswith("anthropic-ratelimit-") and key.endswith("-reset"):
            remaining = lowered.get(key.removesuffix("-reset") + "-remaining")
            seconds = seconds_until(value)
        else:
            continue
        if seconds is not None and remaining in (None, "0"):
            waits.append(seconds)
    return max(waits) if waits else None


def duration_seconds(text: str) -> float | None:
    """`6m0s`, `1.5s`, `20ms`, `1h2m` in seconds."""
    parts = _DURATION.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        return None
    return sum(float(number) * _UNIT_SECONDS[unit] for number, unit in parts)


def seconds_until(text: str) -> float | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())
