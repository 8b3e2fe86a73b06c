"""Bad usage is one line on stderr naming the flag (and what it accepts), exit 2; `--help`
says what each command does, how people start, and where settings come from. In-process:
`cli.main` is the entry point itself."""

from __future__ import annotations

import pytest

from openhands_tui.cli import main


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--confirm", "sometimes"],
            "tui: Invalid value for '--confirm': 'sometimes' is not one of 'always', 'risky', 'never'.",
        ),
        (
            ["--max-iterations", "0"],
            "tui: Invalid value for '--max-iterations': must be at least 1",
        ),
        (["--bogus"], "tui: No such option: --bogus (see tui --help)"),
        (["risk", "--nope"], "tui: risk: No such option: --nope (see tui risk --help)"),
        (["view"], "tui: view: Missing argument 'SESSION'."),
        (["sessions", "--limit", "0"], "tui: --limit 0: give 1 or more"),
        (["sessions", "--limit", "x"], "tui: sessions: Invalid value for '--limit': not a whole number"),
        (["--max-budget", "-1"], "tui: Invalid value for '--max-budget': must be at least 0"),
        (["sessions", "--limit", "-3"], "tui: --limit -3: give 1 or more"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(argv: list[str], expected: str, capsys, isolated_home) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [expected] and captured.out == ""


def test_unknown_theme_lists_the_themes(capsys, isolated_home) -> None:
    assert main(["--theme", "nosuch", "--headless", "-t", "x"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert err.startswith("tui: --theme nosuch: unknown theme (have: openhands-dark, openhands-light, ")


def test_view_of_an_unknown_session_names_view(capsys, isolated_home) -> None:
    assert main(["view", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tui: view bogus: no such session") and "--resume" not in err


def test_help_shows_whole_descriptions_examples_config_and_environment(capsys) -> None:
    assert main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Serve editors over the Agent Client Protocol (Zed, JetBrains, Toad...): JSON-RPC on stdio." in out
    assert "Rate an action LOW / MEDIUM / HIGH with the rule-based analyzer, and say why." in out
    assert "tui --demo" in out and "tui --resume last" in out
    assert "openhands-tui/config.toml" in out
    for name in ("LLM_MODEL", "LLM_API_KEY", "LLM_BASE_URL", "LLM_REASONING_EFFORT"):
        assert name in out


def test_view_usage_reads_like_the_command(capsys) -> None:
    assert main(["view", "--help"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Usage: tui view SESSION [--theme NAME]"


@pytest.mark.parametrize("where", ["home", "root", "above home"])
def test_a_workspace_that_is_home_or_holds_it_is_refused_in_one_line(where: str, capsys, isolated_home) -> None:
    folder = {"home": isolated_home, "root": isolated_home.anchor, "above home": isolated_home.parent}[where]
    argv = ["--headless", "-t", "x", "--model", "openai/x", "--api-key", "k", "--workspace", str(folder)]
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"tui: --workspace {folder} is ")
    assert err[0].endswith("cd into a project, or pass --workspace-is-home if you mean it")


def test_a_workspace_at_home_is_taken_when_the_user_insists(serve, capsys, isolated_home) -> None:
    from openhands_tui.testing import Script, Turn
    from tests.conftest import model_args

    server = serve([Script(turns=[Turn.finish("done at home")])])
    argv = ["--headless", "-t", "x", "--workspace", str(isolated_home), "--workspace-is-home", *model_args(server)]
    assert main(argv) == 0
    assert "done at home" in capsys.readouterr().out


def test_the_flags_offer_exactly_the_engines_levels_and_modes(capsys, isolated_home) -> None:
    """--reasoning-effort, --confirm and --risk-threshold take the engine's own lists: a level
    the engine gains is a choice at once, and none the engine refuses is offered."""
    from openhands_tui.sdk.facts.risk import Risk
    from openhands_tui.sdk.llm.reasoning import REASONING_EFFORTS
    from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode

    for flag, accepted in [
        ("--reasoning-effort", REASONING_EFFORTS),
        ("--confirm", [mode.value for mode in ConfirmationMode]),
        ("--risk-threshold", [risk.value for risk in Risk]),
    ]:
        assert main([flag, "none-of-them"]) == 2
        listed = ", ".join(f"'{value}'" for value in accepted)
        assert capsys.readouterr().err == f"tui: Invalid value for '{flag}': 'none-of-them' is not one of {listed}.\n"
