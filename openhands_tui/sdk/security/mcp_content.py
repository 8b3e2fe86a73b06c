"""What one string among an MCP call's arguments holds, judged by its content, not its key.

A server's tool names its arguments as it likes (`run_cell(code)`, `query(sql)`, `fetch(url)`,
`execute(input)`), so every string value is looked at for what it is:

- **SQL** — statements are split and each is judged: dropping, emptying or altering a database,
  granting rights, `DELETE`/`UPDATE` without a `WHERE` (or with a `WHERE` that is always true),
  reading or writing server files (`COPY ... PROGRAM`, `INTO OUTFILE`, `pg_read_file`,
  `ATTACH`), running code (`xp_cmdshell`, `DO $$`) are HIGH, as the same query is in `psql -c`;
  a `DELETE`/`UPDATE` with a condition, an `INSERT` or a `CREATE` is MEDIUM; a `SELECT` is nothing.
  Quoted strings and comments are removed first: `SELECT 'drop table x'` is a SELECT.
- **Code** — Python that parses and does something (a call, an import, an assignment), or
  JavaScript by its tokens, is judged as `python3 -c CODE` / `node -e CODE` are by the shell
  rules; a shell line (its first word a program) as the terminal's command. A tool whose name
  says it runs code (`run`, `exec`, `eval`, `notebook`, `cell`, `python`, `shell`...) has its
  text treated as code even when it is not clearly shaped so.
- **Data leaving** — a URL whose query, path or fragment carries a known secret (the
  environment's, the workspace's `.env` values), a secret-shaped token, many lines, or a long
  encoded blob is HIGH: that is how a fetch tool carries a token or a file out. Any other
  argument holding a known secret or a secret shape is HIGH too (a message to a chat server).
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
import shutil
from collections.abc import Callable
from urllib.parse import unquote_plus, urlsplit

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Finding, words
from openhands_tui.sdk.security.secrets import MIN_SECRET_LENGTH, Redactor

#: Longest text judged as code or SQL (a whole notebook cell is far less).
MAX_CODE_CHARS = 200_000
#: Tool names that run what they are given.
RUNS_CODE_TOOL = re.compile(
    r"(^|[_\W])(run|exec|execute|eval|evaluate|notebook|cell|python|py|ipython|jupyter|repl|code|script|shell|"
    r"bash|sh|terminal|command|cmd|node|javascript|js|sql|query)([_\W]|$)",
    re.I,
)

# -- SQL --------------------------------------------------------------------------------------

_SQL_START = re.compile(
    r"^(SELECT|WITH|INSERT|UPDATE|DELETE|DROP|ALTER|CREATE|TRUNCATE|GRANT|REVOKE|COPY|MERGE|REPLACE|"
    r"EXPLAIN|ATTACH|DETACH|VACUUM|PRAGMA|CALL|EXEC|EXECUTE|DO|LOAD|SET|RENAME|INSTALL|UPSERT|SHUTDOWN|KILL|"
    r"BEGIN|COMMIT|ROLLBACK|SHOW|DESCRIBE|USE|FLUSH|OPTIMIZE|REINDEX|CLUSTER|LOCK|UNLOAD|EXPORT|IMPORT)\b",
    re.I,
)
_IDENT = r"[\w.\"`\[\]$]+"
#: (pattern, risk, what it does): searched in a statement with its strings and comments removed.
_SQL_RULES: tuple[tuple[re.Pattern[str], Risk, str], ...] = tuple(
    (re.compile(pattern, re.I | re.S), risk, what)
    for pattern, risk, what in (
        (
            r"\bDROP\s+(TEMPORARY\s+|MATERIALIZED\s+)?(TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|FUNCTION|PROCEDURE|"
            r"TRIGGER|SEQUENCE|COLLECTION|KEYSPACE|EXTENSION|TYPE|OWNED|POLICY|OWNED|COLUMN|CONSTRAINT|TABLESPACE)\b",
            Risk.HIGH,
            "drops part of a database",
        ),
        (r"^TRUNCATE\b|\bTRUNCATE\s+TABLE\b", Risk.HIGH, "empties a table"),
        (
            r"\bALTER\s+(TABLE|DATABASE|SCHEMA|USER|ROLE|SYSTEM|VIEW|INDEX|DEFAULT|EXTENSION|FUNCTION)\b",
            Risk.HIGH,
            "changes a database's structure or its users",
        ),
        (
            r"^(GRANT|REVOKE)\b|\bCREATE\s+(USER|ROLE|LOGIN)\b|\bSET\s+PASSWORD\b",
            Risk.HIGH,
            "changes who may do what in the database",
        ),
        (
            r"\bCOPY\b.*\b(PROGRAM|TO\s+'|TO\s+STDOUT\s+WITH\s+PROGRAM)|\bINTO\s+(OUTFILE|DUMPFILE)\b|\bLOAD\s+DATA\b|"
            r"\bLOAD_FILE\s*\(|\bpg_(read_file|read_binary_file|ls_dir|write_file)\s*\(|\blo_(import|export)\s*\(|"
            r"^ATTACH\b|\bVACUUM\s+INTO\b|\bwritefile\s*\(|\breadfile\s*\(",
            Risk.HIGH,
            "reads or writes files on the database's host",
        ),
        (
            r"\bxp_cmdshell\b|^DO\s|\bLANGUAGE\s+(plpython|plperlu|plsh|c)\w*\b|\bload_extension\s*\(|"
            r"^(LOAD|INSTALL)\s|\bCREATE\s+EXTENSION\b|\bdblink\w*\s*\(|^SHUTDOWN\b|^KILL\b|\bpg_terminate_backend\b",
            Risk.HIGH,
            "runs code or programs on the database's host, or stops it",
        ),
        (
            rf"^DELETE\s+FROM\s+{_IDENT}(\s+(AS\s+)?\w+)?\s*(RETURNING\b.*)?$|^DELETE\s+{_IDENT}\s*$",
            Risk.HIGH,
            "deletes every row of a table (no WHERE)",
        ),
        (
            rf"^UPDATE\s+{_IDENT}(\s+(AS\s+)?\w+)?\s+SET\b(?!.*\bWHERE\b)",
            Risk.HIGH,
            "updates every row of a table (no WHERE)",
        ),
        (
            r"^(DELETE|UPDATE)\b.*\bWHERE\s+(1\s*=\s*1|TRUE|1|'[^']*'\s*=\s*'[^']*'|(\w+)\s*=\s*\3)\s*$",
            Risk.HIGH,
            "changes every row of a table (its WHERE is always true)",
        ),
        (
            r"^(DELETE|UPDATE|INSERT|MERGE|REPLACE|UPSERT)\b|\bCREATE\s+\w+|^(RENAME|PRAGMA|SET|CALL|EXEC|EXECUTE)\b|"
            r"\b(DELETE\s+FROM|UPDATE\s+\S+\s+SET|INSERT\s+INTO)\b",
            Risk.MEDIUM,
            "changes data in the database",
        ),
    )
)
_SQL_STRINGS = re.compile(r"'(?:[^']|'')*'|--[^\n]*|/\*.*?\*/|\$\$.*?\$\$", re.S)


def sql_findings(text: str, key: str) -> list[Finding] | None:
    """Findings for `text` if it is SQL (None if it is not)."""
    statements = [s.strip() for s in _SQL_STRINGS.sub(lambda m: _keep_do(m.group(0)), text).split(";")]
    statements = [" ".join(s.split()) for s in statements if s]
    if not statements or not any(_is_sql(s) for s in statements):
        return None
    findings: list[Finding] = []
    for statement in statements:
        for pattern, risk, what in _SQL_RULES:
            if pattern.search(statement):
                shown = statement if len(statement) <= 80 else statement[:77] + "..."
                findings.append(Finding(risk, f"argument {key!r} is SQL that {what}: {shown}"))
                break
    return findings


def _keep_do(removed: str) -> str:
    """A removed literal leaves a placeholder (so `WHERE name = 'x'` keeps a condition)."""
    return "''" if removed.startswith(("'", "$$")) else " "


def _is_sql(statement: str) -> bool:
    match = _SQL_START.match(statement)
    if match is None:
        return False
    verb = match.group(1).upper()
    shapes = {  # the rest of the statement as SQL has it, not as a sentence would ("Update the docs")
        "UPDATE": rf"^UPDATE\s+{_IDENT}(\s+(AS\s+)?\w+)?\s+SET\b",
        "DELETE": rf"^DELETE\s+(FROM\s+)?{_IDENT}(\s+(AS\s+)?\w+)?\s*($|WHERE\b|USING\b|RETURNING\b)",
        "DROP": r"^DROP\s+(TEMPORARY\s+|MATERIALIZED\s+)?[A-Z]+\s+\S",
        "SELECT": r"^SELECT\s+.+(\bFROM\b|\(|\d|\*|'')",
        "GRANT": r"^GRANT\s+.+\b(ON|TO)\b",
        "REVOKE": r"^REVOKE\s+.+\b(ON|FROM)\b",
        "INSERT": r"^INSERT\s+(INTO|OR|IGNORE)\b",
        "CREATE": r"^CREATE\s+(OR\s+REPLACE\s+)?(TEMP\w*\s+)?(TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|FUNCTION|"
        r"PROCEDURE|TRIGGER|EXTENSION|SEQUENCE|TYPE|UNIQUE|LOGIN)\b",
        "ALTER": r"^ALTER\s+[A-Z]+\s+\S",
        "TRUNCATE": rf"^TRUNCATE\s+(TABLE\s+)?{_IDENT}\s*$",
        "WITH": r"^WITH\s+(RECURSIVE\s+)?\w+(\s*\([^)]*\))?\s+AS\s*\(",
        "COPY": r"^COPY\s+\S+.*\b(TO|FROM)\b",
    }
    pattern = shapes.get(verb)
    if pattern is None:
        return len(statement.split()) >= 2 and statement.split()[0].isupper()  # `VACUUM`, `PRAGMA x`: as written
    return re.search(pattern, statement, re.I | re.S) is not None


# -- code -------------------------------------------------------------------------------------

#: Programs whose line is judged as a command whatever else it holds: they delete, change rights,
#: reach the network, run other code, or change the system.
_SHELL_PROGRAMS = frozenset(
    words("""rm rmdir mv dd mkfs shred truncate chmod chown chattr curl wget nc ncat netcat socat telnet ssh
    scp sftp rsync sudo doas su kill pkill killall crontab systemctl launchctl eval exec source bash sh zsh dash
    ksh fish python python2 python3 node deno bun perl ruby php osascript powershell pwsh git docker podman
    kubectl npm npx pnpm yarn pip pip3 uv uvx pipx make mount umount iptables useradd usermod passwd chroot""")
)
#: What makes another program's line a command rather than a sentence: a flag, a pipe or list, a
#: redirection, an expansion, a path.
_SHELL_SYNTAX = re.compile(r"(^|\s)-{1,2}\w|[|;&><$`~/]")
_JS_SHAPE = re.compile(
    r"\brequire\s*\(|\bimport\s+.+\bfrom\s+['\"]|\bprocess\.(env|exit|argv|binding)|=>|\bconsole\.\w+\s*\(|"
    r"\b(const|let|var)\s+\w+\s*=|\bfunction\s*\w*\s*\(|\bawait\s+\w+|\bfs\.\w+\s*\(|\bchild_process\b|\bDeno\.\w+"
)


def code_command(text: str, runs_code: bool) -> str | None:
    """The command line that runs `text` as the code it looks like (None: not code)."""
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_CODE_CHARS:
        return None
    first = stripped.split("\n", 1)[0]
    if first.startswith("#!"):
        interpreter = first[2:].split()[-1:] if first[2:].split() else []
        name = interpreter[0].rsplit("/", 1)[-1] if interpreter else ""
        if "python" in name:
            return shlex.join(["python3", "-c", stripped])
        if name in ("node", "deno", "bun"):
            return shlex.join(["node", "-e", stripped])
        return shlex.join(["bash", "-c", stripped])
    if _is_python(stripped, runs_code):
        return shlex.join(["python3", "-c", stripped])
    if _JS_SHAPE.search(stripped):
        return shlex.join(["node", "-e", stripped])
    if _is_shell(stripped, runs_code):
        return stripped if "\n" not in stripped else shlex.join(["bash", "-c", stripped])
    if runs_code and re.search(r"[(){};=]", stripped):
        return shlex.join(["python3", "-c", stripped])  # code we could not place: judged as code (and unparsed)
    return None


def _is_python(text: str, runs_code: bool) -> bool:
    import ast

    if text.startswith(("%", "!")):  # a notebook's magics and shell escapes: judged as a shell line
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    doing: tuple[type[ast.AST], ...] = (
        *(ast.Call, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With),
        *(ast.For, ast.While, ast.Try, ast.Delete, ast.Global, ast.AugAssign, ast.Assign, ast.Raise),
    )
    if any(isinstance(node, doing) for node in ast.walk(tree)):
        return True
    return runs_code and any(not isinstance(node, ast.Expr) for node in tree.body)


def _is_shell(text: str, runs_code: bool) -> bool:
    line = text.lstrip("!%").strip()  # `!rm -rf x` in a notebook cell
    words = line.split()
    while words and re.match(r"^[A-Za-z_]\w*=", words[0]):  # `FOO=1 rm x`
        words = words[1:]
    if not words:
        return False
    program = words[0].rsplit("/", 1)[-1]
    if program in _SHELL_PROGRAMS:
        return True
    found = re.fullmatch(r"[\w.+-]+", program) is not None and shutil.which(program) is not None
    return found and (runs_code or _SHELL_SYNTAX.search(line) is not None)


# -- data leaving -----------------------------------------------------------------------------

_URL = re.compile(r"\b[a-z][a-z0-9+.-]{1,15}://[^\s\"'<>]+", re.I)
_BLOB = re.compile(r"[A-Za-z0-9+/_=-]{64,}|(?:%[0-9A-Fa-f]{2}){24,}")


def url_findings(text: str, key: str, known: Callable[[str], str | None]) -> list[Finding]:
    """A URL in `text` that carries a secret or a payload out."""
    findings: list[Finding] = []
    for match in _URL.finditer(text):
        url = match.group(0)
        try:
            parts = urlsplit(url)
        except ValueError:
            continue
        carried = unquote_plus(f"{parts.path}?{parts.query}#{parts.fragment}")
        where = f"argument {key!r}: the URL {_host(parts.netloc)}"
        secret = known(carried) or known(_decoded(carried))
        if secret:
            findings.append(Finding(Risk.HIGH, f"{where} carries {secret} out"))
        elif carried.count("\n") >= 2:
            findings.append(Finding(Risk.HIGH, f"{where} carries {carried.count(chr(10)) + 1} lines of text out"))
        elif _BLOB.search(parts.query + parts.fragment + parts.path):
            findings.append(Finding(Risk.HIGH, f"{where} carries a long encoded payload out ({len(carried)} chars)"))
        elif len(parts.query) + len(parts.fragment) > 1024:
            findings.append(Finding(Risk.HIGH, f"{where} carries {len(parts.query)} characters of data out"))
    return findings


def secret_finding(text: str, key: str, known: Callable[[str], str | None]) -> Finding | None:
    found = known(text)
    if found:
        return Finding(Risk.HIGH, f"argument {key!r} holds {found}: it would reach the server")
    return None


def _host(netloc: str) -> str:
    return "to " + netloc.rsplit("@", 1)[-1][:80] if netloc else ""


def _decoded(text: str) -> str:
    """The base64 or hex blobs of `text`, decoded (a token encoded to slip past a look)."""
    out: list[str] = []
    for blob in re.findall(r"[A-Za-z0-9+/_-]{16,}={0,2}", text)[:20]:
        for decode in (base64.b64decode, base64.urlsafe_b64decode, bytes.fromhex):
            try:
                raw = decode(blob + "=" * (-len(blob) % 4) if decode is not bytes.fromhex else blob)
            except (ValueError, binascii.Error):
                continue
            out.append(raw.decode("utf-8", errors="ignore"))
    return "\n".join(out)


def secret_matcher(secrets: dict[str, str]) -> Callable[[str], str | None]:
    """What secret a text holds (a known value by its label, or a secret shape), or None."""
    values = {value: label for value, label in secrets.items() if len(value) >= MIN_SECRET_LENGTH}
    shapes = Redactor()

    def known(text: str) -> str | None:
        if not text:
            return None
        for value, label in values.items():
            if value in text:
                return f"a secret ({label})"
        redacted = shapes.redact(text)
        if redacted != text:
            shape = re.search(r"\[redacted ([^\]]+)\]", redacted)
            return f"a secret ({shape.group(1) if shape else 'secret-shaped'})"
        return None

    return known
