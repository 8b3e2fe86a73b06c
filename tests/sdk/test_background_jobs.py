"""Background jobs through the real terminal tool and its real shell, in the jail and without
it: a start returns an id and the first output, reads return only what is new, a stop ends
the job's whole process group, and nothing a job started survives its session."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.facts.risk import Risk
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.analyzer import RuleAnalyzer
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, TerminalTool, create_terminal
from openhands_tui.tools.terminal.jobs_tool import JobsAction, JobsTool
from tests.conftest import live_processes, still_running_after

BWRAP = find_bubblewrap().path is not None
SANDBOXES = [
    pytest.param("workspace-write", marks=pytest.mark.skipif(not BWRAP, reason="bubblewrap cannot run here")),
    "off",
]


def _tools(workspace: Path, mode: str) -> tuple[TerminalTool, JobsTool]:
    context = ToolContext(workspace=workspace, agent_id="root", sandbox=SandboxPolicy(mode=mode))
    terminal, jobs = create_terminal({}, context)
    assert isinstance(terminal, TerminalTool) and isinstance(jobs, JobsTool)
    return terminal, jobs


async def _background(terminal: TerminalTool, command: str) -> str:
    observation = await terminal.run(TerminalAction(command=command, background=True))
    return observation.text


@pytest.mark.parametrize("mode", SANDBOXES)
async def test_a_background_start_returns_at_once_with_its_id_and_first_output(workspace: Path, mode: str) -> None:
    terminal, jobs = _tools(workspace, mode)
    try:
        started = time.monotonic()
        text = await _background(terminal, "echo first-line; sleep 30")
        assert time.monotonic() - started < 10
        assert text.startswith("Started job1 [running]")
        assert "first-line" in text
        listed = (await jobs.run(JobsAction(action="list"))).text
        assert listed.startswith("job1 [running]") and "sleep 30" in listed
    finally:
        await terminal.close()


@pytest.mark.parametrize("mode", SANDBOXES)
async def test_a_read_returns_only_what_was_printed_since_the_last_read(workspace: Path, mode: str) -> None:
    terminal, jobs = _tools(workspace, mode)
    try:
        first = await _background(terminal, "printf 'al%s\\n' pha; sleep 1.5; printf 'be%s\\n' ta; sleep 30")
        assert "alpha" in first and "beta" not in first
        second, deadline = "", time.monotonic() + 30  # beta comes 1.5 s on, later on a loaded machine
        while "beta" not in second and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            second = (await jobs.run(JobsAction(action="read", job_id="job1"))).text
            assert "alpha" not in second
        assert "beta" in second
        third = (await jobs.run(JobsAction(action="read", job_id="job1"))).text
        assert third.endswith("(no new output)")
    finally:
        await terminal.close()


@pytest.mark.parametrize("mode", SANDBOXES)
async def test_stop_ends_the_whole_process_group_of_the_job(workspace: Path, mode: str) -> None:
    marker = f"sleep 733.{len(mode)}"
    terminal, jobs = _tools(workspace, mode)
    try:
        await _background(terminal, f"{marker} & {marker} & trap '' TERM; wait")
        deadline = time.monotonic() + 10
        while len(live_processes(marker)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(live_processes(marker)) == 2
        stopped = (await jobs.run(JobsAction(action="stop", job_id="job1"))).text
        assert stopped.startswith("job1 [stopped")
        assert still_running_after(marker) == []
        # the shell that started it is still there for the next command
        after = await terminal.run(TerminalAction(command="echo still-here"))
        assert "still-here" in after.text
    finally:
        await terminal.close()


@pytest.mark.parametrize("mode", SANDBOXES)
async def test_every_job_ends_when_the_session_closes(workspace: Path, mode: str) -> None:
    marker = f"sleep 744.{len(mode)}"
    terminal, _ = _tools(workspace, mode)
    await _background(terminal, f"{marker}")
    await _background(terminal, f"setsid {marker} & wait")
    deadline = time.monotonic() + 10
    while len(live_processes(marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(live_processes(marker)) == 2, [Path(f"/proc/{p}/cmdline").read_bytes() for p in live_processes(marker)]
    await terminal.close()
    assert still_running_after(marker) == []


@pytest.mark.parametrize("mode", SANDBOXES)
async def test_a_server_started_in_the_background_answers_a_later_command(workspace: Path, mode: str) -> None:
    (workspace / "index.html").write_text("<title>served-by-job</title>")
    terminal, jobs = _tools(workspace, mode)
    try:
        text = await _background(terminal, "python3 -u -m http.server 0 --bind 127.0.0.1")
        port = re.search(r"port (\d+)", text)
        assert port, text
        fetch = f"python3 -c 'import urllib.request as u; print(u.urlopen(\"http://127.0.0.1:{port[1]}/\").read())'"
        answered = await terminal.run(TerminalAction(command=fetch))
        assert "served-by-job" in answered.text, answered.text
        logged = (await jobs.run(JobsAction(action="read", job_id="job1"))).text
        assert '"GET / HTTP/1.1" 200' in logged
    finally:
        await terminal.close()


@pytest.mark.parametrize("mode", SANDBOXES)
async def test_a_job_that_fails_at_once_is_reported_as_failed(workspace: Path, mode: str) -> None:
    terminal, _ = _tools(workspace, mode)
    try:
        observation = await terminal.run(TerminalAction(command="echo no-such-thing >&2; exit 3", background=True))
        assert observation.is_error
        assert "exited, exit code 3" in observation.text and "no-such-thing" in observation.text
    finally:
        await terminal.close()


async def test_a_chatty_job_keeps_its_unread_output_bounded(workspace: Path) -> None:
    terminal, jobs = _tools(workspace, "off")
    try:
        await _background(terminal, "sleep 1.5; echo BEGIN; head -c 5000000 /dev/zero | tr '\\0' x; echo; echo END")
        job = jobs.session.jobs.jobs["job1"]
        assert job.done.wait(20)
        assert len(job.unread.buffer) < 3 * job.limit + job.unread.SLACK
        text = (await jobs.run(JobsAction(action="read", job_id="job1"))).text
        assert text.rstrip().endswith("END") and "bytes of output omitted" in text
    finally:
        await terminal.close()


def test_the_jobs_tool_is_rated_low_by_what_it_touches(workspace: Path) -> None:
    terminal, jobs = _tools(workspace, "off")
    analyzer = RuleAnalyzer(home=str(workspace))
    for action in ("list", "read", "stop"):
        subject = jobs.subject(JobsAction(action=action, job_id="job1"))
        assert analyzer.assess(subject, workspace).risk is Risk.LOW
    # a background command is rated as the same command in the foreground
    background = terminal.subject(TerminalAction(command="rm -rf /", background=True))
    foreground = terminal.subject(TerminalAction(command="rm -rf /"))
    assert background == foreground
    assert analyzer.assess(background, workspace).risk is Risk.HIGH
