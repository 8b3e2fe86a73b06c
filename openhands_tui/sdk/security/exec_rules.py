"""Rules for programs that run other code: privilege wrappers (`sudo`), plain wrappers (`env`,
`timeout`, `xargs`...), shells, `source`/`eval`, and interpreters with inline code.

Wrappers hand the wrapped command back to the analysis, so wrapping can only add risk. Code
is followed wherever it can be seen (`bash -c`, heredocs, `python -c`, script files); code
that arrives on a pipe or is produced at run time cannot be seen, and is HIGH.
"""

from __future__ import annotations

import os
import re
from itertools import dropwhile

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.security.code_checks import check_python, check_script, path_literals
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.security.searches import prints_environment
from openhands_tui.sdk.shell_syntax import Word

SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "csh", "tcsh", "yash", "posh"}
#: Paths that are really standard input: code read from them cannot be seen beforehand.
STDIN_PATHS = ("/dev/stdin", "/dev/fd/", "/proc/self/fd/", "/dev/tty")
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
    if inner:
        a.nested_invocation(inner, inv)


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
    elif script is not None and script.value.startswith(STDIN_PATHS) and inv.command.heredoc is None:
        a.flag(Risk.HIGH, f"{inv.name} runs code from {script.value}, which cannot be seen beforehand")
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
        with open(path, "rb") as handle:
            text = handle.read(65536)
    except OSError:
        return
    if b"\0" not in text:
        a.nested_shell(text.decode("utf-8", "replace"), cwd, script.value, own_process=own_process)


def eval_builtin(a: Analysis, inv: Invocation) -> None:
    if any(not w.static for w in inv.args):
        a.flag(Risk.HIGH, "eval runs code that is only known at run time (a decoded or fetched payload)")
    else:
        a.nested_shell(" ".join(inv.values), inv.cwd, "eval")


