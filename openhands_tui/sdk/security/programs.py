"""Rules for general-purpose programs: reading, writing and deleting files, permissions,
system control. (Programs that run other code are in exec_rules.py; the network in network_rules.py.)

Every handler reports findings; none returns a verdict by itself, so the strictest finding
over all the parts of a command line decides.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, holds_placeholder, words
from openhands_tui.sdk.security.network_rules import is_remote_rsync, remote
from openhands_tui.sdk.security.scripted_tools import find, sed, tar
from openhands_tui.sdk.security.searches import hunts_secrets, prints_environment
from openhands_tui.sdk.security.shell_state import SECRET_VARIABLE, check_declaration
from openhands_tui.sdk.shell.syntax import Word

#: Flags after which a read-only program's next word is a value, not a path.
_VALUE_FLAGS = frozenset(
    frozenset(
        words("""
        -n -c -e -f -m -A -B -C -t -d -k -s -w --max-count -g --glob -T --type -o -L -P
    """)
    )
)


def read_only(a: Analysis, inv: Invocation) -> None:
    if inv.name == "find":
        return find(a, inv)
    if inv.name == "sed":
        return sed(a, inv)
    if inv.name in ("cd", "pushd"):
        return None  # the analysis follows the directory change itself
    a.flag(Risk.LOW, f"{inv.name} only reads")
    if inv.name in ("rg",) and inv.has("--pre", "--hostname-bin", "-z", "--search-zip"):
        a.flag(Risk.MEDIUM, "rg with --pre/-z runs helper programs on the files it searches")
    if inv.name == "sort" and inv.has("-o", "--output"):
        a.flag(Risk.MEDIUM, "sort -o writes a file")
        _judge_output_option(a, inv, ("-o", "--output"))
    if inv.name == "sort" and inv.has("--compress-program"):
        a.flag(Risk.HIGH, "sort --compress-program runs the program it is given")
    # each program's own value-taking options (`grep -c` counts, `head -c` takes a number); the
    # shared list stays for invocations the table did not make
    operands = inv.operands(_VALUE_FLAGS if inv.value_options is None else inv.value_options)
    if inv.name in ("grep", "egrep", "fgrep", "rg", "ag"):
        hunts_secrets(a, inv, operands)
    if inv.name in ("jq", "gojq", "jaq", "yq"):
        _query_reads_environment(a, inv)
    if inv.name in ("grep", "egrep", "fgrep", "rg", "ag") and operands and not inv.has("-e", "-f"):
        operands = operands[1:]  # the first operand is the pattern
    elif inv.name in ("jq", "gojq", "jaq", "yq") and operands and not inv.has("-f", "--from-file"):
        operands = operands[1:]  # the first operand is the query (`jq .env config.json`)
    if inv.name in ("echo", "printf"):
        operands = []  # they print their arguments; `echo "$HOME"` reads nothing
    if inv.name in words("""
        test [ seq expr bc sleep type which help man date id groups alias read declare
        local typeset readonly
    """):
        operands = [w for w in operands if w.value.startswith(("/", "~", "./", "../"))]
    if not operands and inv.name in ("ls", "du", "tree", "grep", "rg", "ag", "fd") and _recursive_or_ls(inv):
        a.read_path(_word("."), inv.cwd)
    for word in operands:
        a.read_path(word, inv.cwd)


def _recursive_or_ls(inv: Invocation) -> bool:
    return inv.name in ("ls", "du", "tree", "rg", "ag", "fd") or inv.has("-r", "-R", "--recursive")


def _word(value: str):
    from openhands_tui.sdk.shell.syntax import Word

    return Word(value)


def writer(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.MEDIUM, f"{inv.name} changes files")
    if inv.name == "tar":
        return tar(a, inv)
    if inv.name == "zip" and (inv.has("--unzip-command") or any(v.startswith("-TT") for v in inv.values)):
        a.flag(Risk.HIGH, "zip -TT runs the test command it is given")
    if inv.name == "install":
        values = inv.values
        modes = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-m", "--mode")]
        modes += [v.split("=", 1)[1] for v in values if v.startswith("--mode=")]
        if any(_sets_setuid(mode) for mode in modes):
            a.flag(Risk.HIGH, "install sets the setuid/setgid bit (privilege escalation)")
    if inv.name == "ln" and inv.has("-s", "--symbolic"):
        for word in inv.operands():
            a.read_path(word, inv.cwd)  # a link to a secret is a way to read it
    takes = _WRITER_VALUES.get(inv.name, _WRITER_VALUES[""])
    values = inv.values
    into = ("-t", "--target-directory", "-d") if inv.name == "unzip" else ("-t", "--target-directory")
    directories = [inv.args[i + 1] for i, v in enumerate(values[:-1]) if v in into]
    directories += [_word(v.split("=", 1)[1]) for v in values if v.startswith("--target-directory=")]
    operands = inv.operands(takes)
    for word in operands + directories:
        a.write_path(word, inv.cwd)
    if inv.name in ("cp", "mv", "ln", "install"):
        _into_directory(a, operands, directories, inv.cwd)
    if inv.name in ("patch", "7z"):
        _judge_output_option(a, inv, ("-o", "--output", "-d", "--directory"))


#: Per program, the options whose next word is a value (not a file to judge); `-f` and `-d` are
#: plain switches for cp/mv/ln/install, so the word after them is a path that must be judged.
_WRITER_VALUES: dict[str, frozenset[str]] = {
    "": frozenset({"-t", "--target-directory", "-m", "--mode", "-o", "-g", "-C", "-f", "-d", "-S"}),
    **{name: frozenset({"-t", "--target-directory", "-S", "--suffix"}) for name in ("cp", "mv", "ln")},
    "install": frozenset(words("-t --target-directory -m --mode -o --owner -g --group -S --suffix")),
    "mkdir": frozenset({"-m", "--mode"}),
    "touch": frozenset({"-d", "--date", "-r", "--reference", "-t"}),
    "truncate": frozenset({"-s", "--size", "-r", "--reference"}),
    "unzip": frozenset({"-d", "-x", "-P"}),
}


def _into_directory(a: Analysis, operands: list[Word], directories: list[Word], cwd: str) -> None:
    """`cp evil.yml .github/workflows/`, `mv -t .git/hooks pre-commit`: each source lands in the
    directory under its own name, and that name is what must be judged."""
    if directories:
        sources, target = operands, directories[0]
    elif len(operands) >= 2:
        sources, target = operands[:-1], operands[-1]
    else:
        return
    if not target.static or holds_placeholder(a, target):
        # `cp x.pth $(python3 -c 'import sysconfig; ...')`, `find ... -exec cp x.pth {} ;`: the name still lands there
        for source in sources:
            name = os.path.basename(source.value.rstrip("/"))
            if source.static and name not in ("", ".", ".."):
                landed = Word(f"{target.value.rstrip('/')}/{name}", static=False, variables=target.variables)
                a.write_path(replace(landed, substituted=target.substituted), cwd)
        return
    base = target.value if os.path.isabs(target.value) else os.path.join(cwd, target.value)
    if not (directories or target.value.endswith("/") or os.path.isdir(base)):
        return
    for source in sources:
        name = os.path.basename(source.value.rstrip("/"))
        if source.static and name not in ("", ".", ".."):
            a.write_path(_word(os.path.join(target.value, name)), cwd)


def rm(a: Analysis, inv: Invocation) -> None:
    recursive = inv.has("-r", "-R", "--recursive")
    force = inv.has("-f", "--force")
    targets = inv.operands()
    if recursive and force:
        a.flag(Risk.HIGH, "rm -rf deletes whole directory trees without asking")
    elif recursive:
        a.flag(Risk.MEDIUM, "rm -r deletes a directory tree")
    else:
        a.flag(Risk.MEDIUM, "rm deletes files")
    for word in targets:
        if word.value.rstrip("/") in ("", ".", "..", "*", "~") or not word.static:
            a.flag(Risk.HIGH, f"rm target {word.value!r} is the whole tree, a parent, or unknown until run time")
        a.write_path(word, inv.cwd)


def shred(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} destroys data irrecoverably")
    for word in inv.operands():
        a.write_path(word, inv.cwd)


def chmod(a: Analysis, inv: Invocation) -> None:
    operands = inv.operands()
    mode = operands[0].value if operands else ""
    if inv.name in ("chown", "chgrp", "chattr"):
        a.flag(Risk.HIGH, f"{inv.name} changes ownership or attributes (a privilege operation)")
    elif _sets_setuid(mode):
        a.flag(Risk.HIGH, f"chmod {mode} sets the setuid/setgid bit (privilege escalation)")
    elif mode.endswith("777") or "o+w" in mode or "a+w" in mode or mode.endswith("666"):
        a.flag(Risk.HIGH, f"chmod {mode} makes files writable by everyone")
    elif inv.has("-R", "--recursive"):
        a.flag(Risk.HIGH, "chmod -R changes permissions of a whole tree")
    else:
        a.flag(Risk.MEDIUM, "chmod changes file permissions")
    for word in operands[1:]:
        a.write_path(word, inv.cwd)


def _sets_setuid(mode: str) -> bool:
    if mode.isdigit():
        return len(mode) == 4 and int(mode[0]) & 6 != 0
    return any("s" in clause.lstrip("ugoa").lstrip("+-=") for clause in mode.split(",") if "-" not in clause)


def system_control(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if inv.name == "systemctl" and [v for v in values if not v.startswith("-")][:1] in (
        ["status"],
        ["is-active"],
        ["is-enabled"],
        ["list-units"],
        ["list-unit-files"],
        ["show"],
        ["cat"],
    ):
        a.flag(Risk.MEDIUM, "systemctl queries services")
        return
    if inv.name == "crontab" and values == ["-l"]:
        a.flag(Risk.MEDIUM, "crontab -l lists scheduled jobs")
        return
    a.flag(Risk.HIGH, f"{inv.name} changes system state (services, power, schedules or security controls)")


def kill(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    everything = inv.name == "killall5" or (inv.name == "kill" and (values[-1:] == ["-1"] or "1" in values))
    if everything:
        a.flag(Risk.HIGH, f"{inv.name} {' '.join(values)} kills every process it can reach")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} stops processes")


def _query_reads_environment(a: Analysis, inv: Invocation) -> None:
    """`jq -n env`, `jq -n '$ENV.OPENAI_API_KEY'`, `yq 'env(TOKEN)'`: the query language reads
    the environment, as `env`/`printenv` do."""
    for value in inv.values:
        if not re.search(r"\$ENV\b|(?<![\w.$])env\b|\bstrenv\(", value):
            continue
        if SECRET_VARIABLE.search(value):
            a.flag(Risk.HIGH, f"{inv.name} prints a secret from the environment ({value})")
        else:
            a.flag(Risk.MEDIUM, f"{inv.name} prints environment variables, API keys included")


def rsync(a: Analysis, inv: Invocation) -> None:
    """`rsync -a template/ build/` copies between local directories; to a host it is a transfer."""
    if is_remote_rsync(inv):
        remote(a, inv)
    else:
        writer(a, inv)


def ps(a: Analysis, inv: Invocation) -> None:
    """BSD-style `ps e` (`ps eww`, `ps auxe`) prints every process's environment, keys included."""
    first = inv.values[0] if inv.values else ""
    if re.fullmatch(r"[a-zA-Z]+", first) and "e" in first:  # BSD options come first, without a dash
        a.flag(Risk.MEDIUM, "ps e prints the environment of every process, API keys included")
    else:
        read_only(a, inv)


def set_variables(a: Analysis, inv: Invocation) -> None:
    """`export`/`declare`/`set` with no arguments list every variable; with arguments they set them."""
    if not inv.args or inv.has("-p"):
        prints_environment(a, inv)
    else:
        a.flag(Risk.LOW, f"{inv.name} sets shell variables")
        check_declaration(a, inv)


def env_dump(a: Analysis, inv: Invocation) -> None:
    if inv.operands():
        for word in inv.operands():
            if SECRET_VARIABLE.search(word.value):
                a.flag(Risk.HIGH, f"{inv.name} prints {word.value}, which holds a secret")
        return read_only(a, inv)
    prints_environment(a, inv)


def _judge_output_option(a: Analysis, inv: Invocation, options: tuple[str, ...]) -> None:
    """The file an option names as the output (`sort -o F`, `--output=F`, `7z -oDIR`, `patch -o F`)."""
    values = inv.values
    for index, value in enumerate(values):
        if value in options and index + 1 < len(values):
            a.write_path(inv.args[index + 1], inv.cwd)
        elif value.startswith(tuple(o + "=" for o in options if o.startswith("--"))):
            a.write_path(_word(value.split("=", 1)[1]), inv.cwd)
        elif inv.name == "7z" and value.startswith("-o") and len(value) > 2:
            a.write_path(_word(value[2:]), inv.cwd)


def tee(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.MEDIUM, "tee writes files")
    for word in inv.operands():
        a.write_path(word, inv.cwd)


def dd(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, "dd writes raw bytes (it can overwrite disks)")
    for value in inv.values:
        if value.startswith("of="):
            a.write_path(_word(value[3:]), inv.cwd)
        elif value.startswith("if="):
            a.read_path(_word(value[3:]), inv.cwd)


def secret_reader(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} reads or manages credentials")


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    chmod,
    dd,
    env_dump,
    kill,
    ps,
    read_only,
    rm,
    rsync,
    secret_reader,
    set_variables,
    shred,
    system_control,
    tee,
    writer,
)
