"""What happened, as data: the events, what an action touches, the session log on disk, and the
delegation tree rebuilt from events."""
