"""`tui acp`: the Agent Client Protocol front end (editors drive our strategies)."""
