"""openhands_tui: a terminal coding assistant with pluggable multi-agent strategies.

Kept empty on purpose: `tui --help` imports this package and must stay fast.
"""

__version__ = "0.1.0"
