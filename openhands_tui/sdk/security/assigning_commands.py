"""Commands that set a shell variable (or a pattern option) the rest of the line then uses.

`printf -v x .env; cat $x`, `read x <<< .env; cat $x` and `declare x=.xnv; cat ${x/x/e}` read
`.env` as surely as `x=.env; cat $x` does; the rules follow a variable's value only when they
know it, so these commands say what they set. A variable such a command sets to something
not known here is reported as unknown, which also forgets a value set before it.
"""

from __future__ import annotations

from openhands_tui.sdk.shell.syntax import SimpleCommand, Word

#: The fact naming the shell options this line turned on that change what a pattern (or a
#: `cd`) names.
GLOB_FACT = "glob options"
_GLOB_OPTIONS = frozenset({"dotglob", "nocaseglob", "cdable_vars"})  # cdable_vars: `cd h` goes to $h
_DECLARES = frozenset({"declare", "typeset", "export", "local", "readonly"})
#: `read` options that take a value (`read -p 'name? ' x`).
_READ_VALUE_OPTIONS = frozenset({"-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"})


def assigned_values(command: SimpleCommand) -> dict[str, set[str]]:
    """Each variable `command` sets, with the values it may take (empty: not known)."""
    if not command.words or not command.words[0].plain:
        return {}
    program, args = command.words[0].value, command.words[1:]
    if program == "printf":
        return _printf(args)
    if program == "read":
        return _read(args, command)
    if program in _DECLARES:
        found: dict[str, set[str]] = {}
        for arg in args:
            name, sign, value = arg.value.partition("=")
            if sign and not name.startswith("-") and name.isidentifier():
                found[name] = {value} if arg.static else set(arg.candidates)
        return found
    return {}


def _printf(args: list[Word]) -> dict[str, set[str]]:
    if len(args) < 3 or args[0].value != "-v":
        return {}
    name, form, rest = args[1].value, args[2], args[3:]
    if not form.static:
        return {name: set()}
    if "%" not in form.value and "\\" not in form.value:
        return {name: {form.value}}
    if form.value == "%s" and len(rest) == 1 and rest[0].static:
        return {name: {rest[0].value}}
    return {name: set()}


def _read(args: list[Word], command: SimpleCommand) -> dict[str, set[str]]:
    names: list[str] = []
    raw = False
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.value in _READ_VALUE_OPTIONS:
            skip = True
        elif arg.value.startswith("-"):
            raw = raw or "r" in arg.value
        else:
            names.append(arg.value)
    given = next((r.target for r in command.redirects if r.op == "<<<"), None)
    if given is None or not given.static or len(names) != 1:
        return {name: set() for name in names or ["REPLY"]}
    line = given.value.split("\n", 1)[0].strip(" \t")
    return {names[0]: {line if raw else line.replace("\\", "")}}


def glob_options(command: SimpleCommand) -> set[str]:
    """`shopt -s dotglob` (a `*` matches `.env`) and `nocaseglob` (`.ENV*` does), when `command`
    turns them on."""
    words = [w.value for w in command.words]
    if words[:1] != ["shopt"] or "-s" not in words:
        return set()
    return set(_GLOB_OPTIONS & set(words))
