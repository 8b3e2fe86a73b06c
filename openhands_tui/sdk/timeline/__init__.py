"""Moving a session through its own history: checkpoints of the workspace, rewind, fork."""
