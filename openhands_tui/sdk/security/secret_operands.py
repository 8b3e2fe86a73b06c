"""A secret file handed to any program by name (`base64 .env`, `curl -d @.env URL`): whatever
the program's own rule thinks its options mean, it can copy or print the file.
"""

from __future__ import annotations

from collections.abc import Callable

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Invocation, words
from openhands_tui.sdk.security.paths import PathJudge

#: Programs whose arguments are text, not files: `echo .env` shows the name, not the file.
_PRINTS_ITS_ARGUMENTS = frozenset(words("echo printf test [ [[ type which command alias export declare local"))
#: Programs whose first operand is a pattern or query (`grep -rn .env src` looks for the text ".env",
#: `jq .env config.json` reads its `env` key).
_PATTERN_FIRST = frozenset(words("grep egrep fgrep rg ag ack git jq gojq jaq yq awk gawk mawk"))
_SEARCH_VALUE_FLAGS = frozenset(
    words("-g --glob --iglob -t --type -T --type-not -m --max-count -A -B -C --context --include --exclude -d -D")
)


#: Long options whose value is text, not a file (`git commit --message=.env` is a message), and
#: `--env-file`, which hands variables to a container as its space-separated form does.
_TEXT_OPTIONS = frozenset(
    words("""
    --message --regexp --glob --iglob --include --exclude --exclude-dir --pattern --name --format
    --pretty --grep --author --committer --title --body --subject --label --type --type-not --ignore
    --branch --tag --description --comment --env-file
""")
)


def flag_secret_operands(judge: PathJudge, flag: Callable[[Risk, str], None], inv: Invocation) -> None:
    """Any program handed a secret file by name (`base64 .env`, `od -c .env`, `tar cf x .env`)
    can copy or print it, whatever its own rule thinks its options mean."""
    if inv.name in _PRINTS_ITS_ARGUMENTS:
        return
    sub = next((w.value for w in inv.args if not w.value.startswith("-")), "")
    if inv.name == "git" and sub in ("check-ignore", "status", "ls-files", "check-attr", "rm"):
        return  # they look at whether git tracks or ignores the file, not at what it holds
    skip_next = inv.name in _PATTERN_FIRST
    previous = ""
    for word in inv.args:
        value = word.value
        option, given, named = value.partition("=")
        if value[:1] == "-" and value[1:2] not in ("-", "e", "m") and len(value) > 2 and word.static:
            option, given, named = value[:2], "=", value[2:]  # `git commit -F.env`, `base64 -i.env`
        if value.startswith("-") and given and named and option not in _TEXT_OPTIONS and word.static:
            # `base64 --input=.env`, `git blame --contents=.env x`: the file comes in the option
            # (a short option's attached value, `-F.env`, too; a cluster such as `-rf` names none)
            verdict = judge.judge(_named_file(inv.name, named), inv.cwd)
            if verdict.secret:
                flag(Risk.HIGH, f"{inv.name} is given {verdict.resolved} ({option}): {verdict.secret}")
        # `base64 ${x:-.env}`: a word known only at run time is judged by each default it may take
        values = [value] if word.static else word.candidates
        if value.startswith("-") or not values or "://" in value or any(c.isspace() for c in value):
            previous = value
            continue
        if skip_next and previous in _SEARCH_VALUE_FLAGS:
            pass  # a search option's value (`-g '*.py'`), not the pattern nor a file
        elif skip_next and previous not in ("-f", "--file"):
            skip_next = False  # grep's pattern, not a file
        elif previous not in ("-e", "--regexp", "--env-file", "-m", "--message"):
            for named in values:
                verdict = judge.judge(_named_file(inv.name, named), inv.cwd)
                if verdict.secret:
                    flag(Risk.HIGH, f"{inv.name} is given {verdict.resolved}: {verdict.secret}")
        previous = value


#: Programs that take `field@file` (HTTPie and its kin): the file's content is sent.
_FIELD_AT_FILE = frozenset(words("http https xh xhs"))


def _named_file(program: str, value: str) -> str:
    """The file an argument hands over by reference: `@.env` and `f=@.env` (curl's data and form
    files), `f=<.env` (curl's form text), `f@.env` (HTTPie); else the argument itself. The reason
    then names `.env`, not a file called `@.env`."""
    if value.startswith("@") and len(value) > 1:
        return value[1:]
    for marker in ("=@", "=<"):
        if marker in value:
            return value.split(marker, 1)[1].split(";", 1)[0] or value
    if program in _FIELD_AT_FILE and "@" in value and "://" not in value:
        return value.split("@", 1)[1] or value
    return value