def python(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if inv.has("--version", "-V") and len(values) == 1:
        return
    code, module, script = _python_arguments(inv)
    if code is not None:
        if not code.static:
            a.flag(Risk.HIGH, "python -c runs code that is only known at run time")
        else:
            for finding in check_python(code.value):
                a.flag(finding.risk, finding.reason)
            _judge_paths_in_code(a, "Python", code.value, inv.cwd)
        for word in inv.args[inv.args.index(code) + 1 :]:  # sys.argv: names the code is handed
            if not word.value.startswith("-"):
                a.read_path(word, inv.cwd)
        return
    if module is not None:
        from openhands_tui.sdk.security.devtools import python_module

        index = inv.args.index(module)
        python_module(a, inv, module.value, inv.args[index + 1 :])
        return
    if script is not None and script.substituted:
        a.flag(Risk.HIGH, f"{inv.name} runs code produced by another command ({script.value})")
    elif script is not None and script.value.startswith(STDIN_PATHS) and inv.command.heredoc is None:
        a.flag(Risk.HIGH, f"{inv.name} runs code from {script.value}, which cannot be seen beforehand")
    elif script is not None and script.value != "-" and not script.value.startswith(STDIN_PATHS):
        a.flag(Risk.MEDIUM, f"runs the Python script {script.value}")
        a.read_path(script, inv.cwd)
    elif inv.command.heredoc is not None:
        for finding in check_python(inv.command.heredoc):
            a.flag(finding.risk, finding.reason)
        _judge_paths_in_code(a, "Python", inv.command.heredoc, inv.cwd)
    elif inv.stdin_is_piped:
        a.flag(Risk.HIGH, f"pipes text into {inv.name}, which runs it as code (fetch/decode-to-execute)")
    else:
        a.flag(Risk.MEDIUM, "starts an interactive Python")


def _python_arguments(inv: Invocation) -> tuple[Word | None, Word | None, Word | None]:
    """(code after -c, module after -m, script): options may be clustered (`-Ic`, `-Bum`)."""
    args, index = inv.args, 0
    while index < len(args):
        value = args[index].value
        if value == "--" or not value.startswith("-") or value == "-":
            start = index + 1 if value == "--" else index
            return None, None, args[start] if start < len(args) else None
        if value.startswith("--"):
            index += 2 if value in ("--check-hash-based-pycs",) else 1
            continue
        for position, letter in enumerate(value[1:], start=1):
            if letter in "cm":
                attached = value[position + 1 :]
                word = Word(attached) if attached else (args[index + 1] if index + 1 < len(args) else Word(""))
                return (word, None, None) if letter == "c" else (None, word, None)
            if letter in "WX":
                index += 0 if value[position + 1 :] else 1  # the value is the next word
                break
        index += 1
    return None, None, None


def script_language(a: Analysis, inv: Invocation) -> None:
    language = SCRIPT_LANGUAGES[inv.name]
    values = inv.values
    if inv.name in ("node", "nodejs", "deno", "bun") and inv.has("-r", "--require", "--import", "--loader"):
        a.flag(Risk.MEDIUM, f"{inv.name} preloads a module before the program runs")
    for index, value in enumerate(values):
        code: Word | None = None
        if value.startswith(("--eval=", "--print=")):
            code = Word(value.split("=", 1)[1], static=inv.args[index].static)
        elif value in ("--eval", "--print") or (
            value.startswith("-") and not value.startswith("--") and _evaluates(value, inv.name)
        ):
            code = inv.args[index + 1] if index + 1 < len(values) else Word("")
        if code is None:
            continue
        if not code.static:
            a.flag(Risk.HIGH, f"{inv.name} {value} runs code that is only known at run time")
        else:
            for finding in check_script(language, code.value):
                a.flag(finding.risk, finding.reason)
            _judge_paths_in_code(a, language, code.value, inv.cwd)
        _judge_files_after_code(a, inv, index + (1 if "=" not in value else 0))
        return
    operands = inv.operands()
    if operands and inv.name in ("deno", "bun") and operands[0].value in ("run", "x", "eval"):
        operands = operands[1:]  # `deno run URL`: the script is after the subcommand
    if operands and "://" in operands[0].value:
        a.flag(Risk.HIGH, f"{inv.name} runs code fetched from {operands[0].value}")
    elif operands and operands[0].value != "-":
        a.flag(Risk.MEDIUM, f"runs the {language} script {operands[0].value}")
        a.read_path(operands[0], inv.cwd)
    elif inv.stdin_is_piped and inv.command.heredoc is None:
        a.flag(Risk.HIGH, f"pipes text into {inv.name}, which runs it as code")
    elif inv.command.heredoc is not None:
        for finding in check_script(language, inv.command.heredoc):
            a.flag(finding.risk, finding.reason)
        _judge_paths_in_code(a, language, inv.command.heredoc, inv.cwd)
    else:
        a.flag(Risk.MEDIUM, f"starts {inv.name}")


def _judge_files_after_code(a: Analysis, inv: Invocation, code_index: int) -> None:
    """`perl -pi -e 's/x/y/' ~/.bashrc`: the files after the code are what it reads, and with
    `-i` (in place) what it rewrites."""
    in_place = any(
        v.startswith("-i") or (v.startswith("-") and not v.startswith("--") and "i" in v)
        for v in inv.values[:code_index]
    )
    for word in inv.args[code_index + 1 :]:
        if word.value.startswith("-"):
            continue
        (a.write_path if in_place else a.read_path)(word, inv.cwd)


def _judge_paths_in_code(a: Analysis, language: str, code: str, cwd: str) -> None:
    """A path the code names is judged as if the command named it: `open('.env')` reads a
    secret, `'/etc/passwd'` is outside the workspace. Absolute paths count only when their
    top directory exists here (`'/api/v1'` in a web handler is a route, not a file)."""
    writes = _WRITES_FILES.search(code) is not None
    for text in path_literals(language, code):
        if text.startswith("/") and not os.path.isdir("/" + text.split("/")[1]):
            continue
        if writes:  # which literal is written is not tracked: judge each as a target
            a.write_path(Word(text), cwd)
        else:
            a.read_path(Word(text), cwd)


#: Code that writes, copies or moves files (any of the languages we scan).
_WRITES_FILES = re.compile(
    r"open\([^)]*,\s*['\"][^'\"]*[wax+]|write_text|write_bytes|writeFile|appendFile|createWriteStream|"
    r"File\.(write|open\([^)]*['\"][wa])|fwrite|file_put_contents|copyfile|copy2?\(|copytree|move\(|rename|"
    r"symlink|>>?\s*['\"]"
)


def _evaluates(cluster: str, program: str = "") -> bool:
    """`-e`, `-pe`, `-lane`, `-E`: a cluster of one-letter options whose last one takes code;
    `-p` prints an expression (perl, node); `-r` runs code only for php (node's `-r` is
    `--require`: the code is in the `-e` after it)."""
    return cluster[-1:] in ("e", "E") or cluster == "-p" or (cluster == "-r" and program.startswith("php"))


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
    "busybox": multicall,
    "toybox": multicall,
    "source": source,
    ".": source,
    "eval": eval_builtin,
    **{name: python for name in PYTHONS},
    **{name: script_language for name in SCRIPT_LANGUAGES},
}
