"""The code checks the program table (`programs.toml`) may name: what data cannot say about a
program (inline code, nested commands, paths hidden in option values). Each rule module offers
its checks; a name offered twice is an error at import, as a program written twice is in the
table."""

from __future__ import annotations

from openhands_tui.sdk.security import (
    command_languages,
    devtools,
    exec_rules,
    git_rules,
    interpreter_rules,
    network_rules,
    programs,
    runners,
    shell_state,
    system_admin,
)
from openhands_tui.sdk.security.invocation import Handler


def _collect() -> dict[str, Handler]:
    checks: dict[str, Handler] = {}
    modules = (
        programs,
        network_rules,
        exec_rules,
        devtools,
        git_rules,
        interpreter_rules,
        shell_state,
        command_languages,
        system_admin,
        runners,
    )
    for module in modules:
        for check in module.CHECKS:
            if check.__name__ in checks:
                raise RuntimeError(f"two code checks are named {check.__name__!r}")
            checks[check.__name__] = check
    return checks


#: Check name (as `programs.toml` writes it) -> the function.
CHECKS: dict[str, Handler] = _collect()

#: The checks that read the program's subcommand (`inv.subcommand`): when the table's grammar
#: cannot tell where it is, they are run once for each reading; the others once.
READS_SUBCOMMAND = frozenset(
    {
        "package_manager",
        "github_cli",
        "cargo_or_go",
        "container",
        "infrastructure",
        "system_package",
        "javascript_runtime",
        "build_tool",
    }
)
