"""Rating file actions (the editor's view and edits) by where the path really points."""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security import npm_scripts
from openhands_tui.sdk.security.invocation import Finding
from openhands_tui.sdk.security.paths import PathJudge, is_secret_path
from openhands_tui.sdk.security.trusted import TrustedFiles

#: Files in a git directory that can hold credentials (a token in a remote URL).
_GIT_CONFIG_NAMES = frozenset({"config", "config.worktree", "FETCH_HEAD"})


def assess_read(
    path: str, workspace: str, home: str | None = None, trusted: TrustedFiles | None = None
) -> list[Finding]:
    verdict = PathJudge(workspace, home, trusted).judge(path)
    if verdict.secret:
        return [Finding(Risk.HIGH, f"reads {verdict.resolved}: {verdict.secret}")]
    if not verdict.inside and not verdict.device:
        return [Finding(Risk.HIGH, f"reads {verdict.resolved}, outside the workspace")]
    if verdict.sensitive == "version control internals" and os.path.basename(verdict.resolved) in _GIT_CONFIG_NAMES:
        # remote URLs there may carry a token, as `cat .git/config` is judged; `.git/HEAD` holds none
        return [Finding(Risk.HIGH, f"reads {verdict.resolved} ({verdict.sensitive}; may hold credentials)")]
    return [Finding(Risk.LOW, "reads a file inside the workspace")]


def credentials_reason(path: str, root: str) -> str | None:
    """Why the file at `path` holds credentials, judged by its real path below `root` (`.env`, a
    key, anything under `.ssh/` or `.git/`), or None. For reads that happen without a
    confirmation (an instruction file's `@import`, a skill's resource), which must not reach
    what the agent itself could read only by asking. Only the part below `root` counts: a skill
    folder named `secrets/` is a skill about secrets, not a credential store."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    relative = os.path.relpath(real, top) if real.startswith(top.rstrip(os.sep) + os.sep) else real
    parts = [re.sub(r"\s", "_", part) for part in PurePosixPath(relative).parts]
    if is_secret_path("/".join(parts)):
        return f"{relative} holds keys, tokens or credentials"
    if ".git" in parts:
        return f"{relative} is inside .git (a remote's address may hold a token)"
    return None


def assess_edit(
    path: str,
    workspace: str,
    operation: str = "edit",
    home: str | None = None,
    new_text: str | None = None,
    trusted: TrustedFiles | None = None,
) -> list[Finding]:
    """`trusted`: the session's trusted files (None: none)."""
    verdict = PathJudge(workspace, home, trusted).judge(path)
    findings = []
    if new_text and os.path.basename(verdict.resolved) == "package.json" and npm_scripts.IN_JSON.search(new_text):
        findings.append(
            Finding(Risk.HIGH, f"{operation}s an npm lifecycle script in {verdict.resolved} (runs on every install)")
        )
    if verdict.secret:
        findings.append(Finding(Risk.HIGH, f"{operation}s {verdict.resolved}: {verdict.secret}"))
    if verdict.sensitive:
        findings.append(Finding(Risk.HIGH, f"{operation}s {verdict.resolved} ({verdict.sensitive})"))
    if not verdict.inside:
        findings.append(Finding(Risk.HIGH, f"{operation}s {verdict.resolved}, outside the workspace"))
    if not findings:
        findings.append(Finding(Risk.MEDIUM, f"{operation}s a file inside the workspace"))
    return findings
