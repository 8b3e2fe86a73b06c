"""Inline code given to interpreters (`python -c`, heredocs, `node -e`...): what can it do?

Python is parsed with `ast`, so the verdict rests on what the code calls and imports, not
on how it is spelled. Other languages get a token scan for the capabilities that matter
(running commands, deleting files, reaching the network, evaluating strings). Code that
cannot be parsed, or that builds code at run time (eval/exec of anything), is HIGH.
"""

from __future__ import annotations

import ast
import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Finding, words

_RUNS_COMMANDS = frozenset(
    words("""
    system popen spawnl spawnle spawnlp spawnv spawnve spawnvp execl execle execlp execv execve
    execvp execvpe startfile run call check_call check_output Popen getoutput getstatusoutput
""")
)
_DESTROYS = {"remove", "unlink", "rmdir", "removedirs", "rmtree", "truncate", "kill", "killpg"}
_CHANGES = frozenset(
    words("""
    rename replace chmod chown lchown symlink link setuid setgid write_text write_bytes mkdir
    makedirs move copy copyfile copytree touch
""")
)
_NETWORK_MODULES = frozenset(
    words("""
    socket urllib http requests httpx aiohttp ftplib smtplib telnetlib paramiko websocket websockets
    xmlrpc urllib3 pycurl webbrowser boto3 botocore google azure dropbox ftputil pysftp
""")
)
#: Dunder names that reach builtins, globals or classes by string: `__builtins__.__dict__['ev'+'al']`.
_INTERNALS = frozenset(
    words("""
    __builtins__ __dict__ __globals__ __subclasses__ __getattribute__ __import__ __loader__ __code__
    __bases__ __mro__ __class__ __reduce__ __reduce_ex__
""")
)
_COMMAND_MODULES = {"subprocess", "pty", "ctypes", "multiprocessing", "commands", "sh", "pexpect", "plumbum"}
_DYNAMIC = {"exec", "eval", "compile", "__import__", "execfile"}
_DECODERS = frozenset(
    words("""
    b64decode b32decode b16decode a85decode decodebytes unhexlify fromhex decompress loads
""")
)


#: Interpreter start-up code: a `.pth` line starting with `import`, or sitecustomize, runs in
#: every later Python of that environment — the user's own, outside any sandbox.
_STARTUP_FILE = re.compile(r"\.pth\b|sitecustomize|usercustomize")
#: Ways code finds a site-packages directory without naming it literally.
_SITE_DIRECTORY = re.compile(
    r"site-packages|getsitepackages|getusersitepackages|USER_SITE|purelib|platlib|get_python_lib|sys\.prefix|\.venv"
)
_WRITES = re.compile(
    r"""['"][rbt+]*[wxa][rbt+]*['"]\s*[),]|mode\s*=\s*['"][^'"]*[wxa]|write_text|write_bytes|shutil\.|copyfile"""
    r"|rename\(|symlink_to|touch\("
)


def writes_python_startup(code: str) -> Finding | None:
    """HIGH when Python code finds a site-packages directory and writes a `.pth` file or a
    sitecustomize there (a literal path is judged as a path; this is the computed one)."""
    if _STARTUP_FILE.search(code) and _SITE_DIRECTORY.search(code) and _WRITES.search(code):
        return Finding(
            Risk.HIGH,
            "the Python code writes interpreter start-up code (a .pth file or sitecustomize) into a "
            "site-packages directory: it would run in every later Python there",
        )
    return None


#: Python start-up files named at the end of a path whose directory is computed at run time
#: (`$(python3 -c 'import site; ...')/x.pth`): a `.pth` only where the line finds site-packages
#: (`$OUT/model.pth` is a PyTorch checkpoint).
_STARTUP_TAIL = re.compile(r"(?:^|/)(?:sitecustomize|usercustomize)\.py$")
_PTH_TAIL = re.compile(r"(?:^|/)[^/$`)]+\.pth$")
_FINDS_SITE = re.compile(r"site-packages|getsitepackages|getusersitepackages|USER_SITE|purelib|platlib|sysconfig")


def writes_startup_file(path: str, sources: str) -> bool:
    """Whether a path known only at run time ends in interpreter start-up code; `sources`: the
    text its variables were set from."""
    return bool(_STARTUP_TAIL.search(path) or (_PTH_TAIL.search(path) and _FINDS_SITE.search(f"{path} {sources}")))


