"""`python -m openhands_tui`: the same program as `tui`.

Run this way, Python puts the current directory first on the import path, and the current
directory is usually the workspace, where the model writes files: a `pydantic.py` or `typer.py`
it made there would run inside `tui`, unconfined. So that entry goes before anything else is
imported (what `python -P` does); this package is already found by then.
"""

import os
import sys


def _without_the_current_directory(path: list[str]) -> None:
    try:
        here = os.getcwd()
    except OSError:  # deleted under the shell: nothing can be imported from it anyway
        here = None
    if path and path[0] in ("", ".", here):
        del path[0]


_without_the_current_directory(sys.path)

from openhands_tui.entry import main  # noqa: E402 - after the import path is made safe

if __name__ == "__main__":
    main()
