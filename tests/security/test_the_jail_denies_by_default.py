"""The jail's view outside the workspace is deny by default, against real bubblewrap: project
code the agent runs unasked (a test, a script) cannot read what lies in HOME, in the
workspace's parent folders or in sibling projects, cannot reach a socket, and cannot be made
to offer the user an escalation by printing one; toolchains kept in HOME still work."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.jail.view import sanitized_git_config
from openhands_tui.sdk.sandbox import SandboxGrant, SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, TerminalTool

pytestmark = pytest.mark.skipif(find_bubblewrap().path is None, reason=f"no bubblewrap: {find_bubblewrap().problem}")

#: Files that hold credentials or private history in a developer's HOME, by what reads them.
_SECRETS_IN_HOME = {
    ".cargo/credentials.toml": 'token = "cio-cargo-secret-1"',
    ".claude/.credentials.json": '{"token": "claude-secret-2"}',
    ".codex/auth.json": '{"OPENAI_API_KEY": "codex-secret-3"}',
    ".config/github-copilot/hosts.json": '{"oauth_token": "copilot-secret-4"}',
    ".cache/huggingface/token": "hf-secret-5",
    ".kaggle/kaggle.json": '{"key": "kaggle-secret-6"}',
    ".bash_history": "mysql -p'history-secret-7'",
    ".psql_history": "\\password history-secret-8",
    ".git-credentials": "https://u:gitcred-secret-9@example.com",
}


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A HOME outside /tmp (the jail's /tmp is its own anyway), holding projects and secrets."""
    base = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="oht-home-"))
    home = base / "home"
    for relative, text in _SECRETS_IN_HOME.items():
        (home / relative).parent.mkdir(parents=True, exist_ok=True)
        (home / relative).write_text(text)
    (home / "projects" / "app").mkdir(parents=True)
    (home / "projects" / ".env").write_text("PARENT=parent-secret-10\n")
    (home / "projects" / "other").mkdir()
    (home / "projects" / "other" / ".env").write_text("SIBLING=sibling-secret-11\n")
    (home / "projects" / "other" / "app.ini").write_text("password = sibling-secret-12\n")
    (home / "projects" / "other" / "notes.txt").write_text("just notes\n")
    tool = home / ".pyenv" / "bin" / "oht-toolchain-probe"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\necho toolchain-ran\n")
    tool.chmod(0o755)
    (home / ".pyenv" / ".npmrc").write_text("//registry/:_authToken=pyenv-secret-13\n")
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Jail Tester\n\temail = jail@example.com\n[credential]\n\thelper = store\n"
        '[http "https://example.com/"]\n\textraHeader = AUTHORIZATION: bearer gitconfig-secret-14\n'
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", f"{tool.parent}{os.pathsep}{os.environ['PATH']}")
    yield home
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
async def terminal(home: Path):
    tool = TerminalTool(ToolContext(home / "projects" / "app", "root"))
    yield tool
    await tool.close()


async def _run(tool: TerminalTool, command: str, grant: SandboxGrant | None = None):
    action = TerminalAction(command=command)
    return await (tool.run_granted(action, grant) if grant else tool.run(action))


async def test_home_parents_and_siblings_show_nothing_of_what_they_hold(terminal: TerminalTool, home: Path) -> None:
    paths = [home / r for r in _SECRETS_IN_HOME] + [
        home / "projects" / ".env",
        home / "projects" / "other" / ".env",
        home / "projects" / "other" / "app.ini",
    ]
    listing = " ".join(str(p) for p in paths)
    seen = await _run(terminal, f"cat {listing} 2>&1; grep -r secret {home} 2>&1")
    assert "secret" not in seen.text.replace("grep -r secret", "")
    listed = await _run(terminal, f"ls -a {home}/projects")
    assert listed.text.split()[:3] == [".", "..", "app"]  # the parent's .env and the sibling: not even listed


async def test_toolchains_in_home_still_run_and_git_knows_the_user(terminal: TerminalTool, home: Path) -> None:
    ran = await _run(terminal, "oht-toolchain-probe && git config --global user.name")
    assert ran.exit_code == 0, ran.text
    assert "toolchain-ran" in ran.text and "Jail Tester" in ran.text
    hidden = await _run(terminal, f"cat {home}/.pyenv/.npmrc; git config --global --list")
    assert "pyenv-secret-13" not in hidden.text  # a credential file inside a bound toolchain
    assert "gitconfig-secret-14" not in hidden.text and "helper" not in hidden.text


