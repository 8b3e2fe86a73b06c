"""What the rules know about programs, as data: `programs.toml`, one entry per program, read and
checked here; `program_rules.py` applies an entry to a command.

An entry says how to read the program's command line (which options take a value, which
subcommands hold another subcommand), what each subcommand risks (with a stable rule id and a
reason), what its operands are (files it reads or writes, code it runs, URLs, secrets), which
code check judges what data cannot say (`checks.py`), and examples that must and must never
get its verdicts. Everything is checked when the table loads: an unknown key, a bad risk, a
check that does not exist, an id used twice is an error naming the file and the entry. TOML
itself refuses a program written twice.

A user's own `programs.toml` (in tui's config folder) adds programs and tightens entries: its
verdicts can raise a built-in one, never lower it, and it can add value options (which only
make more readings of a command line be judged)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.files.toml_file import TomlFileError, parse_toml, read_toml
from openhands_tui.sdk.files.xdg import config_base

#: What an operand can be; each role has one judgement in `program_rules.py`.
ROLES = ("read", "write", "run", "url", "secret")
_ID = re.compile(r"^[a-z0-9][a-z0-9+._:-]*$")
_RISKS = {"low": Risk.LOW, "medium": Risk.MEDIUM, "high": Risk.HIGH}
_ENTRY_KEYS = {
    "check",
    "risk",
    "id",
    "reason",
    "operands",
    "value_options",
    "nesting",
    "tasks",
    "options",
    "subcommands",
    "examples",
}
_VERDICT_KEYS = {"risk", "id", "reason", "operands", "match", "never"}
_EXAMPLE_KEYS = {"match", "never"}


class ProgramTableError(SettingsError):
    """A table that cannot be used: the message names the file, the entry and the cause."""


@dataclass(frozen=True)
class Verdict:
    """What one use of a program risks: a subcommand's (`npm publish`) or the whole program's."""

    risk: Risk
    id: str
    reason: str
    #: The role of the words after it (or of the program's operands), if it has one.
    operands: str = ""
    #: Command lines that must get this verdict, and ones that must not (checked by a test).
    match: tuple[str, ...] = ()
    never: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProgramEntry:
    name: str
    #: The code check that judges what data cannot (a name in `checks.py`), or "".
    check: str = ""
    #: A verdict for every use of the program (before its subcommands' own).
    verdict: Verdict | None = None
    #: Options (anywhere before `--`) whose value is the next word: `npm --workspace pkg`.
    value_options: frozenset[str] = frozenset()
    #: Subcommands that take N words and then another subcommand: `yarn workspace web publish`.
    nesting: dict[str, int] = field(default_factory=dict)
    #: Whether every word is a subcommand of its own (build tools' tasks: `gradle clean publish`).
    tasks: bool = False
    #: Subcommand words ("publish", "release create") -> verdict.
    subcommands: dict[str, Verdict] = field(default_factory=dict)
    #: Options that matter by themselves (`fd -x CMD`, `tree -o FILE`) -> verdict; the verdict's
    #: `operands` is the role of the option's value (`run`: the words after it are a command).
    options: dict[str, Verdict] = field(default_factory=dict)
    #: Where the entry was read from (for messages).
    source: str = ""

    @property
    def grammar(self) -> bool:
        """Whether the entry says how to read the command line (else its check reads it)."""
        return bool(self.value_options or self.subcommands or self.nesting or self.tasks)

    @property
    def rule(self) -> str:
        """The id findings of the entry's code check get (`package-manager:npm`)."""
        return f"{self.check.replace('_', '-')}:{self.name}"

    def verdicts(self) -> list[Verdict]:
        own = [self.verdict] if self.verdict else []
        return own + list(self.subcommands.values()) + list(self.options.values())


@dataclass(frozen=True)
class ProgramTable:
    entries: dict[str, ProgramEntry]

    def get(self, name: str) -> ProgramEntry | None:
        return self.entries.get(name)

    def tightened_by(self, other: ProgramTable) -> ProgramTable:
        """This table with `other`'s entries added, and its verdicts raising (never lowering)
        the ones here: a user's table."""
        merged = dict(self.entries)
        for name, theirs in other.entries.items():
            ours = merged.get(name)
            merged[name] = theirs if ours is None else _tighten(ours, theirs)
        return ProgramTable(merged)


