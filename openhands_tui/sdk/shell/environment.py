"""Which environment variables the agent's shell inherits: an allowlist, one table.

What a shell and the usual toolchains need to work (where programs are, the language, the
terminal, who the user is, where each toolchain lives), and nothing else: every other value of
the parent's environment may be a secret whatever its name (`MYSQL_PWD`, `SENTRY_DSN`,
`SLACK_WEBHOOK_URL`), so it stays out of the shell and is redacted wherever it shows. Users add
names with `[sandbox] keep_env`.
"""

from __future__ import annotations

#: Exact names: the shell, the terminal, the user, the locale.
SHELL_NAMES = frozenset(
    [
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "TERM",
        "COLORTERM",
        "TERM_PROGRAM",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TMPDIR",
        "PWD",
        "OLDPWD",
        "_",  # the program the shell last ran, as typed (`.venv/bin/python`): bash sets it itself
        "SHLVL",
        "COLUMNS",
        "LINES",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR",
        "CI",
        "HOSTNAME",
        "HOSTTYPE",
        "OSTYPE",
        "MACHTYPE",
        "MANPATH",
        "INFOPATH",
        "PKG_CONFIG_PATH",
        "LD_LIBRARY_PATH",
        "CPATH",
        "LIBRARY_PATH",
        "CC",
        "CXX",
        "CFLAGS",
        "CXXFLAGS",
        "CPPFLAGS",
        "LDFLAGS",
        "MAKEFLAGS",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "REQUESTS_CA_BUNDLE",
        "CURL_CA_BUNDLE",
        "NODE_EXTRA_CA_CERTS",
        "PYTHONPATH",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "PYTHONIOENCODING",
        "PYTHONUTF8",
        "PYTHONHASHSEED",
        "NODE_ENV",
        "NODE_PATH",
        "GOFLAGS",
        "GOOS",
        "GOARCH",
        "GO111MODULE",
        "CGO_ENABLED",
        "RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_INCREMENTAL",
        "RUST_BACKTRACE",
        "RUST_LOG",
        "JAVA_OPTS",
        "MAVEN_OPTS",
        "GRADLE_OPTS",
        # an activated environment's label for the prompt (Python 3.13's venv sets `.venv`):
        # not a secret, and redacting it would cut the venv's name out of every path shown
        "VIRTUAL_ENV_PROMPT",
        "CONDA_PROMPT_MODIFIER",
    ]
)
#: Where toolchains live, wherever the user put them: the jail binds these folders back too.
TOOLCHAIN_VARIABLES = (
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "PYENV_ROOT",
    "PYENV_VERSION",
    "UV_PYTHON_INSTALL_DIR",
    "PIPX_HOME",
    "NVM_DIR",
    "NVM_BIN",
    "VOLTA_HOME",
    "FNM_DIR",
    "PNPM_HOME",
    "BUN_INSTALL",
    "DENO_INSTALL",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "GOROOT",
    "GOPATH",
    "GOBIN",
    "JAVA_HOME",
    "SDKMAN_DIR",
    "GRADLE_HOME",
    "GRADLE_USER_HOME",
    "MAVEN_HOME",
    "M2_HOME",
    "DOTNET_ROOT",
    "RBENV_ROOT",
    "GEM_HOME",
    "GEM_PATH",
    "ASDF_DIR",
    "ASDF_DATA_DIR",
    "MISE_DATA_DIR",
    "GHCUP_INSTALL_BASE_PREFIX",
    "OPAMROOT",
    "JULIAUP_DEPOT_PATH",
)
#: Families by prefix: the locale's categories and the XDG base folders.
SHELL_PREFIXES = ("LC_", "XDG_")


def shell_needs(name: str) -> bool:
    """Whether the agent's shell inherits `name` without the user asking."""
    return name in SHELL_NAMES or name in TOOLCHAIN_VARIABLES or name.startswith(SHELL_PREFIXES)
