"""Which task answers a typed `/name`, and which names more than one task claims.

A task is named by its file (`.claude/commands/deploy.md` is `deploy`) and may also answer other
commands: a plugin's `plugin:deploy` answers `/deploy` too, as Claude Code lets it "when nothing
nearer has the name". So a task *named* `deploy` comes first, whatever order the files were
loaded in (the session's plugins are loaded before the workspace's files); then tasks that only
answer to it, in load order. Where several answer one name, the first runs and the session says
so once (`clashes`), with the names that pick each: nothing wins silently.
"""

from __future__ import annotations

from collections.abc import Iterable

from openhands_tui.sdk.context.skill import Skill


def command_owners(name: str, tasks: Iterable[Skill]) -> list[Skill]:
    """The tasks that answer `/name`, the one that runs first."""
    command = f"/{name}".lower()
    tasks = list(tasks)
    named = [task for task in tasks if task.name == name]
    answering = [task for task in tasks if task.name != name and command in (c.lower() for c in task.commands())]
    return named + answering


def clashes(tasks: Iterable[Skill]) -> list[str]:
    """One line for each bare `/name` that more than one task answers."""
    tasks = [task for task in tasks if task.type == "task"]
    names = {task.name for task in tasks if ":" not in task.name}
    names |= {c[1:] for task in tasks for c in task.commands() if ":" not in c}
    said = []
    for name in sorted(names):
        owners = command_owners(name, tasks)
        if len(owners) < 2:
            continue
        each = ", ".join(f"/{owner.name}" for owner in owners if owner.name != name)
        said.append(
            f"/{name} is defined by {', '.join(_where(owner) for owner in owners)}: it runs the first"
            + (f"; the others run as {each}" if each else "")
        )
    return said


def _where(task: Skill) -> str:
    return f"{task.name} ({task.source})"
