"""Rules for programs that run other code: privilege wrappers (`sudo`), plain wrappers (`env`,
`timeout`, `xargs`...), shells, `source`/`eval`, and interpreters with inline code.

Wrappers hand the wrapped command back to the analysis, so wrapping can only add risk. Code
is followed wherever it can be seen (`bash -c`, heredocs, `python -c`, script files); code
that arrives on a pipe or is produced at run time cannot be seen, and is HIGH.
"""

from __future__ import annotations

import os
from itertools import dropwhile

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.files.read import read_head
from openhands_tui.sdk.security.interpreter_rules import (
    PYTHONS,
    SCRIPT_LANGUAGES,
    STDIN_PATHS,
    runs_unseen_code,
)
from openhands_tui.sdk.security.invocation import XARGS_INPUT, Analysis, Handler, Invocation, note_placeholder, words
from openhands_tui.sdk.security.searches import prints_environment
from openhands_tui.sdk.shell.syntax import Word

SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "csh", "tcsh", "yash", "posh"}


def privileged(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} runs a command with elevated privileges")
    takes = frozenset({"-u", "-g", "-p", "-C", "-D", "-h", "-r", "-t", "-U", "--user", "--group"})
    inner = inv.command_words(takes)
    if inner:
        a.nested_invocation(inner, inv)


def su(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} switches to another user (usually root)")
    values = inv.values
    if "-c" in values and values.index("-c") + 1 < len(values):
        code = inv.args[values.index("-c") + 1]
        a.nested_shell(code.value, inv.cwd, f"{inv.name} -c") if code.static else None


WRAPPER_VALUE_FLAGS = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir"}),
    "exec": frozenset({"-a"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "watch": frozenset({"-n", "--interval", "-d"}),
    "taskset": frozenset(),
    "flock": frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}),
    "chrt": frozenset(),
    "xargs": frozenset(
        frozenset(
            words("""
            -I -L -n -P -d -E -s -a --max-args --max-procs --delimiter --arg-file -i
        """)
        )
    ),
}


def _in_env_directory(a: Analysis, inv: Invocation) -> Invocation:
    """`env -C dir cmd` runs cmd in dir: what it writes is judged from there (`env -C .git/hooks
    sh -c 'echo x > pre-commit'` writes a hook)."""
    for index, arg in enumerate(inv.args):
        value = arg.value
        if value in ("-C", "--chdir") and index + 1 < len(inv.args):
            target = inv.args[index + 1]
        elif value.startswith("--chdir="):
            target = Word(value.split("=", 1)[1], static=arg.static)
        elif value.startswith("-C") and len(value) > 2:
            target = Word(value[2:], static=arg.static)
        else:
            continue
        if not target.static:
            a.flag(Risk.MEDIUM, f"env runs the command in a directory known only at run time ({target.value})")
            return inv
        directory = os.path.normpath(os.path.join(inv.cwd, target.value))
        return Invocation(inv.name, inv.args, inv.command, directory, inv.pipeline)
    return inv


#: Programs that destroy their operands for good (no git checkout brings them back): through
#: xargs, which names they get is unseen.
_DESTROYS_ITS_OPERANDS = frozenset(words("shred truncate dd wipe srm"))


