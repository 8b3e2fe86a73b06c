"""Every TOML file tui reads (the config, permission rules, themes, Gemini CLI commands) goes
through one reader: whatever is wrong with the file is one line naming it and the cause."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from openhands_tui.sdk.context.gemini_commands import gemini_commands
from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.files.read import DEFAULT_LIMIT
from openhands_tui.sdk.files.toml_file import TomlFileError, read_toml
from openhands_tui.sdk.security.permissions import _read_rules
from openhands_tui.sdk.settings import load_config

DEEP = "a = " + "[" * 10_000 + "]" * 10_000 + "\n"
HUGE_NUMBER = "a = " + "9" * 5_000 + "\n"


def _directory(path: Path) -> None:
    path.mkdir()


def _fifo(path: Path) -> None:
    os.mkfifo(path)  # no writer ever comes: opening it to read would wait forever


def _bad_utf8(path: Path) -> None:
    path.write_bytes(b'name = "caf\xe9"\n')  # Latin-1


def _bad_toml(path: Path) -> None:
    path.write_text("[llm\nmodel = 1\n")


def _deep(path: Path) -> None:
    path.write_text(DEEP)


def _huge_number(path: Path) -> None:
    path.write_text(HUGE_NUMBER)


def _too_large(path: Path) -> None:
    path.write_bytes(b"")
    os.truncate(path, DEFAULT_LIMIT + 1)  # sparse: nothing written, 4 MiB and a byte long


#: Each bad file, the cause the reader names, and the cause alone (what the rules' message quotes).
BAD_FILES: list[tuple[Callable[[Path], None], str, str]] = [
    (_directory, "cannot read (is a directory)", "is a directory"),
    (_fifo, "cannot read (not a regular file (a pipe, device or socket))", "not a regular file"),
    (_bad_utf8, "not UTF-8 text", "not UTF-8 text"),
    (_bad_toml, "invalid TOML (Expected ']' at the end of a table declaration", "Expected ']'"),
    (_deep, "invalid TOML (nested too deeply)", "nested too deeply"),
    (_huge_number, "invalid TOML (Exceeds the limit (4300 digits)", "Exceeds the limit (4300 digits)"),
    (_too_large, "cannot read (4,194,305 bytes is more than the 4,194,304-byte limit)", "4,194,305 bytes"),
]
IDS = ["directory", "fifo", "not utf-8", "not toml", "nested too deeply", "5000-digit number", "too large"]


@pytest.mark.parametrize(("make", "cause", "problem"), BAD_FILES, ids=IDS)
def test_each_bad_toml_file_is_one_line_naming_the_file_and_the_cause(
    tmp_path: Path, make: Callable[[Path], None], cause: str, problem: str
) -> None:
    path = tmp_path / "file.toml"
    make(path)
    with pytest.raises(TomlFileError) as error:
        read_toml(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {cause}") and "\n" not in message
    assert error.value.path == path and error.value.problem.startswith(problem)


def test_a_missing_toml_file_is_one_line_unless_the_caller_allows_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(TomlFileError) as error:
        read_toml(path)
    assert str(error.value) == f"{path}: cannot read (No such file or directory)"
    assert read_toml(path, missing_ok=True) == {}


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_toml_file_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.toml"
    path.write_text("a = 1\n")
    path.chmod(0)
    with pytest.raises(TomlFileError) as error:
        read_toml(path)
    assert str(error.value) == f"{path}: cannot read (Permission denied)"


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "notepad.toml"
    path.write_bytes(b'\xef\xbb\xbf[llm]\nmodel = "m"\n')
    assert read_toml(path) == {"llm": {"model": "m"}}


@pytest.mark.parametrize(("make", "cause", "problem"), BAD_FILES, ids=IDS)
def test_a_bad_config_file_is_the_readers_line_as_a_settings_error(
    tmp_path: Path, make: Callable[[Path], None], cause: str, problem: str
) -> None:
    path = tmp_path / "config.toml"
    make(path)
    with pytest.raises(SettingsError) as error:
        load_config(path)
    assert str(error.value).startswith(f"{path}: {cause}") and "\n" not in str(error.value)


@pytest.mark.parametrize(("make", "cause", "problem"), BAD_FILES, ids=IDS)
def test_a_bad_rules_file_says_the_rules_cannot_be_read_and_why(
    tmp_path: Path, make: Callable[[Path], None], cause: str, problem: str
) -> None:
    path = tmp_path / "permissions.toml"
    make(path)
    with pytest.raises(SettingsError) as error:
        _read_rules(path)
    message = str(error.value)
    assert message.startswith(f"{path}: cannot read permission rules ({problem}") and "\n" not in message


@pytest.mark.parametrize(
    "text", [DEEP, HUGE_NUMBER, "prompt = \n"], ids=["nested too deeply", "5000 digits", "not toml"]
)
def test_a_gemini_command_that_is_not_toml_is_skipped_with_a_warning(workspace: Path, text: str) -> None:
    commands = workspace / ".gemini" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.toml").write_text(text)
    (commands / "ok.toml").write_text('prompt = "check it"\n')
    warnings: list[str] = []
    assert [skill.name for skill in gemini_commands(workspace, "workspace", warnings)] == ["ok"]
    [warning] = warnings
    assert warning.startswith(f"{commands / 'review.toml'}: skipped, not valid TOML (") and "\n" not in warning
