"""Large repositories: what the editor reads must stay bounded however the workspace is shaped.
A file of one enormous line (a minified dump, a binary without a newline) viewed by range was
read whole into memory before being cut to 30,000 characters."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

from openhands_tui.tools.file_editor.editor import MAX_VIEW_CHARS, FileEditor


def test_a_range_of_a_file_of_one_huge_line_reads_only_what_it_shows(workspace: Path) -> None:
    huge = workspace / "dump.min.json"
    with open(huge, "wb") as handle:  # 200 MB of one line, sparse: no disk is used
        handle.truncate(200 * 1024 * 1024)
    with open(huge, "r+b") as handle:
        handle.seek(0, os.SEEK_END)
        handle.write(b"\nsecond line\n")
    editor = FileEditor(workspace)
    tracemalloc.start()
    try:
        first = editor.view(str(huge), [1, 1]).text
        second = editor.view(str(huge), [2, -1]).text
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        editor.close()
    assert peak < 10 * 1024 * 1024, f"{peak:,} bytes held to show {len(first):,} characters"
    assert first.startswith(f"{huge} lines 1-1 of 2\n")
    assert "[... rest of this line not shown ...]" in first
    assert MAX_VIEW_CHARS <= len(first) < MAX_VIEW_CHARS + 500
    assert second.endswith("     2\tsecond line")