def wrapper(a: Analysis, inv: Invocation) -> None:
    """`env`, `timeout`, `nice`, `nohup`, `command`, `exec`, `xargs`... run their operand."""
    if inv.name == "command" and inv.has("-v", "-V"):
        return
    if inv.name == "systemd-run":
        a.flag(
            Risk.HIGH,
            "systemd-run hands the command to the service manager: it runs outside this session and its "
            "sandbox, and can stay behind as a service or timer (persistence)",
        )
    values = inv.values
    if inv.name == "env" and any(
        v in ("-S", "--split-string") or v.startswith(("-S", "--split-string=")) for v in values
    ):
        return _env_split_string(a, inv)
    if inv.name == "flock" and any(v in ("-c", "--command") or v.startswith("--command=") for v in values):
        return _run_option(a, inv, ("-c", "--command"))
    inner = inv.command_words(WRAPPER_VALUE_FLAGS.get(inv.name, frozenset()))
    if inv.name == "env":
        inner = list(dropwhile(lambda word: "=" in word.value, inner))  # VAR=value settings
        if not inner:
            prints_environment(a, inv)
            return
        inv = _in_env_directory(a, inv)
    if inv.name == "timeout" and inner:
        inner = inner[1:]  # the duration
    if inv.name in ("taskset", "flock", "chrt") and inner:
        inner = inner[1:]
    if inv.name == "watch":
        a.nested_shell(" ".join(w.value for w in inner), inv.cwd, "watch")
        return
    if inv.name == "xargs":
        for index, value in enumerate(values):
            if value in ("-a", "--arg-file") and index + 1 < len(values):
                a.read_path(inv.args[index + 1], inv.cwd)
        if not inner:
            return
        a.flag(Risk.MEDIUM, "xargs runs a command on input it has not seen yet")
        program = inner[0].value.rsplit("/", 1)[-1]
        if program in SHELLS | PYTHONS | set(SCRIPT_LANGUAGES) | {"eval", "source", ".", "env", "sudo", "xargs"}:
            a.flag(Risk.HIGH, f"xargs hands input it has not seen to {program}, which runs it as code")
        if program in _DESTROYS_ITS_OPERANDS:
            a.flag(Risk.HIGH, f"xargs hands names it has not seen to {program}, which deletes or overwrites them")
        replace = _xargs_replace_string(values)
        if replace is not None:
            note_placeholder(a, replace)
        elif program in _COPIERS:  # `xargs -n1 cp x.pth`: the unseen input is where it lands
            note_placeholder(a, XARGS_INPUT)
            inner = [*inner, Word(XARGS_INPUT)]
    if inner:
        a.nested_invocation(inner, inv)


#: Programs whose last operand is where the others land: through xargs, that is its input.
_COPIERS = frozenset(words("cp mv ln install rsync"))


def _xargs_replace_string(values: list[str]) -> str | None:
    """xargs's replace-string: `-I X`, `-IX`, `-i`/`--replace` (`{}`), `--replace=X`, or None."""
    for index, value in enumerate(values):
        if value == "-I" and index + 1 < len(values):
            return values[index + 1]
        if value.startswith("-I") and len(value) > 2:
            return value[2:]
        if value in ("-i", "--replace"):
            return "{}"
        if value.startswith("--replace="):
            return value.split("=", 1)[1] or "{}"
        if value.startswith("-i") and len(value) > 2:
            return value[2:]
        if not value.startswith("-"):
            return None  # the command xargs runs: its own options are not xargs's
    return None


def _env_split_string(a: Analysis, inv: Invocation) -> None:
    """`env -S "rm -rf ~"` splits its argument into a command line."""
    values = inv.values
    for index, value in enumerate(values):
        text = None
        if value in ("-S", "--split-string") and index + 1 < len(values):
            word = inv.args[index + 1]
            text = word.value if word.static else None
            rest = " ".join(values[index + 2 :])
        elif value.startswith("--split-string="):
            text, rest = value.split("=", 1)[1], " ".join(values[index + 1 :])
        elif value.startswith("-S") and len(value) > 2:
            text, rest = value[2:], " ".join(values[index + 1 :])
        else:
            continue
        if text is None:
            a.flag(Risk.HIGH, "env -S runs a command line that is only known at run time")
        else:
            a.nested_shell(f"{text} {rest}".strip(), inv.cwd, "env -S")
        return


def _run_option(a: Analysis, inv: Invocation, flags: tuple[str, ...]) -> None:
    """`flock FILE -c CMD`: the option's value is a shell command line."""
    values = inv.values
    for index, value in enumerate(values):
        if value in flags and index + 1 < len(values):
            word = inv.args[index + 1]
        elif value.startswith("--command="):
            word = Word(value.split("=", 1)[1])
        else:
            continue
        if word.static:
            a.nested_shell(word.value, inv.cwd, f"{inv.name} -c")
        else:
            a.flag(Risk.HIGH, f"{inv.name} -c runs a command that is only known at run time")
        return


def multicall(a: Analysis, inv: Invocation) -> None:
    """`busybox rm -rf ~`: the first operand names the program that really runs."""
    operands = inv.operands()
    if not operands:
        a.flag(Risk.LOW, f"{inv.name} lists its applets")
        return
    if operands[0].value in SHELLS:
        return shell(
            a, Invocation(operands[0].value, inv.args[inv.args.index(operands[0]) + 1 :], inv.command, inv.cwd)
        )
    a.nested_invocation(inv.args[inv.args.index(operands[0]) :], inv)


