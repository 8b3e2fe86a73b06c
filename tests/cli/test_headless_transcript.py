"""What the headless transcript says about decisions nobody typed: the rule, and its file.
In-process (`cli.main`), against the scripted server."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.cli import main
from openhands_tui.sdk.security.permissions import project_rules_file
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args


def test_an_approval_by_a_rule_names_the_rule_and_its_file(serve, workspace: Path, isolated_home, capsys) -> None:
    rules = project_rules_file(workspace)
    rules.parent.mkdir(parents=True)
    rules.write_text('[[rule]]\naction = "allow"\ncommand = "rm -rf build"\nexact = true\n')
    (workspace / "build").mkdir()
    server = serve([Script(turns=[Turn.call("terminal", command="rm -rf build"), Turn.finish("cleaned")])])
    argv = ["--headless", "-t", "clean", "--trust-project", "--workspace", str(workspace), *model_args(server)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"✓ approved (rule: allow command 'rm -rf build' (exactly) ({rules}))" in out
    assert not (workspace / "build").exists()
