"""One program invocation as the rules see it, and the interface rules use to report."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.shell.syntax import SimpleCommand, Word


@dataclass(frozen=True)
class Finding:
    risk: Risk
    reason: str
    #: The stable id of the rule that found it (`npm.publish`, `path:secret`), shown with the
    #: reason and asserted by tests instead of its prose.
    rule: str = ""


@dataclass
class Invocation:
    """`name` is the program's base name (`/usr/bin/rm` -> `rm`); `args` its words."""

    name: str
    args: list[Word]
    command: SimpleCommand
    cwd: str
    #: Names of the other programs in the same pipeline, by position.
    pipeline: list[str] = field(default_factory=list)
    #: Where in `args` the program table's grammar reads the subcommand (None: not known).
    subcommand_at: int | None = None
    #: The options that take a value, as the program table declares them for this program
    #: (None: an invocation the table did not make, e.g. `python -m MODULE`'s).
    value_options: frozenset[str] | None = None

    @property
    def subcommand(self) -> str:
        """The subcommand as the program's grammar reads it (`npm --workspace pkg publish` ->
        `publish`); without one, the first word that is no option."""
        if self.subcommand_at is not None:
            return self.args[self.subcommand_at].value
        return next((v for v in self.values if not v.startswith("-")), "")

    @property
    def subcommands(self) -> list[str]:
        """The words from the subcommand on that are no options (`gh release create v1`)."""
        start = self.subcommand_at
        if start is None:
            return [v for v in self.values if not v.startswith("-")]
        return [w.value for w in self.args[start:] if not w.value.startswith("-")]

    @property
    def values(self) -> list[str]:
        return [arg.value for arg in self.args]

    @property
    def flags(self) -> set[str]:
        """Every flag, with short clusters split (`-rf` -> `-r`, `-f`) and `--x=y` cut to `--x`."""
        found: set[str] = set()
        for value in self.values:
            if value == "--":
                break
            if value.startswith("--"):
                found.add(value.split("=", 1)[0])
            elif value.startswith("-") and len(value) > 1 and not value[1].isdigit():
                found.update(f"-{char}" for char in value[1:])
        return found

    def has(self, *flags: str) -> bool:
        return bool(self.flags & set(flags))

    def operands(self, takes_value: frozenset[str] = frozenset()) -> list[Word]:
        """Arguments that are not flags (nor the values of flags listed in `takes_value`)."""
        result: list[Word] = []
        skip = False
        only_operands = False
        for arg in self.args:
            if skip:
                skip = False
                continue
            if only_operands or not arg.value.startswith("-") or arg.value == "-":
                result.append(arg)
            elif arg.value == "--":
                only_operands = True
            elif arg.value in takes_value:
                skip = True
        return result

    def command_words(self, takes_value: frozenset[str] = frozenset()) -> list[Word]:
        """For wrappers (`sudo`, `env`, `xargs`...): the wrapped command, from its name on,
        with every word after the name kept as it is (its own flags included)."""
        skip = False
        for index, arg in enumerate(self.args):
            if skip:
                skip = False
            elif arg.value == "--":
                return self.args[index + 1 :]
            elif not arg.value.startswith("-") or arg.value == "-":
                return self.args[index:]
            elif arg.value in takes_value:
                skip = True
        return []

    @property
    def stdin_is_piped(self) -> bool:
        return (
            self.command.pipe_index > 0
            or self.command.heredoc is not None
            or any(r.op in ("<", "<<<") for r in self.command.redirects)
        )


class Analysis(Protocol):
    """What a rule can do: report, judge paths, and analyze nested commands or code."""

    #: Facts one part of a command line leaves for later parts (e.g. remotes it added).
    facts: dict[str, set[str]]

    def flag(self, risk: Risk, reason: str, rule: str = "") -> None: ...

    def ruled(self, rule: str) -> AbstractContextManager[None]:
        """Findings flagged inside without a rule id of their own get `rule`."""
        ...

    def read_path(self, word: Word, cwd: str) -> None: ...

    def write_path(self, word: Word, cwd: str) -> None: ...

    def nested_shell(
        self, code: str, cwd: str, origin: str, own_process: bool = False, positional: list[Word] | None = None
    ) -> None: ...

    def nested_invocation(self, words: list[Word], parent: Invocation) -> None: ...

    def path_is_inside(self, value: str, cwd: str) -> bool: ...


#: The fact naming the text that stands for a name only known at run time in a command another
#: program runs: find's `{}`, xargs's replace-string (`-I X`), or the input xargs appends.
PLACEHOLDERS_FACT = "placeholders"
#: The fact holding the whole command line, for evidence a rule needs from elsewhere in it.
LINE_FACT = "line"
#: What xargs appends to the command it runs (input it has not seen yet).
XARGS_INPUT = "{xargs input}"


def note_placeholder(a: Analysis, text: str) -> None:
    """`text` in the words of a command about to be judged is a name filled in at run time."""
    a.facts.setdefault(PLACEHOLDERS_FACT, set()).add(text)


def holds_placeholder(a: Analysis, word: Word) -> bool:
    """Whether `word` is (or contains) a name filled in at run time (`{}`, `{}/x.pth`)."""
    return any(text in word.value for text in a.facts.get(PLACEHOLDERS_FACT, ()))


def words(text: str) -> tuple[str, ...]:
    """A table of names written as whitespace-separated text (keeps long tables readable)."""
    return tuple(text.split())


#: A rule for one program: it reports findings through the analysis; it returns nothing.
Handler = Callable[[Analysis, Invocation], None]
