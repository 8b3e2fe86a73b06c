"""What the agent's shell is reset to after every command, and the non-interactive settings it
runs with: state planted by one command must not fire on an innocent-looking later one, and
no pager or editor may wait for a keyboard (see shell.py)."""

from __future__ import annotations

import re

from openhands_tui.sdk.security.shell_variables import RUNS_CODE_LATER, RUNS_CODE_LATER_PREFIXES


def shell_quote(text: str) -> str:
    """`text` as one single-quoted bash word."""
    return "'" + text.replace("'", "'\\''") + "'"


#: Non-interactive stand-ins: a pager or editor must never wait for a keyboard nobody types on.
NON_INTERACTIVE = {
    "PAGER": "cat",
    "GIT_PAGER": "cat",
    "MANPAGER": "cat",
    "SYSTEMD_PAGER": "",
    "EDITOR": "true",
    "VISUAL": "true",
    "GIT_EDITOR": "true",
    "GIT_SEQUENCE_EDITOR": "true",
    "GIT_TERMINAL_PROMPT": "0",
    "DEBIAN_FRONTEND": "noninteractive",
    "PIP_NO_INPUT": "1",
    "TERM": "dumb",
    "NO_COLOR": "1",
    "PS1": "",
}
#: Reset after every command (see the module docstring); the first group silences xtrace.
_RESET_STATE = (
    "{ set +o xtrace +o verbose +o functrace +o errtrace; } 2>/dev/null; trap - DEBUG RETURN ERR EXIT 2>/dev/null; "
    "shopt -u extdebug dotglob nocaseglob cdable_vars 2>/dev/null; unset GLOBIGNORE; unalias -a 2>/dev/null; "
    'for __oht_f in $(compgen -A function); do unset -f "$__oht_f"; done; unset __oht_f; '
)
#: bash refuses to assign these two; nothing else in RUNS_CODE_LATER is left out.
_BASH_READ_ONLY = frozenset({"SHELLOPTS", "BASHOPTS"})
_SHELL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Non-interactive settings a command may change for itself and later ones.
_NOT_RESET = ("TERM", "NO_COLOR", "PS1")


def reset_script(environment: dict[str, str]) -> str:
    """What runs after every command: the state above cleared, and every variable that makes a
    later program run other code (`RUNS_CODE_LATER`: `NODE_OPTIONS`, `LD_LIBRARY_PATH`,
    `GIT_CONFIG_KEY_0`...) put back as the shell started with it — unset if it had none, so
    a value the user's own environment brings stays. Setting one is rated HIGH; this is the
    second line, for a setting the rules did not see."""
    names = sorted((RUNS_CODE_LATER | {"GIT_INDEX_FILE"}) - _BASH_READ_ONLY)
    unset = [name for name in names if name not in environment]
    kept = [n for n in environment if n.startswith(RUNS_CODE_LATER_PREFIXES) and _SHELL_NAME.fullmatch(n)]
    restored = [f"{name}={shell_quote(environment[name])}" for name in [*names, *kept] if name in environment]
    prefixed = " ".join(f"compgen -e {prefix};" for prefix in RUNS_CODE_LATER_PREFIXES)
    keep = f"({'|'.join(kept)}) ;; " if kept else ""
    return (
        _RESET_STATE
        + f"unset {' '.join(unset)} 2>/dev/null; "
        + f'for __oht_v in $({prefixed}); do case $__oht_v in {keep}(*) unset "$__oht_v";; esac; done; '
        + (f"export {' '.join(restored)}; " if restored else "")
        + "unset __oht_v; export "
        + " ".join(f"{k}={v or chr(39) * 2}" for k, v in NON_INTERACTIVE.items() if k not in _NOT_RESET)
    )
