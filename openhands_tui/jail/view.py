"""What a jailed command can see of the host outside the workspace: deny by default.

The jail starts from `/` read-only, then empties what belongs to people rather than to the
system: the home directory, `/home` and `/root`, and every ancestor of the workspace that is not
a system folder (a sibling project's `.env`, the parent folder's `.env`). Into that emptiness it
binds back, read-only, only what tools and builds need (`TOOLCHAINS`, a table with stable ids):
interpreters and version managers users keep in HOME, package caches, git's identity. Also bound
back: the folders on PATH and the ones toolchain variables name (`VIRTUAL_ENV`, `CARGO_HOME`...),
wherever they are, the running interpreter's own prefix and virtualenv, and whatever the user
adds in `[sandbox] readable`.

`/tmp` is the jail's own (`PRIVATE`, an empty tmpfs `jail.py` mounts): what of the above lies
under the host's `/tmp` (a checkout there with its venv, an interpreter on PATH) is bound back on
top of it like anything else hidden, and nothing else of the host's `/tmp` shows.

Inside what is bound back, credential files and sockets stay hidden: a read-only mount does not
stop `connect()` (a Docker API socket in HOME is root on the host; an ssh agent's socket holds
the user's keys). Each bound folder is looked through to a bounded depth for them.

git's config is bound as a copy without what can carry a credential (credential helpers,
`http.*.extraHeader`, URLs with a user or password, `include`s of other files).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from openhands_tui.sdk.security.paths import is_secret_name
from openhands_tui.sdk.shell.environment import TOOLCHAIN_VARIABLES


@dataclass(frozen=True)
class Toolchain:
    """A place under HOME bound back read-only: `id` is stable (README, tests); `path` is
    relative to HOME."""

    id: str
    path: str
    why: str


def _table(*rows: tuple[str, str, str]) -> tuple[Toolchain, ...]:
    entries = tuple(Toolchain(*row) for row in rows)
    ids = [e.id for e in entries]
    paths = [e.path for e in entries]
    if len(set(ids)) != len(ids) or len(set(paths)) != len(paths):
        raise ValueError("the jail's toolchain table names an id or a path twice")
    if any(p.startswith("/") or ".." in p.split("/") for p in paths):
        raise ValueError("the jail's toolchain table holds a path outside HOME")
    return entries


#: Under HOME, bound back read-only when present. Not here on purpose: anything that holds
#: keys or tokens (`.ssh`, `.aws`, `.docker`, `.kube`, `.netrc`, `.npmrc`, `.pypirc`,
#: `.cargo/credentials.toml`, `.m2/settings.xml`, `.gradle/gradle.properties`, `.config/gh`...),
#: shell histories, other projects, and the rest of `.config` and `.local/share`.
TOOLCHAINS = _table(
    ("python.pyenv", ".pyenv", "pyenv's Pythons and shims"),
    ("python.local-bin", ".local/bin", "pip --user, pipx and uv tool scripts"),
    ("python.local-lib", ".local/lib", "pip --user packages"),
    ("python.uv-data", ".local/share/uv", "uv's Pythons and tools"),
    ("python.pipx", ".local/share/pipx", "pipx's virtualenvs"),
    ("python.pipx-old", ".local/pipx", "pipx's virtualenvs (older layout)"),
    ("python.poetry", ".local/share/pypoetry", "poetry itself"),
    ("python.poetry-venvs", ".cache/pypoetry/virtualenvs", "poetry's project virtualenvs"),
    ("python.pipenv-venvs", ".local/share/virtualenvs", "pipenv's project virtualenvs"),
    ("python.virtualenvwrapper", ".virtualenvs", "virtualenvwrapper's virtualenvs"),
    ("python.pip-cache", ".cache/pip", "pip's wheel cache (read: installs from it offline)"),
    ("python.uv-cache", ".cache/uv", "uv's cache"),
    ("python.conda", ".conda", "conda's environments"),
    ("python.miniconda", "miniconda3", "a Miniconda install"),
    ("python.anaconda", "anaconda3", "an Anaconda install"),
    ("python.miniforge", "miniforge3", "a Miniforge install"),
    ("python.mambaforge", "mambaforge", "a Mambaforge install"),
    ("python.pixi", ".pixi", "pixi's tools"),
    ("node.nvm", ".nvm", "nvm's Node.js versions"),
    ("node.fnm", ".local/share/fnm", "fnm's Node.js versions"),
    ("node.volta", ".volta", "Volta's tools"),
    ("node.npm-cache", ".npm", "npm's cache (read: installs from it offline)"),
    ("node.pnpm", ".local/share/pnpm", "pnpm and its store"),
    ("node.yarn-cache", ".cache/yarn", "yarn's cache"),
    ("node.bun", ".bun", "Bun"),
    ("node.deno", ".deno", "Deno"),
    ("rust.rustup", ".rustup", "rustup's toolchains"),
    ("rust.cargo-bin", ".cargo/bin", "cargo and installed crates' programs"),
    ("rust.cargo-registry", ".cargo/registry", "downloaded crates"),
    ("rust.cargo-git", ".cargo/git", "crates from git"),
    ("go.path", "go", "GOPATH: modules and installed programs"),
    ("go.sdk", "sdk", "Go SDKs from golang.org/dl"),
    ("go.build-cache", ".cache/go-build", "Go's build cache"),
    ("java.sdkman", ".sdkman", "SDKMAN's JDKs, Gradle, Maven"),
    ("java.m2-repository", ".m2/repository", "Maven's downloaded artifacts"),
    ("java.gradle-caches", ".gradle/caches", "Gradle's downloaded artifacts"),
    ("java.gradle-wrapper", ".gradle/wrapper", "Gradle wrapper distributions"),
    ("java.jdks", ".jdks", "JDKs IntelliJ downloaded"),
    ("dotnet.sdk", ".dotnet", ".NET SDKs and tools"),
    ("dotnet.nuget", ".nuget/packages", "NuGet packages"),
    ("ruby.rbenv", ".rbenv", "rbenv's Rubies"),
    ("ruby.rvm", ".rvm", "RVM's Rubies"),
    ("ruby.gems", ".gem", "user gems"),
    ("ruby.local-gems", ".local/share/gem", "user gems (XDG layout)"),
    ("dart.pub", ".pub-cache", "Dart and Flutter packages"),
    ("haskell.ghcup", ".ghcup", "GHC, cabal, stack"),
    ("haskell.cabal", ".cabal/packages", "cabal's packages"),
    ("ocaml.opam", ".opam", "opam switches"),
    ("julia.juliaup", ".juliaup", "Julia versions"),
    ("lean.elan", ".elan", "Lean toolchains"),
    ("zig.zvm", ".zvm", "Zig versions"),
    ("multi.asdf", ".asdf", "asdf's tools"),
    ("multi.mise", ".local/share/mise", "mise's tools"),
    ("multi.proto", ".proto", "proto's tools"),
    ("multi.nix-profile", ".nix-profile", "the user's Nix profile (links into /nix)"),
    ("multi.local-share-bin", "bin", "the user's own programs (~/bin)"),
    ("git.ignore", ".config/git/ignore", "git's global ignore file"),
    ("git.attributes", ".config/git/attributes", "git's global attributes"),
)

#: What some of those variables hold that is not for commands to read (CARGO_HOME's token).
_CREDENTIAL_NAMES = frozenset(
    {"credentials", "credentials.toml", "settings.xml", "settings-security.xml", "gradle.properties", "hosts.yml"}
)

#: Top-level folders of the system: never emptied as the workspace's ancestors (tools live there).
SYSTEM_TOP = frozenset(
    [
        "/usr",
        "/bin",
        "/sbin",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/etc",
        "/opt",
        "/var",
        "/srv",
        "/nix",
        "/snap",
        "/gnu",
        "/proc",
        "/sys",
        "/dev",
        "/run",
        "/boot",
    ]
)

#: Folders the jail replaces with an empty one of its own (`jail.py` mounts them, sized by the
#: policy): hidden like the emptied ones, what the view binds back beneath them shown again.
PRIVATE = (Path("/tmp"),)

#: How far and how much each bound folder is looked through for credential files and sockets.
_LOOK_DEPTH = 3
_LOOK_BUDGET = 600


@dataclass(frozen=True)
class View:
    """The jail's view outside the workspace, as bwrap arguments and what they mean."""

    #: Folders emptied (a tmpfs each), outermost first.
    emptied: list[Path]
    #: Host paths bound back read-only, outermost first.
    bound: list[Path]
    #: Files or sockets inside bound folders covered (by /dev/null or an empty folder).
    covered: list[Path]
    #: git config files replaced by a copy without credentials: (copy, where it shows).
    git_configs: list[tuple[Path, Path]]

    def hides(self, path: Path) -> bool:
        """Whether `path` (absolute, as the host names it) is out of the jail's sight."""
        if any(path == c or c in path.parents for c in self.covered):
            return True
        if any(path == b or b in path.parents for b in self.bound):
            return False
        if any(path == g for _, g in self.git_configs):
            return False
        return any(e in path.parents for e in self.emptied)


