"""Running agents: the conversation, the loop, one agent's steps, its actions and approvals,
delegation, and every way a run ends."""
