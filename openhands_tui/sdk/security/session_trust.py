"""Trust the user gave in this session, kept even when it cannot be remembered.

Trusting a project file writes the decision to the user's config directory. When that cannot
be written (a read-only ~/.config, a home managed by a tool, a full disk), the user's yes
still holds for the session they gave it in — for exactly the content they were shown — and
they are told it will be asked again next time. Before, the yes was dropped without a word.
"""

from __future__ import annotations

import os

from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest


class SessionTrust(ProjectTrust):
    """The stored trust decisions, plus the ones given in this session."""

    def __init__(self) -> None:
        super().__init__()
        self._given: set[tuple[str, str, str]] = set()

    @staticmethod
    def _key(request: TrustRequest) -> tuple[str, str, str]:
        return (os.path.realpath(request.workspace), request.kind, request.digest)

    def is_trusted(self, request: TrustRequest) -> bool:
        return self._key(request) in self._given or super().is_trusted(request)

    def trust_here(self, request: TrustRequest) -> str | None:
        """Trust `request` for this session, and remember it if possible; returns why it could
        not be remembered (None: it was)."""
        self._given.add(self._key(request))
        try:
            self.trust(request)
        except OSError as exc:
            return f"cannot write {exc.filename or self.store} ({exc.strerror or exc})"
        return None
