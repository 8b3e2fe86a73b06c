"""Rating a shell command: parse it, follow every part, let the strictest finding win.

Each simple command the parser finds (including those inside substitutions, subshells,
`bash -c` strings, heredocs, `find -exec`, `xargs` and wrappers like `sudo` or `env`) goes to
the rule for its program; redirections and path arguments are judged by where they point,
following `cd` between the parts of a list. A command name that is not a plain word is
HIGH (it is only known at run time), and so is anything the parser cannot read.
"""

from __future__ import annotations

import glob as globmod
import os
import re
from collections.abc import Callable

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.files.read import read_head
from openhands_tui.sdk.security import npm_scripts
from openhands_tui.sdk.security.assigning_commands import GLOB_FACT, assigned_values, glob_options
from openhands_tui.sdk.security.code_checks import writes_startup_file
from openhands_tui.sdk.security.downloads import PLACE_INDEPENDENT, flag_runs_download, note_fetched_output
from openhands_tui.sdk.security.invocation import LINE_FACT, Finding, Invocation, holds_placeholder, words
from openhands_tui.sdk.security.paths import PathJudge
from openhands_tui.sdk.security.program_rules import judge_program
from openhands_tui.sdk.security.program_table import ProgramTable, builtin_table
from openhands_tui.sdk.security.secret_operands import flag_secret_operands
from openhands_tui.sdk.security.shell_state import SECRET_VARIABLE, check_assignment
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.security.word_expansion import brace_alternatives, with_known_variables
from openhands_tui.sdk.shell.syntax import ParsedShell, SimpleCommand, Word, parse_shell
from openhands_tui.sdk.shell.words import has_glob

_SYSTEM_BIN_DIRS = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/", "/opt/homebrew/bin/")
_MAX_DEPTH = 8
#: Shell keywords are never programs. Seen in program position, the parser and bash disagree
#: about the command (`env X=1 if ...; then rm ...`), so we fail closed.
_KEYWORDS = frozenset(
    words("""
    if then else elif fi do done case esac while until for in function select { } ! [[ ]] coproc
""")
)


#: Facts naming what a variable was set to earlier in the same line (`f=~/.bashrc; ... $f`).
_VARIABLE_FACT = "variable "
_SOURCE_FACT = "source "
#: How many of a loop's values the body's paths are judged with (`for f in *`: the first ones).
_LOOP_VALUES = 50


