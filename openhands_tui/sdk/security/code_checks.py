"""Inline code given to interpreters (`python -c`, heredocs, `node -e`...): what can it do?

Python is parsed with `ast`, so the verdict rests on what the code calls and imports, not
on how it is spelled. Other languages get a token scan for the capabilities that matter
(running commands, deleting files, reaching the network, evaluating strings). Code that
cannot be parsed, or that builds code at run time (eval/exec of anything), is HIGH.
"""

from __future__ import annotations

import ast
import re

from openhands_tui.sdk.event import Risk
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
    xmlrpc urllib3 pycurl
""")
)
_COMMAND_MODULES = {"subprocess", "pty", "ctypes", "multiprocessing", "commands", "sh", "pexpect", "plumbum"}
_DYNAMIC = {"exec", "eval", "compile", "__import__", "execfile"}
_DECODERS = frozenset(
    words("""
    b64decode b32decode b16decode a85decode decodebytes unhexlify fromhex decompress loads
""")
)


def check_python(code: str) -> list[Finding]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return [Finding(Risk.HIGH, "the Python code cannot be parsed, so what it does cannot be checked")]
    findings: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
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
    if not findings:
        findings.append(Finding(Risk.MEDIUM, "runs inline Python code"))
    return findings


def _call_findings(node: ast.Call) -> list[Finding]:
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
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
            r"\bIO\.popen\b|\bpopen\b|\bpassthru\b|\bshell_exec\b|\bproc_open\b|Runtime\.getRuntime"
        ),
        "runs commands",
    ),
    (
        re.compile(r"\b(rmSync|rmdirSync|unlinkSync|rm_rf|rmtree|unlink|rmdir|FileUtils\.rm|remove_tree)\b"),
        "deletes files",
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
    (re.compile(r"process\.env|\bENV\[|%ENV|\$ENV\{|getenv\s*\("), "reads environment variables (API keys)"),
]


def check_script(language: str, code: str) -> list[Finding]:
    """Token scan for languages we do not parse (JavaScript, Ruby, Perl, PHP)."""
    findings = [
        Finding(Risk.HIGH, f"the {language} code {what}") for pattern, what in _SCRIPT_DANGER if pattern.search(code)
    ]
    return findings or [Finding(Risk.MEDIUM, f"runs inline {language} code")]
