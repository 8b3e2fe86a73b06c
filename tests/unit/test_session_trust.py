"""Trust given in a session holds for that session even when it cannot be stored, and only for
the content the user was shown."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.security.session_trust import SessionTrust
from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest


def _request(workspace: Path, digest: str) -> TrustRequest:
    return TrustRequest("permissions", str(workspace), str(workspace / "rules.toml"), digest, ["allow x"])


def test_stored_when_it_can_be(isolated_home: Path, tmp_path: Path) -> None:
    trust = SessionTrust()
    assert trust.trust_here(_request(tmp_path, "aaa")) is None
    assert ProjectTrust().is_trusted(_request(tmp_path, "aaa"))  # a later session sees it too


def test_held_for_the_session_when_it_cannot_be_stored(isolated_home: Path, tmp_path: Path) -> None:
    trust = SessionTrust()
    lock = trust.store.with_name(f".{trust.store.name}.lock")
    lock.mkdir(parents=True)  # the store cannot be written, even by root
    why = trust.trust_here(_request(tmp_path, "aaa"))
    assert why is not None and str(lock) in why
    assert trust.is_trusted(_request(tmp_path, "aaa"))
    assert not trust.is_trusted(_request(tmp_path, "bbb"))  # changed content: asked again
    assert not trust.is_trusted(_request(tmp_path / "other", "aaa"))  # another workspace
    assert not ProjectTrust().is_trusted(_request(tmp_path, "aaa"))  # nothing was stored
