"""The paths inside a workspace that steer later sessions and programs: one table, both walls.

Each entry is a path pattern relative to a folder of the workspace, with a stable id, the family
the risk rules name when an action writes there (rated HIGH), and where it counts:

- `root`: only at the repository's root (CI services and hook managers look nowhere else; a
  cookiecutter's `.github/workflows` below the top is a template the agent must edit);
- `any`: in every folder (agents read a folder's own instructions, direnv runs a nested
  `.envrc`, an editor opened on a folder runs its tasks);
- `venv`: inside a virtualenv of the workspace (a folder holding `pyvenv.cfg`): start-up code
  every later `python` or activated shell runs.

The risk rules' workspace families (`security/paths.py`) and the sandbox's read-only binds and
after-command checks (`jail/protected.py`) are both generated from this table, so a path the
rules rate HIGH to write is read-only to commands. The exceptions are entries with a
`commands_write` reason: git's own state is written by `git` itself (only its hooks and config
are kept). A test proves the rest (`tests/security/test_every_high_write_path_is_read_only_to_commands.py`).
Patterns match case-insensitively; a folder protects everything below it; `*` globs one name.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Literal

Scope = Literal["root", "any", "venv"]

VCS = "version control internals"
CI = "CI configuration"
HOOKS = "git hooks"
AGENTS = "agent instructions or permissions"
PACKAGES = "package manager configuration (where packages come from, scripts that run on install)"
EDITORS = "editor auto-run configuration"
STARTUP = "start-up commands an interactive tool reads from the folder it is started in"
INTERPRETER = "interpreter start-up code (runs in every later Python or activated shell)"


@dataclass(frozen=True)
class ProtectedPath:
    id: str
    pattern: str
    family: str
    scope: Scope
    #: Why commands may still write it (empty: read-only to commands).
    commands_write: str = ""


def _entries(family: str, scope: Scope, prefix: str, patterns: str) -> list[ProtectedPath]:
    return [ProtectedPath(f"{prefix}:{p.lower().replace('*', 'x')}", p, family, scope) for p in patterns.split()]


_GIT_WRITES = "git writes its own objects, refs and index; only hooks and config run code"

TABLE: tuple[ProtectedPath, ...] = (
    ProtectedPath("vcs.git", ".git", VCS, "any", commands_write=_GIT_WRITES),
    ProtectedPath("vcs.hg", ".hg", VCS, "any", commands_write="hg writes its own store"),
    ProtectedPath("vcs.svn", ".svn", VCS, "any", commands_write="svn writes its own working copy state"),
    *_entries(
        VCS,
        "root",
        "vcs",
        # git reads config and hooks from the directory `commondir` names; config.worktree is read
        # when extensions.worktreeConfig is on (sparse-checkout sets it)
        ".git/hooks .git/config .git/config.worktree .git/commondir",
    ),
    *_entries(
        CI,
        "root",
        "ci",
        ".github/workflows .github/actions .gitlab-ci.yml .gitlab-ci .gitlab/ci .circleci .buildkite .travis.yml "
        "Jenkinsfile* *.jenkinsfile .jenkins azure-pipelines.yml azure-pipelines.yaml .azure-pipelines "
        "bitbucket-pipelines.yml .drone.yml .woodpecker.yml .woodpecker .gitea/workflows .forgejo/workflows "
        ".tekton cloudbuild.yaml cloudbuild.yml .cirrus.yml appveyor.yml .appveyor.yml .semaphore .gitpod.yml "
        "buildspec.yml buildspec.yaml bitrise.yml codemagic.yaml .teamcity bamboo-specs .harness codefresh.yml "
        "wercker.yml .buildkite.yml netlify.toml vercel.json render.yaml",
    ),
    *_entries(HOOKS, "root", "hooks", ".githooks .husky .pre-commit-config.yaml lefthook.yml .lefthook.yml"),
    *_entries(HOOKS, "any", "hooks", ".envrc mise.toml .mise.toml .mise"),
    *_entries(
        AGENTS,
        "any",
        "agents",
        ".openhands-tui .openhands .agents .claude .claude-plugin .cursor .mcp.json .cursorrules .windsurfrules "
        ".windsurf .clinerules .cline .continue .roo .roomodes .kiro .junie .goosehints .goose .rules .codex "
        ".gemini .qwen .augment .augment-guidelines .amazonq .trae .zed .kilocode .kilocodemodes .amp .factory "
        ".qoder .rovodev .tabnine .aiassistant .aiexclude .cody .sourcegraph .void .firebender .crush "
        "AGENTS.md AGENTS.override.md AGENT.md CLAUDE.md CLAUDE.local.md GEMINI.md QWEN.md WARP.md CRUSH.md "
        "opencode.json opencode.jsonc .opencode crush.json .crush.json .aider* .clineignore "
        ".github/copilot-instructions.md .github/instructions .github/prompts .github/skills .github/chatmodes "
        ".github/agents .github/hooks .github/copilot CODEOWNERS .github/CODEOWNERS",
    ),
    *_entries(
        PACKAGES,
        "any",
        "packages",
        # yarnPath, a pnpmfile's hooks, bun's preload, npm's node-options/script-shell, pip's and
        # uv's index, cargo's runner
        ".npmrc .yarnrc .yarnrc.yml .pnpmfile.cjs bunfig.toml .bunfig.toml pip.conf pip.ini uv.toml .condarc "
        ".pypirc .cargo/config.toml .cargo/config",
    ),
    *_entries(
        EDITORS,
        "any",
        "editors",
        ".vscode .idea *.code-workspace .devcontainer .devcontainer.json .nvim.lua .nvimrc .exrc .lazy.lua "
        ".helix .dir-locals.el .dir-locals-2.el .sublime-project *.sublime-project",
    ),
    # pdb (also under `pytest --pdb` and `breakpoint()`), irb, pry, R, Octave and gdb run these as
    # the user, unconfined
    *_entries(STARTUP, "any", "startup", ".pdbrc .irbrc irb.rc _irbrc .pryrc .Rprofile .octaverc .gdbinit"),
    *_entries(
        INTERPRETER,
        "venv",
        "venv",
        "pyvenv.cfg bin/activate bin/activate.* bin/activate_this.py lib/*/site-packages/*.pth "
        "lib/*/site-packages/sitecustomize.py lib/*/site-packages/usercustomize.py",
    ),
)


def _check(table: tuple[ProtectedPath, ...]) -> None:
    ids = [e.id for e in table]
    patterns = [e.pattern.lower() for e in table]
    if len(set(ids)) != len(ids):
        raise ValueError(f"protected paths: an id twice ({sorted({i for i in ids if ids.count(i) > 1})})")
    if len(set(patterns)) != len(patterns):
        raise ValueError("protected paths: a pattern twice")
    for entry in table:
        if entry.pattern.startswith("/") or ".." in entry.pattern.split("/") or not entry.pattern:
            raise ValueError(f"protected paths: {entry.id} is not relative to a folder")


_check(TABLE)

#: Read-only to commands (the sandbox binds the existing ones, undoes new ones), by scope.
_READ_ONLY = [e for e in TABLE if not e.commands_write]
ROOT_ONLY_PATHS = tuple(e.pattern for e in _READ_ONLY if e.scope == "root")
ROOT_ONLY = frozenset(ROOT_ONLY_PATHS)
NESTED_PROTECTED = tuple(e.pattern for e in _READ_ONLY if e.scope == "any")
PROTECTED = (*NESTED_PROTECTED, *ROOT_ONLY_PATHS)
VENV_PROTECTED = tuple(e.pattern for e in _READ_ONLY if e.scope == "venv")


def rule_families() -> dict[str, tuple[str, ...]]:
    """For the risk rules: each family's patterns, matched against a path's tails at any depth
    (a folder entry also as `folder/*`)."""
    families: dict[str, list[str]] = {}
    for entry in TABLE:
        families.setdefault(entry.family, []).extend([entry.pattern, entry.pattern + "/*"])
    return {family: tuple(patterns) for family, patterns in families.items()}


def matches(name: str, pattern_segment: str) -> bool:
    """One path segment against one pattern segment, ignoring case (`Agents.md`, `*.Code-Workspace`)."""
    return fnmatchcase(name.lower(), pattern_segment.lower())
