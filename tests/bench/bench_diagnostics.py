"""What diagnostics cost an edit: the file editor's change alone, and with the language server's
answer (basedpyright, in the jail as a session runs it): the first edit (the server starts) and
later ones (the server has the file open).

Usage: python tests/bench/bench_diagnostics.py [edits]   (default 10)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from openhands_tui.lsp.diagnostics import EditDiagnostics
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.tools.file_editor.editor import FileEditor


async def main(edits: int) -> None:
    workspace = Path(tempfile.mkdtemp())
    notices: list[str] = []
    diagnostics = EditDiagnostics(workspace, SandboxPolicy(), TrustedFiles(), {}, notices.append)
    editor = FileEditor(workspace)
    path = workspace / "prices.py"
    editor.create(str(path), "def total(x: int) -> int:\n    return x\n")
    plain, with_answer = [], []
    started = time.perf_counter()
    first = await diagnostics.after_edit(path, path.read_text())
    first_ms = (time.perf_counter() - started) * 1000
    for n in range(edits):
        new = f'return x + "{n}"' if n % 2 == 0 else f"return x + {n}"
        old = path.read_text().splitlines()[1].strip()
        started = time.perf_counter()
        editor.str_replace(str(path), old, new)
        plain.append((time.perf_counter() - started) * 1000)
        said = await diagnostics.after_edit(path, path.read_text())
        with_answer.append((time.perf_counter() - started) * 1000)
        assert ("error" in said) == (n % 2 == 0), said
    await diagnostics.aclose()
    load = os.getloadavg()
    print(f"first edit (server starts): {first_ms:.0f} ms  {first or '(no errors)'}")
    print(f"edit alone: median {statistics.median(plain):.2f} ms")
    print(f"edit + diagnostics: median {statistics.median(with_answer):.0f} ms, max {max(with_answer):.0f} ms")
    print(f"({edits} edits; load {load[0]:.2f} {load[1]:.2f}; notices: {notices or 'none'})")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10))
