"""The user's trust decisions: a damaged store trusts nothing and is kept aside, not written
over, when the next decision is saved; one that is not a regular file never blocks a start."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest, digest_of


def _request(workspace: Path) -> TrustRequest:
    rules = workspace / ".openhands-tui" / "permissions.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text('[[allow]]\ncommand = "make"\n')
    return TrustRequest(kind="permissions", workspace=str(workspace), file=str(rules), digest=digest_of(rules))


def test_a_damaged_store_trusts_nothing_and_is_kept_when_the_next_decision_is_saved(
    workspace: Path, tmp_path: Path
) -> None:
    store = tmp_path / "trusted-projects.json"
    store.write_text('{"/home/u/project": {"permissions": ["abc"]')  # cut short (a full disk, an editor)
    trust = ProjectTrust(store)
    request = _request(workspace)
    assert not trust.is_trusted(request)
    trust.trust(request)
    assert trust.is_trusted(request)
    assert (tmp_path / "trusted-projects.json.damaged").read_text().startswith('{"/home/u/project"')


def test_a_store_that_is_a_fifo_does_not_block(workspace: Path, tmp_path: Path) -> None:
    store = tmp_path / "trusted-projects.json"
    os.mkfifo(store)
    request, answers = _request(workspace), []
    asking = threading.Thread(target=lambda: answers.append(ProjectTrust(store).is_trusted(request)), daemon=True)
    asking.start()
    asking.join(timeout=10)
    try:
        assert not asking.is_alive(), "reading the trust store blocks on a FIFO"
        assert answers == [False]
    finally:  # let a blocked reader go
        with contextlib.suppress(OSError):
            os.close(os.open(store, os.O_WRONLY | os.O_NONBLOCK))
