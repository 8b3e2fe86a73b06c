"""Where the model settings come from: flags > environment > stored session > config file.

The environment uses the names OpenHands uses (LLM_MODEL, LLM_API_KEY, LLM_BASE_URL); the
config file is `$XDG_CONFIG_HOME/openhands-tui/config.toml` with an `[llm]` table.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from pydantic import SecretStr, ValidationError

from openhands_tui.sdk.errors import ModelNotConfigured, SettingsError
from openhands_tui.sdk.files.private import one_writer, replace_privately
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.toml_file import TomlFileError, read_toml
from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.llm.reasoning import REASONING_EFFORTS, ReasoningEffort
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.sandbox import SandboxPolicy

ENV_MODEL, ENV_API_KEY, ENV_BASE_URL = "LLM_MODEL", "LLM_API_KEY", "LLM_BASE_URL"
ENV_REASONING_EFFORT = "LLM_REASONING_EFFORT"


def config_path() -> Path:
    return config_base() / "openhands-tui" / "config.toml"


def load_config(path: Path | None = None) -> dict[str, Any]:
    """The parsed config file, or {} when there is none. A broken file is a one-line error."""
    path = path or config_path()
    try:
        return read_toml(path, missing_ok=True)
    except TomlFileError as exc:
        raise SettingsError(str(exc)) from None


class LLMSettings(Model):
    model: str | None = None
    api_key: SecretStr | None = None
    base_url: str | None = None
    #: None: not set anywhere.
    reasoning_effort: ReasoningEffort | None = None
    source: dict[str, str] = {}

    def require_model(self) -> str:
        if not self.model:
            raise ModelNotConfigured(
                "no model configured: pass --model (e.g. --model anthropic/claude-sonnet-4-5), "
                f"set {ENV_MODEL}, or set model under [llm] in {config_path()}"
            )
        return self.model


def resolve_llm_settings(
    *,
    model: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    reasoning_effort: str | None = None,
    stored: dict[str, str | None] | None = None,
    config: dict[str, Any] | None = None,
) -> LLMSettings:
    llm_config = (config if config is not None else load_config()).get("llm", {})
    if not isinstance(llm_config, dict):
        raise SettingsError(f"{config_path()}: [llm] must be a table")
    stored = stored or {}
    layers: list[tuple[str, dict[str, Any]]] = [
        ("flag", {"model": model, "api_key": api_key, "base_url": base_url, "reasoning_effort": reasoning_effort}),
        (
            "env",
            {
                "model": os.environ.get(ENV_MODEL),
                "api_key": os.environ.get(ENV_API_KEY),
                "base_url": os.environ.get(ENV_BASE_URL),
                "reasoning_effort": os.environ.get(ENV_REASONING_EFFORT),
            },
        ),
        (
            "session",
            {
                "model": stored.get("model"),
                "base_url": stored.get("base_url"),
                "reasoning_effort": stored.get("reasoning_effort"),
            },
        ),
        ("config", llm_config),
    ]
    values: dict[str, Any] = {}
    source: dict[str, str] = {}
    for name in ("model", "api_key", "base_url", "reasoning_effort"):
        for layer, data in layers:
            value = data.get(name)
            if layer == "config" and value is not None and not isinstance(value, str):
                raise SettingsError(f"{config_path()}: {name} under [llm] must be a string, got {value!r}")
            if value:
                values[name], source[name] = str(value), layer
                break
    effort = values.get("reasoning_effort")
    if effort is not None and effort not in REASONING_EFFORTS:
        where = _where("reasoning_effort", "--reasoning-effort", ENV_REASONING_EFFORT, source)
        raise SettingsError(f"{where}: expected {', '.join(REASONING_EFFORTS[:-1])} or off, got {effort!r}")
    url = values.get("base_url")
    if url is not None and not _http_url(url):  # else every call fails, retried, as a provider error
        where = _where("base_url", "--base-url", ENV_BASE_URL, source)
        raise SettingsError(f"{where}: {url!r} is not an http:// or https:// URL with a host")
    return LLMSettings(**values, source=source)


def _where(name: str, flag: str, env: str, source: dict[str, str]) -> str:
    """Which setting a bad value came from, as the user would find it."""
    return {
        "flag": flag,
        "env": env,
        "session": f"{name} of the stored session",
        "config": f"{name} under [llm] in {config_path()}",
    }[source[name]]


def _http_url(url: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        _ = parts.port  # a port that is not a number raises
    except ValueError:  # ... as does a bracketed host that is not an address
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


#: How the model is called, from `LLM_<NAME>` in the environment or `<name>` under [llm].
TUNING: dict[str, type] = {
    "timeout": float,
    "num_retries": int,
    "retry_min_wait": float,
    "retry_max_wait": float,
    "context_window": int,
}


#: Every key `[llm]` may hold: anything else is a misspelling (or a newer version's), said once.
LLM_KEYS = ("model", "api_key", "base_url", "reasoning_effort", *TUNING)


def unknown_llm_keys(config: dict[str, Any] | None = None) -> list[str]:
    """A warning for each key under [llm] that nothing reads (`modle = ...` was ignored without
    a word, and the run went on with another model), naming the closest known key."""
    import difflib

    llm_config = (config if config is not None else load_config()).get("llm", {})
    if not isinstance(llm_config, dict):
        return []
    warnings = []
    for key in sorted(set(llm_config) - set(LLM_KEYS)):
        close = difflib.get_close_matches(key, LLM_KEYS, n=1)
        hint = f"; did you mean {close[0]}?" if close else f" (known: {', '.join(LLM_KEYS)})"
        warnings.append(f"{config_path()}: unknown key {key!r} under [llm] is ignored{hint}")
    return warnings


def llm_tuning(config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Timeouts, retries and the context window, environment first; a bad value is an error
    that names where it came from."""
    llm_config = (config if config is not None else load_config()).get("llm", {})
    tuning: dict[str, Any] = {}
    for name, kind in TUNING.items():
        env_name = f"LLM_{name.upper()}"
        raw, where = os.environ.get(env_name), env_name
        if raw is None and isinstance(llm_config, dict) and name in llm_config:
            raw, where = llm_config[name], f"{name} under [llm] in {config_path()}"
        if raw is None or raw == "":
            continue
        expected = "a whole number" if kind is int else "a number"
        # `timeout = true` was 1 second and `num_retries = 2.5` two retries: a wrong type is said
        whole_float = isinstance(raw, float) and raw.is_integer()
        if (
            isinstance(raw, bool)
            or not isinstance(raw, str | int | float)
            or (kind is int and isinstance(raw, float) and not whole_float)
        ):
            raise SettingsError(f"{where}: expected {expected}, got {raw!r}")
        try:
            value = kind(raw)
        except (TypeError, ValueError, OverflowError):
            raise SettingsError(f"{where}: expected {expected}, got {raw!r}") from None
        # a zero timeout fails every call; a zero context window was taken as "not set"
        above_zero = name in ("timeout", "context_window")
        least = "above 0" if above_zero else "0 or more"
        if not math.isfinite(value) or value < 0 or (above_zero and value == 0):
            raise SettingsError(f"{where}: must be a finite number {least}, got {raw!r}")
        tuning[name] = value
    check_certificates()
    return tuning


