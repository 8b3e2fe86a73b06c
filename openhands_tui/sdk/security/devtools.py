"""Rules for developer tools: package managers, builds, containers, cloud and publishing.

The shape: reading is LOW, working on the project (building, testing, installing from the
default registry, committing) is MEDIUM, and anything that destroys work, rewrites shared
history, changes where code comes from or goes to, publishes, or acts on infrastructure is
HIGH.
"""

from __future__ import annotations

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Handler, Invocation, words
from openhands_tui.sdk.security.npm_scripts import LIFECYCLE_SCRIPTS
from openhands_tui.sdk.security.runners import package_run
from openhands_tui.sdk.shell.syntax import Word

_JS_MANAGERS = {"npm", "pnpm", "yarn", "bun", "cnpm"}
_READ_SUBCOMMANDS = frozenset(
    words("""
    ls list view info why outdated help --version -v version search explain query root prefix bin
    doctor fund licenses show freeze check tree inspect audit
""")
)
_INSTALLS = frozenset(
    words("""
    install i add ci sync update upgrade up remove uninstall rm reinstall download lock
""")
)
#: Flags that point a package manager at another registry or package source.
_SOURCE_FLAGS = {
    "pip": frozenset(
        words("""
        -i --index-url --extra-index-url --index --default-index -f --find-links --trusted-host
    """)
    ),
    "npm": {"--registry"},
    "gem": {"--source", "--clear-sources"},
    "bundle": {"--source"},
    "composer": {"--repository"},
}
_FAMILY = {
    "pip3": "pip",
    "uv": "pip",
    "pipx": "pip",
    "poetry": "pip",
    "pdm": "pip",
    "hatch": "pip",
    "conda": "pip",
    "mamba": "pip",
    "uvx": "pip",
    "pnpm": "npm",
    "yarn": "npm",
    "bun": "npm",
    "cnpm": "npm",
    "npx": "npm",
    "pnpx": "npm",
    "bunx": "npm",
}


def _remote_links(values: list[str], program: str) -> bool:
    """Whether pip's `-f/--find-links` name a place on the network (conda's `-f` is a file)."""
    if program in ("conda", "mamba"):
        return False
    links = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-f", "--find-links")]
    links += [v.split("=", 1)[1] for v in values if v.startswith("--find-links=")]
    return not links or any("://" in link or not link.strip() for link in links)