def _raises(theirs: Verdict, ours: Verdict | None) -> bool:
    return ours is None or theirs.risk.severity >= ours.risk.severity


def _tighten(ours: ProgramEntry, theirs: ProgramEntry) -> ProgramEntry:
    subcommands = dict(ours.subcommands)
    for words, raised in theirs.subcommands.items():
        mine = subcommands.get(words)
        if mine is None or raised.risk.severity >= mine.risk.severity:
            subcommands[words] = raised
    verdict = ours.verdict
    if theirs.verdict and (verdict is None or theirs.verdict.risk.severity >= verdict.risk.severity):
        verdict = theirs.verdict
    return replace(
        ours,
        verdict=verdict,
        value_options=ours.value_options | theirs.value_options,
        nesting={**ours.nesting, **theirs.nesting},
        tasks=ours.tasks or theirs.tasks,
        options={**ours.options, **{k: v for k, v in theirs.options.items() if _raises(v, ours.options.get(k))}},
        subcommands=subcommands,
    )


def parse_table(text: str, source: str, checks: frozenset[str]) -> ProgramTable:
    """The table in `text` (read from `source`), checked; `checks` are the code checks that exist."""
    try:
        data = parse_toml(text, source)
    except TomlFileError as error:
        raise ProgramTableError(str(error)) from None
    return _table(data, source, checks)


def _table(data: dict[str, Any], source: str, checks: frozenset[str]) -> ProgramTable:
    programs = data.pop("programs", None)
    if data:
        raise ProgramTableError(f"{source}: unknown top-level key(s) {', '.join(sorted(data))} (only [programs])")
    if not isinstance(programs, dict):
        raise ProgramTableError(f"{source}: no [programs] table")
    entries = {name: _entry(name, raw, source, checks) for name, raw in programs.items()}
    seen: dict[str, str] = {}
    for entry in entries.values():
        for verdict in entry.verdicts():
            owner = seen.setdefault(verdict.id, entry.name)
            if owner != entry.name and not _shared_id(verdict.id, entries, owner, entry.name):
                raise ProgramTableError(f"{source}: [programs.{entry.name}] reuses rule id {verdict.id!r} of {owner}")
    return ProgramTable(entries)


def _shared_id(rule: str, entries: dict[str, ProgramEntry], first: str, second: str) -> bool:
    """A family may share one id only when both entries say the same thing under it (the
    partition tools, `mkfs` and `fdisk`): the id then names one rule."""
    a = [v for v in entries[first].verdicts() if v.id == rule]
    b = [v for v in entries[second].verdicts() if v.id == rule]
    return all((x.risk, x.reason) == (y.risk, y.reason) for x in a for y in b)


def _entry(name: str, raw: Any, source: str, checks: frozenset[str]) -> ProgramEntry:
    where = f"{source}: [programs.{name}]"
    if not isinstance(raw, dict):
        raise ProgramTableError(f"{where}: an entry is a table")
    if not name or "/" in name or any(c.isspace() for c in name):
        raise ProgramTableError(f"{where}: a program name has no spaces or slashes")
    unknown = set(raw) - _ENTRY_KEYS
    if unknown:
        raise ProgramTableError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    check = raw.get("check", "")
    if check and check not in checks:
        raise ProgramTableError(f"{where}: no check named {check!r}")
    verdict = None
    if "risk" in raw or "id" in raw or "reason" in raw:
        flat = {k: raw[k] for k in ("risk", "id", "reason", "operands") if k in raw}
        examples = raw.get("examples", {})
        if not isinstance(examples, dict) or set(examples) - _EXAMPLE_KEYS:
            raise ProgramTableError(f"{where}: examples is a table of match = [...] and never = [...]")
        verdict = _verdict({**flat, **examples}, where, name)
    elif "operands" in raw:
        raise ProgramTableError(f"{where}: operands need a risk, id and reason")
    elif "examples" in raw:
        raise ProgramTableError(f"{where}: examples belong to a verdict (risk, id, reason) or a subcommand")
    if not check and verdict is None and not raw.get("subcommands") and not raw.get("options"):
        raise ProgramTableError(f"{where}: says nothing (give a check, a verdict or subcommands)")
    options = _strings(raw.get("value_options", []), f"{where}: value_options")
    if any(not o.startswith(("-", "+")) for o in options):
        raise ProgramTableError(f"{where}: value_options are options (they start with - or +)")
    nesting = raw.get("nesting", {})
    if not isinstance(nesting, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 4 and k.split() and k == " ".join(k.split())
        for k, n in nesting.items()
    ):
        raise ProgramTableError(f"{where}: nesting maps a subcommand (words) to how many words it takes (0-4)")
    tasks = raw.get("tasks", False)
    if not isinstance(tasks, bool):
        raise ProgramTableError(f"{where}: tasks is true or false")
    options_raw = raw.get("options", {})
    if not isinstance(options_raw, dict):
        raise ProgramTableError(f"{where}: options is a table")
    option_verdicts = {}
    for option, body in options_raw.items():
        if not option.startswith("-") or "=" in option or any(c.isspace() for c in option):
            raise ProgramTableError(f"{where}: option {option!r} is an option (-x or --name, no value)")
        option_verdicts[option] = _verdict(body, f"{where} option {option!r}", name)
    subs_raw = raw.get("subcommands", {})
    if not isinstance(subs_raw, dict):
        raise ProgramTableError(f"{where}: subcommands is a table")
    subcommands = {}
    for words, body in subs_raw.items():
        if not words.strip() or words != " ".join(words.split()):
            raise ProgramTableError(f"{where}: subcommand {words!r} is words separated by one space")
        subcommands[words] = _verdict(body, f"{where} subcommand {words!r}", name)
    return ProgramEntry(
        name=name,
        check=check,
        verdict=verdict,
        value_options=frozenset(options),
        nesting=dict(nesting),
        tasks=tasks,
        subcommands=subcommands,
        options=option_verdicts,
        source=source,
    )


