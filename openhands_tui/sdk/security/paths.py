"""Where a path really points, and what lives there.

Paths are resolved against the workspace (or the directory a command `cd`-ed to), with
`..` and symlinks followed, so `src/../../x` and a symlink to `~/.ssh/id_rsa` are judged by
their target. Families, not single names: secrets (keys, tokens, credential stores, `.env*`),
VCS internals, CI configuration, agent instruction files, IDE auto-run config, git hooks,
and shell start-up files and other persistence points.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import PurePosixPath

from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.security.invocation import words
from openhands_tui.sdk.security.protected_paths import rule_families
from openhands_tui.sdk.security.trusted import TrustedFiles

HARMLESS_DEVICES = words("""
    /dev/null /dev/stdout /dev/stderr /dev/stdin /dev/tty /dev/zero /dev/random /dev/urandom
    /dev/fd/
""")

_SECRET_NAMES = words("""
    .env .env.* *.env .envrc id_rsa* id_dsa* id_ecdsa* id_ed25519* *.pem *.key *.p12 *.pfx *.jks
    *.keystore *.kdbx .netrc _netrc .pgpass .git-credentials .npmrc .pypirc .htpasswd credentials
    credentials.json credentials.* secrets.* service-account*.json *-credentials.json *.tfstate
    *.tfvars kubeconfig .dockercfg auth.json token token.json *.token *.tfstate.backup *.tfstate.*
    client_secret*.json *-adminsdk-*.json wp-config.php
""")
_NOT_SECRET = (".env.example", ".env.sample", ".env.template", ".env.dist", "*.pub", "*.example", "*.sample")
_SECRET_DIRS = words("""
    .ssh .aws .gnupg .kube .azure secrets .secrets .password-store .config/gh .config/gcloud .docker
    .terraform.d .config/hub .vault-token