#: Environment variables that name a certificate bundle for the model client (litellm reads
#: both; SSL_VERIFY may instead be true/false).
CERTIFICATE_VARIABLES = ("SSL_CERT_FILE", "SSL_VERIFY")


def check_certificates() -> None:
    """A certificate bundle named in the environment that cannot be one (a directory, an
    unreadable file, a file with no PEM certificate in it) is a one-line error naming the
    variable. Found at the first model call instead, it was an "internal error" traceback in
    tui.log, exit 1. The file is looked at, not loaded: loading a bundle costs ~25 ms a run."""
    for name in CERTIFICATE_VARIABLES:
        value = os.environ.get(name)
        if not value or not os.path.lexists(value):  # unset, or (SSL_VERIFY) a true/false
            continue
        try:
            head = read_regular(value, 64 << 20)[: 1 << 20]
        except OSError as exc:
            raise SettingsError(f"{name}={value}: cannot read it as certificates ({exc.strerror or exc})") from None
        if b"-----BEGIN CERTIFICATE-----" not in head and b"-----BEGIN TRUSTED CERTIFICATE-----" not in head:
            raise SettingsError(f"{name}={value}: no PEM certificate in it")


def sandbox_policy(mode: str | None = None, config: dict[str, Any] | None = None) -> SandboxPolicy:
    """The session's sandbox: `[sandbox]` in the config file, the `--sandbox` flag winning for
    the mode. A bad value is an error that names where it came from."""
    table = (config if config is not None else load_config()).get("sandbox", {})
    if not isinstance(table, dict):
        raise SettingsError(f"{config_path()}: [sandbox] must be a table")
    unknown = sorted(set(table) - set(SandboxPolicy.model_fields))
    if unknown:
        valid = ", ".join(SandboxPolicy.model_fields)
        raise SettingsError(f"{config_path()}: unknown setting {unknown[0]!r} under [sandbox] (valid: {valid})")
    try:
        policy = SandboxPolicy.model_validate(table)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise SettingsError(f"{config_path()}: [sandbox] {where}: {problem['msg']}") from None
    if mode is not None:
        if mode not in ("read-only", "workspace-write", "off"):
            raise SettingsError(f"--sandbox {mode}: use read-only, workspace-write or off")
        policy = policy.model_copy(update={"mode": mode})
    return policy


def save_config(changes: dict[str, Any], path: Path | None = None) -> Path:
    """Merge `changes` (top-level keys, or one-level tables like {"llm": {...}}) into the
    config file, keeping everything else, readable by the user only."""
    path = path or config_path()
    with one_writer(path):  # another tui saving at the same moment: its change is kept too
        data = load_config(path)
        for key, value in changes.items():
            if isinstance(value, dict):
                table = data.setdefault(key, {})
                table.update({k: v for k, v in value.items() if v is not None})
                for k in [k for k, v in value.items() if v is None]:
                    table.pop(k, None)
            elif value is None:
                data.pop(key, None)
            else:
                data[key] = value
        replace_privately(path, _to_toml(data))
    return path


def unsaved_reason(exc: OSError | SettingsError) -> str:
    """Why the config could not be saved, in one line naming the file."""
    if isinstance(exc, OSError):
        return f"cannot write {exc.filename or config_path()} ({exc.strerror or exc})"
    return str(exc)


def save_llm_config(model: str, api_key: str | None, base_url: str | None) -> Path:
    return save_config({"llm": {"model": model, "api_key": api_key, "base_url": base_url}})


def _to_toml(data: dict[str, Any]) -> str:
    import json

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(item) for item in v) + "]"
        return json.dumps(str(v))  # a TOML basic string accepts JSON's escapes

    lines = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for name, table in data.items():
        if isinstance(table, dict):
            lines += ["", f"[{name}]", *(f"{k} = {value(v)}" for k, v in table.items())]
    return "\n".join(lines).lstrip("\n") + "\n"
