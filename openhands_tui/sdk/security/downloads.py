"""Code the same command line downloads and then runs (`curl -o a.sh URL && bash a.sh`,
`git clone URL r && cd r && npm install`): the file does not exist yet when the rules read the
line, so what it holds cannot be judged; running it is.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Invocation, words
from openhands_tui.sdk.security.paths import PathJudge
from openhands_tui.sdk.shell.syntax import SimpleCommand, Word

#: Programs whose working directory does not matter: run outside the workspace or in a fetched
#: directory, they read and run nothing of it.
PLACE_INDEPENDENT = frozenset(
    words("""
    echo printf true false pwd which type id whoami date cd sleep exit return test [ uname hostname
    command
""")
)
#: Programs whose first operand is code they run: a shell, an interpreter, `source`.
_RUNS_ITS_OPERAND = frozenset(
    words("""
    sh bash zsh dash ksh fish source . python python3 python2 pypy3 node nodejs deno bun ruby perl php
    lua tclsh Rscript julia pwsh
""")
)
#: Programs that only look at files: running them in a freshly cloned directory runs nothing of it.
_LOOKS_ONLY = frozenset(
    words("""
    ls cat head tail less more wc grep rg find tree du stat file diff jq git sed awk sort uniq cut
    tr nl xxd od md5sum sha256sum cp mv mkdir touch rm
""")
)

#: Programs whose output is what they fetched (`curl URL > a.sh`).
_DOWNLOADERS = frozenset({"curl", "wget", "http", "https", "xh", "aria2c", "fetch"})


def note_fetched_output(facts: dict[str, set[str]], command: SimpleCommand, target: str, cwd: str) -> None:
    """`curl -s URL > a.sh; bash a.sh`: what a downloader prints into a file is fetched code too."""
    if command.words and command.words[0].value.rsplit("/", 1)[-1] in _DOWNLOADERS:
        facts.setdefault("downloaded", set()).add(os.path.join(cwd, target))


def flag_runs_download(
    judge: PathJudge,
    flag: Callable[[Risk, str], None],
    facts: dict[str, set[str]],
    line_cwd: str,
    name_word: Word,
    inv: Invocation,
) -> None:
    """`curl -o a.sh URL && bash a.sh`, `git clone URL r && ./r/install.sh`: code fetched
    by this very command line runs unseen (the file does not exist yet to be read)."""
    downloaded = facts.get("downloaded")
    if not downloaded:
        return
    candidates = [name_word] if "/" in name_word.value else []
    if inv.name in _RUNS_ITS_OPERAND:
        candidates += [w for w in inv.args if w.static and not w.value.startswith("-")][:1]
    if inv.name not in PLACE_INDEPENDENT and inv.name not in _LOOKS_ONLY:
        candidates.append(Word("."))  # `cd repo && npm test` runs the fetched project's own scripts
    for word in candidates:
        resolved = judge.judge(word.value, inv.cwd).resolved
        for fetched in downloaded:
            if fetched == "*":
                hit = word.value != "." and judge.judge(resolved, inv.cwd).inside
            else:
                root = judge.judge(fetched, line_cwd).resolved
                hit = resolved == root or resolved.startswith(root + os.sep)
            if hit:
                flag(Risk.HIGH, f"{inv.name} runs code this same command downloaded ({word.value})")
                return
