"""`tui export`: a stored session written out as Markdown, HTML or JSON, to read or share
without the app.

Engine-free and UI-free: it reads events (`sdk/facts`), folds them as the app does (the
delegation tree of `sdk/facts/tree.py`, the history after rewinds of `sdk/timeline/history.py`)
and renders text. `collect.py` builds one model of the session (`model.py`, its entries made by
`entries.py`) that every format renders, with every string already redacted, so no renderer can
let a secret through by forgetting to.
"""
