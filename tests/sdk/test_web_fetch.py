"""The web_fetch tool: a page from a real HTTP server (our own, on loopback) reaches the model
as markdown without its scripts or escape sequences; what a URL says decides its rating (a
public page is LOW; this machine's network, a secret or a blob in the URL are asked); the
user's "always for this host" rules apply; redirects to this machine's network are not
followed; downloads and text are capped."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import NetworkRequest
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.sdk.security.analyzer import RuleAnalyzer
from openhands_tui.sdk.security.permissions import PermissionRule, PermissionSet, suggest_rule
from openhands_tui.sdk.security.urls import assess_url
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.web.fetch import MAX_DOWNLOAD_BYTES, _redirect_refusal, html_to_markdown
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run

PAGE = (
    "<html><head><title>t</title><script>steal()</script><style>p{}</style></head><body>"
    "<h1>Install \x1b[31mguide</h1><p>Run <code>pip install thing</code> then <b>enjoy</b>.</p>"
    "<form><input name=q></form><ul><li>one</li><li>two</li></ul></body></html>"
)


class _Pages(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/doc":
            self._send(200, "text/html; charset=utf-8", PAGE.encode())
        elif self.path == "/big":
            self._send(200, "text/plain", b"x" * (MAX_DOWNLOAD_BYTES + 100_000))
        elif self.path == "/binary":
            self._send(200, "application/octet-stream", b"\x00\x01" * 100)
        elif self.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/doc")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self._send(404, "text/plain", b"no such page")

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)  # a port of our own, read back
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)  # 0.05: a quick shutdown
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _agent(server) -> Agent:
    return Agent(llm=llm_for(server), tools=[Tool(name="WebFetchTool")])


async def test_a_page_reaches_the_model_as_markdown_once_its_local_address_is_approved(
    serve, workspace: Path, site: str
) -> None:
    server = serve([Script(turns=[Turn.call("web_fetch", url=f"{site}/moved"), Turn.finish("read it")])])
    confirmer = ScriptedConfirmer([Decision(approved=True)])
    result = await run(_agent(server), workspace, "read the guide", confirmer=confirmer)
    assert result.outcome.status == "finished", result.outcome.detail
    (request,) = confirmer.requests  # loopback is this machine: asked
    assert request.risk is Risk.HIGH and "is on this machine or its network" in request.reasons[0]
    told = server.requests[1].messages[-1]["content"]
    assert f"[{site}/doc · HTTP 200 · text/html]" in told  # the redirect on the same host was followed
    assert "# Install guide" in told and "`pip install thing`" in told and "**enjoy**" in told
    assert "steal()" not in told and "\x1b" not in told and "<" not in told.split("\n\n", 1)[1]


async def test_caps_and_types_are_said_to_the_model(serve, workspace: Path, site: str) -> None:
    turns = [Turn.call("web_fetch", url=f"{site}/big"), Turn.call("web_fetch", url=f"{site}/binary"), Turn.finish()]
    server = serve([Script(turns=turns)])
    await run(_agent(server), workspace, "go", confirmer=ScriptedConfirmer())
    big, binary = server.requests[1].messages[-1]["content"], server.requests[2].messages[-1]["content"]
    assert f"only the first {MAX_DOWNLOAD_BYTES:,} bytes were read" in big and "more characters were cut" in big
    assert "is application/octet-stream (200 bytes), not a page to read" in binary


async def test_a_url_carrying_a_secret_is_asked_and_refused_headless(serve, workspace: Path) -> None:
    url = "https://docs.example.com/search?q=ghp_" + "A1b2C3d4" * 5
    server = serve([Script(turns=[Turn.call("web_fetch", url=url), Turn.finish("ok")])])
    confirmer = ScriptedConfirmer([Decision(approved=False, reason="no")])
    await run(_agent(server), workspace, "go", confirmer=confirmer)
    (request,) = confirmer.requests
    assert request.risk is Risk.HIGH and request.rules[0] == "web:secret"
    assert "rejected" in server.requests[1].messages[-1]["content"].lower()


@pytest.mark.parametrize(
    ("url", "method", "rule"),
    [
        ("https://docs.python.org/3/library/json.html", "GET", "web:read"),
        ("http://localhost:8080/admin", "GET", "web:private"),
        ("http://10.0.0.7/", "GET", "web:private"),
        ("http://169.254.169.254/latest/meta-data/", "GET", "web:private"),
        ("http://[::1]:9000/", "GET", "web:private"),
        ("http://[::ffff:127.0.0.1]/", "GET", "web:private"),
        ("http://printer.local/", "GET", "web:private"),
        ("http://intranet/", "GET", "web:private"),
        ("https://user:hunter2@example.com/", "GET", "web:secret"),
        ("https://example.com/?key=AKIAABCDEFGHIJKLMNOP", "GET", "web:secret"),
        ("https://example.com/log?d=" + "QUJD" * 30, "GET", "web:data"),
        ("https://example.com/?" + "a=b&" * 200, "GET", "web:data"),
        ("https://example.com/api", "POST", "web:sends"),
        ("file:///etc/passwd", "GET", "web:scheme"),
    ],
)
def test_a_request_is_rated_by_what_its_url_says(url: str, method: str, rule: str) -> None:
    findings = assess_url(url, method)
    assert findings[0].rule == rule, findings
    assert findings[0].risk is (Risk.LOW if rule == "web:read" else Risk.HIGH)


def test_always_for_a_host_allows_its_pages_but_never_a_url_carrying_a_secret(tmp_path: Path) -> None:
    rule = suggest_rule(NetworkRequest(url="https://docs.python.org/3/"), tmp_path)
    assert rule == PermissionRule(action="allow", domain="docs.python.org")
    rules = PermissionSet([rule], tmp_path)
    plain = NetworkRequest(url="https://docs.python.org/3/library/os.html")
    assert rules.decide(plain, Risk.LOW).approved  # type: ignore[union-attr]
    sub = NetworkRequest(url="https://bugs.docs.python.org/")
    assert rules.decide(sub, Risk.LOW).approved  # type: ignore[union-attr]
    assert rules.decide(NetworkRequest(url="https://evil-docs.python.org.example/"), Risk.LOW) is None
    secret = NetworkRequest(url="https://docs.python.org/?t=ghp_" + "x" * 36)
    assert rules.decide(secret, RuleAnalyzer().assess(secret, tmp_path).risk) is None
    denied = PermissionSet([PermissionRule(action="deny", domain="example.com")], tmp_path)
    assert denied.decide(NetworkRequest(url="https://www.example.com/"), Risk.LOW).approved is False  # type: ignore[union-attr]


def test_a_public_page_redirecting_into_this_machines_network_is_not_followed() -> None:
    why = _redirect_refusal("https://docs.example.com/a", "http://127.0.0.1:8000/admin", None)
    assert why == "it is on this machine or its network"
    assert _redirect_refusal("https://docs.example.com/a", "file:///etc/passwd", None) == "it is not http(s) (file:)"
    assert _redirect_refusal("https://docs.example.com/a", "https://docs.example.com/b", None) is None


def test_hostile_html_comes_out_as_plain_markdown() -> None:
    text = html_to_markdown("<p>a<script>x()</script><iframe src=e></iframe><noscript>n</noscript>b</p>")
    assert text == "ab"
