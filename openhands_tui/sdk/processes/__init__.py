"""The processes tui starts outside the jail, and how they are tied to its lifetime."""
