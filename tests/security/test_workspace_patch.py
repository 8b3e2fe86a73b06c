"""The patch critics judge is made without running anything the repository names.

A workspace can arrive with a `.git/config` whose filter and textconv drivers are programs
that `git diff` would run, unconfined, as `tui`; the patch must not run them, must not touch
the user's index, and must not follow a link out of the workspace.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from openhands_tui.sdk.files.workspace_diff import workspace_patch


def _git(workspace: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(workspace), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True)


def test_the_patch_never_runs_the_repositorys_filter_or_textconv_programs(workspace: Path, tmp_path: Path) -> None:
    _git(workspace, "init", "-q")
    (workspace / "f.txt").write_text("a\n")
    _git(workspace, "add", "f.txt")
    _git(workspace, "commit", "-qm", "one")
    marker = tmp_path / "ran"
    (workspace / ".gitattributes").write_text("* filter=evil diff=evil\n")
    for key in ("filter.evil.clean", "filter.evil.smudge", "filter.evil.process", "diff.evil.textconv"):
        _git(workspace, "config", key, f"touch {marker}; cat")
    (workspace / "f.txt").write_text("a\nb\n")
    patch = workspace_patch(workspace)
    assert patch.available, patch.problem
    assert "+b" in patch.text
    assert not marker.exists(), "a program the repository's config names was run"


def test_the_patch_shows_new_files_but_not_through_links_and_leaves_the_index_alone(
    workspace: Path, tmp_path: Path
) -> None:
    _git(workspace, "init", "-q")
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n")
    (workspace / "new.py").write_text("print('hi')\n")
    (workspace / "link").symlink_to(secret)
    index = workspace / ".git" / "index"
    before = index.read_bytes() if index.exists() else None
    patch = workspace_patch(workspace)
    assert "+++ b/new.py" in patch.text and "+print('hi')" in patch.text
    assert "TOP SECRET" not in patch.text
    assert (index.read_bytes() if index.exists() else None) == before


def test_a_folder_that_is_not_a_repository_has_no_patch_and_says_why(workspace: Path) -> None:
    patch = workspace_patch(workspace)
    assert not patch.available and "not a git repository" in patch.problem


def test_a_filter_whose_name_holds_an_equals_sign_is_neutral_too(workspace: Path, tmp_path: Path) -> None:
    _git(workspace, "init", "-q")
    (workspace / "f.txt").write_text("a\n")
    _git(workspace, "add", "f.txt")
    _git(workspace, "commit", "-qm", "one")
    marker = tmp_path / "ran"
    (workspace / ".gitattributes").write_text("* filter=x=y\n")
    _git(workspace, "config", "filter.x=y.clean", f"touch {marker}; cat")
    (workspace / "f.txt").write_text("a\nb\n")
    assert "+b" in workspace_patch(workspace).text
    assert not marker.exists()


def test_a_repository_whose_work_tree_is_elsewhere_has_no_patch(workspace: Path) -> None:
    _git(workspace, "init", "-q")
    _git(workspace, "config", "core.worktree", "/")
    patch = workspace_patch(workspace)
    assert not patch.available and "core.worktree" in patch.problem


def test_a_workspace_inside_a_bigger_repository_sees_only_its_own_changes(tmp_path: Path) -> None:
    repo = tmp_path / "mono"
    (repo / "packages" / "web").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "outside.env").write_text("token=old\n")
    (repo / "packages" / "web" / "app.py").write_text("x = 1\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    (repo / "outside.env").write_text("token=NEW-SECRET\n")
    (repo / "stray.txt").write_text("not ours\n")
    (repo / "packages" / "web" / "app.py").write_text("x = 2\n")
    (repo / "packages" / "web" / "new.py").write_text("y = 1\n")
    patch = workspace_patch(repo / "packages" / "web")
    assert "+x = 2" in patch.text and "+++ b/new.py" in patch.text
    assert "NEW-SECRET" not in patch.text and "stray" not in patch.text
