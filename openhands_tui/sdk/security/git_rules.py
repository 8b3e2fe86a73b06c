"""Rules for git: reading is LOW, ordinary work on the repository is MEDIUM, and anything
that throws away work, rewrites shared history, sends code somewhere other than a configured
remote, or makes git run other programs later (hooks, pagers, helpers) is HIGH."""

from __future__ import annotations

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.shell.syntax import Word

_GIT_READ = frozenset(
    words("""
    status log show diff blame rev-parse ls-files ls-tree cat-file describe shortlog grep rev-list
    show-ref for-each-ref whatchanged name-rev version help count-objects merge-base var check-
    ignore cherry range-diff
""")
)
_GIT_GLOBAL_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}
#: Config keys whose value names a program, a hook directory or where code is fetched from.
_GIT_EXEC_KEYS = words("""
    core.hookspath core.pager core.editor core.fsmonitor core.sshcommand core.askpass core.gitproxy
    credential. diff. filter. alias. url. gpg.program sequence.editor merge. include. includeif.
    pager. remote. http. protocol. uploadpack. receive. sendemail.
""")


def git(a: Analysis, inv: Invocation) -> None:
    args, index = inv.args, 0
    while index < len(args) and args[index].value.startswith("-"):
        option = args[index].value
        if option in ("-c", "--config-env") or option.startswith(("-c", "--config-env=")):
            a.flag(Risk.MEDIUM, "git -c overrides configuration for this call (it can select programs to run)")
            setting = option[2:] if option.startswith("-c") and len(option) > 2 else ""
            setting = option.split("=", 1)[1] if option.startswith("--config-env=") else setting
            if not setting and index + 1 < len(args):
                setting = args[index + 1].value
            if setting.lower().startswith(_GIT_EXEC_KEYS) or not (
                args[index + 1].static if index + 1 < len(args) else True
            ):
                a.flag(Risk.HIGH, f"git -c {setting.split('=', 1)[0]} names a program git will run")
        if option in ("-p", "--paginate"):
            a.flag(Risk.MEDIUM, "git -p runs the configured pager")
        if option in ("-C", "--git-dir", "--work-tree") and index + 1 < len(args):
            a.read_path(args[index + 1], inv.cwd)
        elif option.startswith(("--git-dir=", "--work-tree=")):
            a.read_path(Word(option.split("=", 1)[1]), inv.cwd)
        if option.startswith("--exec-path=") or (option == "--exec-path" and index + 1 < len(args)):
            a.flag(Risk.HIGH, "git --exec-path makes git run its helper programs from another directory")
        index += 2 if option in _GIT_GLOBAL_VALUE else 1
    if index >= len(args):
        return
    sub, rest = args[index].value, args[index + 1 :]
    sub_inv = Invocation(f"git {sub}", rest, inv.command, inv.cwd, inv.pipeline)
    handler = _GIT_SUBCOMMANDS.get(sub)
    _git_written_files(a, sub_inv)
    if handler is not None:
        handler(a, sub_inv)
    elif sub in _GIT_READ:
        _git_read(a, sub_inv)
    else:
        a.flag(Risk.MEDIUM, f"git {sub} changes the repository")


def _git_read(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.LOW, f"{inv.name} only reads the repository")
    values = inv.values
    if inv.has("--ext-diff", "--exec", "--upload-pack", "--textconv"):
        a.flag(Risk.MEDIUM, f"{inv.name} with these options runs external programs")
    if any(
        v.split("=", 1)[0] in ("--open-files-in-pager", "-O") or (v.startswith("-O") and len(v) > 2) for v in values
    ):
        a.flag(Risk.HIGH, f"{inv.name} --open-files-in-pager runs a program it is given")
    for index, value in enumerate(values):
        target = None
        if value == "--output" and index + 1 < len(values):
            target = inv.args[index + 1]
        elif value.startswith("--output="):
            target = Word(value.split("=", 1)[1])
        if target is not None:
            a.flag(Risk.MEDIUM, f"{inv.name} --output writes a file")
            a.write_path(target, inv.cwd)


