"""Reading and writing the user's own files safely: bounded reads (and TOML files read through
them), atomic private writes, the XDG folders, how deep tui looks, and the git tui runs for itself."""
