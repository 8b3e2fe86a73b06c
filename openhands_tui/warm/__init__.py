"""Warm start: a resident process that has already imported litellm and the app forks one
child per `tui` run, so a run starts in tens of milliseconds instead of seconds.

Opt-in (`tui warm`), because it keeps a ~200 MB process alive (until it has been idle for a
while). A run uses it only when the server was started from the same installation and the same
environment (`key.py`); otherwise the run starts cold, exactly as without it.
"""