def check_python(code: str) -> list[Finding]:
    startup = writes_python_startup(code)
    if startup is not None:
        return [startup, *_check_python(code)]
    return _check_python(code)


def _check_python(code: str) -> list[Finding]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return [Finding(Risk.HIGH, "the Python code cannot be parsed, so what it does cannot be checked")]
    findings: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom):
                findings.extend(_imported_capabilities(node))
            for name in names:
                root = name.split(".")[0]
                if root in _COMMAND_MODULES:
                    findings.append(Finding(Risk.HIGH, f"the Python code imports {name}, which runs commands"))
                elif root in _NETWORK_MODULES:
                    findings.append(Finding(Risk.HIGH, f"the Python code imports {name}, which reaches the network"))
        elif isinstance(node, ast.Call):
            findings.extend(_call_findings(node))
        elif isinstance(node, ast.Attribute) and node.attr == "environ":
            findings.append(Finding(Risk.HIGH, "the Python code reads environment variables (API keys live there)"))
        elif (isinstance(node, ast.Attribute) and node.attr in _INTERNALS) or (
            isinstance(node, ast.Name) and node.id in _INTERNALS
        ):
            findings.append(
                Finding(Risk.HIGH, "the Python code reaches interpreter internals (a way past these checks)")
            )
    if not findings:
        findings.append(Finding(Risk.MEDIUM, "runs inline Python code"))
    return findings


def _imported_capabilities(node: ast.ImportFrom) -> list[Finding]:
    """`from os import system, environ`: the bare names then run commands or read keys."""
    findings = []
    for alias in node.names:
        if alias.name in _RUNS_COMMANDS and node.module in ("os", "subprocess", "pty", "commands"):
            findings.append(
                Finding(Risk.HIGH, f"the Python code imports {alias.name} from {node.module}, which runs commands")
            )
        elif alias.name in ("environ", "getenv", "environb", "getenvb"):
            findings.append(Finding(Risk.HIGH, "the Python code imports environment access (API keys live there)"))
        elif alias.name in _DESTROYS and node.module in ("os", "shutil", "pathlib"):
            findings.append(Finding(Risk.HIGH, f"the Python code imports {alias.name}, which deletes or kills"))
        elif alias.name == "*" and node.module in ("os", "subprocess", "shutil", "pty"):
            findings.append(Finding(Risk.HIGH, f"the Python code imports everything from {node.module}"))
    return findings


def _dynamic_lookup(node: ast.Call, name: str) -> bool:
    """`getattr(os, "sys" + "tem")`, `importlib.import_module(x)`: a name only known when it runs."""
    if name in ("getattr", "import_module") and node.args:
        target = node.args[1] if name == "getattr" and len(node.args) > 1 else node.args[0]
        if name == "getattr" and len(node.args) < 2:
            return False
        return not isinstance(target, ast.Constant) or (
            name == "import_module" and str(target.value).split(".")[0] in _COMMAND_MODULES | _NETWORK_MODULES
        )
    return False


def _call_findings(node: ast.Call) -> list[Finding]:
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    if _dynamic_lookup(node, name):
        return [Finding(Risk.HIGH, f"the Python code looks up a name with {name}() at run time")]
    if name in ("home", "expanduser", "getpwnam", "getpwuid"):
        return [Finding(Risk.HIGH, f"the Python code calls {name}(), reaching a home directory outside the workspace")]
    if name in ("getenv", "getenvb"):
        return [Finding(Risk.HIGH, "the Python code reads environment variables (API keys live there)")]
    if name in _DYNAMIC:
        return [Finding(Risk.HIGH, f"the Python code calls {name}(), running code built at run time")]
    if name in _RUNS_COMMANDS and isinstance(node.func, ast.Attribute):
        return [Finding(Risk.HIGH, f"the Python code calls {name}(), which runs commands")]
    if name in _DESTROYS:
        return [Finding(Risk.HIGH, f"the Python code calls {name}(), which deletes or kills")]
    if name in _DECODERS:
        return [Finding(Risk.HIGH, f"the Python code decodes a payload with {name}()")]
    if name in ("urlopen", "urlretrieve", "create_connection"):
        return [Finding(Risk.HIGH, f"the Python code calls {name}(), which reaches the network")]
    if name in _CHANGES:
        return [Finding(Risk.MEDIUM, f"the Python code calls {name}(), which changes files")]
    if name == "open" and _opens_for_writing(node):
        return [Finding(Risk.MEDIUM, "the Python code opens a file for writing")]
    return []


