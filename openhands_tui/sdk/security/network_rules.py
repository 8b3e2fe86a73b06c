"""Rules for programs that reach other machines: downloaders and HTTP clients (what they send,
where they write, what they fetch to run later), remote shells and file transfers, mail and TLS
clients, and name lookups (a name built from a secret is DNS exfiltration).
"""

from __future__ import annotations

import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.shell.syntax import Word


def network(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    upload_flags = frozenset(
        words("""
        -d --data --data-binary --data-raw --data-urlencode --data-ascii -F --form -T --upload-file
        --json --post-data --post-file --body-data --body-file
    """)
    )
    # a request to a server on this machine (`curl -X POST localhost:8000/api`) tests the project;
    # what it sends is still judged (a secret file named with @, a piped command's output)
    sends = Risk.MEDIUM if _only_loopback(inv) else Risk.HIGH
    if inv.has(*upload_flags) or any(v.startswith(("--post-", "--body-")) for v in values):
        a.flag(sends, f"{inv.name} uploads data to a {'local' if sends is Risk.MEDIUM else 'remote'} server")
    method = next((values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-X", "--request", "--method")), "")
    if method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
        a.flag(sends, f"{inv.name} sends a {method.upper()} request (changes server state or uploads)")
    outputs = ("-o", "--output", "-O", "--output-document", "--output-dir", "-P", "--directory-prefix")
    for index, word in enumerate(inv.args):
        if "://" in word.value and (word.substituted or word.variables):
            a.flag(Risk.HIGH, "the URL is built from command output or variables (a way to exfiltrate data)")
        elif word.substituted and not (index and values[index - 1] in outputs):
            # `-H "X: $(cat notes.txt)"`, `--user-agent "$(env)"`: whatever it prints goes with the request
            a.flag(Risk.HIGH, f"{inv.name} sends command output to a remote server (in a header or field)")
    if inv.command.pipe_index > 0:
        a.flag(Risk.HIGH, f"{inv.name} receives the output of another command (exfiltration)")
    a.flag(Risk.MEDIUM, f"{inv.name} accesses the network")
    option_files = ("-K", "--config") if inv.name == "curl" else ("-e", "--execute", "--config")
    if inv.has(*option_files) or any(v.startswith(("--config=", "--execute=")) for v in values):
        a.flag(
            Risk.HIGH, f"{inv.name} takes more options from a file or string (uploads, outputs) the rules cannot see"
        )
    for index, value in enumerate(values):
        if value in ("--output-dir", "-P", "--directory-prefix") and index + 1 < len(values):
            a.write_path(inv.args[index + 1], inv.cwd)
    _note_downloads(a, inv)
    for index, value in enumerate(values):
        if value in ("-o", "--output", "-O", "--output-document") and index + 1 < len(values):
            a.write_path(inv.args[index + 1], inv.cwd)
        elif value.startswith("@") and len(value) > 1:
            a.read_path(Word(value[1:]), inv.cwd)
    for word in inv.args:
        if "=@" in word.value:
            a.read_path(Word(word.value.split("=@", 1)[1]), inv.cwd)


_LOOPBACK = re.compile(
    r"^(?:[a-z]+://)?(?:[^@/]*@)?(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?::\d+)?(?:[/?#]|$)", re.I
)


#: curl/wget options whose next word is a value, not an address.
_REQUEST_VALUES = frozenset(
    words("""
    -d --data --data-binary --data-raw --data-urlencode --data-ascii --json -H --header -X --request
    --method -o --output -O --output-document -F --form -u --user -A --user-agent -e --referer -b
    --cookie -c --cookie-jar -w --write-out -m --max-time --connect-timeout --retry --post-data
    --body-data
""")
)


def _only_loopback(inv: Invocation) -> bool:
    """Whether every address the request could name is this machine: every word that is not an
    option or a known option's value is a loopback URL (and every word is known)."""
    if not all(w.static for w in inv.args):
        return False
    values, addresses = inv.values, []
    for index, value in enumerate(values):
        if value.startswith("-") or (index and values[index - 1] in _REQUEST_VALUES):
            continue
        addresses.append(value)
    return bool(addresses) and all(_LOOPBACK.match(v) for v in addresses)


def getent(a: Analysis, inv: Invocation) -> None:
    """`getent hosts NAME` asks the resolver (DNS); `getent passwd $USER` reads local tables."""
    if inv.values[:1] and inv.values[0] in ("hosts", "ahosts", "ahostsv4", "ahostsv6"):
        return probe(a, inv)
    a.flag(Risk.LOW, "getent reads a local table")


def probe(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.MEDIUM, f"{inv.name} sends network requests")
    if any(word.substituted or word.variables for word in inv.args) or inv.command.pipe_index > 0:
        a.flag(Risk.HIGH, f"{inv.name} looks up a name built from command output or variables (DNS exfiltration)")


def _note_downloads(a: Analysis, inv: Invocation) -> None:
    """Remember which files this command line fetched, so running one of them later in the
    same line (`curl -o a.sh URL && bash a.sh`) is judged as running downloaded code."""
    values, found = inv.values, a.facts.setdefault("downloaded", set())
    urls = [v for v in values if "://" in v]
    named = False
    for index, value in enumerate(values):
        if value in ("-o", "--output", "-O", "--output-document") and index + 1 < len(values):
            if not (inv.name == "curl" and value == "-O"):
                found.add(values[index + 1])
                named = True
        elif value.startswith(("--output=", "--output-document=")):
            found.add(value.split("=", 1)[1])
            named = True
    remote_name = inv.name == "curl" and any(
        v == "--remote-name" or (v.startswith("-") and not v.startswith("--") and "O" in v) for v in values
    )
    if remote_name or (inv.name != "curl" and not named):
        found.update(url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0] for url in urls)
    if inv.command.pipe_length > inv.command.pipe_index + 1:
        found.add("*")  # its output feeds another program (`| tar x`): any file may have come from it


def remote(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} opens a connection to another machine (remote execution or data transfer)")


def is_remote_rsync(inv: Invocation) -> bool:
    """Whether rsync reaches another machine: `host:path`, `rsync://`, `--rsh`/`-e` (a program
    to run), or an operand only known at run time."""
    if inv.has("-e", "--rsh", "--rsync-path") or any(v.startswith(("--rsh=", "--rsync-path=")) for v in inv.values):
        return True
    for word in inv.operands():
        head = word.value.split("/", 1)[0]
        if not word.static or "://" in word.value or ":" in head:
            return True
    return False


def openssl(a: Analysis, inv: Invocation) -> None:
    """`openssl s_client -connect host:443 < file` sends what it reads to that server."""
    if inv.values[:1] and inv.values[0] in ("s_client", "s_server", "s_time", "ocsp"):
        a.flag(Risk.HIGH, f"openssl {inv.values[0]} opens a connection to another machine (data transfer)")
    else:
        a.flag(Risk.MEDIUM, "openssl works with keys, certificates and encrypted data")


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    getent,
    network,
    openssl,
    probe,
    remote,
)
