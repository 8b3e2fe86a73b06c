"""The redactor an export passes every string through again.

Events were redacted when they were written, with the secrets that run knew. An export may be
made later, by someone else, from a shell with other variables, and it is meant to leave the
machine: so it redacts again with what is known now, as a run would (`launch.py`): the
environment's secret-looking values and secret shapes, the configured API key, and the values in
the session workspace's `.env` files if that workspace is still there.
"""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.security.secrets import Redactor, dotenv_secrets
from openhands_tui.sdk.settings import load_config


def export_redactor(workspace: str) -> Redactor:
    redactor = Redactor.from_environment(extra=[("API key", _configured_key())])
    path = Path(workspace)
    if path.is_absolute() and path.is_dir():  # a relative one would be read from wherever tui runs
        for value, label in dotenv_secrets(path).items():
            redactor.add(value, label)
    return redactor


def _configured_key() -> str | None:
    """The API key in the config file, if one is there (a broken file holds none to read)."""
    try:
        llm = load_config().get("llm")
    except SettingsError:
        return None
    key = llm.get("api_key") if isinstance(llm, dict) else None
    return key if isinstance(key, str) else None
