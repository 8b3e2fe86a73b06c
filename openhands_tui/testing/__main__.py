"""`python -m openhands_tui.testing --script s.json`: run the scripted model server."""

from openhands_tui.testing.server import main

main()
