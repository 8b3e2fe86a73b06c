"""Names a package exports but imports only on first use (PEP 562): `openhands_tui.sdk` and
`openhands_tui.sdk.llm` mirror the OpenHands SDK's public names, and importing one engine
module must not load the whole engine (the app draws its first frame with few of them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_getattr(package: str, homes: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports each name in `homes` (name -> module)
    when first asked for, and keeps it in `namespace` (the package's globals) after that."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        namespace[name] = value  # looked up once
        return value

    return __getattr__