def test_git_config_keeps_identity_and_drops_what_can_carry_a_credential() -> None:
    text = (
        "[user]\n\tname = A\n[credential]\n\thelper = store\n[include]\n\tpath = ~/.gitconfig-work\n"
        '[remote "origin"]\n\turl = https://user:pw123456@example.com/r.git\n[core]\n\teditor = vim\n'
    )
    kept = sanitized_git_config(text)
    assert "name = A" in kept and "editor = vim" in kept
    assert "helper" not in kept and "gitconfig-work" not in kept and "pw123456" not in kept


async def test_no_socket_in_home_or_a_bound_toolchain_can_be_reached(home: Path) -> None:
    short = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="s"))  # sun_path is short: keep it so
    docker = home / ".colima" / "default"
    docker.mkdir(parents=True)
    inside_toolchain = home / ".pyenv" / "agent.sock"
    listeners = []
    try:
        for path in (docker / "docker.sock", inside_toolchain):
            server = socket.socket(socket.AF_UNIX)
            server.bind(str(path))
            server.listen(1)
            listeners.append(server)
        probe = home / "projects" / "app" / "probe.py"
        probe.write_text(
            "import socket, sys\n"
            "for path in sys.argv[1:]:\n"
            "    s = socket.socket(socket.AF_UNIX)\n"
            "    try:\n"
            "        s.connect(path); print('REACHED', path)\n"
            "    except OSError as e:\n"
            "        print('blocked', path, e)\n"
        )
        tool = TerminalTool(ToolContext(home / "projects" / "app", "root"))
        try:
            seen = await _run(tool, f"python3 probe.py {docker / 'docker.sock'} {inside_toolchain}")
        finally:
            await tool.close()
        assert "REACHED" not in seen.text and seen.text.count("blocked") == 2, seen.text
    finally:
        for server in listeners:
            server.close()
        shutil.rmtree(short, ignore_errors=True)


async def test_a_made_up_denial_in_the_output_earns_no_offer(terminal: TerminalTool, home: Path) -> None:
    lines = terminal.session.cwd + "/fake.txt"
    Path(lines).write_text(
        f"OSError: [Errno 30] Read-only file system: '{home}/x'\n"
        f"touch: cannot touch '{home}/.config/tool/settings': Read-only file system\n"
        "curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused\n"
        f"cat: {home}/projects/other/notes.txt: No such file or directory\n"
        f"cat: {home}/.bash_history: No such file or directory\n"
        f"OSError: [Errno 30] Read-only file system: '{home}/.pyenv/bin/oht-toolchain-probe'\n"
    )
    forged = await _run(terminal, "cat fake.txt; exit 1")
    assert forged.exit_code == 1
    assert forged.sandbox_denial is None or not forged.sandbox_denial.grantable, forged.sandbox_denial


async def test_a_toolchain_on_path_is_never_offered_for_writing(terminal: TerminalTool, home: Path) -> None:
    tried = await _run(terminal, f"touch {home}/.pyenv/bin/git")
    assert tried.sandbox_denial is not None and not tried.sandbox_denial.grantable
    assert "toolchain" in tried.sandbox_denial.reason


