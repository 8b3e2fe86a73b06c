"""Rules for administering the machine rather than the project: network interfaces and routes,
the clock and host name, users and groups, SSH keys, tunnels that publish a local port to the
internet, and other coding agents (which act under their own approvals). Reading their state
is harmless; changing it reaches far beyond the workspace.
"""

from __future__ import annotations

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.security.runners import run_words

_CHANGES = frozenset(
    words("""
    set add del delete flush change replace down up off on modify connect disconnect append
    set-time set-timezone set-ntp set-hostname set-local-rtc
""")
)


def machine_settings(a: Analysis, inv: Invocation) -> None:
    """`ip`, `ifconfig`, `route`, `nmcli`, `timedatectl`, `hostnamectl`, `hwclock`, `date -s`."""
    values = inv.values
    changes = bool(_CHANGES & set(values)) or any(v.startswith("set-") for v in values)
    if inv.name == "hwclock":
        changes = inv.has("-w", "--systohc", "-s", "--hctosys", "--set", "--adjust")
    if inv.name == "date":
        if inv.has("-s", "--set") or any(v.startswith("--set=") for v in values):
            a.flag(Risk.HIGH, "date -s sets the system clock")
        else:
            a.flag(Risk.LOW, "date only reads")
        return
    if inv.name == "ifconfig" and len([v for v in values if not v.startswith("-")]) > 1:
        changes = True
    if changes:
        a.flag(Risk.HIGH, f"{inv.name} changes the machine's network, clock or name")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} shows machine settings")


def tunnel(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} publishes a local port to the internet (anyone could reach it)")


def account(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} changes users, groups, logins or SSH keys")


def other_agent(a: Analysis, inv: Invocation) -> None:
    """`tui --confirm never`, `claude --dangerously-skip-permissions`, `codex --yolo`: another
    coding agent acts under its own approvals, not the ones this session asks for."""
    if inv.values[:1] in (["--help"], ["--version"], ["-h"], ["-V"]) or inv.values[:1] == ["risk"]:
        a.flag(Risk.LOW, f"{inv.name} only shows help, its version or a rating")
        return
    a.flag(Risk.HIGH, f"{inv.name} starts another coding agent, which acts under its own approvals")


def approves_for_later(a: Analysis, inv: Invocation) -> None:
    """`direnv allow`, `mise trust`: tell a tool in the user's shell to run this directory's
    `.envrc` / `mise.toml` by itself on every later `cd` (self-approval of persistence).
    `code --install-extension`: an extension for the user's editor, outside the workspace."""
    values = inv.values
    verbs = {"direnv": ("allow", "permit", "grant"), "mise": ("trust",), "rtx": ("trust",)}.get(inv.name, ())
    if (values[:1] and values[0] in verbs) or (
        inv.name in ("code", "codium", "cursor") and _installs_extension(values)
    ):
        a.flag(Risk.HIGH, f"{inv.name} {values[0]} approves code to run by itself later, outside this session")
    elif inv.name in ("direnv", "mise", "rtx") and values[:1] in (["exec"], ["x"]):
        a.flag(Risk.MEDIUM, f"{inv.name} {values[0]} runs a command in the project's environment")
        command = inv.args[2:] if inv.name == "direnv" else inv.args[values.index("--") + 1 :] if "--" in values else []
        run_words(a, inv, command, f"{inv.name} {values[0]}")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} is not a known read-only command")


def _installs_extension(values: list[str]) -> bool:
    return any(v == "--install-extension" or v.startswith("--install-extension=") for v in values)


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    account,
    approves_for_later,
    machine_settings,
    other_agent,
    tunnel,
)