def _verdict(raw: Any, where: str, program: str) -> Verdict:
    if not isinstance(raw, dict):
        raise ProgramTableError(f"{where}: a verdict is a table of risk, id and reason")
    unknown = set(raw) - _VERDICT_KEYS
    if unknown:
        raise ProgramTableError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    missing = [k for k in ("risk", "id", "reason") if not isinstance(raw.get(k), str) or not raw.get(k)]
    if missing:
        raise ProgramTableError(f"{where}: needs {', '.join(missing)} (text)")
    risk = _RISKS.get(raw["risk"].lower())
    if risk is None:
        raise ProgramTableError(f"{where}: risk is low, medium or high, not {raw['risk']!r}")
    if not _ID.match(raw["id"]):
        raise ProgramTableError(f"{where}: rule id {raw['id']!r} is lower-case letters, digits and . _ + - :")
    operands = raw.get("operands", "")
    if operands and operands not in ROLES:
        raise ProgramTableError(f"{where}: operands is one of {', '.join(ROLES)}, not {operands!r}")
    match = _strings(raw.get("match", []), f"{where}: match")
    never = _strings(raw.get("never", []), f"{where}: never")
    return Verdict(risk, raw["id"], raw["reason"], operands, tuple(match), tuple(never))


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ProgramTableError(f"{where} is a list of non-empty strings")
    return value


@cache
def builtin_table() -> ProgramTable:
    """The table shipped with tui (read once; it is knowledge, not per-session state)."""
    from openhands_tui.sdk.security.checks import CHECKS

    text = resources.files("openhands_tui.sdk.security").joinpath("programs.toml").read_text(encoding="utf-8")
    return parse_table(text, "programs.toml", frozenset(CHECKS))


def user_programs_file() -> Path:
    return config_base() / "openhands-tui" / "programs.toml"


def session_programs(path: Path | None = None) -> ProgramTable:
    """The table a session judges with: the built-in one tightened by the user's own (at
    `path`, by default in tui's config folder). Raises ProgramTableError for a user's table
    that cannot be used, so the session does not start with rules the user did not mean."""
    table = builtin_table()
    theirs = user_table(path or user_programs_file())
    return table if theirs is None else table.tightened_by(theirs)


def user_table(path: Path) -> ProgramTable | None:
    """The user's own table at `path`, or None if there is none; a table that cannot be used
    raises ProgramTableError naming the file and the cause."""
    from openhands_tui.sdk.security.checks import CHECKS

    try:
        data = read_toml(path, missing_ok=True)
    except TomlFileError as error:
        raise ProgramTableError(str(error)) from None
    return _table(data, str(path), frozenset(CHECKS)) if data else None
