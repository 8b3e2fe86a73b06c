"""The paths inside a workspace that steer later sessions and programs (git hooks and config,
agent instructions and rules, CI configuration, editor and package-manager settings): read-only
to commands in every sandbox mode; they change only through the file editor, which asks."""

from __future__ import annotations

#: Read only where the repository's root is: CI services and hook managers look nowhere else, and
#: folders of them below the top are often templates and fixtures the agent must edit (a
#: cookiecutter's `.github/workflows`).
ROOT_ONLY_PATHS = (
    ".github/workflows",
    ".github/actions",
    ".gitlab-ci.yml",
    ".circleci",
    ".buildkite",
    ".travis.yml",
    "Jenkinsfile",
    "azure-pipelines.yml",
    "bitbucket-pipelines.yml",
    ".drone.yml",
    ".woodpecker.yml",
    ".woodpecker",
    ".githooks",
    ".husky",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".lefthook.yml",
    ".gitlab/ci",
    ".gitea/workflows",
    ".forgejo/workflows",
    ".tekton",
    "cloudbuild.yaml",
    ".cirrus.yml",
    "appveyor.yml",
    ".semaphore",
    ".gitpod.yml",
)
ROOT_ONLY = frozenset(ROOT_ONLY_PATHS)

#: Inside the workspace: read-only to commands in every mode. Names match case-insensitively
#: (`Agents.md` is an instruction file too); a directory protects everything below it.
PROTECTED = (
    ".git/hooks",
    ".git/config",
    ".git/config.worktree",  # read when extensions.worktreeConfig is on (sparse-checkout sets it)
    ".git/commondir",  # git reads config and hooks from the directory it names
    ".openhands-tui",
    ".openhands",
    ".agents",
    ".claude",
    ".cursor",
    ".mcp.json",
    ".vscode",
    ".idea",  # JetBrains run configurations and before-launch tasks
    ".devcontainer",
    ".envrc",
    "AGENTS.md",
    "AGENTS.override.md",  # Codex reads it instead of AGENTS.md
    "AGENT.md",
    "CLAUDE.md",
    "CLAUDE.local.md",  # loaded always-on like CLAUDE.md (the loader's INSTRUCTION_FILES)
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".windsurf",
    ".github/instructions",
    ".github/prompts",
    ".github/skills",
    ".github/chatmodes",
    ".continue",
    ".roo",
    ".roomodes",
    ".kiro",
    ".junie",
    ".goosehints",
    ".rules",
    "opencode.json",
    ".opencode",
    ".crush.json",
    ".codex",
    ".gemini",
    ".qwen",
    "QWEN.md",
    ".augment",
    ".augment-guidelines",
    ".amazonq",
    ".trae",
    ".zed",
    ".aider.conf.yml",
    ".github/copilot-instructions.md",
    ".devcontainer.json",
    ".nvim.lua",
    ".exrc",
    # start-up commands interactive tools read from the folder they start in: pdb (also under
    # `pytest --pdb` and `breakpoint()`), irb, pry, R, Octave run them as the user, unconfined
    ".pdbrc",
    ".irbrc",
    "irb.rc",
    "_irbrc",
    ".pryrc",
    ".Rprofile",
    ".octaverc",
    # package-manager settings that run code on the user's next install or script: yarnPath,
    # a pnpmfile's hooks, bun's preload, npm's node-options/script-shell
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
    "bunfig.toml",
    ".bunfig.toml",
    *ROOT_ONLY_PATHS,
)


#: In every folder below the top too (`packages/web/AGENTS.md`, `lib/.cursor/rules`, a nested
#: package's `.claude/skills`, `sub/.envrc`, `sub/.vscode`): agents read a folder's own
#: instructions when they work there, direnv runs a nested `.envrc` on `cd`, an editor opened
#: on the folder runs its tasks, a package manager run there reads its settings.
NESTED_PROTECTED = tuple(p for p in PROTECTED if not p.startswith(".git/") and p not in ROOT_ONLY)
