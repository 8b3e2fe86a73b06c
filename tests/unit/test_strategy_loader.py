"""Loading strategies: the good path, params, and every broken case as a one-line error."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk import LLM, Agent
from openhands_tui.sdk.errors import StrategyError
from openhands_tui.sdk.strategy import load_strategy, load_strategy_source, parse_param_flags

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "strategies"
LLM_ = LLM(model="openai/none")


def _error(spec: str) -> str:
    with pytest.raises(StrategyError) as info:
        loaded = load_strategy_source(spec)
        loaded.build_agent(LLM_, loaded.resolve_params({}))
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("missing.py", "no such strategy file"),
        ("syntax_error.py", "syntax error at line 4"),
        (
            "import_error.py",
            "import failed at line 2: ModuleNotFoundError: No module named 'package_that_does_not_exist'",
        ),
        ("runtime_error.py", "error while loading at line 3: ZeroDivisionError"),
        ("no_subclass.py", "no Strategy subclass found"),
        ("several.py", "several Strategy classes (First, Second); pick one with"),
        ("abstract.py", "Unfinished is abstract (it does not implement build_agent)"),
        (
            "setup_raises.py",
            "SetupFails.setup() failed at line 7: RuntimeError: cannot register agents today",
        ),
        ("build_raises.py", "BuildFails.build_agent() failed at line 6: ValueError: no agent for you"),
        ("build_returns_wrong.py", "WrongType.build_agent() returned dict, expected an Agent"),
    ],
)
def test_broken_strategy_is_one_line_naming_the_file(fixture: str, expected: str) -> None:
    spec = str(FIXTURES / fixture)
    message = _error(spec)
    assert message.startswith(spec + ": ")
    assert expected in message


def test_directory_and_wrong_suffix(tmp_path: Path) -> None:
    assert "is a directory" in _error(str(tmp_path))
    text_file = tmp_path / "strategy.txt"
    text_file.write_text("x")
    assert "expected a .py strategy file" in _error(str(text_file))


def test_selector_picks_one_of_several() -> None:
    loaded = load_strategy_source(f"{FIXTURES / 'several.py'}:Second")
    assert loaded.name == "second"
    agent = loaded.build_agent(LLM_, {})
    assert isinstance(agent, Agent) and agent.name == "second"
    assert "no Strategy class named 'Third' (found: First, Second)" in _error(f"{FIXTURES / 'several.py'}:Third")


def test_params_are_coerced_and_defaulted() -> None:
    loaded = load_strategy_source(str(FIXTURES / "params.py"))
    assert loaded.resolve_params({}) == {"workers": 2, "verbose": False, "style": "terse"}
    given = parse_param_flags(["workers=5", "verbose=yes", "style=a=b"])
    assert loaded.resolve_params(given) == {"workers": 5, "verbose": True, "style": "a=b"}
    agent = loaded.build_agent(LLM_, loaded.resolve_params(given))
    assert "workers=5 verbose=True style='a=b'" in agent.build_system_prompt()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"wrokers": "3"}, "unknown param 'wrokers' (valid: workers, verbose, style)"),
        ({"workers": "three"}, "--param workers=three: expected an integer"),
        ({"verbose": "maybe"}, "--param verbose=maybe: expected a boolean (true/false)"),
    ],
)
def test_bad_params_name_the_file_and_the_cause(given: dict[str, str], expected: str) -> None:
    spec = str(FIXTURES / "params.py")
    loaded = load_strategy_source(spec)
    with pytest.raises(StrategyError) as info:
        loaded.resolve_params(given)
    assert str(info.value) == f"{spec}: {expected}"


def test_param_flag_without_equals_is_rejected() -> None:
    with pytest.raises(StrategyError, match="expected name=value"):
        parse_param_flags(["workers"])


def test_load_strategy_returns_a_set_up_instance() -> None:
    strategy = load_strategy(FIXTURES / "params.py")
    assert strategy.name == "typed"
    assert [p.name for p in strategy.params] == ["workers", "verbose", "style"]


def test_repo_solo_strategy_loads() -> None:
    repo = Path(__file__).resolve().parents[2]
    loaded = load_strategy_source(str(repo / "strategies" / "solo.py"))
    agent = loaded.build_agent(LLM_, loaded.resolve_params({}))
    assert [tool.name for tool in agent.tools] == ["TerminalTool", "FileEditorTool", "TaskTrackerTool", "WebFetchTool"]
