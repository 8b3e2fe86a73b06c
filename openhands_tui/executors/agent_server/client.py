"""The agent-server's REST API, as the remote terminal and file editor use it: run a command and
wait for it (`POST /api/bash/execute_bash_command`), read a file (`GET /api/file/download`),
write one (`POST /api/file/upload`, which makes its folders). The session's key goes in the
`X-Session-API-Key` header. httpx is imported on first use (importing it loads rich, which the
tools never import up front). One client per server per session (`ToolContext.services`),
closed with the session.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openhands_tui.executors.base import ExecutorError
from openhands_tui.sdk.executor import ExecutorSpec
from openhands_tui.sdk.limits import MAX_INPUT_BYTES
from openhands_tui.sdk.tool import ToolContext

#: Longest a file read back may be (the editor edits text files).
MAX_FILE_BYTES = 10 * 1024 * 1024
#: Seconds beyond a command's own timeout the HTTP request may take.
SLACK_S = 15.0


class RemoteError(ExecutorError):
    """The server could not be reached or refused; the message says which, in one line."""


@dataclass(frozen=True)
class Ran:
    exit_code: int
    stdout: str
    stderr: str


class AgentServerClient:
    def __init__(self, spec: ExecutorSpec) -> None:
        self.spec = spec
        self._client: Any = None

    def _http(self) -> Any:
        if self._client is None:
            import httpx

            headers = {"X-Session-API-Key": self.spec.key} if self.spec.key else {}
            self._client = httpx.AsyncClient(base_url=self.spec.url, headers=headers, trust_env=False, timeout=60.0)
        return self._client

    async def run(self, command: str, cwd: str | None, timeout: float) -> Ran:
        body = {"command": command, "cwd": cwd, "timeout": max(1, int(timeout))}
        answer = await self._send("POST", "/api/bash/execute_bash_command", json=body, timeout=timeout + SLACK_S)
        data = answer.json()
        code = data.get("exit_code")
        return Ran(code if isinstance(code, int) else -1, data.get("stdout") or "", data.get("stderr") or "")

    async def read(self, path: str) -> bytes | None:
        """A file's bytes; None when there is no such file. RemoteError for a folder or a refusal."""
        answer = await self._send("GET", "/api/file/download", params={"path": path}, missing_ok=True)
        if answer is None:
            return None
        if len(answer.content) > MAX_FILE_BYTES:
            raise RemoteError(f"{path}: over {MAX_FILE_BYTES // (1024 * 1024)} MB")
        return bytes(answer.content)

    async def write(self, path: str, data: bytes) -> None:
        if len(data) > MAX_INPUT_BYTES * 10:
            raise RemoteError(f"{path}: over {MAX_INPUT_BYTES * 10:,} bytes")
        await self._send("POST", "/api/file/upload", params={"path": path}, files={"file": ("file", data)})

    async def _send(self, method: str, url: str, *, missing_ok: bool = False, **kwargs: Any) -> Any:
        import httpx

        try:
            answer = await self._http().request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            raise RemoteError(f"the agent-server at {self.spec.url} did not answer ({type(exc).__name__})") from None
        if answer.status_code == 404 and missing_ok:
            return None
        if answer.status_code in (401, 403):
            raise RemoteError(
                f"the agent-server at {self.spec.url} refused the key (set TUI_AGENT_SERVER_KEY or SESSION_API_KEY)"
            )
        if answer.status_code >= 400:
            try:
                detail = str(answer.json().get("detail", ""))[:200]
            except ValueError:
                detail = answer.text[:200]
            raise RemoteError(f"the agent-server refused ({answer.status_code}): {detail}")
        return answer

    async def alive(self) -> None:
        """RemoteError unless the server answers its health check and takes the key."""
        await self._send("GET", "/alive")
        await self.run("true", None, 10)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def server_client(ctx: ToolContext) -> AgentServerClient:
    """The session's client of the agent's server (one per server, closed with the session)."""
    spec = ctx.executor
    client: AgentServerClient = ctx.services.get(f"agent-server {spec.url}", lambda: AgentServerClient(spec))
    return client


def check_reachable(spec: ExecutorSpec, timeout: float = 10.0) -> str | None:
    """Why the server cannot be used (one line), or None: it answers and takes the key. Checked
    when a session starts, so a wrong address or key is bad input then, not a failed first command."""
    import httpx

    headers = {"X-Session-API-Key": spec.key} if spec.key else {}
    try:
        with httpx.Client(base_url=spec.url, headers=headers, trust_env=False, timeout=timeout) as http:
            if http.get("/alive").status_code >= 400:
                return f"the agent-server at {spec.url} is not alive"
            answer = http.post("/api/bash/execute_bash_command", json={"command": "true", "timeout": 10})
    except httpx.HTTPError as exc:
        return f"cannot reach the agent-server at {spec.url} ({type(exc).__name__})"
    if answer.status_code in (401, 403):
        return f"the agent-server at {spec.url} refused the key (set TUI_AGENT_SERVER_KEY or SESSION_API_KEY)"
    if answer.status_code >= 400:
        return f"the agent-server at {spec.url} refused a command ({answer.status_code})"
    return None
