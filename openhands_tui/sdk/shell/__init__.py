"""Shell text as bash would run it: the real parser, the words it evaluates, the environment a
command inherits."""
