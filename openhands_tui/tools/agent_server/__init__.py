"""An OpenHands agent-server as the terminal and the file editor reach it: its REST API and an
emulated persistent shell (the tools themselves: terminal/remote.py, file_editor/remote.py)."""
