"""Run a list of tasks headless, several at a time, each in its own copy of a repository: the
batch recipe of the README ("Many tasks at once"), kept here so the suite runs it.

    python tests/batch/batch.py TASKS.txt REPO OUT [--parallel 4] [-- TUI FLAGS...]

TASKS.txt holds one task per line (blank lines and `#` lines are skipped). For task N the
repository is copied to OUT/N/workspace (a local `git clone` when REPO is a git repository, a
copy otherwise), and `tui --headless --json --workspace OUT/N/workspace --task TASK FLAGS...`
runs there: its events go to OUT/N/events.jsonl, its messages to OUT/N/stderr.txt. Every run
shares one state folder (the user's, or `XDG_STATE_HOME`): `tui sessions` lists them all.

What it relies on from `tui`, tested in tests/batch/test_batch_recipe.py:
- the exit code: 0 finished, 1 an error mid-run, 2 bad input (nothing ran), 3 a limit reached
  or the agent stuck, 130 interrupted;
- `--json`: one event per line on stdout and nothing else; the root agent's last `status` event
  says how the run ended, and the root's `finish` observation holds its final message.

OUT/summary.jsonl gets one line per task: `{"n", "task", "exit_code", "status", "result",
"session"}`; the script exits 0 when every task finished, 1 otherwise. `TUI` (environment)
names the command to run, default `tui`.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any


def read_tasks(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def copy_repository(repo: Path, target: Path) -> None:
    if (repo / ".git").exists():
        subprocess.run(["git", "clone", "--quiet", "--local", str(repo), str(target)], check=True)
    else:
        shutil.copytree(repo, target, symlinks=True)


def outcome(events: Path) -> dict[str, Any]:
    """How the run ended, read from its JSON events: the root's last status, its final message,
    and the session id (every event names its agent; the root's id is `root`)."""
    status, result = "", ""
    for line in events.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("agent_id") != "root":
            continue
        if event.get("kind") == "status":
            status = event.get("status", "")
        elif event.get("kind") == "observation" and event.get("tool_name") == "finish":
            result = event.get("content", "")
    return {"status": status, "result": result}


def session_of(stderr: Path) -> str:
    """The session id from tui's last line (`finished · session ID (resume with: ...)`)."""
    for line in reversed(stderr.read_text(encoding="utf-8", errors="replace").splitlines()):
        words = line.split()
        if "session" in words and words.index("session") + 1 < len(words):
            return words[words.index("session") + 1]
    return ""


def run_one(number: int, task: str, repo: Path, out: Path, flags: list[str]) -> dict[str, Any]:
    folder = out / str(number)
    folder.mkdir(parents=True)
    workspace = folder / "workspace"
    copy_repository(repo, workspace)
    command = [*shlex.split(os.environ.get("TUI", "tui")), "--headless", "--json"]
    command += ["--workspace", str(workspace), "--task", task, *flags]
    with open(folder / "events.jsonl", "wb") as events, open(folder / "stderr.txt", "wb") as errors:
        code = subprocess.run(command, stdout=events, stderr=errors, stdin=subprocess.DEVNULL, check=False).returncode
    summary = {"n": number, "task": task, "exit_code": code, **outcome(folder / "events.jsonl")}
    summary["session"] = session_of(folder / "stderr.txt")
    return summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Run tasks headless side by side, each in its own copy of a repository."
    )
    parser.add_argument("tasks", type=Path)
    parser.add_argument("repo", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--parallel", type=int, default=4)
    own, flags = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    args = parser.parse_args(own)
    tasks = read_tasks(args.tasks)
    args.out.mkdir(parents=True, exist_ok=False)
    with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        futures = [pool.submit(run_one, n, task, args.repo, args.out, flags) for n, task in enumerate(tasks, 1)]
        summaries = [future.result() for future in futures]
    with open(args.out / "summary.jsonl", "w", encoding="utf-8") as summary:
        for line in summaries:
            summary.write(json.dumps(line) + "\n")
    finished = sum(1 for line in summaries if line["exit_code"] == 0)
    print(f"{finished} of {len(summaries)} tasks finished; see {args.out / 'summary.jsonl'}", file=sys.stderr)
    return 0 if finished == len(summaries) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
