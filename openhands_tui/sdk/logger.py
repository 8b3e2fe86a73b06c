"""The SDK's `openhands.sdk.logger`: `get_logger(__name__)` is a standard logger. Where records
go is the standard `logging` configuration's to decide; the SDK's `setup_logging(...)` is not."""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import get_logger
from openhands_tui.sdk.model import UnsupportedArgument


def setup_logging(*args: Any, **kwargs: Any) -> None:
    raise UnsupportedArgument(
        "setup_logging() is not supported by openhands_tui: configure the standard logging module "
        "(logging.basicConfig(filename=...)); every event is kept in the session's events.jsonl anyway"
    )


__all__ = ["get_logger", "setup_logging"]
