"""Running one hook: a shell command as the user, outside the sandbox, or a Python callback.

Hooks are the user's (or a project's, once trusted) own automation, so they run unconfined,
like the user's shell — with limits that keep a bad one from hurting the run: a time limit
after which its whole process group is killed, at most MAX_OUTPUT_BYTES of each stream kept
(the rest is read and dropped, so a chatty hook cannot block on a full pipe), a new session
(a terminal's Ctrl-C is ours to handle), stdin closed after the input, and its answer taken
when it exits, whatever it left running in the background. A hook that hangs,
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
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from openhands_tui.sdk.hooks.config import HookDefinition, HookType
from openhands_tui.sdk.hooks.types import HookEvent, HookResult
from openhands_tui.sdk.hooks.verdict import HookRun
from openhands_tui.sdk.processes.orphan_guard import guarded_argv

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
    """The hook's process, waited for by its exit status, not by its pipes: a hook that leaves a
    background child holding its output (`sleep 30 &`) has still answered when it exits. The
    waiting is blocking work on a worker thread; an interrupt kills the hook's process group."""
    shell = shutil.which("bash") or "/bin/sh"
    try:
        process = subprocess.Popen(
            guarded_argv([shell, "-c", command]),  # a hook still running when tui is killed goes with it
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workspace,
            env=environment,
            start_new_session=True,
        )
    except OSError as exc:
        return HookRun(exit_code=None, error=f"could not start: {exc.strerror or exc}")
    try:
        return await asyncio.to_thread(_wait_for_answer, process, json.dumps(payload).encode(), timeout)
    except asyncio.CancelledError:
        _kill_group(process)
        raise


def _wait_for_answer(process: subprocess.Popen[bytes], data: bytes, timeout: float) -> HookRun:
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    outputs: list[bytearray] = [bytearray(), bytearray()]
    readers = [
        threading.Thread(target=_read_capped, args=(stream, kept), daemon=True)
        for stream, kept in zip((process.stdout, process.stderr), outputs, strict=True)
    ]
    for reader in readers:
        reader.start()
    with contextlib.suppress(OSError):  # a hook need not read its input
        process.stdin.write(data)
    with contextlib.suppress(OSError):
        process.stdin.close()
    try:
        code = process.wait(timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.wait()
        return HookRun(exit_code=None, error=f"timed out after {timeout:g} s (stopped)")
    for reader in readers:  # a background child may still hold the pipes: listen a moment more
        reader.join(_DRAIN_AFTER_EXIT_S)  # (a reader left behind closes its pipe when the child lets go)
    return HookRun(exit_code=code, stdout=_decode(bytes(outputs[0])), stderr=_decode(bytes(outputs[1])))


def _read_capped(stream: Any, kept: bytearray) -> None:
    """Everything the stream says, keeping the first MAX_OUTPUT_BYTES (the rest is read and
    dropped, so a chatty hook never blocks on a full pipe)."""
    try:
        while chunk := stream.read1(65536):
            if len(kept) < MAX_OUTPUT_BYTES:
                kept += chunk[: MAX_OUTPUT_BYTES - len(kept)]
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the hook and everything it started: its guard is asked first (SIGTERM: it ends the
    hook's own process group, which a SIGKILL of the guard would leave running), then killed."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(3)
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