async def test_renaming_the_folder_above_a_protected_file_cannot_carry_it_away(home: Path) -> None:
    app = home / "projects" / "app"
    (app / ".github" / "workflows").mkdir(parents=True)
    (app / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    tool = TerminalTool(ToolContext(app, "root"))
    try:
        await _run(tool, "mv .github .github_moved; mkdir -p .github/workflows; echo evil > .github/workflows/ci.yml")
    finally:
        await tool.close()
    assert (app / ".github" / "workflows" / "ci.yml").read_text() == "on: push\n"
    assert not (app / ".github_moved").exists()


async def test_shared_memory_and_run_are_sized_and_dev_is_read_only(terminal: TerminalTool) -> None:
    seen = await _run(
        terminal, "df -k /dev/shm /run | tail -2; echo x > /dev/planted; echo ok > /dev/null && echo fine"
    )
    sizes = [int(line.split()[1]) for line in seen.text.splitlines()[:2]]
    assert all(size <= 512 * 1024 for size in sizes), seen.text
    assert "/dev/planted: Read-only file system" in seen.text and "fine" in seen.text


async def test_writes_to_home_stay_in_the_jail(terminal: TerminalTool, home: Path) -> None:
    wrote = await _run(terminal, f"echo planted >> {home}/.bashrc && mkdir -p {home}/.local/bin && cat {home}/.bashrc")
    assert wrote.exit_code == 0 and "planted" in wrote.text  # the command's own private HOME
    assert not (home / ".bashrc").exists() and not (home / ".local").exists()


async def test_a_hidden_path_a_command_needed_is_offered_for_reading_unless_it_holds_credentials(
    terminal: TerminalTool, home: Path
) -> None:
    notes = home / "projects" / "other" / "notes.txt"
    needed = await _run(terminal, f"cat {notes}")
    denial = needed.sandbox_denial
    assert denial is not None and denial.grantable and denial.read == [str(notes)], needed.text
    assert denial.asks_for() == f"read access to {notes}"
    granted = await _run(terminal, f"cat {notes}", denial.grant())
    assert granted.exit_code == 0 and "just notes" in granted.text
    secret = await _run(terminal, f"cat {home}/projects/other/.env")
    assert secret.sandbox_denial is not None and not secret.sandbox_denial.grantable
    assert "credentials" in secret.sandbox_denial.reason


async def test_the_jails_tmp_has_a_size_and_files_a_size_limit(home: Path) -> None:
    policy = SandboxPolicy(tmp_size_mb=16, max_file_mb=64)
    tool = TerminalTool(ToolContext(home / "projects" / "app", "root", sandbox=policy))
    try:
        full = await _run(tool, "dd if=/dev/zero of=/tmp/fill bs=1M count=32 2>&1")
        assert full.exit_code != 0 and full.sandbox_denial is not None
        assert "/tmp is full" in full.sandbox_denial.reason and not full.sandbox_denial.grantable
    finally:
        await tool.close()
    policy = SandboxPolicy(max_file_mb=4)
    tool = TerminalTool(ToolContext(home / "projects" / "app", "root", sandbox=policy))
    try:
        big = await _run(tool, "head -c 8388608 /dev/zero > big.bin")
        assert big.sandbox_denial is not None and "file-size limit (4 MiB" in big.sandbox_denial.reason
        assert (home / "projects" / "app" / "big.bin").stat().st_size <= 4 * 1024 * 1024
    finally:
        await tool.close()


@pytest.mark.skipif(os.getuid() == 0, reason="the kernel does not count processes against root (RLIMIT_NPROC)")
async def test_a_command_cannot_start_more_processes_than_the_limit(home: Path) -> None:
    policy = SandboxPolicy(max_processes=32)
    tool = TerminalTool(ToolContext(home / "projects" / "app", "root", sandbox=policy))
    try:
        shutil.copy(Path(__file__).parent / "probes" / "fork_until_refused.py", home / "projects" / "app")
        many = await _run(tool, "python3 fork_until_refused.py")
        assert many.exit_code != 0 and "Resource temporarily unavailable" in many.text, many.text
        assert many.sandbox_denial is not None and "process limit (32" in many.sandbox_denial.reason, many.text
    finally:
        await tool.close()


async def test_with_home_as_the_workspace_start_up_files_stay_read_only_and_keys_hidden(home: Path) -> None:
    (home / ".bashrc").write_text("# mine\n")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_ed25519").write_text("ssh-key-secret-15")
    (home / ".local" / "bin").mkdir(parents=True)
    tool = TerminalTool(ToolContext(home, "root"))
    try:
        tried = await _run(
            tool,
            "echo planted >> .bashrc; echo x > .local/bin/git; cat .ssh/id_ed25519 .git-credentials; "
            "echo planted > .bash_profile; mkdir -p .config/autostart && echo x > .config/autostart/a.desktop; "
            "echo fine > projects/app/made.txt",
        )
    finally:
        await tool.close()
    assert (home / ".bashrc").read_text() == "# mine\n" and not (home / ".local" / "bin" / "git").exists()
    assert not (home / ".bash_profile").exists() and not (home / ".config" / "autostart").exists()
    assert "ssh-key-secret-15" not in tried.text and "gitcred-secret-9" not in tried.text
    assert (home / "projects" / "app" / "made.txt").read_text() == "fine\n"


def _wheel(folder: Path) -> None:
    """A pure-Python wheel of one module, written by hand (no build tools needed)."""
    import zipfile

    folder.mkdir()
    files = {
        "demo_pkg/__init__.py": "VALUE = 'from-the-wheel'\n",
        "demo_pkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo-pkg\nVersion: 0.1\n",
        "demo_pkg-0.1.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = "".join(f"{name},,\n" for name in files) + "demo_pkg-0.1.dist-info/RECORD,,\n"
    with zipfile.ZipFile(folder / "demo_pkg-0.1-py3-none-any.whl", "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
        wheel.writestr("demo_pkg-0.1.dist-info/RECORD", record)


async def test_ordinary_work_runs_with_toolchains_from_home(home: Path) -> None:
    """git commits under the name in ~/.gitconfig, pip installs from a local wheel folder into
    the project's venv, npm runs the tests with node reached through ~/.nvm."""
    app = home / "projects" / "app"
    _wheel(app / "wheels")
    node, npm = shutil.which("node"), shutil.which("npm")
    commands = [
        "git init -q . && git add -A && git commit -qm first && git log --format=%an -1",
        f"{sys.executable} -m venv .venv",  # made by one command, used by the next: it must survive the check
        ".venv/bin/pip install -q --no-index --find-links wheels demo-pkg "
        "&& .venv/bin/python -c 'import demo_pkg; print(demo_pkg.VALUE)' && test -f .venv/bin/activate",
    ]
    if node and npm:
        nvm = home / ".nvm" / "versions" / "node" / "v20" / "bin"
        nvm.mkdir(parents=True)
        (nvm / "node").symlink_to(os.path.realpath(node))
        (app / "package.json").write_text('{"name": "app", "version": "1.0.0", "scripts": {"test": "node t.js"}}\n')
        (app / "t.js").write_text("console.log('node', process.execPath)\n")
        commands.append(f"PATH={nvm}:$PATH; {npm} test")
    tool = TerminalTool(ToolContext(app, "root"))
    try:
        results = [await _run(tool, command) for command in commands]
    finally:
        await tool.close()
    assert [r.exit_code for r in results] == [0] * len(results), [r.text for r in results]
    assert results[0].text.startswith("Jail Tester")
    assert "from-the-wheel" in results[2].text
    if node and npm:
        assert f"node {nvm / 'node'}" in results[3].text or "node /" in results[3].text


async def test_always_reading_a_hidden_path_is_remembered_and_holds_for_later_commands(serve, home: Path) -> None:
    from openhands_tui.sdk import Agent
    from openhands_tui.sdk.run.confirmation import Decision
    from openhands_tui.sdk.security.permissions import PermissionRule, PermissionSet, user_rules_file
    from openhands_tui.testing import Script, Turn
    from openhands_tui.tools.preset.default import get_default_tools
    from tests.conftest import llm_for
    from tests.sdk.helpers import ScriptedConfirmer, run

    app, notes = home / "projects" / "app", home / "projects" / "other" / "notes.txt"
    (app / "show.py").write_text(f"print(open({str(notes)!r}).read())\n")  # project code: runs unasked, later
    turns = [Turn.call("terminal", command=f"cat {notes}"), Turn.call("terminal", command="python3 show.py")]
    server = serve([Script(turns=[*turns, Turn.finish("done")])])
    rule = PermissionRule(action="allow", read=str(notes))
    # reading outside the workspace is HIGH by the rules (asked), then the jail's offer: "always"
    confirmer = ScriptedConfirmer([Decision(approved=True), Decision(approved=True, remember=rule)])
    rules_file = user_rules_file()
    result = await run(
        Agent(llm=llm_for(server), tools=get_default_tools()),
        app,
        "go",
        confirmer=confirmer,
        permissions=PermissionSet(workspace=app.resolve()),
        rules_file=rules_file,
    )
    assert [r.escalation for r in confirmer.requests] == [None, f"read access to {notes}"]  # offered once
    assert confirmer.requests[1].suggested_rule == {"action": "allow", "read": str(notes)}
    first, second = result.kinds("observation")[:2]
    assert "just notes" in first.content and "just notes" in second.content  # the second ran in the shell
    assert f'read = "{notes}"' in rules_file.read_text()
    assert PermissionSet.load(app)[0].readable() == [str(notes)]  # and it holds in later sessions