def _git_push(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.MEDIUM, "git push uploads commits to a remote")
    if inv.has("-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "-d", "--prune"):
        a.flag(Risk.HIGH, "git push with force/mirror/delete rewrites or deletes history on the remote")
    operands = [w.value for w in inv.operands(frozenset({"--repo", "-o", "--push-option", "--receive-pack"}))]
    values = inv.values
    repos = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "--repo"]
    repos += [v.split("=", 1)[1] for v in values if v.startswith("--repo=")]
    if repos:
        operands = repos[:1] + operands  # `git push --repo=URL main`: the same as naming it first
    if operands and operands[0].startswith(("/", "./", "../", "~")):
        a.write_path(Word(operands[0]), inv.cwd)  # a repository by path: judged where it is
    if any(v.startswith(("+", ":")) for v in operands[1:]):
        a.flag(Risk.HIGH, "git push with a +/: refspec force-updates or deletes a remote branch")
    added = a.facts.get("git remotes added", set())
    if added and (not operands or operands[0] in added or operands[0].startswith("-")):
        a.flag(Risk.HIGH, "git push sends code to a remote this same command added or redirected")
    if operands and _is_url(operands[0]):
        a.flag(Risk.HIGH, f"git push sends code to {operands[0]}, not to a configured remote (exfiltration)")


def _is_url(value: str) -> bool:
    if "://" in value or value.startswith("git@"):
        return True
    host, separator, _ = value.partition(":")
    return bool(separator) and "/" not in host and ("." in host or "@" in host)  # scp-like host:path


def _git_reset(a: Analysis, inv: Invocation) -> None:
    if inv.has("--hard", "--merge", "--keep"):
        a.flag(Risk.HIGH, "git reset --hard throws away uncommitted work")
    else:
        a.flag(Risk.MEDIUM, "git reset moves the branch or unstages changes")


def _git_clean(a: Analysis, inv: Invocation) -> None:
    if inv.has("-n", "--dry-run"):
        return
    a.flag(Risk.HIGH, "git clean deletes untracked files (they cannot be recovered from git)")


def _git_checkout(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if (
        inv.has("-f", "--force")
        or "--" in values
        or "." in values
        or (inv.name == "git restore" and not inv.has("--staged", "-S"))
    ):
        a.flag(Risk.HIGH, f"{inv.name} overwrites uncommitted changes in the working tree")
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} switches branches or restores files")


def _git_branch(a: Analysis, inv: Invocation) -> None:
    if inv.has("-D", "--force", "-f") or ("--delete" in inv.values and "--force" in inv.values):
        a.flag(Risk.HIGH, "git branch -D deletes a branch even if it is not merged")
    elif inv.has("-d", "--delete", "-m", "-M", "-c", "-C", "--set-upstream-to", "-u") or inv.operands():
        a.flag(Risk.MEDIUM, "git branch changes branches")


def _git_tag(a: Analysis, inv: Invocation) -> None:
    if inv.operands() and not inv.has("-l", "--list"):
        a.flag(Risk.HIGH if inv.has("-d", "--delete", "-f", "--force") else Risk.MEDIUM, "git tag changes tags")


def _git_stash(a: Analysis, inv: Invocation) -> None:
    sub = inv.values[0] if inv.values else "push"
    if sub in ("list", "show"):
        return
    if sub in ("drop", "clear"):
        a.flag(Risk.HIGH, f"git stash {sub} deletes stashed work")
    else:
        a.flag(Risk.MEDIUM, "git stash moves uncommitted changes")


def _git_written_files(a: Analysis, inv: Invocation) -> None:
    """Files `git archive -o`, `git format-patch -o` and `git bundle create` write: judged by where
    they land, as a redirection would be (`-o ~/out` is outside the workspace)."""
    values = inv.values
    if inv.name == "git apply":  # `--directory=D`: the patched paths land under D
        for index, value in enumerate(values):
            if value.startswith("--directory="):
                a.write_path(Word(value.split("=", 1)[1] + "/-"), inv.cwd)
            elif value == "--directory" and index + 1 < len(values):
                a.write_path(Word(values[index + 1] + "/-"), inv.cwd)
    if inv.name not in ("git archive", "git format-patch", "git bundle"):
        return
    for index, value in enumerate(values[:-1]):
        if value in ("-o", "--output", "--output-directory"):
            a.write_path(inv.args[index + 1], inv.cwd)
    for value in values:
        if value.startswith(("--output=", "--output-directory=")):
            a.write_path(Word(value.split("=", 1)[1]), inv.cwd)
    if inv.name == "git bundle" and values[:1] == ["create"] and len(values) > 1:
        a.write_path(inv.args[1], inv.cwd)


