"""Rules for shell state that runs code later, or changes where code comes from.

Some settings do nothing visible when set and act on a later, innocent-looking command:
traps, `PS4` (expanded by `set -x`), `PROMPT_COMMAND`, `BASH_ENV`, `LD_PRELOAD`, aliases,
functions, `hash -p`, builtins loaded with `enable -f`, a `PATH` that puts a project
directory first, git's config, pager, ssh and diff variables, `LESSOPEN`. Others point a
package manager at another registry. Setting any of them is HIGH (the terminal also resets
the first kind after every command, as a second line of defence).
"""

from __future__ import annotations

import os
import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.security.paths import is_secret_path
from openhands_tui.sdk.security.shell_variables import RUNS_CODE_LATER, RUNS_CODE_LATER_PREFIXES
from openhands_tui.sdk.shell.syntax import Word

#: Names of variables that hold secrets (their values must not reach the model or the network).
SECRET_VARIABLE = re.compile(
    r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_?KEY|CREDENTIAL|ACCESS_?KEY)", re.IGNORECASE
)
#: Variables that change where packages come from.
PACKAGE_SOURCES = re.compile(
    r"^(PIP_(INDEX_URL|EXTRA_INDEX_URL|FIND_LINKS|TRUSTED_HOST|CONFIG_FILE|INDEX)|"
    r"UV_(INDEX_URL|EXTRA_INDEX_URL|INDEX|DEFAULT_INDEX|FIND_LINKS|CONFIG_FILE)|"
    r"NPM_CONFIG_(REGISTRY|USERCONFIG|GLOBALCONFIG|.*:REGISTRY)|YARN_(REGISTRY|NPM_REGISTRY_SERVER)|"
    r"BUN_CONFIG_REGISTRY|PNPM_CONFIG_REGISTRY|GOPROXY|GONOSUMDB|GONOSUMCHECK|GOINSECURE|GOFLAGS|GOPRIVATE|"
    r"CARGO_REGISTRIES_.*|CARGO_HOME|POETRY_REPOSITORIES_.*|POETRY_SOURCE_.*|CONDA_CHANNELS|GEM_SOURCE|"
    r"BUNDLE_MIRROR__.*|COMPOSER_HOME|HF_ENDPOINT|"
    # where all traffic goes and which certificates are trusted: a proxy sees (and can swap) every download
    r"(HTTPS?|ALL|FTP)_PROXY|REQUESTS_CA_BUNDLE|SSL_CERT_(FILE|DIR)|CURL_CA_BUNDLE|NODE_EXTRA_CA_CERTS|"
    r"NODE_TLS_REJECT_UNAUTHORIZED|PIP_CERT|NPM_CONFIG_(CAFILE|STRICT_SSL|PROXY|HTTPS_PROXY))$",
    re.IGNORECASE,
)
#: Where interpreters look for modules before their own: one outside the project is code it did not ship.
_MODULE_PATHS = frozenset(words("PYTHONPATH NODE_PATH CLASSPATH PYTHONUSERBASE"))
#: Settings that, inside a script bash runs as its own process, affect nothing after it: the
#: script's PATH reaches only its own commands (which are judged), prompts are never shown.
_SCRIPT_LOCAL = frozenset(words("PATH PROMPT_COMMAND PS0 PS4 HISTFILE CDPATH PROMPT_DIRTRIM"))
#: `$(...)` or a backtick kept as text (quoted) in a variable: code waiting for an evaluation.
_STORED_CODE = re.compile(r"\$\(|`")
_SYSTEM_BIN = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin", "/opt/homebrew/bin")


#: Pagers and editors that only show or accept text: `GIT_EDITOR=true git commit` is an agent's idiom.
_HARMLESS_VIEWERS = frozenset({"", "cat", "true", ":", "less", "more", "less -R", "less -FRX", "tee"})
_VIEWERS = frozenset({"PAGER", "GIT_PAGER", "MANPAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR"})


