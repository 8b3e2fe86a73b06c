"""Rules for programs with little languages or hooks of their own: sed scripts (whose `e`
runs commands and `w` writes files), find's actions, and tar's program-running options.
(The plain read/write/delete rules are in programs.py.)"""

from __future__ import annotations

import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Invocation, note_placeholder, words
from openhands_tui.sdk.security.paths import is_secret_name
from openhands_tui.sdk.shell.syntax import Word


def _word(value: str) -> Word:
    return Word(value)


def sed(a: Analysis, inv: Invocation) -> None:
    in_place = any(v == "--in-place" or (v.startswith("-i") and not v.startswith("--")) for v in inv.values)
    script_given = inv.has("-e", "-f", "--expression", "--file")
    operands = inv.operands(frozenset({"-e", "-f", "--expression", "--file"}))
    files = operands if script_given else operands[1:]
    scripts = (
        [w.value for w in operands[:1]]
        if not script_given
        else [inv.values[i + 1] for i, v in enumerate(inv.values[:-1]) if v in ("-e", "--expression")]
    )
    scripts += [v.split("=", 1)[1] for v in inv.values if v.startswith("--expression=")]
    if inv.has("-f", "--file"):
        a.flag(Risk.MEDIUM, "sed -f runs a script file that may write files or run commands")
    for script in scripts:
        _sed_script(a, inv, script)
    if in_place:
        a.flag(Risk.MEDIUM, "sed -i edits files in place")
        for word in files:
            a.write_path(word, inv.cwd)
        return
    a.flag(Risk.LOW, "sed only prints")
    for word in files:
        a.read_path(word, inv.cwd)


#: `s/x/y/FLAGS [file]` and the one-letter commands that run (`e`), write (`w`/`W`) or read (`r`/`R`).
_SED_SUBSTITUTE = re.compile(r"s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([gpIiMme0-9]*w?)[ \t]*([^;\n}]*)")
_SED_ADDRESS = r"(?:\d+|\$|/[^/]*/)?"
_SED_COMMAND = re.compile(
    rf"(?:^|[;\n{{}}]|\s)\s*{_SED_ADDRESS},?{_SED_ADDRESS}\s*([eEwWrR])(?:\s+([^;\n}}]*)|(?=[;\n}}]|$))"
)


def _sed_script(a: Analysis, inv: Invocation, script: str) -> None:
    for match in _SED_SUBSTITUTE.finditer(script):
        flags, target = match.group(2), match.group(3).strip()
        if "e" in flags:
            a.flag(Risk.HIGH, "sed s///e runs the result of the substitution as a shell command")
        if flags.endswith("w") and target:
            a.flag(Risk.MEDIUM, "sed s///w writes a file")
            a.write_path(_word(target), inv.cwd)
    without_substitutions = _SED_SUBSTITUTE.sub(" ", script)
    for match in _SED_COMMAND.finditer(without_substitutions):
        command, argument = match.group(1), (match.group(2) or "").strip()
        if command in "eE":
            a.flag(Risk.HIGH, "the sed e command runs a shell command")
            if argument:
                a.nested_shell(argument, inv.cwd, "sed e")
        elif command in "wW" and argument:
            a.flag(Risk.MEDIUM, "the sed w command writes a file")
            a.write_path(_word(argument), inv.cwd)
        elif command in "rR" and argument:
            a.read_path(_word(argument), inv.cwd)


def _may_name_secrets(pattern: str) -> bool:
    """Whether a name pattern (`.env*`, `*.pem`, `id_rsa?`) matches names secrets are kept under."""
    samples = {pattern.replace("*", fill).replace("?", "x") for fill in ("", ".local", "x")}
    return any(is_secret_name(sample) for sample in samples)


def find(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.LOW, "find lists files")
    values = inv.values
    roots = []
    for word in inv.args:
        if word.value.startswith(("-", "(", "!", ")")):
            break
        roots.append(word)
    for root in roots or [_word(".")]:
        a.read_path(root, inv.cwd)
    names = [
        values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-name", "-iname", "-path", "-ipath", "-wholename")
    ]
    secret_names = [n for n in names if _may_name_secrets(n.rsplit("/", 1)[-1])]
    if secret_names and inv.command.pipe_length > inv.command.pipe_index + 1:
        a.flag(Risk.HIGH, f"find passes the names of secret files ({', '.join(secret_names)}) to the next command")
    for index, value in enumerate(values):
        if value == "-delete":
            a.flag(Risk.HIGH, "find -delete deletes every file it matches")
            for root in roots or [_word(".")]:
                a.write_path(root, inv.cwd)
        elif value in ("-exec", "-execdir", "-ok", "-okdir"):
            inner = []
            for word in inv.args[index + 1 :]:
                if word.value in (";", "+"):
                    break
                inner.append(word)
            if inner:
                note_placeholder(a, "{}")  # each file found: `-exec cp x.pth {} ;` writes into every match
                a.nested_invocation(inner, inv)
            if secret_names and inner:
                # `find . -name '.env*' -exec cat {} ;`: what it runs is handed the secret files
                a.flag(
                    Risk.HIGH, f"find hands files named like secrets ({', '.join(secret_names)}) to {inner[0].value}"
                )
        elif value.startswith(("-fprint", "-fls")):
            a.flag(Risk.MEDIUM, f"find {value} writes a file")
            if index + 1 < len(values):
                a.write_path(inv.args[index + 1], inv.cwd)


def tar(a: Analysis, inv: Invocation) -> None:
    """tar writes where it is told (`-C`), can keep absolute names (`-P`) and can run programs
    (`--to-command`, `-I`, `--use-compress-program`, `--checkpoint-action=exec`)."""
    values = inv.values
    runs = words("""
        --to-command --use-compress-program --checkpoint-action --info-script --new-volume-script
        --rsh-command -F -I
    """)
    if any(v.split("=", 1)[0] in runs for v in values) or any(v.startswith("-I") and len(v) > 2 for v in values):
        a.flag(Risk.HIGH, "tar runs another program (--to-command, -I, a checkpoint action)")
    if inv.has("-P", "--absolute-names"):
        a.flag(Risk.HIGH, "tar -P keeps absolute paths: it can write anywhere")
    for index, value in enumerate(values):
        if value in ("-C", "--directory") and index + 1 < len(values):
            a.write_path(inv.args[index + 1], inv.cwd)
        elif value.startswith("--directory="):
            a.write_path(_word(value.split("=", 1)[1]), inv.cwd)
    archives = [
        values[i + 1]
        for i, v in enumerate(values[:-1])
        if v in ("-f", "--file") or (v.startswith("-") and v.endswith("f") and not v.startswith("--"))
    ]
    old_style = values[0] if values and not values[0].startswith("-") else ""  # `tar czf out.tgz .`
    if "f" in old_style and len(values) > 1:
        archives.append(values[1])
    creates = inv.has("-c", "--create", "-r", "--append", "-u", "--update") or bool({"c", "r", "u"} & set(old_style))
    for archive in archives:
        # the archive it makes is a file written where it says (`tar czf /elsewhere/src.tgz .`)
        (a.write_path if creates else a.read_path)(_word(archive), inv.cwd)
