"""Rules for programs with a command language of their own that can start other programs:
awk (`system()`, pipes), editors and debuggers given startup commands (`vim -c ':!cmd'`,
`gdb -ex 'shell cmd'`), `man -P`, `less +!cmd`, and small interpreters (Lua, Tcl, expect, R,
Julia, AppleScript, PowerShell) given inline code.

Without these rules such programs fall to "not a known read-only command" (MEDIUM), which is
exactly where a model hides `rm -rf ~`. The inline code is scanned like other languages'.
"""

from __future__ import annotations

import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.code_checks import check_script
from openhands_tui.sdk.security.devtools import package_manager
from openhands_tui.sdk.security.interpreter_rules import script_language
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation
from openhands_tui.sdk.security.programs import read_only
from openhands_tui.sdk.shell.syntax import Word

_AWK_DANGER = re.compile(r"\bsystem\s*\(|\|\s*getline|\|&|\bENVIRON\b|\bPROCINFO\b|\|\s*\"|\"\s*\|")
_AWK_WRITES = re.compile(r"(print|printf)[^;}]*>\s*(\"([^\"]*)\")?")
_AWK_VALUE = frozenset({"-F", "-v", "-f", "--file", "-i", "--include", "-l", "--load", "--field-separator", "--assign"})


def awk(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if inv.has("-l", "--load", "-E", "--exec") or any(v.startswith(("--load=", "--exec=")) for v in values):
        a.flag(Risk.HIGH, f"{inv.name} loads an extension or runs a program file given to it")
    script_files = [inv.args[i + 1] for i, v in enumerate(values[:-1]) if v in ("-f", "--file", "-i", "--include")]
    operands = inv.operands(_AWK_VALUE)
    if script_files:
        a.flag(Risk.MEDIUM, f"{inv.name} runs the program file {script_files[0].value}")
        for word in script_files:
            a.read_path(word, inv.cwd)
        files = operands
    else:
        program = operands[0] if operands else None
        files = operands[1:]
        if program is None:
            a.flag(Risk.MEDIUM, f"{inv.name} without a program")
        elif not program.static:
            a.flag(Risk.HIGH, f"the {inv.name} program is only known at run time")
        elif _AWK_DANGER.search(program.value):
            a.flag(Risk.HIGH, f"the {inv.name} program runs commands or reads the environment")
        elif _AWK_WRITES.search(program.value):
            a.flag(Risk.MEDIUM, f"the {inv.name} program writes files")
            for match in _AWK_WRITES.finditer(program.value):
                if match.group(3):
                    a.write_path(Word(match.group(3)), inv.cwd)
                else:
                    a.flag(Risk.HIGH, f"the {inv.name} program writes to a file named only at run time")
        else:
            a.flag(Risk.LOW, f"{inv.name} only reads")
    for word in files:
        if "=" not in word.value:  # `awk ... var=value file` assigns, it does not read `var=value`
            a.read_path(word, inv.cwd)


_EDITOR_STARTUP = ("-c", "--cmd", "-S", "-s", "-u", "--init", "-x", "-ex", "--eval-command", "-iex", "-ix", "--command")


def startup_commands(a: Analysis, inv: Invocation) -> None:
    """vim/ex/gdb/lldb: commands given on the command line run before anyone sees them."""
    values = inv.values
    if any(v in _EDITOR_STARTUP or v.startswith(("--cmd=", "--eval-command=", "--command=")) for v in values) or any(
        v.startswith("+") and len(v) > 1 for v in values
    ):
        a.flag(Risk.HIGH, f"{inv.name} runs startup commands given to it, which can start any program")
    elif inv.name in ("gdb", "lldb") and inv.has("-p", "--pid", "--attach-pid"):
        a.flag(Risk.HIGH, f"{inv.name} attaches to a running process (it can read its memory and secrets)")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} opens files for editing or debugging")
    for word in inv.operands(frozenset(_EDITOR_STARTUP)):
        if not word.value.startswith("+"):
            a.write_path(word, inv.cwd)


def pager_options(a: Analysis, inv: Invocation) -> None:
    """`man -P 'sh -c x'`, `man -H`, `less '+!cmd'`: a program named by an option runs."""
    values = inv.values
    if inv.name == "man" and (
        inv.has("-P", "--pager", "-H", "--html", "-X", "--gxditview") or any(v.startswith("--pager=") for v in values)
    ):
        a.flag(Risk.HIGH, "man runs the pager or browser program it is given")
        return
    if inv.name == "less" and any(v.startswith("+") and ("!" in v or "|" in v) for v in values):
        a.flag(Risk.HIGH, "less runs a shell command given as a startup command")
        return
    read_only(a, inv)


#: name -> (language, flags whose next word is inline code)
_SMALL_INTERPRETERS = {
    "lua": ("Lua", ("-e",)),
    "luajit": ("Lua", ("-e",)),
    "tclsh": ("Tcl", ()),
    "wish": ("Tcl", ()),
    "expect": ("Tcl", ("-c",)),
    "Rscript": ("R", ("-e", "--expr")),
    "R": ("R", ("-e",)),
    "julia": ("Julia", ("-e", "-E", "--eval", "--print")),
    "osascript": ("AppleScript", ("-e",)),
    "pwsh": ("PowerShell", ("-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec")),
    "powershell": ("PowerShell", ("-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec")),
}
_EXTRA_DANGER = re.compile(
    r"\bos\.execute\b|\bio\.popen\b|\bos\.remove\b|\bexec\s+\S|\bspawn\b|\bfile\s+delete\b|\bsystem2?\s*\(|"
    r"\bunlink\s*\(|Sys\.getenv|do shell script|Invoke-Expression|\biex\b|Remove-Item|Start-Process|"
    r"Invoke-WebRequest|Invoke-RestMethod|\brun\s*\(|\bEncodedCommand\b|\$env:",
    re.IGNORECASE,
)


