"""The shadow repository behind checkpoints: restores are byte-exact whatever the workspace's
git attributes say, nothing the workspace or the user's git config names is run, a symlink
planted where a folder was cannot steer a restore outside the workspace, and what is too big
or not ours (a nested repository) is left out and said."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from openhands_tui.sdk.timeline import shadow_repo
from openhands_tui.sdk.timeline.shadow_repo import ShadowRepo


@pytest.fixture
def repo(tmp_path: Path) -> ShadowRepo:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    return ShadowRepo(tmp_path / "state" / "shadow", workspace, tmp_path / "state" / "index")


def _tree(workspace: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(workspace)): p.read_bytes()
        for p in sorted(workspace.rglob("*"))
        if p.is_file() and not p.is_symlink() and ".git" not in p.relative_to(workspace).parts
    }


def test_a_restore_gives_back_the_exact_bytes_whatever_gitattributes_ask(repo: ShadowRepo) -> None:
    workspace = repo.workspace
    (workspace / ".gitattributes").write_text("* text eol=crlf\n*.txt working-tree-encoding=UTF-16\n")
    (workspace / "unix.txt").write_bytes(b"one\ntwo\n")
    (workspace / "dos.md").write_bytes(b"a\r\nb\r\n")
    (workspace / "mixed.py").write_bytes(b"x\r\ny\nz")
    (workspace / "binary").write_bytes(bytes(range(256)))
    before = _tree(workspace)
    kept = repo.snapshot()
    assert kept.tree and not kept.problem and kept.files == 5
    for path in ("unix.txt", "dos.md", "mixed.py", "binary"):
        (workspace / path).write_bytes(b"changed")
    restored = repo.restore(kept.tree)
    assert not restored.problem and _tree(workspace) == before


def test_no_program_named_by_the_workspace_or_the_users_git_config_runs(
    repo: ShadowRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    home = tmp_path / "home"
    (home / ".config" / "git").mkdir(parents=True)
    hostile = (
        f'[filter "evil"]\n\tclean = touch {marker}\n\tsmudge = touch {marker}\n[core]\n\tfsmonitor = touch {marker}\n'
    )
    (home / ".gitconfig").write_text(hostile)
    (home / ".config" / "git" / "config").write_text(hostile)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    workspace = repo.workspace
    (workspace / ".gitattributes").write_text("* filter=evil\n")
    (workspace / "a.py").write_text("print(1)\n")
    kept = repo.snapshot()
    (workspace / "a.py").write_text("print(2)\n")
    repo.restore(kept.tree)
    assert (workspace / "a.py").read_text() == "print(1)\n"
    assert not marker.exists()


def test_a_symlink_planted_where_a_folder_was_cannot_carry_a_restore_outside(repo: ShadowRepo, tmp_path: Path) -> None:
    workspace, outside = repo.workspace, tmp_path / "outside"
    outside.mkdir()
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("kept\n")
    kept = repo.snapshot()
    (workspace / "src" / "app.py").unlink()
    (workspace / "src").rmdir()
    (workspace / "src").symlink_to(outside)  # what a hostile command could leave behind
    restored = repo.restore(kept.tree)
    assert not restored.problem
    assert not (workspace / "src").is_symlink() and (workspace / "src" / "app.py").read_text() == "kept\n"
    assert list(outside.iterdir()) == []


def test_what_is_too_big_or_a_repository_of_its_own_is_left_out_and_said(
    repo: ShadowRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shadow_repo, "MAX_FILE_BYTES", 1000)
    workspace = repo.workspace
    (workspace / "big.bin").write_bytes(b"x" * 5000)
    (workspace / "small.txt").write_text("s\n")
    subprocess.run(["git", "init", "-q", str(workspace / "vendored")], check=True)
    (workspace / "vendored" / "lib.py").write_text("v\n")
    kept = repo.snapshot()
    assert kept.files == 1
    assert any(s.startswith("big.bin (") and "over" in s for s in kept.skipped)
    assert "vendored/ (a nested git repository)" in kept.skipped
    (workspace / "big.bin").write_bytes(b"y" * 5000)
    (workspace / "small.txt").write_text("changed\n")
    repo.restore(kept.tree)
    assert (workspace / "big.bin").read_bytes() == b"y" * 5000  # never kept, so never touched
    assert (workspace / "small.txt").read_text() == "s\n" and (workspace / "vendored" / "lib.py").exists()


def test_the_users_own_repository_is_never_written(repo: ShadowRepo) -> None:
    workspace = repo.workspace
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "a.txt").write_text("a\n")
    git = ["git", "-C", str(workspace), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "a.txt"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    dot_git = {str(p): p.stat().st_mtime_ns for p in (workspace / ".git").rglob("*") if p.is_file()}
    kept = repo.snapshot()
    (workspace / "a.txt").write_text("b\n")
    (workspace / "new.txt").write_text("n\n")
    repo.restore(kept.tree)
    assert {str(p): p.stat().st_mtime_ns for p in (workspace / ".git").rglob("*") if p.is_file()} == dot_git
    assert not (workspace / "new.txt").exists() and (workspace / "a.txt").read_text() == "a\n"


def test_a_restore_can_be_undone_with_the_snapshot_it_took_first(repo: ShadowRepo) -> None:
    workspace = repo.workspace
    (workspace / "a.txt").write_text("first\n")
    kept = repo.snapshot()
    (workspace / "a.txt").write_text("second\n")
    (workspace / "deep" / "er").mkdir(parents=True)
    (workspace / "deep" / "er" / "b.txt").write_text("b\n")
    restored = repo.restore(kept.tree)
    assert sorted(restored.changed) == ["D deep/er/b.txt", "M a.txt"]
    assert not (workspace / "deep").exists()  # folders emptied by the restore go too
    repo.restore(restored.before.tree)
    assert (workspace / "a.txt").read_text() == "second\n" and (workspace / "deep" / "er" / "b.txt").exists()


def test_checkpoints_are_kept_private_to_the_user(repo: ShadowRepo) -> None:
    (repo.workspace / ".env").write_text("TOKEN=secret\n")
    assert repo.snapshot().tree
    assert os.stat(repo.repository).st_mode & 0o077 == 0


def test_a_new_sessions_first_checkpoint_starts_from_the_last_and_still_sees_every_change(
    repo: ShadowRepo, tmp_path: Path
) -> None:
    workspace = repo.workspace
    (workspace / "a.txt").write_text("aaaa\n")
    first = repo.snapshot()
    (workspace / "a.txt").write_text("bbbb\n")  # same size, same second: only its content tells
    later = ShadowRepo(repo.repository, workspace, tmp_path / "another-session-index")
    second = later.snapshot()
    assert second.tree and second.tree != first.tree
    (workspace / "a.txt").write_text("cccc\n")
    later.restore(first.tree)
    assert (workspace / "a.txt").read_text() == "aaaa\n"


def test_an_ignored_symlink_in_place_of_a_kept_folder_is_replaced_not_followed(
    repo: ShadowRepo, tmp_path: Path
) -> None:
    workspace, outside = repo.workspace, tmp_path / "elsewhere"
    outside.mkdir()
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("kept\n")
    kept = repo.snapshot()
    (workspace / ".gitignore").write_text("src\n")  # the link itself is then never snapshotted
    (workspace / "src" / "app.py").unlink()
    (workspace / "src").rmdir()
    (workspace / "src").symlink_to(outside)
    restored = repo.restore(kept.tree)
    assert not restored.problem, restored.problem
    assert (workspace / "src" / "app.py").read_text() == "kept\n" and not (workspace / "src").is_symlink()
    assert list(outside.iterdir()) == []
