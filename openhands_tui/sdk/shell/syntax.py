"""Shell commands -> the simple commands they would run, with a real bash parser.

tree-sitter-bash (the grammar Codex and OpenHands use) gives a syntax tree; this walks every
part of it: lists, pipelines, subshells, blocks, loops, functions, `$(...)`, backticks,
`<(...)`, redirections, heredocs and prefix assignments. Each simple command comes out with
its words evaluated as far as they can be without running anything: quotes removed, `~`,
`$HOME` and `$PWD` expanded, everything else marked dynamic. Anything the grammar cannot
read is reported as an error, and the analyzer fails closed on it.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any

from openhands_tui.sdk.shell.model import ParsedShell, Redirect, SimpleCommand, Word
from openhands_tui.sdk.shell.tree import deferred_code, escaped_backquotes, literal_spans, place_in_pipeline
from openhands_tui.sdk.shell.words import (
    combined_candidates,
    decode_ansi_c,
    double_quoted,
    expand_assignment_tildes,
    has_glob,
    heredoc_text,
    join_continued_lines,
    unescape,
)

_COMPOUND_WORDS = {
    "word",
    "string",
    "raw_string",
    "ansi_c_string",
    "concatenation",
    "simple_expansion",
    "expansion",
    "command_substitution",
    "process_substitution",
    "number",
    "arithmetic_expansion",
    "translated_string",
    "brace_expression",
}
_SUBSTITUTIONS = {"command_substitution", "process_substitution"}
#: `${x:-d}`, `${x=d}`, `${x:+d}`...: the word after them is a value the expansion may take
#: (`${x:?d}` is not: there `d` is the message bash prints when x is unset).
_DEFAULT_OPERATORS = {":-", "-", ":=", "=", ":+", "+"}
#: `of=~/x`: bash expands `~` after the `=` of a word shaped like an assignment, even an argument.
_ASSIGNMENT_LIKE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


@lru_cache(maxsize=1)
def _parser() -> Any:
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def parse_shell(text: str, *, home: str, cwd: str) -> ParsedShell:
    data = text.encode()
    tree = _parser().parse(data)
    joined = join_continued_lines(data, literal_spans(tree.root_node))
    if joined != data:  # `ca\<newline>t`: bash reads one word, `cat`, before anything else
        tree = _parser().parse(joined)
    walker = _Walker(home=home, cwd=cwd)
    walker.walk(tree.root_node, nested=False)
    error = None
    if tree.root_node.has_error or walker.odd_syntax:
        error = "the command is not valid shell syntax, so what it would run cannot be known"
    return ParsedShell(
        walker.commands,
        error,
        walker.functions,
        deferred_code(tree.root_node),
        walker.loop_values,
        walker.recursive,
        walker.loop_variables,
    )


class _Walker:
    def __init__(self, *, home: str, cwd: str) -> None:
        self.home, self.cwd = home, cwd
        self.commands: list[SimpleCommand] = []
        self.odd_syntax: list[str] = []
        self.functions: list[str] = []
        self.loop_values: list[Word] = []
        self.recursive: list[str] = []
        self.loop_variables: dict[str, list[Word]] = {}

    def walk(self, node: Any, nested: bool) -> None:
        kind = node.type
        if kind == "command":
            self._command(node, nested)
        elif kind == "redirected_statement":
            self._redirected(node, nested)
        elif kind == "pipeline":
            self._pipeline(node, nested)
        elif kind in _SUBSTITUTIONS:
            inner = escaped_backquotes(node)
            if inner is not None:  # `a \`b\``: bash unescapes, then runs the text as a command line
                tree = _parser().parse(inner.encode())
                if tree.root_node.has_error:
                    self.odd_syntax.append(inner)
                self.walk(tree.root_node, nested=True)
            else:
                for child in node.children:
                    if child.type == "file_redirect":  # `$(< .env)`: bash reads the file, as `cat` would
                        self._redirect(child, self._add(SimpleCommand(nested=True)), nested=True)
                    else:
                        self.walk(child, nested=True)
        elif kind in ("declaration_command", "unset_command"):
            self._declaration(node, nested)
        elif kind == "variable_assignment":  # `PS4=...` on its own: it changes the shell's state
            name = self._assigned_name(node)
            value = node.child_by_field_name("value")
            assigned = (name, self.word(value, nested, assigned=True))
            appended = {name} if any(c.type == "+=" for c in node.children) else set()
            self.commands.append(SimpleCommand(assignments=[assigned], appended=appended, nested=nested))
        elif kind == "for_statement":
            variable = node.child_by_field_name("variable")
            values: list[Word] = []
            for child in node.children:
                if child.type in _COMPOUND_WORDS and child.type != "variable_name":
                    values.append(self.word(child, nested))
                else:
                    self.walk(child, nested)
            self.loop_values += values
            if variable is not None:
                self.loop_variables.setdefault(variable.text.decode(), []).extend(values)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            defined = name.text.decode() if name is not None else "?"
            self.functions.append(defined)
            before = len(self.commands)
            for child in node.children:
                self.walk(child, nested)
            if any(c.words and c.words[0].value == defined for c in self.commands[before:]):
                self.recursive.append(defined)  # `:(){ :|:& };:` multiplies until the machine stops
        else:
            for child in node.children:
                self.walk(child, nested)

    # -- pieces ----------------------------------------------------------------------------

    def _add(self, command: SimpleCommand) -> SimpleCommand:
        self.commands.append(command)
        return command

    def _assigned_name(self, node: Any) -> str:
        """The name an assignment sets; `a[$(cmd)]=1` runs `cmd` while finding the index."""
        name = node.child_by_field_name("name")
        if name is None:
            return ""
        self._walk_substitutions(name)
        return str(name.text.decode())

    def _command(self, node: Any, nested: bool, command: SimpleCommand | None = None) -> SimpleCommand:
        command = command or SimpleCommand(nested=nested)
        for child in node.children:
            if child.type == "variable_assignment":
                value = child.child_by_field_name("value")
                name = self._assigned_name(child)
                command.assignments.append((name, self.word(value, nested, assigned=True)))
                if any(c.type == "+=" for c in child.children):
                    command.appended.add(name)
            elif child.type == "command_name":
                command.words.append(self.word(child.children[0], nested))
            elif child.type in _COMPOUND_WORDS:
                command.words.append(self.word(child, nested))
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                self._redirect(child, command, nested)
            elif child.is_named and child.type != "comment":
                # e.g. `nohup ( cmd )`: bash rejects it, the grammar accepts it; look inside anyway
                self.odd_syntax.append(child.type)
                self.walk(child, nested)
        self.commands.append(command)
        return command

    def _declaration(self, node: Any, nested: bool) -> None:
        command = SimpleCommand(nested=nested)
        for child in node.children:
            if child.type == "variable_assignment":
                value = child.child_by_field_name("value")
                word = self.word(value, nested, assigned=True) if value is not None else Word("")
                command.words.append(
                    Word(
                        f"{self._assigned_name(child)}={word.value}",
                        word.plain,
                        word.static,
                        word.variables,
                        word.substituted,
                    )
                )
            elif child.child_count == 0 and not command.words:
                command.words.append(Word(child.text.decode()))
            elif child.type in _COMPOUND_WORDS or child.type == "variable_name":
                command.words.append(self.word(child, nested))
        self.commands.append(command)

    def _redirected(self, node: Any, nested: bool) -> None:
        body = node.child_by_field_name("body")
        redirects = [c for c in node.children if c.type in ("file_redirect", "heredoc_redirect", "herestring_redirect")]
        if body is not None and body.type == "command":
            target = self._command(body, nested)
        else:
            if body is not None:
                self.walk(body, nested)
            target = SimpleCommand(nested=nested)  # redirects of a block apply to the block as a whole
            self.commands.append(target)
        for redirect in redirects:
            self._redirect(redirect, target, nested)

    def _redirect(self, node: Any, command: SimpleCommand, nested: bool) -> None:
        if node.type == "heredoc_redirect":
            quoted = False
            for child in node.children:
                if child.type == "heredoc_start":
                    quoted = any(mark in child.text.decode() for mark in "'\"\\")
                elif child.type == "heredoc_body":
                    body = child.text.decode()
                    command.heredoc = body if quoted else heredoc_text(body)
                    for part in child.children:
                        if part.type in _SUBSTITUTIONS:
                            self.walk(part, nested=True)
                elif child.type == "file_redirect":
                    self._redirect(child, command, nested)
            return
        op, target = "", None
        for child in node.children:
            if (child.type in _COMPOUND_WORDS and child.type != "number") or (
                child.type == "number" and op not in (">&", "<&")
            ):
                target = self.word(child, nested)
            elif child.child_count == 0 and child.type != "file_descriptor":
                op = child.text.decode()
        if node.type == "herestring_redirect":
            op = "<<<"
        command.redirects.append(Redirect(op, target if op not in (">&", "<&") else None))

    def _pipeline(self, node: Any, nested: bool) -> None:
        stages = [c for c in node.children if c.is_named]
        for index, stage in enumerate(stages):
            before = len(self.commands)
            self.walk(stage, nested)
            for command in self.commands[before:]:
                if command.nested == nested:
                    place_in_pipeline(command, index, len(stages))

    # -- words -----------------------------------------------------------------------------

    def word(self, node: Any, nested: bool, *, first: bool = True, assigned: bool = False) -> Word:
        """What bash makes of the word `node`. `first`: it starts the word (only there is `~`
        a home directory); `assigned`: it is an assignment's value (`~` after each `:` too)."""
        if node is None:
            return Word("")
        kind = node.type
        text = node.text.decode()
        if kind == "word":
            if first and (assigned or _ASSIGNMENT_LIKE.match(text)):
                text = expand_assignment_tildes(text, self.home, whole_value=assigned)
            if first and text.startswith("~") and (len(text) == 1 or text[1] == "/"):
                text = self.home + text[1:]
            elif first and text.startswith("~"):
                return self._tilde(text)
            return Word(unescape(text), glob=has_glob(text))
        if kind == "number":
            return Word(text)
        if kind == "array":  # `a=(.env b)`: each element is a value `${a[@]}` and `${a[i]}` may give
            elements = [self.word(c, nested) for c in node.children if c.type not in ("(", ")")]
            known = [v for e in elements for v in ([e.value] if e.static else e.candidates)]
            return Word(text, plain=False, static=False, candidates=known)
        if kind == "brace_expression":  # `{1..3}`: the rules expand it as bash will
            return Word(text, plain=False)
        if kind == "raw_string":
            return Word(text[1:-1], plain=False)
        if kind == "ansi_c_string":
            return Word(decode_ansi_c(text[2:-1]), plain=False)
        if kind in ("simple_expansion", "expansion"):
            return self._expansion(node, nested)
        if kind in _SUBSTITUTIONS:
            self.walk(node, nested=True)
            return Word(text, plain=False, static=False, substituted=True)
        if kind in ("string", "concatenation", "translated_string"):
            parts = [
                self.word(c, nested, first=first and index == 0, assigned=assigned)
                if c.type not in ("string_content", "$")
                else Word(double_quoted(c.text.decode()) if c.type == "string_content" else "$")
                for index, c in enumerate(node.children)
                if c.type != '"' and not (c.type == "$" and kind == "translated_string")
            ]
            return Word(
                "".join(p.value for p in parts),
                plain=False,
                static=all(p.static for p in parts),
                variables=[v for p in parts for v in p.variables],
                substituted=any(p.substituted for p in parts),
                glob=kind == "concatenation" and any(p.glob for p in parts),
                candidates=combined_candidates(parts),
                split=kind == "concatenation" and any(p.split for p in parts),
            )
        self._walk_substitutions(node)  # arithmetic and anything exotic may still hold $(...)
        return Word(text, plain=False, static=False)

    def _expansion(self, node: Any, nested: bool) -> Word:
        """`$x`, `${x}`, `${x:-default}`...: $HOME and $PWD are known; a default or alternative
        (`${x:-.env}`, `${x:+~/.bashrc}`) is a value the word may take, kept as a candidate."""
        self._walk_substitutions(node)  # ${x:-$(rm -rf ~)} runs the substitution
        text = node.text.decode()
        name = next((c.text.decode() for c in node.children if c.type == "variable_name"), text)
        known = {"HOME": self.home, "PWD": self.cwd}.get(name)
        bare = node.type == "simple_expansion" or text == f"${{{name}}}"  # not ${X:-...} or ${X%...}
        if known is not None and bare:
            return Word(known, plain=False, variables=[name], split=True)
        candidates: list[str] = []
        operators = [c for c in node.children if c.type in _DEFAULT_OPERATORS]
        if operators and node.children[-1].type == "}":
            start = node.children.index(operators[0]) + 1
            parts = [self.word(c, nested, first=i == 0) for i, c in enumerate(node.children[start:-1])]
            candidates = combined_candidates(parts or [Word("")], alone=True)
            if operators[0].type in ("+", ":+"):
                candidates.append("")  # unset (or empty) gives nothing
            elif known is not None:
                candidates.append(known)
        return Word(text, plain=False, static=False, variables=[name], candidates=candidates, split=True)

    def _tilde(self, text: str) -> Word:
        """`~+` is the current directory, `~-` the previous one (unknown here), `~name` that
        user's home: bash expands all three before the program sees them."""
        prefix, _, rest = text.partition("/")
        tail = "/" + rest if rest or text.endswith("/") else ""
        if prefix == "~+":
            return Word(self.cwd + tail, plain=False, variables=["PWD"])
        if prefix == "~-":
            return Word(text, plain=False, static=False, variables=["OLDPWD"])
        expanded = os.path.expanduser(prefix)
        if expanded == prefix:  # no such user: bash leaves it as it is
            return Word(unescape(text), glob=has_glob(text))
        return Word(expanded + tail, plain=False)

    def _walk_substitutions(self, node: Any) -> None:
        for child in node.children:
            if child.type in _SUBSTITUTIONS:
                self.walk(child, nested=True)
            else:
                self._walk_substitutions(child)
