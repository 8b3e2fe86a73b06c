"""The package.json scripts npm runs by itself (on install, pack, publish): a change to one is
persistence for every later `npm install`, the user's own included, outside the sandbox. One
list for the three places that judge such a change: the file editor's edit, `npm pkg set`, and
a command line that writes package.json with the script's text in it."""

from __future__ import annotations

import re

LIFECYCLE_SCRIPTS = (
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "preprepare",
    "postprepare",
    "prepack",
    "postpack",
    "prepublish",
    "prepublishOnly",
)
_NAMES = "|".join(LIFECYCLE_SCRIPTS)
#: As a JSON document holds it: `"postinstall": ...`.
IN_JSON = re.compile(rf'"({_NAMES})"\s*:')
#: As a command line shows it: a JSON key, its quotes perhaps escaped (`echo "{\"postinstall\": ...}"`),
#: or a path to it (`jq '.scripts.postinstall = ...'`, `d["scripts"]["prepare"] = ...` in inline code).
IN_COMMAND = re.compile(rf"""\\?["']({_NAMES})\\?["']\s*:|scripts\W{{1,5}}({_NAMES})\b""")