def build_view(
    home: Path, workspace: Path, extra_readable: list[str], environ: dict[str, str], scratch: Path | None
) -> View:
    """The view for a jail around `workspace` with HOME at `home` (git config copies go to `scratch`)."""
    people = [top for top in (Path("/home"), Path("/root"), home) if _is_real_dir(top) and top != Path("/")]
    ancestors = [a for a in workspace.parents if _emptied_ancestor(a, home)]
    # outermost first; never the workspace or what is inside it (it is bound over all this)
    emptied = [e for e in _outermost(people + ancestors) if not (e == workspace or workspace in e.parents)]
    wanted = [home / t.path for t in TOOLCHAINS]
    wanted += [Path(os.path.expanduser(p)) for p in extra_readable]
    for variable in TOOLCHAIN_VARIABLES:
        value = environ.get(variable, "")
        if value and os.path.isabs(value):
            wanted.append(Path(value))
    for entry in environ.get("PATH", "").split(os.pathsep):
        if entry and os.path.isabs(entry):
            wanted.append(Path(entry))
    wanted += running_interpreter()
    wanted += _venv_roots(wanted)
    wanted += _base_interpreters([*wanted, workspace / ".venv", workspace / "venv", workspace / "env"])
    hidden = [*emptied, *PRIVATE]
    bound: list[Path] = []
    for path in wanted:
        path = Path(os.path.normpath(path))
        if not _under_any(path, hidden) or path in hidden or path == home or path in home.parents:
            continue  # already visible, or the hidden folder itself (never bound back whole)
        if path == workspace or workspace in path.parents or path in workspace.parents:
            continue
        if not os.path.exists(path) or is_secret_name(path.name) or _holds_credentials(path, home):
            continue
        bound.append(path)
    bound = _outermost(bound)
    covered = [c for b in bound for c in _secrets_and_sockets(b)]
    git_configs = _git_configs(home, scratch) if _under_any(home, emptied) else []
    return View(emptied=emptied, bound=bound, covered=covered, git_configs=git_configs)


