"""Waterfall: design, then code, then verify — each phase done by a fresh specialist.

When to use it: a well-specified feature or service (a REST API, a CLI command, a module)
where a short written design before coding saves rework. The root agent delegates the
design to `designer`, hands the design to `coder`, then checks the result itself (reads the
code, runs the tests) and reports.

    tui --strategy strategies/waterfall.py --param max_turns=12 --task "Build a REST API for todos"

Param `max_turns`: how many model calls each phase's agent may make. The implementation
ships inside the package (openhands_tui/builtin/waterfall.py) because `tui --demo` runs it.
"""

from openhands_tui.builtin.waterfall import Waterfall

__all__ = ["Waterfall"]
