"""What finding the sandbox's protected paths costs per look (it looks before every command,
which also says whether the jail is stale, and after it): a real project, a wide tree of
8,400 directories three levels deep where the nested-repository scan hits its budget, and a
flat workspace of 100,000 files (each of the 81 protected patterns once compared itself with
every name: 0.4 s a look).

Usage: python tests/bench/bench_protected_scan.py [project] [runs]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _common import describe

from openhands_tui.jail.git_state import nested_repositories_state
from openhands_tui.jail.protected import ProtectedPaths


def _measure(label: str, workspace: Path, runs: int) -> None:
    protected = ProtectedPaths(workspace)
    for name, look in (
        ("nested-repository scan", lambda: nested_repositories_state(workspace)),
        ("snapshot", protected.snapshot),
    ):
        look()
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            found = look()
            times.append((time.perf_counter() - started) * 1000)
        print(f"{label}: {name}: {describe(times, 'ms')} ({len(found)} paths)")


def main() -> None:
    project = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    _measure(f"project {project.name}", project, runs)
    with tempfile.TemporaryDirectory() as scratch:
        wide = Path(scratch)
        for a in range(20):
            for b in range(20):
                for c in range(20):
                    (wide / f"a{a}" / f"b{b}" / f"c{c}").mkdir(parents=True)
        (wide / "a1" / "b1" / ".git" / "hooks").mkdir(parents=True)
        _measure("wide tree (8,420 directories)", wide, runs)
    with tempfile.TemporaryDirectory() as scratch:
        flat = Path(scratch)
        for n in range(100_000):
            (flat / f"f{n}.txt").touch()
        _measure("flat workspace (100,000 files)", flat, max(3, runs // 5))


if __name__ == "__main__":
    main()
