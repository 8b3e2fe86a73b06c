"""Rules for interpreters handed code: Python (`-c`, `-m`, heredocs, a script) and the other
script languages (`node -e`, `perl -pe`, `ruby -e`, `php -r`...), judged by the code itself and
by the paths it names (split from exec_rules.py, which handles the programs that run other
programs)."""

from __future__ import annotations

import os
import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.files.read import read_head
from openhands_tui.sdk.security.code_checks import check_python, check_script, path_literals, writes_python_startup
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation
from openhands_tui.sdk.shell.syntax import Word

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


def runs_unseen_code(a: Analysis, inv: Invocation, script: Word) -> bool:
    """Whether the script a shell or interpreter is given cannot be read beforehand (another
    command's output, standard input without a heredoc): then it is HIGH, and that is all."""
    if script.substituted:
        a.flag(Risk.HIGH, f"{inv.name} runs code produced by another command ({script.value})")
        return True
    if script.value.startswith(STDIN_PATHS) and inv.command.heredoc is None:
        a.flag(Risk.HIGH, f"{inv.name} runs code from {script.value}, which cannot be seen beforehand")
        return True
    return False


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
    if script is not None and runs_unseen_code(a, inv, script):
        pass
    elif script is not None and script.value != "-" and not script.value.startswith(STDIN_PATHS):
        a.flag(Risk.MEDIUM, f"runs the Python script {script.value}")
        a.read_path(script, inv.cwd)
        _follow_python_script(a, script, inv.cwd)
    elif inv.command.heredoc is not None:
        for finding in check_python(inv.command.heredoc):
            a.flag(finding.risk, finding.reason)
        _judge_paths_in_code(a, "Python", inv.command.heredoc, inv.cwd)
    elif inv.stdin_is_piped:
        a.flag(Risk.HIGH, f"pipes text into {inv.name}, which runs it as code (fetch/decode-to-execute)")
    else:
        a.flag(Risk.MEDIUM, "starts an interactive Python")


def _follow_python_script(a: Analysis, script: Word, cwd: str) -> None:
    """`python3 setup_env.py` runs what the file says now: a script that plants start-up code in
    the virtualenv is HIGH. Only that is looked for: project scripts run commands and write
    files as their everyday job, and the script itself is MEDIUM already."""
    path = script.value if os.path.isabs(script.value) else os.path.join(cwd, script.value)
    try:
        text = read_head(path, 2 * 1024 * 1024)  # a FIFO named x.py must not hang the rules
    except OSError:
        return
    finding = writes_python_startup(text.decode("utf-8", "replace")) if b"\0" not in text else None
    if finding is not None:
        a.flag(finding.risk, f"{script.value}: {finding.reason}")


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


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    python,
    script_language,
)
