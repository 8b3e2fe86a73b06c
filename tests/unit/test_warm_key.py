"""Where the warm server's socket lives: somewhere the sandbox covers with an empty mount, since
a read-only mount does not stop a jailed command from connecting to it (and whoever connects
runs `tui` outside the jail)."""

from __future__ import annotations

import pytest

from openhands_tui.warm.key import socket_directory


@pytest.mark.parametrize(
    ("runtime", "tmpdir", "base"),
    [
        (None, None, "/tmp/"),
        (None, "/var/tmp", "/tmp/"),  # TMPDIR is visible inside the jail
        ("/home/me/run", "/var/tmp", "/tmp/"),  # so is a runtime directory outside /run
    ],
)
def test_the_socket_is_never_where_a_jailed_command_can_see_it(
    runtime: str | None, tmpdir: str | None, base: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in (("XDG_RUNTIME_DIR", runtime), ("TMPDIR", tmpdir)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert socket_directory().startswith(base)


def test_a_runtime_directory_under_run_is_used(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/run is empty inside the jail: the user's runtime directory there is out of sight."""
    monkeypatch.setattr("os.path.isdir", lambda path: path == "/run/user/1000")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    assert socket_directory().startswith("/run/user/1000/")