def check_assignment(a: Analysis, name: str, value: Word, cwd: str, kept: bool = True) -> None:
    """One `NAME=value`, as a prefix (`NAME=v cmd`), alone, or via export/declare/readonly;
    `kept` unless it is a prefix (which lasts for that one program only)."""
    upper = name.upper()
    if getattr(a, "own_process", False) and upper in _SCRIPT_LOCAL:
        return  # a script's PATH and prompt settings end with its process
    if value.static and _STORED_CODE.search(value.value):
        a.flag(
            Risk.HIGH,
            f"{name} is set to text holding a command substitution; bash runs it if the value is later "
            "evaluated (arithmetic, ${name@P}, eval, a prompt)",
        )
    if upper in _VIEWERS and value.static and value.value.strip() in _HARMLESS_VIEWERS:
        return
    if kept and value.static and value.value and not _STORED_CODE.search(value.value) and is_secret_path(value.value):
        a.flag(Risk.HIGH, f"{name} is set to the path of a secret ({value.value}); a later `cat ${name}` reads it")
    if upper in RUNS_CODE_LATER or upper.startswith(RUNS_CODE_LATER_PREFIXES):
        a.flag(Risk.HIGH, f"setting {name} makes later commands run other code ({name} is read by the shell or tools)")
    elif PACKAGE_SOURCES.match(name):
        a.flag(Risk.HIGH, f"setting {name} changes where packages are downloaded from (supply chain)")
    elif upper in _MODULE_PATHS and value.static:
        # python imports from there first (a sitecustomize.py there runs at every start)
        for entry in (e for e in value.value.split(":") if e and not e.startswith("$")):
            if not a.path_is_inside(entry, cwd):
                a.flag(
                    Risk.HIGH, f"{name} now reaches {entry}, outside the workspace: later programs load code from it"
                )
                break
    elif upper == "LESS" and re.search(r"[!|]", value.value):
        a.flag(Risk.HIGH, f"{name} holds a less command that runs a program ({value.value})")
    elif upper == "PATH":
        first = value.value.split(":", 1)[0]
        if not value.static and not first.startswith("$"):
            a.flag(Risk.HIGH, "PATH is set to a value known only at run time")
        elif first and not first.startswith("$") and os.path.normpath(first) not in _SYSTEM_BIN:
            where = "inside the project" if a.path_is_inside(first, cwd) else "not a system directory"
            a.flag(Risk.HIGH, f"PATH now starts with {first} ({where}): a later command name could run code from it")


def check_declaration(a: Analysis, inv: Invocation) -> None:
    """`export`/`declare`/`typeset`/`readonly`/`local` arguments that assign."""
    if inv.name in ("export", "declare", "typeset") and inv.has("-f", "-F") and inv.name != "declare":
        a.flag(Risk.HIGH, f"{inv.name} -f exports a function into every program started later")
    for word in inv.args:
        name, sep, rest = word.value.partition("=")
        if sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\+)?", name):
            check_assignment(a, name.rstrip("+"), Word(rest, word.plain, word.static, word.variables), inv.cwd)


def trap(a: Analysis, inv: Invocation) -> None:
    operands = inv.operands()
    if not operands or inv.has("-p", "-l") or operands[0].value in ("-", ""):
        a.flag(Risk.LOW, "trap lists or clears traps")
        return
    a.flag(Risk.HIGH, "trap sets code that runs later, on a signal or when the shell exits")
    if operands[0].static:
        a.nested_shell(operands[0].value, inv.cwd, "trap")


def alias(a: Analysis, inv: Invocation) -> None:
    defined = [w for w in inv.args if "=" in w.value]
    if not defined:
        a.flag(Risk.LOW, "alias lists aliases")
        return
    a.flag(Risk.HIGH, "alias makes a command name run something else later")
    for word in defined:
        a.nested_shell(word.value.split("=", 1)[1], inv.cwd, "alias")


def hash_builtin(a: Analysis, inv: Invocation) -> None:
    if inv.has("-p"):
        a.flag(Risk.HIGH, "hash -p makes a command name run another program later")
    else:
        a.flag(Risk.LOW, "hash lists or forgets remembered command paths")


def enable(a: Analysis, inv: Invocation) -> None:
    if inv.has("-f"):
        a.flag(Risk.HIGH, "enable -f loads a builtin from a shared library (runs its code in the shell)")
    else:
        a.flag(Risk.MEDIUM, "enable turns shell builtins on or off")


def sets_named(a: Analysis, inv: Invocation) -> None:
    """`printf -v NAME`, `read NAME`, `mapfile -C code`: builtins that set a variable (or run a
    callback) from text the rules cannot see."""
    values = inv.values
    targets = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-v"] if inv.name == "printf" else []
    if inv.name == "read":
        targets = [w.value for w in inv.operands(frozenset({"-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"}))]
    if inv.name in ("mapfile", "readarray") and inv.has("-C"):
        a.flag(Risk.HIGH, f"{inv.name} -C runs a callback command for the lines it reads")
    if inv.name in ("complete", "compgen") and inv.has("-C"):
        a.flag(Risk.HIGH, f"{inv.name} -C registers a command that runs later")
    if inv.name == "bind" and inv.has("-x"):
        a.flag(Risk.HIGH, "bind -x makes a key run a command later")
    for target in targets:
        if target.upper() in RUNS_CODE_LATER or PACKAGE_SOURCES.match(target):
            a.flag(Risk.HIGH, f"{inv.name} sets {target} from unseen text (it makes later commands run code)")
    if inv.name in ("printf", "read", "compgen"):
        a.flag(Risk.LOW, f"{inv.name} only prints or sets a variable")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} changes shell state")


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    alias,
    enable,
    hash_builtin,
    sets_named,
    trap,
)
