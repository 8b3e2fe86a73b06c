"""What checkpoints cost: the snapshot taken before each user turn, on a given folder (default:
this repository, read only: the shadow repository is written to a temporary state folder) and
on a generated workspace of 10,000 files.

For each: the first snapshot (every file hashed), one with nothing changed (the usual turn: git
compares sizes and times only), a new session's first (it starts from the workspace's last
index), one after 10 files changed, and a restore of the first (10 files rewritten). The
median of `rounds` runs of each, in milliseconds. A turn's snapshot runs beside the model's
first call, so what a user waits for is at most what it takes beyond that call; these are the
full costs.

Usage: python tests/bench/bench_checkpoints.py [rounds] [folder]   (default: 5, this repository)
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from openhands_tui.sdk.timeline.shadow_repo import ShadowRepo


def _generated(root: Path, files: int = 10_000) -> Path:
    workspace = root / "generated"
    for index in range(files):
        folder = workspace / f"pkg{index // 100:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"module{index % 100:03d}.py").write_text(f"VALUE = {index}\n" + "# filler line\n" * 40)
    return workspace


def _measure(workspace: Path, rounds: int, changeable: list[Path]) -> dict[str, float]:
    times: dict[str, list[float]] = {"first": [], "unchanged": [], "new session": [], "10 changed": [], "restore": []}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as state:
            repo = ShadowRepo(Path(state) / "shadow", workspace, Path(state) / "index")
            started = time.perf_counter()
            first = repo.snapshot()
            times["first"].append(time.perf_counter() - started)
            assert first.tree, first.problem
            started = time.perf_counter()
            repo.snapshot()
            times["unchanged"].append(time.perf_counter() - started)
            started = time.perf_counter()
            ShadowRepo(repo.repository, workspace, Path(state) / "index-2").snapshot()
            times["new session"].append(time.perf_counter() - started)
            originals = {path: path.read_bytes() for path in changeable}
            try:
                for path in changeable:
                    path.write_bytes(originals[path] + b"# changed\n")
                started = time.perf_counter()
                repo.snapshot()
                times["10 changed"].append(time.perf_counter() - started)
                started = time.perf_counter()
                restored = repo.restore(first.tree)
                times["restore"].append(time.perf_counter() - started)
                assert not restored.problem, restored.problem
            finally:
                for path, data in originals.items():
                    path.write_bytes(data)
    return {name: statistics.median(values) * 1000 for name, values in times.items()}


def _report(label: str, workspace: Path, figures: dict[str, float]) -> None:
    files = sum(len(names) for _, _, names in os.walk(workspace))
    row = "  ".join(f"{name} {value:7.1f} ms" for name, value in figures.items())
    print(f"{label:<34} {files:>6} files  {row}")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    given = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[2]
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, median of {rounds} rounds")
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "copy"  # a copy: the bench changes 10 files and puts them back
        shutil.copytree(given, copy, symlinks=True, ignore=shutil.ignore_patterns(".venv", ".git", "node_modules"))
        python = sorted(copy.rglob("*.py"))[:10]
        _report(f"{given.name} (copy)", copy, _measure(copy, rounds, python))
        generated = _generated(Path(scratch))
        _report("generated", generated, _measure(generated, rounds, sorted(generated.rglob("*.py"))[:10]))


if __name__ == "__main__":
    main()
