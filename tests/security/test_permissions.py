"""Allow/deny rules: coverage of every part, deny over allow, remembering, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.security.permissions import (
    PermissionRule,
    PermissionSet,
    project_rules_file,
    suggest_rule,
)
from openhands_tui.sdk.subject import FileChange, FileOperation, ShellCommand


#: Commands are judged where they run; these tests run them at the filesystem root unless a
#: test says otherwise (path rules resolve against the workspace the rule set was loaded for).
def _cmd(command: str, cwd: str = "/") -> ShellCommand:
    return ShellCommand(command=command, cwd=cwd)


def _edit(path: str, operation: FileOperation = "edit") -> FileChange:
    return FileChange(path=path, operation=operation)


def _rules(workspace: Path, text: str) -> PermissionSet:
    file = project_rules_file(workspace)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text)
    return PermissionSet.load(workspace)


ALLOW_GIT_STATUS = '[[rule]]\naction = "allow"\ncommand = "git status"\n'


def test_an_allow_rule_must_cover_every_part(project: Path) -> None:
    rules = _rules(project, ALLOW_GIT_STATUS + '[[rule]]\naction = "allow"\ncommand = "npm test"\n')
    decided = rules.decide(_cmd("git status -sb"))
    assert decided is not None and decided.approved
    assert "allow command 'git status'" in decided.decided_by and "permissions.toml" in decided.decided_by
    assert rules.decide(_cmd("git status && npm test")).approved  # type: ignore[union-attr]
    for uncovered in [
        "git status && rm -rf /",
        "git status; curl x | sh",
        "git status $(rm -rf ~)",
        "git status > ~/.bashrc",
        "git stat",
        "git $X",
        "git status 'unterminated",
    ]:
        assert rules.decide(_cmd(uncovered)) is None, uncovered


def test_deny_beats_allow(project: Path) -> None:
    rules = _rules(project, ALLOW_GIT_STATUS + '[[rule]]\naction = "deny"\ncommand = "git"\n')
    decided = rules.decide(_cmd("git status"))
    assert decided is not None and not decided.approved and "deny command 'git'" in decided.decided_by
    hidden = rules.decide(_cmd("echo hi && (cd src; git push)"))
    assert hidden is not None and not hidden.approved


def test_path_rules_for_file_actions(project: Path) -> None:
    rules = _rules(
        project,
        '[[rule]]\naction = "allow"\npath = "src/**"\n[[rule]]\naction = "deny"\npath = "src/generated/**"\n',
    )
    assert rules.decide(_edit("src/app/a.py", "create")).approved  # type: ignore[union-attr]
    assert not rules.decide(_edit(str(project / "src/generated/x.py"))).approved  # type: ignore[union-attr]
    assert rules.decide(_edit("src/../../escape.py")) is None


def test_suggestions_and_remembering(project: Path) -> None:
    assert suggest_rule(_cmd("npm test -- --watch"), project) == PermissionRule(action="allow", command="npm test")
    assert suggest_rule(_cmd("pytest -q tests"), project).command == "pytest"  # type: ignore[union-attr]
    assert suggest_rule(_cmd("make && rm -rf ~"), project) is None
    exact = suggest_rule(_cmd("rm -rf build"), project, exact=True)
    assert exact == PermissionRule(action="allow", command="rm -rf build")
    assert suggest_rule(_edit("src/a.py"), project).path == "src/a.py"  # type: ignore[union-attr]
    rules = PermissionSet.load(project)
    rules.remember(PermissionRule(action="allow", command="npm test"), project_rules_file(project))
    assert rules.decide(_cmd("npm test")).approved  # type: ignore[union-attr]
    again = PermissionSet.load(project)  # a later session
    assert again.decide(_cmd("npm test")).approved  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[rule]\n", "cannot read permission rules"),
        ('[[rule]]\naction = "maybe"\ncommand = "x"\n', "rule 1 is invalid"),
        ('[[rule]]\naction = "allow"\n', "needs exactly one of `command` or `path`"),
    ],
)
def test_a_broken_rules_file_is_one_clear_error(project: Path, text: str, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        _rules(project, text)
    assert str(info.value).startswith(str(project_rules_file(project))) and message in str(info.value)
