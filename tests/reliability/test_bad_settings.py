"""Settings of the model client that can never work: a base URL that is not an http(s) URL, a
certificate bundle that is a directory or holds no certificate, a tuning value of the wrong
type. Each was found only at the first model call — retried as if the provider had failed, or an
"internal error" traceback in tui.log, exit 1 — or silently turned into another value
(`timeout = true` was one second). Now: one line naming where the value came from, exit 2,
before any request."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.settings import (
    LLM_KEYS,
    config_path,
    llm_tuning,
    load_config,
    resolve_llm_settings,
    save_config,
    unknown_llm_keys,
)
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui


@pytest.mark.parametrize("url", ["::::", "file:///etc/passwd", "localhost:8000", "http://", "http://host:port/v1"])
def test_a_base_url_that_is_not_http_is_refused_naming_its_source(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingsError, match=r"^--base-url: .* is not an http:// or https:// URL with a host$"):
        resolve_llm_settings(model="m", base_url=url, config={})
    monkeypatch.setenv("LLM_BASE_URL", url)
    with pytest.raises(SettingsError, match=r"^LLM_BASE_URL: "):
        resolve_llm_settings(model="m", config={})
    monkeypatch.delenv("LLM_BASE_URL")
    with pytest.raises(SettingsError, match=r"^base_url under \[llm\] in .*config.toml: "):
        resolve_llm_settings(model="m", config={"llm": {"base_url": url}})
    assert resolve_llm_settings(model="m", base_url="https://api.example.com/v1", config={}).base_url


@pytest.mark.parametrize(
    ("setting", "value", "expected"),
    [
        ("timeout", True, "a number"),
        ("timeout", [1], "a number"),
        ("num_retries", 2.5, "a whole number"),
        ("context_window", float("inf"), "a whole number"),
    ],
)
def test_a_tuning_value_of_the_wrong_type_is_refused(setting: str, value: object, expected: str) -> None:
    with pytest.raises(SettingsError) as raised:
        llm_tuning({"llm": {setting: value}})
    assert str(raised.value) == f"{setting} under [llm] in {config_path()}: expected {expected}, got {value!r}"
    assert llm_tuning({"llm": {"num_retries": 3.0, "timeout": 5}}) == {"num_retries": 3, "timeout": 5.0}


@pytest.mark.parametrize("variable", ["SSL_CERT_FILE", "SSL_VERIFY"])
def test_a_certificate_bundle_that_cannot_be_one_is_refused(
    variable: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    garbage = tmp_path / "bundle.pem"
    garbage.write_text("not a certificate\n")
    for value, why in [(tmp_path, "cannot read it as certificates (is a directory)"), (garbage, "no PEM certificate")]:
        monkeypatch.setenv(variable, str(value))
        with pytest.raises(SettingsError, match=re.escape(f"{variable}={value}: {why}")):
            llm_tuning({})
    monkeypatch.setenv(variable, "false" if variable == "SSL_VERIFY" else str(tmp_path / "missing.pem"))
    assert llm_tuning({}) == {}  # a true/false, or no file (the defaults apply): not a bundle to check
    garbage.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    monkeypatch.setenv(variable, str(garbage))
    assert llm_tuning({}) == {}


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("flags", "env", "line"),
    [
        (["--base-url", "file:///etc/passwd"], {}, "tui: --base-url: 'file:///etc/passwd' is not an http"),
        ([], {"SSL_CERT_FILE": "/"}, "tui: SSL_CERT_FILE=/: cannot read it as certificates (is a directory)"),
    ],
    ids=["base-url", "SSL_CERT_FILE"],
)
def test_the_command_says_it_in_one_line_before_any_request(
    serve, workspace: Path, flags: list[str], env: dict[str, str], line: str
) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    args = ["--headless", "--task", "go", *model_args(server), *flags, "--workspace", str(workspace)]
    result = run_tui(*args, env={"LLM_NUM_RETRIES": "0", **env})
    assert result.returncode == 2, result.stderr
    (said,) = result.stderr.strip().splitlines()
    assert said.startswith(line)
    assert not server.requests


def test_a_config_saved_with_a_byte_order_mark_is_read(isolated_home: Path) -> None:
    """Windows editors save UTF-8 with a BOM; tomllib refused it as an invisible bad statement."""
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'\xef\xbb\xbf[llm]\nmodel = "openai/gpt-4o"\n')
    assert resolve_llm_settings().model == "openai/gpt-4o"
    save_config({"theme": "openhands-light"})  # and saving it keeps the setting (and drops the mark)
    assert load_config() == {"theme": "openhands-light", "llm": {"model": "openai/gpt-4o"}}


def test_a_zero_context_window_is_refused_not_taken_as_unset() -> None:
    with pytest.raises(SettingsError) as raised:
        llm_tuning({"llm": {"context_window": 0}})
    assert str(raised.value) == f"context_window under [llm] in {config_path()}: must be a finite number above 0, got 0"
    assert llm_tuning({"llm": {"context_window": 8192, "num_retries": 0}}) == {"context_window": 8192, "num_retries": 0}


def test_a_misspelt_key_under_llm_is_said_with_the_key_it_resembles() -> None:
    config = {"llm": {"modle": "openai/gpt-4o", "api_key": "k", "contextwindow": 9, "frobnicate": 1}}
    assert unknown_llm_keys(config) == [
        f"{config_path()}: unknown key 'contextwindow' under [llm] is ignored; did you mean context_window?",
        f"{config_path()}: unknown key 'frobnicate' under [llm] is ignored (known: {', '.join(LLM_KEYS)})",
        f"{config_path()}: unknown key 'modle' under [llm] is ignored; did you mean model?",
    ]
    assert unknown_llm_keys({"llm": {"model": "m", "timeout": 5}}) == []


def test_the_run_says_a_misspelt_llm_key(serve, workspace: Path, isolated_home: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[llm]\nreasoning_efort = "high"\n')
    result = run_tui("--headless", "--task", "go", *model_args(server), "--workspace", str(workspace))
    assert result.returncode == 0, result.stderr
    assert "unknown key 'reasoning_efort' under [llm] is ignored; did you mean reasoning_effort?" in result.stderr
