"""The shell variables that make a later program run other code: one table, both walls.

Setting one does nothing visible at once and acts on a later, innocent-looking command
(`PS4` under `set -x`, `BASH_ENV`, `LD_PRELOAD`, git's config and pager variables, `NODE_OPTIONS`).
The risk rules rate setting any of them HIGH (`shell_state.py`), and the terminal puts every one
back as the shell started with it after each command (`executors/local/shell_reset.py`), the
second line for a setting the rules did not see. Both read this table, so they cannot drift
apart; it is part of the security package's public face (the terminal imports no rule module).
"""

from __future__ import annotations


def _names(text: str) -> frozenset[str]:
    """A table of names written as whitespace-separated text (keeps a long table readable)."""
    return frozenset(text.split())


#: Variables that make a later program run other code.
RUNS_CODE_LATER = _names(
    """
    PS4 PROMPT_COMMAND PS0 BASH_ENV ENV LD_PRELOAD LD_AUDIT LD_LIBRARY_PATH DYLD_INSERT_LIBRARIES
    DYLD_LIBRARY_PATH LESSOPEN LESSCLOSE PYTHONSTARTUP PYTHONHOME PYTHONINSPECT NODE_OPTIONS PERL5OPT
    PERL5LIB RUBYOPT RUBYLIB JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS GIT_CONFIG GIT_CONFIG_GLOBAL
    GIT_CONFIG_SYSTEM GIT_CONFIG_COUNT GIT_CONFIG_PARAMETERS GIT_SSH GIT_SSH_COMMAND GIT_PAGER
    GIT_EXTERNAL_DIFF GIT_ASKPASS SSH_ASKPASS GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_EXEC_PATH GIT_TEMPLATE_DIR
    GIT_PROXY_COMMAND GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR PAGER EDITOR VISUAL MANPAGER BROWSER
    HISTFILE PROMPT_DIRTRIM CDPATH SHELLOPTS BASHOPTS GCONV_PATH ZDOTDIR HOME XDG_CONFIG_HOME
    SYSTEMD_PAGER SYSTEMD_EDITOR EXINIT VIMINIT MYVIMRC PYTHONWARNINGS PYTHONBREAKPOINT PERL5DB
    NPM_CONFIG_SCRIPT_SHELL NPM_CONFIG_NODE_OPTIONS NPM_CONFIG_SHELL NPM_CONFIG_GIT GIT_SSL_NO_VERIFY
    DOTNET_STARTUP_HOOKS SUDO_ASKPASS CORECLR_PROFILER_PATH
"""
)
#: Families of such variables, by prefix (`GIT_CONFIG_KEY_0`, `GIT_TRACE_SETUP`...).
RUNS_CODE_LATER_PREFIXES = ("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "GIT_TRACE")
