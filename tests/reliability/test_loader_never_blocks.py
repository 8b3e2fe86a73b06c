"""A FIFO (or any file that blocks a reader) wherever the context loader looks must not hang the
session's start: it is skipped with a warning. The loader's own tables name the places (the same
list the protection test uses), so a format added later is covered without anyone remembering. A
`notes.md` FIFO in a skill's subfolder once hung `tui` for good."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from openhands_tui.sdk.context.loader import load_microagents
from tests.security.test_what_the_loader_reads_is_protected import _read_by_the_loader


def _fifos_everywhere_the_loader_reads(workspace: Path) -> list[Path]:
    made = []
    for place in _read_by_the_loader():
        if place.endswith("/"):
            folder = workspace / place
            names = ["notes.md", "x/notes.md", "x/deeper/notes.md", "y/SKILL.md", "z.toml", "z.mdc"]
            targets = [folder / name for name in names]
        else:
            targets = [workspace / place, workspace / "packages" / "web" / place]
        for target in targets:
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.mkfifo(target)
                made.append(target)
    return made


def test_fifos_wherever_the_loader_reads_do_not_block_the_start(workspace: Path, isolated_home: Path) -> None:
    fifos = _fifos_everywhere_the_loader_reads(workspace)
    assert len(fifos) > 50
    result: list[object] = []
    loading = threading.Thread(
        target=lambda: result.append(load_microagents(workspace, home=isolated_home)), daemon=True
    )
    loading.start()
    loading.join(timeout=30)
    try:
        assert not loading.is_alive(), "the loader is blocked opening a FIFO"
        assert result, "the loader failed"
    finally:
        for fifo in fifos:  # let a blocked reader go (it sees end of file), so nothing hangs the suite
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
