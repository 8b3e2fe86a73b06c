"""What the shell parser hands the rules: each simple command a line would run, its words as
bash evaluates them (as far as that can be known without running anything), its assignments
and redirections, and facts about the line as a whole. `shell_syntax` builds these.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Word:
    value: str
    plain: bool = True  # one unquoted literal word: the only acceptable form for a command name
    static: bool = True  # the value is fully known without running anything
    variables: list[str] = field(default_factory=list)
    substituted: bool = False  # holds $(...), `...` or <(...)
    glob: bool = False  # an unquoted * ? or [: bash replaces it with the matching file names
    #: Values a word that is not static may take that are known now (`${x:-.env}` is `.env`
    #: unless x is set): judged as well as the unknown word, never instead of it.
    candidates: list[str] = field(default_factory=list)
    split: bool = False  # holds an unquoted expansion: bash splits its value on IFS and expands patterns in it


@dataclass
class Redirect:
    op: str
    target: Word | None  # None for descriptor duplication such as 2>&1


@dataclass
class SimpleCommand:
    words: list[Word] = field(default_factory=list)
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    appended: set[str] = field(default_factory=set)  # names assigned with `+=` (`x+=nv` adds to x)
    redirects: list[Redirect] = field(default_factory=list)
    heredoc: str | None = None
    pipe_index: int = 0
    pipe_length: int = 1
    nested: bool = False

    @property
    def name(self) -> Word | None:
        return self.words[0] if self.words else None

    @property
    def args(self) -> list[Word]:
        return self.words[1:]


@dataclass
class ParsedShell:
    commands: list[SimpleCommand]
    error: str | None = None
    #: Names of shell functions the text defines (they would run whenever the name is typed).
    functions: list[str] = field(default_factory=list)
    #: Text bash would evaluate as code later, though it looks like data now (`${x@P}`,
    #: `'a[$(cmd)]'` read in arithmetic): each entry says where.
    deferred_code: list[str] = field(default_factory=list)
    #: The words `for x in ...` loops over (`.env*`): what the loop body's `$x` will be.
    loop_values: list[Word] = field(default_factory=list)
    #: Functions whose body calls the function itself (the shape of a fork bomb).
    recursive: list[str] = field(default_factory=list)
    #: Each loop's variable and the words it takes (`for f in ~/.bashrc x` -> f: [~/.bashrc, x]).
    loop_variables: dict[str, list[Word]] = field(default_factory=dict)
