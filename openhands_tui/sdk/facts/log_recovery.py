"""Going on from a session log damaged in the middle (`tui --resume ID --recover`).

A zeroed page or a flipped byte before the last line used to refuse the whole session, though
every event before the damage was intact. Recovering keeps those events as the log and sets
the whole damaged file aside beside it, byte for byte, so nothing is lost: what was left out
can still be read (or mended by hand) from the copy the warning names.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from openhands_tui.sdk.files.private import replace_privately


def recover_damaged(path: Path, data: bytes, good_end: int, line: int, why: str) -> str:
    """Keep `data[:good_end]` (the whole lines before damaged `line`) as the log at `path`, the
    damaged log in a file beside it; return the warning that says what was left out."""
    aside = path.with_name(f"{path.name}.damaged-{datetime.now():%Y%m%d-%H%M%S-%f}")
    os.link(path, aside)  # the damaged log, untouched, under a name of its own
    kept = data[:good_end]
    replace_privately(path, kept if kept.endswith(b"\n") or not kept else kept + b"\n")
    left_out = data[good_end:].count(b"\n") + (0 if data.endswith(b"\n") else 1)
    return (
        f"{path}: line {line} is damaged ({why}); went on from the events before it, leaving out "
        f"{left_out} lines from there on (the damaged log is kept whole in {aside.name})"
    )