def shell(a: Analysis, inv: Invocation) -> None:
    """`bash -c CODE` is analyzed as shell; a script file is read and analyzed; code on stdin
    from a pipe cannot be seen, so it is HIGH."""
    code, script, skip, c_flag = None, None, False, False
    rcfile: Word | None = None
    positional: list[Word] = []
    for index, word in enumerate(inv.args):
        if skip:
            skip = False
            rcfile = word if inv.args[index - 1].value in ("--rcfile", "--init-file") else rcfile
            continue
        value = word.value
        if value in ("-o", "-O", "+o", "+O", "--rcfile", "--init-file"):
            skip = True
        elif value.startswith("-") and not value.startswith("--") and "c" in value[1:]:
            c_flag = True
        elif value.startswith(("-", "+")):
            continue
        elif c_flag and code is None:
            code, positional = word, inv.args[index + 1 :]
            break
        else:
            script = word
            break
    if rcfile is not None:  # `bash --rcfile x.sh -i` runs x.sh first, as `bash x.sh` would
        a.flag(Risk.MEDIUM, f"{inv.name} runs the start-up file {rcfile.value}")
        a.read_path(rcfile, inv.cwd)
        _follow_script(a, rcfile, inv.cwd)
    if code is not None:
        if not code.static:
            a.flag(Risk.HIGH, f"{inv.name} -c runs code that is only known at run time")
        else:
            a.nested_shell(code.value, inv.cwd, f"{inv.name} -c", positional=positional)
    elif script is not None and runs_unseen_code(a, inv, script):
        pass
    elif script is not None and script.value != "-" and not script.value.startswith(STDIN_PATHS):
        a.flag(Risk.MEDIUM, f"{inv.name} runs the script {script.value}")
        a.read_path(script, inv.cwd)
        _follow_script(a, script, inv.cwd)
    elif inv.command.heredoc is not None:
        a.nested_shell(inv.command.heredoc, inv.cwd, f"{inv.name} heredoc")
    elif inv.stdin_is_piped:
        a.flag(Risk.HIGH, f"pipes text into {inv.name}, which runs it as commands (fetch/decode-to-execute)")
    else:
        a.flag(Risk.MEDIUM, f"starts an interactive {inv.name}")


def source(a: Analysis, inv: Invocation) -> None:
    operands = inv.operands()
    if not operands:
        return
    if operands[0].substituted or not operands[0].static:
        a.flag(Risk.HIGH, f"{inv.name} runs code produced at run time")
    elif operands[0].value.startswith(STDIN_PATHS) or operands[0].value == "-":
        if inv.command.heredoc is not None:
            a.nested_shell(inv.command.heredoc, inv.cwd, f"{inv.name} heredoc")
        else:
            a.flag(Risk.HIGH, f"{inv.name} runs code from {operands[0].value}, which cannot be seen beforehand")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} runs the script {operands[0].value}")
        a.read_path(operands[0], inv.cwd)
        _follow_script(a, operands[0], inv.cwd, own_process=False)


def _follow_script(a: Analysis, script: Word, cwd: str, own_process: bool = True) -> None:
    """`bash x.sh` runs what the file says now: judge that, as `./x.sh` is. It runs in its own
    process, so the functions and variables it sets die with it and are not counted; a sourced
    file (`source x.sh`, `. x.sh`) runs in the agent's shell, so what it defines is counted."""
    path = script.value if os.path.isabs(script.value) else os.path.join(cwd, script.value)
    try:
        text = read_head(path, 65536)  # a FIFO named x.sh must not hang the rules
    except OSError:
        return
    if b"\0" not in text:
        a.nested_shell(text.decode("utf-8", "replace"), cwd, script.value, own_process=own_process)


def eval_builtin(a: Analysis, inv: Invocation) -> None:
    if any(not w.static for w in inv.args):
        a.flag(Risk.HIGH, "eval runs code that is only known at run time (a decoded or fetched payload)")
    else:
        a.nested_shell(" ".join(inv.values), inv.cwd, "eval")


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    eval_builtin,
    multicall,
    privileged,
    shell,
    source,
    su,
    wrapper,
)
