"""Which bash the agent's shell runs: found once, by absolute path.

`tui` started with an odd PATH (empty, a project's own `bin` only, a stripped service
environment) would otherwise have no shell at all, and bubblewrap, which looks its command up
in the same PATH, could not even be probed. The usual places are tried after PATH, and the
jail runs the very binary that was found, so what the probe proved is what commands get.
"""

from __future__ import annotations

import os
import shutil
from functools import lru_cache

_USUAL_PLACES = ("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/run/current-system/sw/bin/bash")


@lru_cache(maxsize=1)
def bash_binary() -> str:
    """The absolute path of bash, or plain `bash` (whose failure then names what is missing)."""
    found = shutil.which("bash")
    if found:
        return os.path.abspath(found)
    return next((place for place in _USUAL_PLACES if os.access(place, os.X_OK)), "bash")
