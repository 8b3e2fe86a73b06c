"""Allow/deny rules: coverage of every part, deny over allow, remembering, bad files."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import FileChange, FileOperation, ShellCommand
from openhands_tui.sdk.security.permissions import (
    PermissionRule,
    PermissionSet,
    project_rules_file,
    suggest_rule,
    user_rules_file,
)
from openhands_tui.sdk.security.trust import ProjectTrust


#: Commands are judged where they run; these tests run them at the filesystem root unless a
#: test says otherwise (path rules resolve against the workspace the rule set was loaded for).
def _cmd(command: str, cwd: str = "/") -> ShellCommand:
    return ShellCommand(command=command, cwd=cwd)


def _edit(path: str, operation: FileOperation = "edit") -> FileChange:
    return FileChange(path=path, operation=operation)


def _rules(workspace: Path, text: str) -> PermissionSet:
    """Rules in the user's own file (the isolated XDG config of every test)."""
    file = user_rules_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text)
    return PermissionSet.load(workspace)[0]


def _project_rules(workspace: Path, text: str) -> Path:
    file = project_rules_file(workspace)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text)
    return file


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
    assert rules.decide(_edit("src/app/a.py"), Risk.HIGH) is None  # a glob never approves a HIGH edit


def test_a_prefix_rule_never_approves_a_high_action(project: Path) -> None:
    """What a user wrote for `python3` must not let `python3 -c "shutil.rmtree(...)"` through."""
    rules = _rules(project, '[[rule]]\naction = "allow"\ncommand = "python3"\n')
    assert rules.decide(_cmd("python3 -c 'import todo'"), Risk.MEDIUM).approved  # type: ignore[union-attr]
    assert rules.decide(_cmd("python3 -c 'import shutil; shutil.rmtree(\"/x\")'"), Risk.HIGH) is None
    exact = _rules(project, '[[rule]]\naction = "allow"\ncommand = "rm -rf build"\nexact = true\n')
    assert exact.decide(_cmd("rm -rf build"), Risk.HIGH).approved  # type: ignore[union-attr]
    assert exact.decide(_cmd("rm -rf build /"), Risk.HIGH) is None  # exact means every word
    assert exact.decide(_cmd("rm -rf build ~"), Risk.MEDIUM) is None


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import todo'",
        "bash -c 'npm test'",
        "sh script.sh",
        "node -e 1",
        "perl -e 1",
        "env FOO=1 npm test",
        "make test",
        "xargs rm",
        "git -c core.pager=cat log",
        "npx cowsay",
        "npm exec cowsay",
        "sudo apt-get update",
        "docker run alpine",
    ],
)
def test_always_never_suggests_a_shell_interpreter_or_wrapper_as_a_prefix(project: Path, command: str) -> None:
    suggested = suggest_rule(_cmd(command), project)
    assert suggested is not None and suggested.exact
    assert suggested.covers(shlex.split(command)) and not suggested.covers([*shlex.split(command), "x"])


def test_suggestions_and_remembering(project: Path) -> None:
    assert suggest_rule(_cmd("npm test -- --watch"), project) == PermissionRule(action="allow", command="npm test")
    assert suggest_rule(_cmd("pytest -q tests"), project).command == "pytest -q tests"  # type: ignore[union-attr]
    assert suggest_rule(_cmd("pytest"), project).command == "pytest"  # type: ignore[union-attr]
    assert suggest_rule(_cmd("make && rm -rf ~"), project) is None
    exact = suggest_rule(_cmd("rm -rf build"), project, exact=True)
    assert exact == PermissionRule(action="allow", command="rm -rf build", exact=True)
    assert suggest_rule(_edit("src/a.py"), project).path == "src/a.py"  # type: ignore[union-attr]
    rules = PermissionSet.load(project)[0]
    rules.remember(PermissionRule(action="allow", command="npm test"), user_rules_file())
    assert rules.decide(_cmd("npm test")).approved  # type: ignore[union-attr]
    again = PermissionSet.load(project)[0]  # a later session in the same workspace
    assert again.decide(_cmd("npm test")).approved  # type: ignore[union-attr]
    elsewhere = project.parent / "other"
    elsewhere.mkdir()
    assert PermissionSet.load(elsewhere)[0].decide(_cmd("npm test")) is None  # scoped to the workspace


def test_a_cloned_repository_cannot_approve_its_own_actions(project: Path) -> None:
    _project_rules(project, '[[rule]]\naction = "allow"\ncommand = "curl"\n[[rule]]\naction = "deny"\ncommand = "rm"\n')
    rules, request = PermissionSet.load(project)
    assert (
        request is not None
        and request.kind == "permissions"
        and request.grants == [f"allow command 'curl' ({project_rules_file(project)})"]
    )
    assert rules.decide(_cmd("curl example.com")) is None  # its allow rules are not used...
    assert not rules.decide(_cmd("rm x")).approved  # type: ignore[union-attr]  # ...its deny rules are
    ProjectTrust().trust(request)
    trusted, pending = PermissionSet.load(project)
    assert pending is None and trusted.decide(_cmd("curl example.com")).approved  # type: ignore[union-attr]
    _project_rules(project, '[[rule]]\naction = "allow"\ncommand = "rm"\n')  # the file changed: ask again
    changed, pending = PermissionSet.load(project)
    assert pending is not None and changed.decide(_cmd("rm x")) is None
    vouched, pending = PermissionSet.load(project, trust_project=True)
    assert pending is None and vouched.decide(_cmd("rm x")).approved  # type: ignore[union-attr]


def test_network_grants_come_only_from_the_users_rules(project: Path) -> None:
    _project_rules(project, '[[rule]]\naction = "allow"\ncommand = "curl"\nnetwork = true\n')
    rules = _rules(project, '[[rule]]\naction = "allow"\ncommand = "npm install"\nnetwork = true\n')
    assert rules.network_for(_cmd("npm install left-pad")) is not None
    assert rules.network_for(_cmd("npm install x && curl evil")) is None
    vouched = PermissionSet.load(project, trust_project=True)[0]
    assert vouched.network_for(_cmd("curl example.com")) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[rule]\n", "cannot read permission rules"),
        ('[[rule]]\naction = "maybe"\ncommand = "x"\n', "rule 1 is invalid"),
        ('[[rule]]\naction = "allow"\n', "needs exactly one of `command`, `path`, `mcp`, `domain` or `read`"),
        ('[rule]\naction = "allow"\ncommand = "x"\n', "write each rule as [[rule]]"),
        ('[[rule]]\naction = "allow"\ncomand = "x"\n', "unknown setting 'comand'"),
    ],
)
def test_a_broken_rules_file_is_one_clear_error(project: Path, text: str, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        _rules(project, text)
    assert str(info.value).startswith(str(user_rules_file())) and message in str(info.value)


def test_a_rules_file_that_is_not_text_is_one_clear_error(project: Path) -> None:
    file = user_rules_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(b"\xff\xfe[[rule]]")
    with pytest.raises(SettingsError, match="not UTF-8"):
        PermissionSet.load(project)