def small_interpreter(a: Analysis, inv: Invocation) -> None:
    language, code_flags = _SMALL_INTERPRETERS[inv.name]
    values = inv.values
    for index, value in enumerate(values):
        if value in code_flags:
            code = inv.args[index + 1] if index + 1 < len(values) else None
            if code is None or not code.static:
                a.flag(Risk.HIGH, f"{inv.name} {value} runs code that is only known at run time")
                return
            return _judge_code(a, language, code.value)
    if inv.command.heredoc is not None:
        return _judge_code(a, language, inv.command.heredoc)
    if inv.stdin_is_piped:
        a.flag(Risk.HIGH, f"{inv.name} runs code arriving on its input, which cannot be seen beforehand")
        return
    operands = inv.operands()
    if operands:
        a.flag(Risk.MEDIUM, f"runs the {language} script {operands[0].value}")
        a.read_path(operands[0], inv.cwd)
    else:
        a.flag(Risk.MEDIUM, f"starts {inv.name}")


def _judge_code(a: Analysis, language: str, code: str) -> None:
    if _EXTRA_DANGER.search(code):
        a.flag(Risk.HIGH, f"the {language} code runs commands, deletes files or reads the environment")
    for finding in check_script(language, code):
        a.flag(finding.risk, finding.reason)


_DESTRUCTIVE_QUERY = re.compile(
    r"\b(DROP\s+(DATABASE|SCHEMA|TABLE|USER|ROLE)|TRUNCATE|DELETE\s+FROM(?![^;]*\bWHERE\b)|FLUSHALL|FLUSHDB|"
    r"dropDatabase|\.drop\(|deleteMany\(\s*\{\s*\}|ALTER\s+USER|GRANT\s+ALL|COPY\s+.+\s+(TO|FROM)\s+PROGRAM|"
    r"CONFIG\s+SET|SHUTDOWN)\b|(?<![\w.])\.(shell|system|load|output|once)\b",
    re.IGNORECASE,
)


#: psql's and mysql's client commands that run a program: `\\! cmd`, mysql's `system cmd`,
#: psql's `\\o |cmd` / `\\g |cmd` (output piped to a program), `\\copy ... program`.
_CLIENT_SHELL = re.compile(r"\\!|\\[og]\s*\||(?:^|[;\n]|(?<=\s))system\s+\S|\\copy\b[^;\n]*\bprogram\b", re.IGNORECASE)


def database_client(a: Analysis, inv: Invocation) -> None:
    """psql/mysql/sqlite3/redis-cli/mongosh: a query that drops, empties or reconfigures a
    database destroys data the workspace cannot restore; sqlite3's `.shell`/`.system` run
    programs and `.output` writes files."""
    text = " ".join(inv.values)
    if inv.command.heredoc:
        text += "\n" + inv.command.heredoc
    text += "".join(f"\n{r.target.value}" for r in inv.command.redirects if r.op == "<<<" and r.target is not None)
    if inv.name in ("psql", "mysql", "mariadb") and _CLIENT_SHELL.search(text):
        a.flag(Risk.HIGH, f"{inv.name} runs a shell command (`\\!`, `system`, output piped to a program)")
    elif _DESTRUCTIVE_QUERY.search(text):
        a.flag(Risk.HIGH, f"{inv.name} runs a query that drops, empties or reconfigures a database, or a program")
    elif inv.stdin_is_piped and inv.command.heredoc is None:
        a.flag(Risk.MEDIUM, f"{inv.name} runs queries from its input")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} talks to a database")


def line_editor(a: Analysis, inv: Invocation) -> None:
    """`ed`/`ex` take their commands from their input: `!cmd` runs a program, `w path` writes."""
    script = inv.command.heredoc or ""
    if inv.stdin_is_piped and not script:
        a.flag(Risk.HIGH, f"{inv.name} runs editor commands from its input, which can start programs")
    elif "!" in script:
        a.flag(Risk.HIGH, f"the {inv.name} commands run a program (!)")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} edits files")
    for word in inv.operands():
        a.write_path(word, inv.cwd)


def javascript_runtime(a: Analysis, inv: Invocation) -> None:
    """`deno eval CODE` and `bun -e CODE` run inline code; otherwise deno runs a script and
    bun is a package manager."""
    values = inv.values
    if inv.name == "deno" and values[:1] == ["eval"]:
        code = inv.args[1] if len(inv.args) > 1 else None
        if code is None or not code.static:
            a.flag(Risk.HIGH, "deno eval runs code that is only known at run time")
        else:
            for finding in check_script("JavaScript", code.value):
                a.flag(finding.risk, finding.reason)
        return
    if inv.name == "bun" and not any(v in ("-e", "--eval", "-p", "--print") for v in values):
        return package_manager(a, inv)
    script_language(a, inv)


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    awk,
    database_client,
    javascript_runtime,
    line_editor,
    pager_options,
    small_interpreter,
    startup_commands,
)