def running_interpreter() -> list[Path]:
    """The Python running tui: its virtualenv (`sys.prefix`), the installation it was made from
    and the folder of its executable. MCP servers and tests start it by its path
    (`/tmp/x/.venv/bin/python`), which must resolve in the jail wherever it lives."""
    found = [Path(sys.prefix), Path(sys.base_prefix)]
    if sys.executable and os.path.isabs(sys.executable):
        found += [Path(sys.executable).parent, Path(os.path.realpath(sys.executable)).parent]
    return found


def _venv_roots(candidates: list[Path]) -> list[Path]:
    """The virtualenv a folder on PATH is the `bin` of: its interpreter finds `pyvenv.cfg` and
    its packages there, beside that folder, not in it."""
    return [c.parent for c in candidates if c.name in ("bin", "Scripts") and (c.parent / "pyvenv.cfg").is_file()]


def _base_interpreters(candidates: list[Path]) -> list[Path]:
    """The Python a virtualenv was made from (`home =` in its `pyvenv.cfg`): a venv in the
    workspace or on PATH runs that interpreter, wherever it lives (`~/.pyenv/versions/3.12.1`)."""
    found: list[Path] = []
    for candidate in candidates:
        for config in (candidate / "pyvenv.cfg", candidate.parent / "pyvenv.cfg"):
            try:
                text = config.read_text(errors="replace") if config.is_file() else ""
            except OSError:
                continue
            for line in text.splitlines()[:20]:
                key, _, value = line.partition("=")
                if key.strip() == "home" and os.path.isabs(value.strip()):
                    found.append(Path(value.strip()).parent)
    return found


def _emptied_ancestor(ancestor: Path, home: Path) -> bool:
    """Whether an ancestor of the workspace is emptied: not `/`, not a system folder or one
    inside it (`/opt/x` keeps what the system put there), not inside `/tmp` (`PRIVATE` already)."""
    if ancestor == Path("/"):
        return False
    if ancestor == home or home in ancestor.parents:
        return True
    top = Path(*ancestor.parts[:2])
    return str(top) not in SYSTEM_TOP and top != Path("/tmp")


