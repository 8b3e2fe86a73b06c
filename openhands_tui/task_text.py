"""The task given on the command line: `--task TEXT`, `--task -` (standard input) or
`--task-file PATH`, read as UTF-8 with a size limit; each problem is one line naming the flag."""

from __future__ import annotations

import sys
from pathlib import Path

from openhands_tui.sdk.limits import MAX_INPUT_BYTES as MAX_TASK_BYTES  # the one bound on what comes in


def task_text(task: str | None, task_file: Path | None) -> str | None:
    """The task from `--task TEXT`, `--task -` (standard input) or `--task-file PATH`: UTF-8
    text from a regular file or a stream, at most MAX_TASK_BYTES."""
    from openhands_tui.sdk.errors import SettingsError
    from openhands_tui.sdk.files.read import read_regular, read_stream

    if task is not None and task_file is not None:
        raise SettingsError("--task and --task-file: give the task one way")
    if task == "-":
        try:
            text = read_stream(sys.stdin.buffer, MAX_TASK_BYTES, "standard input").decode("utf-8")
        except UnicodeDecodeError:
            raise SettingsError("--task -: standard input is not UTF-8 text") from None
        except OSError as exc:
            raise SettingsError(f"--task -: {exc.strerror or exc}") from None
        if not text.strip():
            raise SettingsError("--task -: standard input was empty")
        return text
    if task_file is not None:
        try:
            text = read_regular(task_file, MAX_TASK_BYTES).decode("utf-8")
        except UnicodeDecodeError:
            raise SettingsError(f"--task-file {task_file}: not UTF-8 text") from None
        except OSError as exc:
            raise SettingsError(f"--task-file {task_file}: {exc.strerror or exc}") from None
        if not text.strip():
            raise SettingsError(f"--task-file {task_file}: the file is empty")
        return text
    if task is not None and len(task.encode("utf-8", "surrogatepass")) > MAX_TASK_BYTES:
        raise SettingsError(f"--task: more than the {MAX_TASK_BYTES:,}-byte limit; nothing was started")
    return task