def _opens_for_writing(node: ast.Call) -> bool:
    modes = [a for a in node.args[1:2]] + [k.value for k in node.keywords if k.arg == "mode"]
    return any(isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+") for m in modes)


_SCRIPT_DANGER = [
    (
        re.compile(
            r"child_process|\bexecSync\b|\bspawn(Sync)?\b|\bexec(File)?\s*\(|\bsystem\s*\(|`[^`]*`|\bqx\b|"
            r"\b(system|exec)\s+[\"'$@\w]|%x[({\[<|]|\bsend\s*\(\s*:|\b__send__\b|\bpublic_send\b|"
            r"Deno\.(run|Command)|Bun\.(spawn|\$)|\bopen\s*\(\s*[\"']\||"
            r"\bIO\.popen\b|\bpopen\b|\bpassthru\b|\bshell_exec\b|\bproc_open\b|Runtime\.getRuntime"
        ),
        "runs commands",
    ),
    (
        re.compile(
            r"\b(rmSync|rmdirSync|unlinkSync|rm_rf|rmtree|unlink|rmdir|FileUtils\.rm|remove_tree)\b|"
            r"\bFile\.delete\b|\bDir\.(delete|rmdir|unlink)\b|\bfs(\.promises)?\.(rm|unlink|rmdir)\s*\("
        ),
        "deletes files",
    ),
    (
        re.compile(
            r"\bDir\.home\b|\bos\.homedir\s*\(|\bhomedir\s*\(|ENV\[\s*['\"]HOME|\$ENV\{\s*HOME|getenv\(\s*['\"]HOME"
        ),
        "reaches the home directory, outside the workspace",
    ),
    (
        re.compile(r"\bprocess\.binding\s*\(|\bprocess\.dlopen\b|\bdlopen\b|\bFFI\b|\bfiddle\b", re.I),
        "loads native code",
    ),
    (
        re.compile(
            r"\b(require\(['\"](https?|net|dgram|tls)['\"]\)|fetch\s*\(|XMLHttpRequest|Net::HTTP|"
            r"LWP|IO::Socket|Socket|curl_exec|file_get_contents\s*\(\s*['\"]https?|open-uri|urllib)"
        ),
        "reaches the network",
    ),
    (
        re.compile(
            r"\beval\s*\(|\bnew\s+Function\b|\binstance_eval\b|\bBuffer\.from\([^)]*base64|\batob\s*\(|"
            r"base64_decode|decode_base64|unpack\s*\(\s*['\"]m"
        ),
        "evaluates or decodes code at run time",
    ),
    (
        re.compile(r"process\.env|\bENV\b|%ENV|\$ENV\{|getenv\s*\(|\$_ENV|\$_SERVER|Deno\.env|Bun\.env|os\.environ"),
        "reads environment variables (API keys)",
    ),
]


def check_script(language: str, code: str) -> list[Finding]:
    """Token scan for languages we do not parse (JavaScript, Ruby, Perl, PHP)."""
    findings = [
        Finding(Risk.HIGH, f"the {language} code {what}") for pattern, what in _SCRIPT_DANGER if pattern.search(code)
    ]
    return findings or [Finding(Risk.MEDIUM, f"runs inline {language} code")]


_QUOTED_LITERAL = re.compile(r"""(?<![\w\\])(['"])([^'"\s\\]{2,300})\1""")


def path_literals(language: str, code: str) -> list[str]:
    """Strings in the code that look like file paths (`'/etc/passwd'`, `'~/.ssh/id_rsa'`,
    `'.env'`): what the code may read or write, to be judged like a command's arguments."""
    if language == "Python":
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError):
            return []
        texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    else:
        texts = [m.group(2) for m in _QUOTED_LITERAL.finditer(code)]
    return [t for t in texts if _looks_like_path(t)]


def _looks_like_path(text: str) -> bool:
    if text == "~":
        return True
    if len(text) < 2 or len(text) > 300 or any(c.isspace() for c in text) or "://" in text:
        return False
    if text.startswith("~") or text.startswith("../") or text.startswith("/"):
        return True
    return text.startswith(".") or "/" in text or "." in text