def _is_real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _under_any(path: Path, folders: list[Path]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def _outermost(paths: list[Path]) -> list[Path]:
    """Each path once, those inside another dropped, outermost first."""
    kept: list[Path] = []
    for path in sorted(set(paths), key=lambda p: (len(p.parts), str(p))):
        if not any(k in path.parents for k in kept):
            kept.append(path)
    return kept


def _holds_credentials(path: Path, home: Path) -> bool:
    """A credential store named by a toolchain variable or PATH (`CARGO_HOME=~/.cargo` whole,
    `PATH=~/.ssh`): the folders that are nothing but keys are never bound back."""
    try:
        relative = path.relative_to(home)
    except ValueError:
        return False
    first = relative.parts[0] if relative.parts else ""
    return first in {".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".password-store"} or str(
        relative
    ).startswith((".config/gh", ".config/gcloud", ".config/hub", ".config/openhands-tui", ".local/state/openhands-tui"))


def _secrets_and_sockets(folder: Path) -> list[Path]:
    """Credential files and sockets inside a bound folder, to a bounded depth and count."""
    found: list[Path] = []
    frontier, seen = [(folder, 0)], 0
    while frontier:
        directory, depth = frontier.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > _LOOK_BUDGET:
                return found
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISSOCK(mode):
                found.append(Path(entry.path))
            elif stat.S_ISDIR(mode):
                if entry.name in (".ssh", ".gnupg", ".aws", ".docker", ".kube"):
                    found.append(Path(entry.path))
                elif depth + 1 < _LOOK_DEPTH and entry.name not in ("node_modules", "site-packages", "__pycache__"):
                    frontier.append((Path(entry.path), depth + 1))
            elif stat.S_ISREG(mode) and _credential_file(entry.name):
                found.append(Path(entry.path))
    return found


#: Inside a toolchain, names that are code or public data whatever they are called (Python's
#: own `secrets.py`, a package's `token.js`, certifi's `cacert.pem`).
_CODE_OR_DATA = [
    ".py",
    ".pyc",
    ".pyi",
    ".js",
    ".mjs",
    ".cjs",
    ".ts",
    ".d.ts",
    ".rb",
    ".go",
    ".rs",
    ".java",
    ".class",
    ".so",
    ".dylib",
    ".h",
    ".c",
    ".md",
    ".rst",
    ".txt",
    ".html",
    ".json.gz",
]


def _credential_file(name: str) -> bool:
    lowered = name.lower()
    if lowered in _CREDENTIAL_NAMES:
        return True
    if lowered.endswith(tuple(_CODE_OR_DATA)) or "cacert" in lowered or "ca-bundle" in lowered:
        return False
    return _secret_name(name)


#: Names repeat across toolchains (`LICENSE`, `bin`, `index.js`): each judged once per process.
_secret_name = lru_cache(maxsize=8192)(is_secret_name)


#: Lines of a git config that can hold or fetch a credential; dropped from the jail's copy.
_CREDENTIAL_SECTION = re.compile(r"^\s*\[\s*(credential|include|includeif|http)\b", re.IGNORECASE)
_ANY_SECTION = re.compile(r"^\s*\[")
_USERINFO_URL = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s@]+@", re.IGNORECASE)


def sanitized_git_config(text: str) -> str:
    """A git config without the sections that run credential helpers, send headers (tokens) or
    pull in other files, and without URLs that carry a user or password."""
    kept: list[str] = []
    dropping = False
    for line in text.splitlines():
        if _ANY_SECTION.match(line):
            dropping = bool(_CREDENTIAL_SECTION.match(line))
        if dropping or _USERINFO_URL.search(line):
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def _git_configs(home: Path, scratch: Path | None) -> list[tuple[Path, Path]]:
    if scratch is None:
        return []
    made: list[tuple[Path, Path]] = []
    for index, name in enumerate((".gitconfig", ".config/git/config")):
        source = home / name
        try:
            if not source.is_file() or source.stat().st_size > 1024 * 1024:
                continue
            text = source.read_text(errors="replace")
        except OSError:
            continue
        copy = scratch / f"gitconfig-{index}"
        copy.write_text(sanitized_git_config(text))
        made.append((copy, source))
    return made