class CommandAnalysis:
    """Findings for one command line (and everything nested in it)."""

    def __init__(self, judge: PathJudge, cwd: str, depth: int = 0, programs: ProgramTable | None = None) -> None:
        self.judge = judge
        self.cwd = cwd
        self.depth = depth
        self.programs = programs or builtin_table()
        self.findings: list[Finding] = []
        self.facts: dict[str, set[str]] = {}
        self.own_process = False
        #: The id findings get when the rule flagging them names none (the running check's).
        self.rule = "command"

    # -- the Analysis interface used by rules ----------------------------------------------

    def flag(self, risk: Risk, reason: str, rule: str = "") -> None:
        finding = Finding(risk, reason, rule or self.rule)
        if finding not in self.findings:
            self.findings.append(finding)

    def ruled(self, rule: str) -> _Ruled:
        return _Ruled(self, rule)

    def read_path(self, word: Word, cwd: str) -> None:
        if self._each_brace_alternative(word, cwd, self.read_path):
            return
        if word.glob:
            for match in self._expand(word, cwd):
                self.read_path(match, cwd)
            return
        if word.substituted:
            self.flag(Risk.MEDIUM, f"reads a path produced by a command ({word.value})", rule="path:from-command")
            return
        for known in self._with_known_variables(word):
            self.read_path(known, cwd)
        if not word.static:
            self.flag(Risk.MEDIUM, f"reads a path known only at run time ({word.value})", rule="path:runtime")
            self._judge_known_part(word, cwd, "reads")
            return
        verdict = self.judge.judge(word.value, cwd)
        if verdict.device:
            return
        if verdict.secret:
            self.flag(Risk.HIGH, f"reads {verdict.resolved}: {verdict.secret}", rule="path:secret")
        elif not verdict.inside:
            self.flag(Risk.HIGH, f"reads {verdict.resolved}, outside the workspace", rule="path:outside")
        elif verdict.sensitive == "version control internals" and os.path.basename(verdict.resolved) == "config":
            # remote URLs there may carry a token (`https://user:ghp_...@github.com/...`), as the editor's view knows
            self.flag(
                Risk.HIGH,
                f"reads {verdict.resolved} (git config; remote URLs may hold credentials)",
                rule="path:git-config",
            )

    def write_path(self, word: Word, cwd: str) -> None:
        if self._each_brace_alternative(word, cwd, self.write_path):
            return
        if word.glob:
            for match in self._expand(word, cwd):
                self.write_path(match, cwd)
            return
        for known in self._with_known_variables(word):  # as well, never instead: `read f` may change it
            self.write_path(known, cwd)
        runtime = holds_placeholder(self, word)  # `{}/x.pth` under find -exec: judged as written, and as unknown
        if not word.static or runtime:
            self.flag(Risk.MEDIUM, f"writes a path known only at run time ({word.value})", rule="path:runtime")
            self._judge_known_part(word, cwd, "writes")
            sources = " ".join(v for n in word.variables for v in self.facts.get(_SOURCE_FACT + n, set()))
            # the evidence that the directory is site-packages may be anywhere on the line (`find -name
            # site-packages -exec sh -c 'cp x.pth "$1"' _ {} ;`)
            sources += " " + " ".join(self.facts.get(LINE_FACT, ()))
            if writes_startup_file(word.value, sources):  # `$d/x.pth` where d=$(python3 -c 'import site...')
                self.flag(
                    Risk.HIGH,
                    f"writes {word.value}: interpreter start-up code in a directory found at run time",
                    rule="path:startup-code",
                )
            if not runtime:
                return
        verdict = self.judge.judge(word.value, cwd)
        if verdict.device:
            return
        if verdict.secret:
            self.flag(Risk.HIGH, f"changes {verdict.resolved}: {verdict.secret}", rule="path:secret")
        if verdict.sensitive:
            self.flag(Risk.HIGH, f"changes {verdict.resolved} ({verdict.sensitive})", rule="path:protected")
        if not verdict.inside:
            self.flag(Risk.HIGH, f"writes {verdict.resolved}, outside the workspace", rule="path:outside")
        else:
            self.flag(Risk.MEDIUM, "writes files inside the workspace", rule="path:inside")
        line = " ".join(self.facts.get(LINE_FACT, ()))
        if os.path.basename(verdict.resolved) == "package.json" and npm_scripts.IN_COMMAND.search(line):
            # as the file editor judges the same change: `npm install` runs it, unconfined, later
            self.flag(
                Risk.HIGH,
                f"writes an npm lifecycle script into {verdict.resolved} (runs on every install)",
                rule="path:npm-lifecycle",
            )

    def _each_brace_alternative(self, word: Word, cwd: str, judge: Callable[[Word, str], None]) -> bool:
        """`cat {.env,x}`, `cat .env{,}`: bash expands braces into several words before the
        program runs; each is judged (quoted braces are judged the same way, erring to caution)."""
        if not word.static or "{" not in word.value or ("," not in word.value and ".." not in word.value):
            return False
        alternatives = brace_alternatives(word.value)
        if len(alternatives) < 2:
            return False
        for alternative in alternatives:
            judge(Word(alternative, glob=word.glob), cwd)
        return True

    def _with_known_variables(self, word: Word) -> list[Word]:
        """`f=~/.bashrc; echo x >> $f`: a path made only of variables this same line set to fixed
        values (or a loop's) is judged as each path it will be ([] when any part is still unknown);
        so is each default a `${x:-.env}` in it may take."""
        known = with_known_variables(word, lambda name: self.facts.get(_VARIABLE_FACT + name))
        return known + [Word(value, glob=has_glob(value)) for value in word.candidates]

    def _judge_known_part(self, word: Word, cwd: str, verb: str) -> None:
        """`/proc/$PPID/environ`, `/home/$USER/.ssh`: the fixed directory before the first
        expansion already says the path is outside the workspace (or among secrets)."""
        known = re.split(r"[$`]", word.value, maxsplit=1)[0]
        if not known.startswith(("/", "~")) or "/" not in known:
            return
        verdict = self.judge.judge(known.rsplit("/", 1)[0] or "/", cwd)
        if verdict.device:
            return
        if verdict.secret or not verdict.inside:
            self.flag(
                Risk.HIGH, f"{verb} {word.value}, under {verdict.resolved}, outside the workspace", rule="path:outside"
            )

    def _expand(self, word: Word, cwd: str) -> list[Word]:
        """What bash would turn a pattern into here (`cat .en?` reads `.env`): the matching
        names, or the pattern itself when nothing matches (bash passes it on unchanged)."""
        pattern = word.value if os.path.isabs(word.value) else os.path.join(cwd, word.value)
        options = self.facts.get(GLOB_FACT, set())  # `shopt -s dotglob; cat *` reads `.env`
        if "nocaseglob" in options:
            pattern = "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in pattern)
        hidden = word.value.split("/")[-1].startswith(".") or "dotglob" in options
        matches = sorted(globmod.glob(pattern, include_hidden=hidden))[:50]
        return [Word(m) for m in matches] or [Word(word.value)]

    def path_is_inside(self, value: str, cwd: str) -> bool:
        return self.judge.judge(value, cwd).inside

    def nested_shell(
        self, code: str, cwd: str, origin: str, own_process: bool = False, positional: list[Word] | None = None
    ) -> None:
        """Judge `code` as part of this command; `own_process` for a script file bash runs in a
        child process, whose functions and variables cannot outlive it; `positional`: the words
        after `sh -c CODE`, which are `$0`, `$1`... and `$@` inside it."""
        if self.depth >= _MAX_DEPTH:
            self.flag(Risk.HIGH, "commands nested too deeply to follow", rule="shell:too-deep")
            return
        inner = CommandAnalysis(self.judge, cwd, self.depth + 1, self.programs)
        inner.own_process = own_process
        inner.facts = self.facts
        saved = {key: self.facts.get(key) for key in _positional_facts(positional or [])}
        self.facts.update(_positional_facts(positional or []))
        try:
            inner.run(code)
        finally:
            for key, before in saved.items():
                if before is None:
                    self.facts.pop(key, None)
                else:
                    self.facts[key] = before
        for finding in inner.findings:
            self.flag(finding.risk, f"{origin}: {finding.reason}", finding.rule)

    def nested_invocation(self, words: list[Word], parent: Invocation) -> None:
        if self.depth >= _MAX_DEPTH:
            self.flag(Risk.HIGH, "commands nested too deeply to follow", rule="shell:too-deep")
            return
        self.depth += 1
        try:
            self._dispatch(words, parent.command, parent.cwd)
        finally:
            self.depth -= 1

    # -- walking ---------------------------------------------------------------------------

    def run(self, text: str, parsed: ParsedShell | None = None) -> None:
        """Judge `text` (parsed here unless the caller already has its parse)."""
        if parsed is None:
            parsed = parse_shell(text, home=self.judge.home, cwd=self.cwd)
        if self.depth == 0:
            self.facts[LINE_FACT] = {text}
        if parsed.error:
            self.flag(Risk.HIGH, parsed.error, rule="shell:unparsed")
        for function in parsed.functions if not self.own_process else []:
            self.flag(
                Risk.HIGH,
                f"defines the shell function {function}(), which would run whenever its name is typed",
                rule="shell:function",
            )
        for function in parsed.recursive:
            self.flag(
                Risk.HIGH,
                f"the function {function}() calls itself: a fork bomb exhausts the machine's processes",
                rule="shell:fork-bomb",
            )
        for place in parsed.deferred_code:
            self.flag(Risk.HIGH, place, rule="shell:place")
        for value in parsed.loop_values:
            for match in self._expand(value, self.cwd) if value.glob else [value]:
                verdict = self.judge.judge(match.value, self.cwd) if match.static else None
                if verdict is not None and verdict.secret:
                    self.flag(Risk.HIGH, f"loops over {verdict.resolved}: {verdict.secret}", rule="path:secret")
        for name, values in parsed.loop_variables.items():  # `for f in ~/.bashrc; do ... >> $f`
            expanded = [m for v in values for m in (self._expand(v, self.cwd) if v.glob else [v])]
            if expanded and all(m.static for m in expanded):
                self.facts[_VARIABLE_FACT + name] = {m.value for m in expanded[:_LOOP_VALUES]}
        if not text.strip():
            self.flag(Risk.LOW, "empty command", rule="shell:empty")
        cwd = self.cwd
        for command in parsed.commands:
            self._check_variables(command)
            for name, value in command.assignments:
                check_assignment(self, name, value, cwd, kept=not command.words)
                if name == "GLOBIGNORE":  # set at all, it makes `*` match dot files too
                    self.facts.setdefault(GLOB_FACT, set()).add("dotglob")
                if not command.words:  # kept for the commands after it in this line
                    known = {value.value} if value.static else set(value.candidates)  # `x=${y:-.env}`, `a=(.env)`
                    if name in command.appended:  # `x=.e; x+=nv`: x is now `.env`
                        before = self.facts.get(_VARIABLE_FACT + name, set()) if value.static else set()
                        known = {old + value.value for old in before}
                    self.facts[_VARIABLE_FACT + name] = known
                    self.facts[_SOURCE_FACT + name] = {value.value}  # `d=$(python3 -c 'import site...')`
            for redirect in command.redirects:
                if redirect.target is None:
                    continue
                if redirect.op in ("<", "<>"):
                    self.read_path(redirect.target, cwd)
                elif redirect.op != "<<<":
                    self.write_path(redirect.target, cwd)
                    note_fetched_output(self.facts, command, redirect.target.value, cwd)
            if not command.words:
                continue
            for name, set_to in assigned_values(command).items():  # `printf -v x .env`, `read x <<< .env`
                self.facts[_VARIABLE_FACT + name] = set_to
            self.facts.setdefault(GLOB_FACT, set()).update(glob_options(command))
            if command.words[0].value in ("cd", "pushd") and command.words[0].plain and not command.nested:
                cwd = self._change_directory(command, cwd)
            self._dispatch(command.words, command, cwd)

    def _change_directory(self, command: SimpleCommand, cwd: str) -> str:
        """Where the commands after `cd` run: `d=.git/hooks; cd $d` and `cd ${d:-.git/hooks}` go
        where the line says (the first such value, when it names several); so does `cd h` with
        `cdable_vars` on and h set in the line."""
        targets = [w for w in command.args if not w.value.startswith(("-", "+"))]
        if not targets:
            return self.judge.home
        target = targets[0]
        named = self.facts.get(_VARIABLE_FACT + target.value) if target.static else None
        if named and "cdable_vars" in self.facts.get(GLOB_FACT, set()):
            target = Word(sorted(named)[0])
        if not target.static:
            known = self._with_known_variables(target)
            self.flag(Risk.MEDIUM, "changes to a directory known only at run time", rule="shell:cd-runtime")
            return self.judge.judge(known[0].value, cwd).resolved if known else cwd
        return self.judge.judge(target.value, cwd).resolved

    def _dispatch(self, words: list[Word], command: SimpleCommand, cwd: str) -> None:
        name_word = words[0]
        if name_word.glob:
            self.flag(
                Risk.HIGH,
                f"the program name {name_word.value!r} is a pattern: what runs depends on the files here",
                rule="program:pattern",
            )
            return
        if not name_word.plain or not name_word.static:
            how = (
                "a substitution"
                if name_word.substituted
                else ("a variable" if name_word.variables else "quoting or escapes")
            )
            self.flag(
                Risk.HIGH,
                f"the program name {name_word.value!r} is built from {how}, so what runs is only known at run time",
                rule="program:runtime",
            )
            return
        name = name_word.value
        if name in _KEYWORDS:
            self.flag(
                Risk.HIGH,
                f"the shell keyword {name!r} stands where a program name should be; "
                "what bash would run cannot be determined",
                rule="program:keyword",
            )
            return
        inv = Invocation(os.path.basename(name), words[1:], command, cwd)
        with self.ruled("download:runs"):
            flag_runs_download(self.judge, self.flag, self.facts, self.cwd, name_word, inv)
        if "/" in name:
            if name.startswith(_SYSTEM_BIN_DIRS):
                name = os.path.basename(name)
            else:
                self._run_file(name_word, cwd)
                entry = self.programs.get(inv.name)
                if entry is not None:  # `./gradlew publish`, `node_modules/.bin/vsce publish`: still that program
                    judge_program(self, inv, entry)
                return
        inv = Invocation(name, words[1:], command, cwd)
        where = self.judge.judge(cwd)
        if not where.inside and not where.device and name not in PLACE_INDEPENDENT:
            self.flag(Risk.HIGH, f"runs {name} in {cwd}, outside the workspace", rule="program:outside-workspace")
        with self.ruled("secret:operand"):
            flag_secret_operands(self.judge, self.flag, inv)
        entry = self.programs.get(name)
        if entry is not None:
            judge_program(self, inv, entry)
            return
        self.flag(Risk.MEDIUM, f"{name} is not a known read-only command", rule="program:unknown")
        for word in inv.args:
            if word.static and word.value.startswith(("/", "~", "../")) and "://" not in word.value:
                self.read_path(word, cwd)

    def _run_file(self, word: Word, cwd: str) -> None:
        verdict = self.judge.judge(word.value, cwd)
        if not verdict.inside:
            self.flag(
                Risk.HIGH, f"runs {verdict.resolved}, a program outside the workspace", rule="program:outside-workspace"
            )
            return
        self.flag(Risk.MEDIUM, f"runs the project program {word.value}", rule="program:project")
        try:
            head = read_head(verdict.resolved, 65536)  # a FIFO in its place must not hang the rules
        except OSError:
            return
        if head.startswith(b"#!") and (b"sh" in head.split(b"\n", 1)[0]) and b"\0" not in head:
            self.nested_shell(head.decode("utf-8", "replace"), cwd, word.value, own_process=True)

    def _check_variables(self, command: SimpleCommand) -> None:
        words = list(command.words) + [value for _, value in command.assignments]
        words += [r.target for r in command.redirects if r.target is not None]
        for word in words:
            for name in word.variables:
                if SECRET_VARIABLE.search(name):
                    self.flag(Risk.HIGH, f"expands ${name}, which holds a secret", rule="variable:secret")


