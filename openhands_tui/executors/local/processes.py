"""The process tree as /proc shows it: what the shell and a job's guard started, found by
parent pid (also what left their process group with `setsid`)."""

from __future__ import annotations

import os


def descendants(root: int) -> list[int]:
    """Every process below `root`, also those that left its process group (`setsid cmd &`)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        for child in children.get(pid, []):
            found.append(child)
            frontier.append(child)
    return found