def _git_config(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    if values[:1] in (["set"], ["unset"], ["get"], ["list"], ["edit"], ["rename-section"], ["remove-section"]):
        # git 2.46's verbs (`git config set core.pager x`): the same as the options they replace
        verb, rest = values[0], inv.args[1:]
        extra = {"unset": "--unset", "list": "--list", "get": "--get", "edit": "--edit"}.get(verb, "--" + verb)
        extra = "" if verb == "set" else extra
        inv = Invocation(inv.name, [Word(extra), *rest] if extra else rest, inv.command, inv.cwd, inv.pipeline)
        values = inv.values
    writes = not inv.has("--get", "--get-all", "--get-regexp", "-l", "--list", "--show-origin", "--name-only")
    operands = [w.value for w in inv.operands(frozenset({"--file", "-f", "--type", "--blob", "--default"}))]
    if not writes or (
        len(operands) < 2
        and not inv.has(
            "--unset",
            "--unset-all",
            "--add",
            "--replace-all",
            "--remove-section",
            "--rename-section",
            "-e",
            "--edit",
        )
    ):
        a.flag(Risk.MEDIUM, "git config reads configuration (it may contain credentials)")
        return
    files = [inv.args[i + 1] for i, v in enumerate(values[:-1]) if v in ("--file", "-f")]
    files += [Word(v.split("=", 1)[1]) for v in values if v.startswith("--file=")]
    if inv.has("--global", "--system") or files:
        a.flag(Risk.HIGH, "git config writes configuration outside the repository (it applies everywhere)")
    for file in files:
        a.write_path(file, inv.cwd)
    key = operands[0].lower() if operands else ""
    if key.startswith(_GIT_EXEC_KEYS):
        a.flag(Risk.HIGH, f"git config {key} sets a program, hook directory or remote that git will use later")
    a.flag(Risk.MEDIUM, "git config changes repository configuration")


def _git_history_rewrite(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} rewrites or expires history")


def _git_remote(a: Analysis, inv: Invocation) -> None:
    operands = [w.value for w in inv.operands(frozenset({"-t", "-m"}))]
    if operands[:1] in (["add"], ["set-url"]) and len(operands) > 1:
        a.facts.setdefault("git remotes added", set()).add(operands[1])
    if inv.values and inv.values[0] in ("add", "set-url", "rename", "remove", "rm", "set-head", "prune"):
        a.flag(Risk.MEDIUM, "git remote changes where the repository fetches from and pushes to")
    if operands[:1] in (["add"], ["set-url"]) and len(operands) > 2:
        # as `git config remote.x.url` is: a later, plain-looking `git push x` sends the code there
        a.flag(Risk.HIGH, f"git remote {operands[0]} points {operands[1]} at {operands[2]}: later pushes go there")


def _git_gc(a: Analysis, inv: Invocation) -> None:
    if any(v.startswith("--prune") for v in inv.values):
        a.flag(Risk.HIGH, "git gc --prune deletes unreachable objects for good")
    else:
        a.flag(Risk.MEDIUM, "git gc repacks the repository")


def _git_reflog(a: Analysis, inv: Invocation) -> None:
    if inv.values and inv.values[0] in ("expire", "delete"):
        _git_history_rewrite(a, inv)


def _git_network(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.MEDIUM, f"{inv.name} downloads from a remote and changes the repository")
    if any(v.startswith(("ext::", "fd::")) for v in inv.values):
        a.flag(Risk.HIGH, f"{inv.name} uses the ext:: transport, which runs the command it names")
    _git_runs_helpers(a, inv)
    if inv.name == "git clone":
        operands = inv.operands(_CLONE_VALUE)
        for target in operands[1:2]:
            a.write_path(target, inv.cwd)
        if operands:
            default = operands[0].value.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git")
            a.facts.setdefault("downloaded", set()).add(operands[1].value if len(operands) > 1 else default)


#: Options that make git run a program or copy hooks and config in from a directory.
_RUNS_HELPERS = ("--upload-pack", "--receive-pack", "--exec", "--template", "--config", "-c")
_CLONE_VALUE = frozenset(
    words("-b --branch -o --origin --depth --reference --separate-git-dir -j --jobs --filter --template -c --config -u")
)


def _git_runs_helpers(a: Analysis, inv: Invocation) -> None:
    for value in inv.values:
        option = value.split("=", 1)[0]
        clone_only = inv.name == "git clone" and (option == "-u" or (value.startswith("-c") and len(value) > 2))
        if option in _RUNS_HELPERS or clone_only:
            a.flag(Risk.HIGH, f"{inv.name} {option} runs a program or installs hooks or config it is given")


def _git_new_repository(a: Analysis, inv: Invocation) -> None:
    """`git init DIR`, `git worktree add DIR`: where the new tree goes, and hooks copied from a template."""
    if inv.name == "git worktree" and inv.values[:1] == ["list"]:
        return a.flag(Risk.LOW, "git worktree list only reads")
    a.flag(Risk.MEDIUM, f"{inv.name} creates a repository or working tree")
    _git_runs_helpers(a, inv)
    operands = inv.operands(frozenset(words("-b --initial-branch --separate-git-dir --template --object-format -B")))
    if inv.name == "git worktree":
        operands = operands[1:2] if operands and operands[0].value == "add" else []
    for target in operands[:1]:
        a.write_path(target, inv.cwd)


def _git_runs_given_code(a: Analysis, inv: Invocation) -> None:
    """`git submodule foreach CMD`, `git rebase -x CMD`, `git bisect run CMD...`, `git difftool
    -x CMD`: commands handed to git, which runs them; judged as if typed."""
    values = inv.values
    a.flag(Risk.MEDIUM, f"{inv.name} changes the repository")
    for index, value in enumerate(values):
        code = None
        if value in ("--exec", "-x", "--extcmd") and index + 1 < len(values):
            code = inv.args[index + 1]
        elif value.startswith(("--exec=", "--extcmd=")):
            code = Word(value.split("=", 1)[1], static=inv.args[index].static)
        elif inv.name == "git submodule" and value == "foreach":
            rest = [w for w in inv.args[index + 1 :] if not w.value.startswith("--")]
            code = rest[0] if rest else None
        elif inv.name == "git bisect" and value == "run" and index + 1 < len(values):
            a.nested_invocation(inv.args[index + 1 :], inv)
            return
        if code is not None:
            if code.static:
                a.nested_shell(code.value, inv.cwd, f"{inv.name} runs")
            else:
                a.flag(Risk.HIGH, f"{inv.name} runs a command known only at run time")
            return
    if inv.name == "git submodule":
        _git_network(a, inv)


def _git_persists(a: Analysis, inv: Invocation) -> None:
    """`git maintenance start/register`, `git lfs install` (global): scheduled jobs or the
    user's global config, outside the repository; `git daemon`/`instaweb` serve it."""
    values = inv.values
    if inv.name == "git lfs" and (values[:1] != ["install"] or "--local" in values):
        a.flag(Risk.MEDIUM, f"{inv.name} changes the repository")
        return
    if inv.name == "git maintenance" and values[:1] in (["run"], ["unregister"], ["stop"]):
        a.flag(Risk.MEDIUM, f"{inv.name} {values[0]} works on the repository")
        return
    a.flag(Risk.HIGH, f"{inv.name} schedules jobs, changes your global git config or serves the repository")


def _git_sends(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.HIGH, f"{inv.name} sends repository content or credentials somewhere")


_GIT_SUBCOMMANDS: dict[str, Handler] = {
    "push": _git_push,
    "reset": _git_reset,
    "clean": _git_clean,
    "checkout": _git_checkout,
    "restore": _git_checkout,
    "switch": _git_checkout,
    "branch": _git_branch,
    "tag": _git_tag,
    "stash": _git_stash,
    "config": _git_config,
    "filter-branch": _git_history_rewrite,
    "filter-repo": _git_history_rewrite,
    "update-ref": _git_history_rewrite,
    "replace": _git_history_rewrite,
    "remote": _git_remote,
    "gc": _git_gc,
    "reflog": _git_reflog,
    "clone": _git_network,
    "init": _git_new_repository,
    "worktree": _git_new_repository,
    "send-email": _git_sends,
    "send-pack": _git_sends,
    "http-push": _git_sends,
    "credential": _git_sends,
    "credential-store": _git_sends,
    "credential-cache": _git_sends,
    "ls-remote": _git_network,
    "archive": _git_network,
    "pull": _git_network,
    "fetch": _git_network,
    "submodule": _git_runs_given_code,
    "rebase": _git_runs_given_code,
    "bisect": _git_runs_given_code,
    "difftool": _git_runs_given_code,
    "maintenance": _git_persists,
    "lfs": _git_persists,
    "daemon": _git_persists,
    "instaweb": _git_persists,
}


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (git,)
