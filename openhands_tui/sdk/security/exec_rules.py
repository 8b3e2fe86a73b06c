"""Rules for programs that run other code: privilege wrappers (`sudo`), plain wrappers (`env`,
`timeout`, `xargs`...), shells, `source`/`eval`, and interpreters with inline code.

Wrappers hand the wrapped command back to the analysis, so wrapping can only add risk. Code
is followed wherever it can be seen (`bash -c`, heredocs, `python -c`, script files); code
that arrives on a pipe or is produced at run time cannot be seen, and is HIGH.
"""

from __future__ import annotations

from itertools import dropwhile

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.security.code_checks import check_python, check_script
from openhands_tui.sdk.security.invocation import Analysis, Invocation, words
from openhands_tui.sdk.security.programs import Handler

SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "csh", "tcsh", "busybox"}
PYTHONS = {"python", "python3", "python2", "pypy", "pypy3"}
SCRIPT_LANGUAGES = {
    "node": "JavaScript",
    "nodejs": "JavaScript",
    "deno": "JavaScript",
    "bun": "JavaScript",
    "ruby": "Ruby",
    "perl": "Perl",
    "php": "PHP",
}


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
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "watch": frozenset({"-n", "--interval", "-d"}),
    "taskset": frozenset(),
    "flock": frozenset({"-w", "-E"}),
    "chrt": frozenset(),
    "xargs": frozenset(
        frozenset(
            words("""
            -I -L -n -P -d -E -s -a --max-args --max-procs --delimiter --arg-file -i
        """)
        )
    ),
}


def wrapper(a: Analysis, inv: Invocation) -> None:
    """`env`, `timeout`, `nice`, `nohup`, `command`, `exec`, `xargs`... run their operand."""
    if inv.name == "command" and inv.has("-v", "-V"):
        return
    inner = inv.command_words(WRAPPER_VALUE_FLAGS.get(inv.name, frozenset()))
    if inv.name == "env":
        inner = list(dropwhile(lambda word: "=" in word.value, inner))  # VAR=value settings
        if not inner:
            a.flag(Risk.MEDIUM, "env prints every environment variable, API keys included")
            return
    if inv.name == "timeout" and inner:
        inner = inner[1:]  # the duration
    if inv.name in ("taskset", "flock", "chrt") and inner:
        inner = inner[1:]
    if inv.name == "watch":
        a.nested_shell(" ".join(w.value for w in inner), inv.cwd, "watch")
        return
    if inv.name == "xargs":
        if not inner:
            return
        a.flag(Risk.MEDIUM, "xargs runs a command on input it has not seen yet")
    if inner:
        a.nested_invocation(inner, inv)


def shell(a: Analysis, inv: Invocation) -> None:
    """`bash -c CODE` is analyzed as shell; a script file is read and analyzed; code on stdin
    from a pipe cannot be seen, so it is HIGH."""
    code, script, skip, c_flag = None, None, False, False
    for word in inv.args:
        if skip:
            skip = False
            continue
        value = word.value
        if value in ("-o", "-O", "+o", "+O", "--rcfile", "--init-file"):
            skip = True
        elif value.startswith("-") and not value.startswith("--") and "c" in value[1:]:
            c_flag = True
        elif value.startswith(("-", "+")):
            continue
        elif c_flag and code is None:
            code = word
            break
        else:
            script = word
            break
    if code is not None:
        if not code.static:
            a.flag(Risk.HIGH, f"{inv.name} -c runs code that is only known at run time")
        else:
            a.nested_shell(code.value, inv.cwd, f"{inv.name} -c")
    elif script is not None and script.substituted:
        a.flag(Risk.HIGH, f"{inv.name} runs code produced by another command ({script.value})")
    elif script is not None and script.value != "-":
        a.flag(Risk.MEDIUM, f"{inv.name} runs the script {script.value}")
        a.read_path(script, inv.cwd)
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
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} runs the script {operands[0].value}")
        a.read_path(operands[0], inv.cwd)


def eval_builtin(a: Analysis, inv: Invocation) -> None:
    if any(not w.static for w in inv.args):
        a.flag(Risk.HIGH, "eval runs code that is only known at run time (a decoded or fetched payload)")
    else:
        a.nested_shell(" ".join(inv.values), inv.cwd, "eval")


def python(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if inv.has("--version", "-V") and len(values) == 1:
        return
    if "-c" in values:
        code = inv.args[values.index("-c") + 1] if values.index("-c") + 1 < len(values) else None
        if code is None or not code.static:
            a.flag(Risk.HIGH, "python -c runs code that is only known at run time")
        else:
            for finding in check_python(code.value):
                a.flag(finding.risk, finding.reason)
        return
    if "-m" in values:
        index = values.index("-m")
        module = values[index + 1] if index + 1 < len(values) else ""
        rest = inv.args[index + 2 :]
        from openhands_tui.sdk.security.devtools import python_module

        python_module(a, inv, module, rest)
        return
    operands = inv.operands(frozenset({"-W", "-X", "-Q"}))
    if operands and operands[0].substituted:
        a.flag(Risk.HIGH, f"{inv.name} runs code produced by another command ({operands[0].value})")
    elif operands and operands[0].value != "-":
        a.flag(Risk.MEDIUM, f"runs the Python script {operands[0].value}")
        a.read_path(operands[0], inv.cwd)
    elif inv.command.heredoc is not None:
        for finding in check_python(inv.command.heredoc):
            a.flag(finding.risk, finding.reason)
    elif inv.stdin_is_piped:
        a.flag(Risk.HIGH, f"pipes text into {inv.name}, which runs it as code (fetch/decode-to-execute)")
    else:
        a.flag(Risk.MEDIUM, "starts an interactive Python")


def script_language(a: Analysis, inv: Invocation) -> None:
    language = SCRIPT_LANGUAGES[inv.name]
    values = inv.values
    for flag in ("-e", "--eval", "-p", "--print", "-r", "-E"):
        if flag in values and values.index(flag) + 1 < len(values):
            code = inv.args[values.index(flag) + 1]
            if not code.static:
                a.flag(Risk.HIGH, f"{inv.name} {flag} runs code that is only known at run time")
            else:
                for finding in check_script(language, code.value):
                    a.flag(finding.risk, finding.reason)
            return
    operands = inv.operands()
    if operands and operands[0].value != "-":
        a.flag(Risk.MEDIUM, f"runs the {language} script {operands[0].value}")
        a.read_path(operands[0], inv.cwd)
    elif inv.stdin_is_piped and inv.command.heredoc is None:
        a.flag(Risk.HIGH, f"pipes text into {inv.name}, which runs it as code")
    elif inv.command.heredoc is not None:
        for finding in check_script(language, inv.command.heredoc):
            a.flag(finding.risk, finding.reason)
    else:
        a.flag(Risk.MEDIUM, f"starts {inv.name}")


HANDLERS: dict[str, Handler] = {
    **{name: privileged for name in ("sudo", "doas", "pkexec", "run0", "sudoedit")},
    "su": su,
    **{
        name: wrapper
        for name in words("""
        env timeout nice nohup command builtin exec stdbuf ionice time xargs watch unbuffer
        caffeinate taskset flock chrt strace ltrace setsid systemd-run script
    """)
    },
    **{name: shell for name in SHELLS},
    "source": source,
    ".": source,
    "eval": eval_builtin,
    **{name: python for name in PYTHONS},
    **{name: script_language for name in SCRIPT_LANGUAGES},
}
