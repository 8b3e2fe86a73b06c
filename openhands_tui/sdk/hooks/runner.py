"""Running one hook: a shell command as the user, outside the sandbox, or a Python callback.

Hooks are the user's (or a project's, once trusted) own automation, so they run unconfined,
like the user's shell — with limits that keep a bad one from hurting the run: a time limit
after which its whole process group is killed, at most MAX_OUTPUT_BYTES of each stream kept
(the rest is read and dropped, so a chatty hook cannot block on a full pipe), a new session
(a terminal's Ctrl-C is ours to handle), and stdin closed after the input. A hook that hangs,
crashes or cannot start is a `HookRun` with an `error`, never an exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

from openhands_tui.sdk.hooks.config import HookDefinition, HookType
from openhands_tui.sdk.hooks.types import HookEvent, HookResult
from openhands_tui.sdk.hooks.verdict import HookRun

MAX_OUTPUT_BYTES = 256_000
#: After a hook exits, how long a background process it left holding its output may keep it open.
_DRAIN_AFTER_EXIT_S = 1.0


async def run_hook(
    hook: HookDefinition, payload: dict[str, Any], workspace: Path, environment: dict[str, str]
) -> HookRun:
    started = time.monotonic()
    if hook.type is HookType.CALLBACK:
        run = await _run_callback(hook, payload)
    else:
        run = await _run_command(hook.command, payload, workspace, environment, hook.timeout)
    run.elapsed_ms = round((time.monotonic() - started) * 1000, 1)
    return run


async def _run_command(
    command: str, payload: dict[str, Any], workspace: Path, environment: dict[str, str], timeout: float
) -> HookRun:
    shell = shutil.which("bash") or "/bin/sh"
    try:
        process = await asyncio.create_subprocess_exec(
            shell,
            "-c",
            command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=workspace,
            env=environment,
            start_new_session=True,
        )
    except OSError as exc:
        return HookRun(exit_code=None, error=f"could not start: {exc.strerror or exc}")
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    stdout = asyncio.ensure_future(_read_capped(process.stdout))
    stderr = asyncio.ensure_future(_read_capped(process.stderr))
    try:
        await asyncio.wait_for(_feed_and_wait(process, json.dumps(payload).encode()), timeout)
    except TimeoutError:
        _kill_group(process)
        await process.wait()
        for reader in (stdout, stderr):
            reader.cancel()
        return HookRun(exit_code=None, error=f"timed out after {timeout:g} s (stopped)")
    except asyncio.CancelledError:
        _kill_group(process)
        raise
    done, pending = await asyncio.wait((stdout, stderr), timeout=_DRAIN_AFTER_EXIT_S)
    for reader in pending:  # a background child still holds the pipe: stop listening to it
        reader.cancel()
    out = stdout.result() if stdout in done else b""
    err = stderr.result() if stderr in done else b""
    return HookRun(exit_code=process.returncode, stdout=_decode(out), stderr=_decode(err))


async def _feed_and_wait(process: asyncio.subprocess.Process, data: bytes) -> None:
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a hook need not read its input
        process.stdin.write(data)
        await process.stdin.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.close()
    await process.wait()


async def _read_capped(stream: asyncio.StreamReader) -> bytes:
    kept = bytearray()
    while chunk := await stream.read(65536):
        if len(kept) < MAX_OUTPUT_BYTES:
            kept += chunk[: MAX_OUTPUT_BYTES - len(kept)]
    return bytes(kept)


def _kill_group(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


async def _run_callback(hook: HookDefinition, payload: dict[str, Any]) -> HookRun:
    assert hook.callback is not None
    event = HookEvent(
        event_type=payload["hook_event_name"],
        tool_name=payload.get("tool_name"),
        tool_input=payload.get("tool_input"),
        tool_response=payload.get("tool_response"),
        message=payload.get("prompt") or payload.get("message"),
        session_id=payload.get("session_id"),
        working_dir=payload.get("cwd"),
        payload=payload,
    )
    try:
        if inspect.iscoroutinefunction(hook.callback):
            answer = await asyncio.wait_for(hook.callback(event), hook.timeout)
        else:  # a blocking callback runs on a thread; after its timeout the run goes on without it
            answer = await asyncio.wait_for(asyncio.to_thread(hook.callback, event), hook.timeout)
    except TimeoutError:
        return HookRun(exit_code=None, error=f"timed out after {hook.timeout:g} s")
    except Exception as exc:
        return HookRun(exit_code=None, error=f"raised {type(exc).__name__}: {exc}")
    if answer is None:
        return HookRun()
    if isinstance(answer, HookResult):
        if answer.error and not answer.success:
            return HookRun(exit_code=None, error=answer.error)
        return HookRun(output=answer.as_output(), exit_code=2 if answer.blocked else 0)
    if isinstance(answer, dict):
        return HookRun(output=answer)
    return HookRun(exit_code=None, error=f"returned {type(answer).__name__}; return a dict, a HookResult or None")
