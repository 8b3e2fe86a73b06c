"""What the app quotes (a message typed while agents work, a provider's error, a notice) reaches
the terminal as text: `[/b]` in a queued message crashed the app (Textual markup), and a notice
wrote the escape sequences it quoted to the terminal as they were."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.tui.conftest import SIZE, live_app, wait_until

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "strategies"
HOSTILE = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]2;PWNED\x07[/b][red]\x1b[41mRED\x9b31m"


async def test_a_queued_message_is_shown_as_typed_without_escapes(serve, workspace: Path, strategy_gate: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace, strategy=str(FIXTURES / "slow_to_load.py"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.query_one("#prompt").insert(f"look {HOSTILE} here")  # as pasted
        await pilot.press("enter")
        await pilot.pause(0.1)
        shown = str(app.query_one("#queued").render())
        assert "[/b][red]" in shown and "RED" in shown
        assert not any(c in shown for c in "\x1b\x07\x9b")
        strategy_gate.touch()
        await wait_until(pilot, lambda: app.view.root_status == "finished")


class _HostileProvider(BaseHTTPRequestHandler):
    """An endpoint (a proxy, a hostile base URL) whose error message carries escape sequences."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"error": {"message": f"bad request {HOSTILE}", "type": "invalid_request_error"}})
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body.encode())))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


async def test_a_providers_error_and_any_notice_show_without_escapes(workspace: Path) -> None:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _HostileProvider)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()  # 0.05: a quick shutdown
    try:

        class Endpoint:
            model = "openai/hostile"
            base_url = f"http://127.0.0.1:{httpd.server_port}/v1"

        app = live_app(Endpoint, workspace, task="hello")
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: app.view.root_status == "error")
            error = next(e.text for e in app.view.transcript("root") if "bad request" in e.text)
            assert "[/b][red]RED" in error and not any(c in error for c in "\x1b\x07\x9b")
            app.notify(f"Trusted {HOSTILE}", markup=False)  # a notice quoting a project's file name, say
            await pilot.pause()
            assert [n.message for n in app._notifications if n.message.startswith("Trusted")] == [
                "Trusted [/b][red]RED"
            ]
    finally:
        httpd.shutdown()
