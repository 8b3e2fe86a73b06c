"""OpenHands SDK names whose feature this project does not have (a browser, Docker or remote
workspaces, the hosted critic service, a model-based risk analyzer...).

Each fails in one line naming what is missing and what to use instead: a class when it is
constructed (`UnsupportedArgument`, which the strategy loader reports as one line), a module
when it is imported (`missing_module`). Nothing is accepted and then ignored.
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

from openhands_tui.sdk.model import UnsupportedArgument


class UnsupportedFeature(ImportError):
    """An SDK module this project does not have was imported."""


def missing_module(module: str, why: str) -> NoReturn:
    """Called at the top of a module that stands for an SDK module we do not have."""
    raise UnsupportedFeature(f"{module} is not supported by openhands_tui: {why}")


class Unsupported:
    """Base of SDK classes we do not have: importing one works (so a file can import it and
    use something else), constructing one fails with `why`."""

    #: What is missing, and what to use instead.
    why: ClassVar[str] = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise UnsupportedArgument(f"{type(self).__name__} is not supported by openhands_tui: {self.why}")
