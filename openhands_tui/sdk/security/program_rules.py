"""The small interpreter of the program table: how one entry of `programs.toml` judges one
invocation.

Reading a command line: options named in the entry's `value_options` take the next word
(`npm --workspace pkg publish`), `--opt=value` and `-Xvalue` carry theirs, and the first other
word is the subcommand. An option the entry does not know may or may not take a value, so the
word after it is read both ways (`npm --loglevel silly publish`: the subcommand is `silly` or
`publish`), and every reading is judged: the strictest wins. A subcommand listed in `nesting`
takes some words and then another subcommand (`yarn workspace web npm publish`); for a build
tool whose words are tasks (`tasks = true`), each word is matched (`gradle clean publish`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.checks import CHECKS, READS_SUBCOMMAND
from openhands_tui.sdk.security.invocation import Analysis, Invocation
from openhands_tui.sdk.security.program_table import ProgramEntry, Verdict
from openhands_tui.sdk.shell.syntax import Word


def judge_program(a: Analysis, inv: Invocation, entry: ProgramEntry) -> None:
    """Every verdict of `entry` that applies to `inv`, then its code check (once per reading of
    the command line when the entry's grammar cannot tell them apart)."""
    if entry.verdict is not None:
        _apply(a, inv, entry.verdict, inv.operands(entry.value_options))
    if entry.options:
        _judge_options(a, inv, entry)
    inv = replace(inv, value_options=entry.value_options)
    if not entry.grammar or not (entry.subcommands or entry.nesting or entry.tasks or entry.check in READS_SUBCOMMAND):
        # nothing to read as a subcommand: the check runs once
        if entry.check:
            with a.ruled(entry.rule):
                CHECKS[entry.check](a, inv)
        return
    starts = readings(entry, inv.args)
    matched = False
    for start in starts:
        for verdict, after in matched_subcommands(entry, inv.args, start):
            _apply(a, inv, verdict, after)
            matched = True
    if not matched and entry.verdict is None and not entry.check:
        # an entry of subcommands only (a user's, say): what it does not list is not known to be harmless
        sub = inv.args[starts[0]].value if starts else ""
        a.flag(
            Risk.MEDIUM,
            f"{inv.name} {sub}: the program table lists no verdict for it".replace(" :", ":"),
            rule=f"program:unlisted:{entry.name}",
        )
    if entry.check:
        check = CHECKS[entry.check]
        readings_of: list[int | None] = [*starts] or [None]
        for reading in readings_of:
            with a.ruled(entry.rule):
                check(a, replace(inv, subcommand_at=reading))


def _judge_options(a: Analysis, inv: Invocation, entry: ProgramEntry) -> None:
    """Each option the entry names (`tree -o FILE`, `fd -x CMD ;`): its verdict, and its value
    judged by role (for `run`, the words after it up to `;` or `+` are a command)."""
    args = inv.args
    for index, word in enumerate(args):
        value = word.value
        if value == "--":
            break
        if not value.startswith("-"):
            continue
        name, attached = value, None
        if "=" in value and value.startswith("--"):
            name, attached = value.split("=", 1)
        elif value not in entry.options and not value.startswith("--") and value[:2] in entry.options:
            name, attached = value[:2], value[2:]  # -ofile
        verdict = entry.options.get(name)
        if verdict is None:
            continue
        a.flag(verdict.risk, verdict.reason.replace("{name}", inv.name), rule=verdict.id)
        if verdict.operands == "run":
            rest = args[index + 1 :]
            end = next((i for i, w in enumerate(rest) if w.value in (";", "\\;", "+")), len(rest))
            if rest[:end]:
                a.nested_invocation(rest[:end], inv)
        elif verdict.operands:
            target = [Word(attached)] if attached is not None else args[index + 1 : index + 2]
            _apply_role(a, inv, verdict, target)


def readings(entry: ProgramEntry, args: list[Word]) -> list[int]:
    """The indexes in `args` where the subcommand may be: the first word that is no option and
    no option's value, and, after an option of unknown arity, the next such word too."""
    starts: list[int] = []
    unsure = False
    index = 0
    while index < len(args):
        value = args[index].value
        if value == "--":
            break
        if _is_option(value, before_subcommand=not starts):
            known, takes = _option_arity(entry, value)
            unsure = not known
            index += 2 if takes else 1
            continue
        starts.append(index)
        if not unsure:
            break
        unsure = False
        index += 1
    return starts


def matched_subcommands(entry: ProgramEntry, args: list[Word], start: int) -> list[tuple[Verdict, list[Word]]]:
    """The verdicts of the subcommands the words from `start` spell (longest first, then any
    nested one), each with the words after it."""
    words, positions = _positional(entry, args, start)
    found: list[tuple[Verdict, list[Word]]] = []
    offset = 0
    while offset < len(words):
        rest = words[offset:]
        best = _longest(entry.subcommands, rest)
        if best is not None:
            count = len(best.split())
            after = args[positions[offset + count - 1] + 1 :] if offset + count <= len(positions) else []
            found.append((entry.subcommands[best], [w for w in after if not _is_option(w.value, False)]))
        nest = _longest(entry.nesting, rest)
        if nest is not None:
            offset += len(nest.split()) + entry.nesting[nest]
        elif entry.tasks:  # `gradle clean build publish`: each word is a task of its own
            offset += 1
        else:
            break
    return found


def _positional(entry: ProgramEntry, args: list[Word], start: int) -> tuple[list[str], list[int]]:
    """The words from `start` that are neither options nor known options' values."""
    words: list[str] = []
    positions: list[int] = []
    index = start
    while index < len(args):
        value = args[index].value
        if value == "--":
            break
        if _is_option(value, before_subcommand=False):
            index += 2 if _option_arity(entry, value)[1] else 1
            continue
        words.append(value)
        positions.append(index)
        index += 1
    return words, positions


def _longest(table: Mapping[str, object], words: list[str]) -> str | None:
    best = None
    for key in table:
        parts = key.split()
        if words[: len(parts)] == parts and (best is None or len(parts) > len(best.split())):
            best = key
    return best


def _is_option(value: str, before_subcommand: bool) -> bool:
    """`-x`, `--x`, and (before the subcommand) a toolchain pick like cargo's `+nightly`."""
    if value.startswith("-") and value != "-":
        return True
    return before_subcommand and value.startswith("+") and len(value) > 1


def _option_arity(entry: ProgramEntry, value: str) -> tuple[bool, bool]:
    """Whether the entry knows how `value` (an option) is used, and whether it takes the next
    word as its value."""
    if "=" in value:  # --opt=value, terraform's -chdir=dir
        return True, False
    if value in entry.value_options:
        return True, True
    if not value.startswith("--") and len(value) > 2 and value[:2] in entry.value_options:
        return True, False  # -Cweb: the value is attached
    return False, False


def _apply(a: Analysis, inv: Invocation, verdict: Verdict, operands: list[Word]) -> None:
    a.flag(verdict.risk, verdict.reason.replace("{name}", inv.name), rule=verdict.id)
    _apply_role(a, inv, verdict, operands)


def _apply_role(a: Analysis, inv: Invocation, verdict: Verdict, operands: list[Word]) -> None:
    """Judge `operands` as the verdict's role says: files read or written, a command, URLs, secrets."""
    role = verdict.operands
    if role == "read":
        for word in operands:
            a.read_path(word, inv.cwd)
    elif role == "write":
        for word in operands:
            a.write_path(word, inv.cwd)
    elif role == "run" and operands:
        a.nested_invocation(operands, inv)
    elif role == "url":
        for word in operands:
            if "://" not in word.value and not _LOCAL.match(word.value):
                a.read_path(word, inv.cwd)  # a local file named where a URL may stand
    elif role == "secret" and operands:
        a.flag(
            Risk.HIGH, f"{inv.name} takes a secret on its command line (other processes can read it)", rule=verdict.id
        )


_LOCAL = re.compile(r"^[\w.-]+@[\w.-]+:|^[\w.-]+:\d+$")
