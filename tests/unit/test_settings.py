"""Model settings: flags > environment > stored session > config file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.settings import config_path, load_config, resolve_llm_settings


def _write_config(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    _write_config('[llm]\nmodel = "config/model"\napi_key = "config-key"\nbase_url = "http://config"\n')
    settings = resolve_llm_settings()
    assert (settings.model, settings.base_url) == ("config/model", "http://config")
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "config-key"

    stored = {"model": "session/model", "base_url": "http://session"}
    assert resolve_llm_settings(stored=stored).model == "session/model"

    monkeypatch.setenv("LLM_MODEL", "env/model")
    monkeypatch.setenv("LLM_API_KEY", "env-key")
    settings = resolve_llm_settings(stored=stored)
    assert settings.model == "env/model" and settings.base_url == "http://session"
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "env-key"

    settings = resolve_llm_settings(model="flag/model", api_key="flag-key", stored=stored)
    assert settings.model == "flag/model" and settings.source["model"] == "flag"
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "flag-key"


def test_missing_model_says_how_to_set_one() -> None:
    with pytest.raises(SettingsError, match=r"pass --model .* set LLM_MODEL, or set model under \[llm\]"):
        resolve_llm_settings().require_model()


def test_broken_config_names_the_file() -> None:
    path = _write_config("[llm\nmodel = 1\n")
    with pytest.raises(SettingsError) as info:
        load_config()
    assert str(info.value).startswith(f"{path}: invalid TOML")


def test_sandbox_settings_come_from_the_config_and_the_flag_wins() -> None:
    from openhands_tui.sdk.settings import sandbox_policy

    config = {"sandbox": {"mode": "read-only", "network": True, "writable": ["~/.cache/pip"]}}
    assert sandbox_policy(config=config).mode == "read-only"
    assert sandbox_policy("off", config=config).mode == "off"
    assert sandbox_policy(config=config).writable == ["~/.cache/pip"]
    for bad, message in [
        ({"sandbox": {"mood": "off"}}, "unknown setting 'mood' under [sandbox]"),
        ({"sandbox": {"mode": "loose"}}, "[sandbox] mode"),
        ({"sandbox": "off"}, "[sandbox] must be a table"),
    ]:
        with pytest.raises(SettingsError, match=re.escape(message)):
            sandbox_policy(config=bad)
    with pytest.raises(SettingsError, match="--sandbox loose: use read-only, workspace-write or off"):
        sandbox_policy("loose", config={})


def test_reasoning_effort_precedence_and_bad_values(monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write_config('[llm]\nmodel = "m"\nreasoning_effort = "low"\n')
    assert resolve_llm_settings().reasoning_effort == "low"
    assert resolve_llm_settings(stored={"reasoning_effort": "medium"}).reasoning_effort == "medium"
    monkeypatch.setenv("LLM_REASONING_EFFORT", "high")
    settings = resolve_llm_settings(stored={"reasoning_effort": "medium"})
    assert (settings.reasoning_effort, settings.source["reasoning_effort"]) == ("high", "env")
    assert resolve_llm_settings(reasoning_effort="off").reasoning_effort == "off"

    monkeypatch.setenv("LLM_REASONING_EFFORT", "extreme")
    with pytest.raises(
        SettingsError, match=r"^LLM_REASONING_EFFORT: expected low, medium, high or off, got 'extreme'$"
    ):
        resolve_llm_settings()
    monkeypatch.delenv("LLM_REASONING_EFFORT")
    _write_config('[llm]\nmodel = "m"\nreasoning_effort = "max"\n')
    with pytest.raises(SettingsError, match=f"^reasoning_effort under \\[llm\\] in {path}: expected"):
        resolve_llm_settings()


def test_a_setting_of_the_wrong_type_names_the_file_and_the_key() -> None:
    """`model = 5` became the model "5" and failed later at the provider, far from its cause."""
    for text, key in [
        ("model = 5", "model"),
        ('model = "m"\nbase_url = ["http://x"]', "base_url"),
        ("api_key = true", "api_key"),
    ]:
        path = _write_config(f"[llm]\n{text}\n")
        with pytest.raises(SettingsError, match=f"^{re.escape(str(path))}: {key} under \\[llm\\] must be a string"):
            resolve_llm_settings()