class _Ruled:
    """`with analysis.ruled(id):` findings flagged inside without an id of their own get `id`
    (a plain class: this runs for every program on every line rated)."""

    __slots__ = ("analysis", "outer", "rule")

    def __init__(self, analysis: CommandAnalysis, rule: str) -> None:
        self.analysis, self.rule, self.outer = analysis, rule, analysis.rule

    def __enter__(self) -> None:
        self.outer, self.analysis.rule = self.analysis.rule, self.rule

    def __exit__(self, *exc: object) -> None:
        self.analysis.rule = self.outer


def _positional_facts(words: list[Word]) -> dict[str, set[str]]:
    """`sh -c 'cp x "$1"' _ .git/hooks/pre-commit`: the values `$0`, `$1`... and `$@`, `$*` take."""
    facts = {_VARIABLE_FACT + str(n): ({w.value} if w.static else set(w.candidates)) for n, w in enumerate(words)}
    rest = words[1:]
    if rest:
        every = {v for w in rest for v in ([w.value] if w.static else w.candidates)}
        known = every if all(w.static or w.candidates for w in rest) else set()
        facts[_VARIABLE_FACT + "@"] = facts[_VARIABLE_FACT + "*"] = known
    return facts


def assess_command(
    command: str,
    workspace: str,
    cwd: str | None = None,
    home: str | None = None,
    parsed: ParsedShell | None = None,
    programs: ProgramTable | None = None,
    trusted: TrustedFiles | None = None,
) -> list[Finding]:
    """Every finding for `command`; `parsed` is its parse when the caller has one already;
    `programs`: what the rules know about programs (None: the built-in table); `trusted`: the
    session's trusted files (None: none)."""
    judge = PathJudge(workspace, home, trusted)
    analysis = CommandAnalysis(judge, cwd or judge.workspace, programs=programs)
    analysis.run(command, parsed)
    if not analysis.findings:  # `git branch -a`, `python3 --version`: every verdict says why
        return [Finding(Risk.LOW, "no rule found anything it changes, runs or reads beyond the workspace")]
    return analysis.findings
