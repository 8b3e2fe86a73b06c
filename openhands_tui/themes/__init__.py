"""Theme files for the app: every *.toml here is loaded as a Textual theme at start."""
