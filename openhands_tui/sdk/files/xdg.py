"""Where the user's config and state live: the XDG base directories, read as the specification
says. A relative `$XDG_CONFIG_HOME` is invalid and ignored; taken as it was, it was resolved
against the current directory, so a cloned repository (`XDG_CONFIG_HOME=.config`, set by a
project's env file or a careless shell profile) supplied the user's own `config.toml`,
`permissions.toml` and trusted projects."""

from __future__ import annotations

import os
from pathlib import Path


def base_directory(variable: str, default: str | Path) -> Path:
    """`$variable` when it is an absolute path, else `default` (under the home directory)."""
    value = os.environ.get(variable) or ""
    return Path(value) if os.path.isabs(value) else Path(default)


def config_base(home: str | Path | None = None) -> Path:
    return base_directory("XDG_CONFIG_HOME", Path(home if home is not None else Path.home()) / ".config")


def state_base() -> Path:
    return base_directory("XDG_STATE_HOME", Path.home() / ".local" / "state")
