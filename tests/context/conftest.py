"""A workspace holding every microagent format, plus broken files and a shadowed name."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.context.loader import LoadedMicroagents
from openhands_tui.sdk.context.tasks import find_task_command


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def load(workspace: Path, home: Path | None = None) -> LoadedMicroagents:
    """What the loader finds for `workspace`, without the built-in skills; no home unless given."""
    return load_microagents(workspace, home=home or workspace / "no-home", include_builtin=False)


def skill_md(root: Path, folder: str, header: str, body: str = "Body.\n", where: str = ".agents/skills") -> Path:
    """A SKILL.md with frontmatter `header` in `root/where/folder/`."""
    return write(root / where / folder / "SKILL.md", f"---\n{header}---\n{body}")


def sent(loaded: LoadedMicroagents, message: str) -> str:
    """What the model is sent for the slash command `message` (it must be one)."""
    command = find_task_command(message, loaded)
    assert command is not None, message
    return command.render({})


@pytest.fixture
def microagent_workspace(workspace: Path, isolated_home: Path) -> Path:
    m = workspace / ".openhands" / "microagents"
    write(m / "repo.md", "Run `make check` before committing.\n")
    write(m / "README.md", "This directory holds our microagents.\n")
    write(m / "knowledge" / "deploy.md", "---\ntriggers: [deploy, release]\n---\nDeploy with `make ship`.\n")
    write(
        m / "tasks" / "fix_issue.md",
        (
            "---\nname: fix_issue\ntype: task\ninputs:\n  - name: issue\n    description: issue number\n---\n"
            "Fix issue #${issue} on branch ${branch}. Add a regression test.\n"
        ),
    )
    write(m / "docker.md", "---\nname: docker\ntriggers: [docker]\n---\nOur own docker rules: use compose v2.\n")
    write(m / "broken.md", "---\ntriggers: [a, b\n---\nbody\n")
    write(m / "wrongtype.md", "---\ntriggers: 5\n---\nbody\n")
    write(m / "listy.md", "---\n- a\n- b\n---\nbody\n")
    write(m / "empty.md", "---\ntriggers: [x]\n---\n\n")
    write(m / "huge.md", "x" * 300_000)
    write(m / "long.md", "---\ntriggers: [longread]\n---\n" + "word " * 6000)
    write(workspace / ".openhands" / "skills" / "lint.md", "---\ntriggers: [lint]\n---\nRun `ruff check`.\n")
    write(
        workspace / ".agents" / "skills" / "pdf-tools" / "SKILL.md",
        "---\nname: pdf-tools\ndescription: Work with PDF files\n---\nUse pdftotext for text.\n",
    )
    write(workspace / ".agents" / "skills" / "pdf-tools" / "reference.md", "extra resource, not a microagent\n")
    write(workspace / "AGENTS.md", "Project uses tabs.\n")
    write(workspace / "CLAUDE.md", "Prefer small commits.\n")
    write(workspace / "GEMINI.md", "Answer briefly.\n")
    write(workspace / ".cursorrules", "No semicolons.\n")
    write(
        isolated_home / ".openhands" / "microagents" / "personal.md",
        "---\ntriggers: [personal]\n---\nThe user likes short answers.\n",
    )
    write(
        isolated_home / ".agents" / "skills" / "notes" / "SKILL.md",
        "---\nname: notes\ndescription: note taking\ntriggers: [notes]\n---\nKeep notes in NOTES.md.\n",
    )
    return workspace