def package_manager(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    family = _FAMILY.get(inv.name, inv.name)
    subcommands = inv.subcommands
    sub = subcommands[0] if subcommands else ""
    if sub in ("pip", "tool", "global") and len(subcommands) > 1:
        sub = subcommands[1]  # uv pip install, uv tool install, yarn global add
    # publishing and registry credentials: the program table's verdicts (`programs.toml`)
    if sub == "config" or (family == "npm" and sub in ("set", "get")):
        rest = subcommands[1:]
        if sub == "get" or (rest and rest[0] in ("list", "get", "ls", "show", "debug")) or not rest:
            a.flag(Risk.MEDIUM, f"{inv.name} config shows configuration (it may contain tokens)")
        else:
            a.flag(Risk.HIGH, f"{inv.name} config changes package-manager settings (registries, credentials)")
        return
    flags = {v.split("=", 1)[0] for v in values if v.startswith("-")}
    if sub in ("source", "sources") and ({"add", "-a", "--add"} & set(values)):
        a.flag(Risk.HIGH, f"{inv.name} {sub} adds a package source (supply chain)")
    sources = flags & _SOURCE_FLAGS.get(family, set())
    if sources & {"-f", "--find-links"} and not _remote_links(values, inv.name):
        sources -= {"-f", "--find-links"}  # `--find-links ./wheels`: the project's own files (`conda -f`: a file)
    if sources:
        a.flag(Risk.HIGH, f"{inv.name} installs from a source other than the default registry (supply chain)")
    if inv.name == "npm" and sub == "link" and len(subcommands) == 1:
        a.flag(Risk.HIGH, "npm link puts this package's programs on the user's PATH, outside the workspace")
    if family == "npm" and (
        {"-g", "--global"} & flags
        or "--location=global" in values
        or (inv.name == "yarn" and subcommands[:1] == ["global"])
    ):
        a.flag(Risk.HIGH, f"{inv.name} installs globally, outside the workspace")
    user_wide = (
        (family == "pip" and sub == "install" and ("--user" in flags or inv.name == "pipx"))
        or (inv.name == "uv" and subcommands[:1] == ["tool"] and sub == "install")
        or (inv.name == "brew" and sub in ("install", "reinstall", "upgrade", "tap", "uninstall", "remove"))
    )
    if user_wide:
        a.flag(Risk.HIGH, f"{inv.name} {sub} installs for the whole user or machine, outside the workspace")
    if "--break-system-packages" in flags:
        a.flag(Risk.HIGH, f"{inv.name} --break-system-packages overrides the system's protection")
    for index, value in enumerate(values):
        if value in ("--target", "-t", "--prefix", "--root") and index + 1 < len(values):
            a.write_path(inv.args[index + 1], inv.cwd)
        elif value.startswith(("--target=", "--prefix=", "--root=")):
            a.write_path(Word(value.split("=", 1)[1]), inv.cwd)
    runner = (
        inv.name in ("npx", "pnpx", "bunx", "uvx")
        or sub in ("exec", "dlx", "x")
        or (inv.name in ("pipx", "bun") and sub == "run")
    )
    if runner:
        # `npx https://x/p.tgz`, `uvx --from git+https://...`, `npm exec --package=URL`: code fetched and run
        for value in values:
            source = value.split("=", 1)[1] if value.startswith("--") and "=" in value else value
            if (not source.startswith("-") and "://" in source) or source.startswith(("git+", "github:", "gitlab:")):
                a.flag(Risk.HIGH, f"{inv.name} runs a package fetched from {source}, not from the registry")
                break
    if sub in _INSTALLS:
        listed = [
            values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-r", "--requirement", "-c", "--constraint")
        ]
        listed += [v.split("=", 1)[1] for v in values if v.startswith(("--requirement=", "--constraint="))]
        for source in listed:
            if "://" in source:
                a.flag(
                    Risk.HIGH, f"{inv.name} installs what {source} lists, which the rules cannot read (supply chain)"
                )
        for word in inv.operands(frozenset({"-r", "--requirement", "-c", "--constraint", "-e", "--editable"})):
            if _remote_source(word.value, family):
                a.flag(
                    Risk.HIGH,
                    f"{inv.name} installs {word.value}, which is not from the default registry (supply chain)",
                )
    if (
        family == "npm"
        and sub in ("pkg", "set-script")
        and any(v.startswith("scripts") or v in _LIFECYCLE for v in values)
    ):
        a.flag(Risk.HIGH, f"{inv.name} {sub} changes package scripts that run on install (persistence)")
    package_run(a, inv, sub)  # `uv run sh -c CODE`: what it runs is judged too
    if sub in _READ_SUBCOMMANDS and "--fix" not in flags and "fix" not in subcommands[1:]:
        return
    what = "installs packages (their install scripts run code)" if sub in _INSTALLS else "runs project tooling"
    a.flag(Risk.MEDIUM, f"{inv.name} {sub} {what}" if sub else f"{inv.name} {what}")


_LIFECYCLE = frozenset(LIFECYCLE_SCRIPTS)


def _remote_source(value: str, family: str) -> bool:
    """A package named by URL, VCS, archive or (npm) GitHub shorthand, not by registry name."""
    if "://" in value or value.startswith(("git+", "hg+", "svn+", "bzr+", "git@", "github:", "gitlab:", "bitbucket:")):
        return True
    if value.endswith((".tgz", ".tar.gz", ".whl", ".zip")) and not value.startswith((".", "/")):
        return "/" in value
    if family == "npm" and "/" in value and not value.startswith(("@", ".", "/", "~")):
        return True  # user/repo: a GitHub repository
    return " @ " in value or "@ http" in value.replace(" ", "")


def system_package(a: Analysis, inv: Invocation) -> None:
    sub = inv.subcommand
    if sub in ("list", "search", "show", "info", "policy", "query", "-Q", "-Ss", "-Si"):
        a.flag(Risk.MEDIUM, f"{inv.name} {sub} queries system packages")
    else:
        a.flag(Risk.HIGH, f"{inv.name} {sub} changes system packages (needs root, affects the whole machine)")


def build_tool(a: Analysis, inv: Invocation) -> None:
    a.flag(Risk.MEDIUM, f"{inv.name} runs the project's build, test or lint steps")
    values = inv.values
    makefiles = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-f", "--file", "--makefile")]
    makefiles += [v.split("=", 1)[1] for v in values if v.startswith(("--file=", "--makefile="))]
    if any(m in ("-", "/dev/stdin") or m.startswith(("/dev/fd/", "/proc/self/fd/")) for m in makefiles) or any(
        v in ("-E", "--eval") or v.startswith("--eval=") for v in values
    ):
        a.flag(Risk.HIGH, f"{inv.name} runs recipes given on the command line or its input, not the project's")
    for makefile in makefiles:
        if makefile not in ("-", "/dev/stdin"):
            a.read_path(Word(makefile), inv.cwd)
    for flag in ("-C", "--directory", "--manifest-path", "--prefix", "--cwd", "--rootdir"):
        if flag in values and values.index(flag) + 1 < len(values):
            a.read_path(inv.args[values.index(flag) + 1], inv.cwd)


def github_cli(a: Analysis, inv: Invocation) -> None:
    """What `programs.toml` cannot say about gh: `gh api` changes state only with a method or
    fields; everything else it does not name talks to GitHub with your credentials."""
    area, action = ([*inv.subcommands, "", ""])[:2]
    if area == "api" and any(
        v in ("-X", "--method", "-f", "-F", "--field", "--raw-field", "--input") for v in inv.values
    ):
        a.flag(Risk.HIGH, "gh api with a method or fields changes GitHub state")
    else:
        a.flag(Risk.MEDIUM, f"gh {area} {action} talks to GitHub with your credentials".replace("  ", " "))


def cargo_or_go(a: Analysis, inv: Invocation) -> None:
    sub = inv.subcommand  # publishing and registry credentials: `programs.toml`
    if sub == "install" and inv.name in ("cargo", "go"):
        a.flag(Risk.HIGH, f"{inv.name} install builds a program into your home directory's bin, outside the workspace")
    elif inv.name == "go" and sub == "env" and inv.has("-w", "-u"):
        a.flag(Risk.HIGH, "go env -w changes go's settings for every later build (proxy, flags, checksums)")
    elif sub in ("version", "env", "help", "--version", "doc", "tree", "metadata", "list"):
        return
    else:
        a.flag(Risk.MEDIUM, f"{inv.name} {sub} builds, tests or installs code")


def container(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    sub = inv.subcommand  # pushing and registry credentials: `programs.toml`
    if sub in ("ps", "images", "version", "info", "logs", "inspect", "stats", "top", "port", "history"):
        a.flag(Risk.MEDIUM, f"{inv.name} {sub} inspects containers")
        return
    if (
        sub in ("system", "volume", "image", "container", "network", "builder", "buildx")
        and ("prune" in values or "rm" in values)
    ) or (sub in ("rm", "rmi", "kill") and inv.has("-f", "--force", "-a", "--all")):
        a.flag(Risk.HIGH, f"{inv.name} {' '.join(values[:3])} deletes containers, images or volumes")
        return
    a.flag(Risk.MEDIUM, f"{inv.name} {sub} builds or runs containers")
    if sub in ("run", "create", "exec"):
        host_flags = words("""
            --privileged --pid --ipc --uts --userns --cap-add --security-opt --device
        """)
        if inv.has(*host_flags) or any(v in ("--net=host", "--network=host") for v in values):
            a.flag(Risk.HIGH, f"{inv.name} {sub} gives the container host privileges (container escape)")
        for index, value in enumerate(values):
            spec = (
                values[index + 1]
                if value in ("-v", "--volume", "--mount") and index + 1 < len(values)
                else (value.split("=", 1)[1] if value.startswith(("--volume=", "--mount=")) else None)
            )
            if spec:
                host = (
                    spec.split(":", 1)[0]
                    if not spec.startswith(("type=", "source=", "src="))
                    else next((p.split("=", 1)[1] for p in spec.split(",") if p.startswith(("source=", "src="))), "")
                )
                if host.startswith(("/", "~", ".")):
                    if "docker.sock" in host:
                        a.flag(Risk.HIGH, "mounting the Docker socket gives the container control of the host")
                    a.write_path(Word(host), inv.cwd)


def infrastructure(a: Analysis, inv: Invocation) -> None:
    values = inv.values
    sub = inv.subcommand
    harmless = {
        "terraform": {"plan", "init", "validate", "fmt", "version", "show", "output", "providers", "graph"},
        "kubectl": {"get", "describe", "logs", "version", "explain", "api-resources", "top"},
        "helm": {"list", "ls", "status", "template", "lint", "version", "search", "show", "get"},
        "pulumi": {"preview", "version", "stack", "whoami"},
        "cdk": {"synth", "diff", "ls", "list", "doctor", "--version"},
        "serverless": {"print", "info", "package", "--version"},
        "sls": {"print", "info", "package", "--version"},
        "wrangler": {"dev", "whoami", "--version", "types"},
        "sam": {"build", "validate", "local", "--version"},
        "supabase": {"start", "stop", "status", "init", "--version"},
    }.get(inv.name, set())
    if (inv.name == "kubectl" and {"secret", "secrets"} & set(values)) or any(v.startswith("secret/") for v in values):
        a.flag(Risk.HIGH, f"{inv.name} {sub} reads or changes cluster secrets")
    elif (sub in harmless or _reads_kube_config(inv.name, inv.subcommands)) and "--raw" not in values:
        a.flag(Risk.MEDIUM, f"{inv.name} {sub} reads infrastructure state")
    else:
        a.flag(Risk.HIGH, f"{inv.name} {sub} acts on cloud or cluster resources with your credentials")


def _reads_kube_config(program: str, verbs: list[str]) -> bool:
    """`kubectl config current-context`, `get-contexts`, `view` (keys redacted without --raw)."""
    return program == "kubectl" and verbs[:1] == ["config"] and verbs[1:2] in _KUBE_CONFIG_READS


_KUBE_CONFIG_READS = [["current-context"], ["get-contexts"], ["get-clusters"], ["get-users"], ["view"]]


def python_module(a: Analysis, inv: Invocation, module: str, rest: list[Word]) -> None:
    """`python -m MODULE ...`: the module decides."""
    sub_inv = Invocation(module, rest, inv.command, inv.cwd, inv.pipeline)
    if module in ("pip", "uv", "poetry", "pipx", "twine", "conda"):
        a.nested_invocation([Word(module), *rest], inv)  # as the program itself: `python -m twine upload`
    elif module in ("json.tool", "tabnanny", "pydoc", "site", "sysconfig", "platform"):
        a.flag(Risk.LOW, f"python -m {module} inspects")
    elif module in ("http.server", "SimpleHTTPServer", "smtpd", "ftplib"):
        a.flag(Risk.MEDIUM, f"python -m {module} serves the workspace on the network")
        for index, word in enumerate(rest[:-1]):
            if word.value in ("-d", "--directory"):
                a.read_path(rest[index + 1], inv.cwd)  # serving another directory publishes it
    elif module.split(".")[0] in ("openhands_tui", "openhands", "aider"):
        a.flag(Risk.HIGH, f"python -m {module} starts another coding agent, which acts under its own approvals")
    else:
        a.flag(Risk.MEDIUM, f"python -m {module} runs project tooling")
        for word in sub_inv.operands():
            if word.value.startswith(("/", "~", "../")):
                a.read_path(word, inv.cwd)


#: The code checks this module offers the program table (`programs.toml` names them).
CHECKS: tuple[Handler, ...] = (
    build_tool,
    cargo_or_go,
    container,
    github_cli,
    infrastructure,
    package_manager,
    system_package,
)