""")

#: Relative to the workspace (or any directory): changing these changes what runs later, or
#: what agents are told. One table with the sandbox's read-only paths (`sdk/security/protected_paths.py`).
_SENSITIVE = rule_families()

#: Relative to the home directory (or anywhere, for names): start-up and persistence points.
_PERSISTENCE = words("""
    .bashrc .bash_profile .bash_login .profile .zshrc .zprofile .zshenv .zlogin .cshrc .tcshrc
    .kshrc .config/fish/* .config/autostart/* Library/LaunchAgents/* .config/systemd/* .gitconfig
    .config/git/* .ssh/* .npmrc .pypirc .config/pip/* .pip/* .condarc .yarnrc .yarnrc.yml .curlrc
    .wgetrc .inputrc .vimrc .local/bin/* crontab cron.d/*
""")
_SYSTEM_PREFIXES = words("""
    /etc/ /usr/ /bin/ /sbin/ /lib /boot/ /var/ /opt/ /sys/ /proc/ /root/ /System/ /Library/
""")


@dataclass(frozen=True)
class PathVerdict:
    resolved: str
    inside: bool
    device: bool = False
    secret: str | None = None  # why it is a secret
    sensitive: str | None = None  # which sensitive family it belongs to


class PathJudge:
    def __init__(self, workspace: str, home: str | None = None, trusted: TrustedFiles | None = None) -> None:
        self.workspace = os.path.realpath(workspace)
        self.home = home or os.path.expanduser("~")
        #: The session's trusted files (a strategy, what an MCP server runs...): writing one steers
        #: what runs next. None: no session's (`tui risk`, a judge on its own), so none.
        self.trusted = trusted if trusted is not None else TrustedFiles()
        #: Our own settings, rules and trusted projects (`$XDG_CONFIG_HOME/openhands-tui`): writing
        #: there approves later actions, whatever else the path looks like.
        self.own_config = os.path.realpath(config_base(self.home) / "openhands-tui")

    def judge(self, raw: str, cwd: str | None = None) -> PathVerdict:
        if "\0" in raw:  # no file has such a name; resolving it would raise: judge it unknown
            return PathVerdict(raw.replace("\0", "\\0"), inside=False)
        text = raw
        if text == "~" or text.startswith("~/"):
            text = self.home + text[1:]
        elif text.startswith("~"):
            text = os.path.expanduser(text)  # `~root/x`: the file editor expands it too
        base = cwd or self.workspace
        joined = text if text.startswith("/") else os.path.join(base, text)
        if joined.startswith(HARMLESS_DEVICES) or joined in {d.rstrip("/") for d in HARMLESS_DEVICES}:
            return PathVerdict(joined, inside=False, device=True)
        resolved = os.path.realpath(joined)
        inside = resolved == self.workspace or resolved.startswith(self.workspace + os.sep)
        relative = os.path.relpath(resolved, self.workspace) if inside else resolved
        return PathVerdict(
            resolved,
            inside=inside,
            secret=self._secret(resolved, raw),
            sensitive=self._sensitive(relative, resolved, inside),
        )

    def _secret(self, resolved: str, raw: str) -> str | None:
        for candidate in {resolved, os.path.normpath(raw)}:
            parts = PurePosixPath(candidate).parts
            name = parts[-1] if parts else ""
            if is_secret_name(name):
                return f"{name} holds secrets (keys, tokens or credentials)"
            joined = "/".join(parts)
            for directory in _SECRET_DIRS:
                if f"/{directory}/" in f"/{joined}/" and not _matches(name, _NOT_SECRET):
                    return f"{directory}/ holds credentials"
        return None

    def _sensitive(self, relative: str, resolved: str, inside: bool) -> str | None:
        if resolved == self.own_config or resolved.startswith(self.own_config + os.sep):
            return "this tool's own settings, approval rules or trusted projects"
        trusted = self.trusted.reason(resolved, self.workspace)
        if trusted is not None:
            return trusted
        if not inside and resolved.startswith(self.home + os.sep):
            relative = os.path.relpath(resolved, self.home)
        parts = PurePosixPath(relative).parts
        tails = ["/".join(parts[i:]) for i in range(len(parts))]  # also match nested repos' files
        # the directory itself too: `cp -r evil/.vscode .` writes everything `.vscode/*` names
        tails += [tail + "/-" for tail in tails]
        for family, patterns in _SENSITIVE.items():
            if any(_matches(tail, patterns) for tail in tails):
                return family
        if any(_matches(tail, _PERSISTENCE) for tail in tails):
            return "shell start-up or tool configuration (persistence)"
        if not inside and resolved.startswith(_SYSTEM_PREFIXES):
            return "system files"
        return None


def is_secret_name(name: str) -> bool:
    """Whether a file name (or a glob for names, `*.env`) is one secrets are kept under, also
    as an editor leaves a copy of it (`.env~`, `#.env#`, `.env.swp` by the rule for `.env.*`)."""
    for candidate in {name, _copied_name(name)}:
        if _matches(candidate, _SECRET_NAMES) and not _matches(candidate, _NOT_SECRET):
            return True
    return False


def _copied_name(name: str) -> str:
    """The file a backup or auto-save an editor writes beside it copies: `name~` (vim, emacs),
    `#name#` (emacs); else `name`."""
    if len(name) > 2 and name.startswith("#") and name.endswith("#"):
        return name[1:-1]
    return name.rstrip("~") or name


def is_secret_path(text: str) -> bool:
    """Whether a path, by its name or a credential directory on it, points at secrets."""
    if any(c.isspace() for c in text) or "://" in text:
        return False
    parts = PurePosixPath(text).parts
    if parts and is_secret_name(parts[-1]):
        return True
    return any(f"/{d}/" in f"/{'/'.join(parts)}/" for d in _SECRET_DIRS)


def holds_secret_files(directory: str, depth: int = 2, budget: int = 2000) -> bool:
    """Whether `directory` has a secret-named file near its top (a bounded look, not a crawl)."""
    frontier, seen = [(directory, 0)], 0
    while frontier:
        path, level = frontier.pop()
        try:
            entries = list(os.scandir(path))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > budget:
                return False
            if is_secret_name(entry.name) and not entry.is_dir(follow_symlinks=False):
                return True
            skip = entry.name in (".git", "node_modules", ".venv", "venv", "__pycache__")
            if level + 1 < depth and not skip and entry.is_dir(follow_symlinks=False):
                frontier.append((entry.path, level + 1))
    return False


def _matches(text: str, patterns: tuple[str, ...]) -> bool:
    """Case-insensitively: `Agents.md` is read as an instruction file too, and on a
    case-insensitive filesystem `.GIT/hooks` is git's own directory."""
    lowered = text.lower()
    return any(fnmatch.fnmatchcase(lowered, pattern.lower()) for pattern in patterns)
