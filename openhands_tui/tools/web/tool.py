"""The `web_fetch` tool: read a documentation page or an issue by URL, as markdown.

Its subject is a `NetworkRequest` (GET), so the rules rate it by what the URL says
(`sdk/security/urls.py`): a public page is LOW; a host on this machine or its network, a URL
carrying a secret or a blob of data, are asked. The user's "always for docs.python.org" rules
apply as to any other action. The fetch runs in our own process (commands have no network)
with the bounds of `fetch.py`.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.facts.subject import NetworkRequest
from openhands_tui.sdk.security.urls import assess_url
from openhands_tui.sdk.tool import Action, Observation, ToolContext, ToolDefinition
from openhands_tui.tools.web.fetch import MAX_DOWNLOAD_BYTES, FetchError, fetch


class WebFetchAction(Action):
    url: str = Field(description="The http(s) URL of the page to read (documentation, an issue, a changelog).")
    question: str | None = Field(
        default=None, description="Optional: what you want to learn from the page (kept with the result)."
    )


class WebFetchTool(ToolDefinition[WebFetchAction]):
    name = "web_fetch"
    description = (
        "Fetch a web page by URL and read it as markdown (HTML converted; text and JSON as they are). "
        "For documentation, issues and changelogs. Long pages are cut; nothing is sent but a plain GET."
    )
    action_type = WebFetchAction
    reads_only = True
    concurrent = True

    @classmethod
    def create(cls, conv_state: Any = None, **params: Any) -> list[ToolDefinition[Any]]:
        return [cls()]

    def __init__(self) -> None:
        pass

    def subject(self, action: WebFetchAction) -> NetworkRequest:
        return NetworkRequest(url=action.url.strip(), method="GET")

    def summarize(self, action: WebFetchAction) -> str:
        return f"fetch {action.url.strip()}"

    async def run(self, action: WebFetchAction) -> Observation:
        url = action.url.strip()
        try:
            page = await fetch(url, allowed=_not_asked)
        except FetchError as exc:
            return Observation(text=f"Not fetched: {exc}", is_error=True)
        except Exception as exc:  # httpx's own errors: refused, reset, timed out, bad TLS
            return Observation(text=f"Not fetched: {url}: {type(exc).__name__}: {exc}"[:500], is_error=True)
        notes = [f"{page.url} · HTTP {page.status} · {page.content_type or 'unknown type'}"]
        if page.cut_at_bytes:
            notes.append(f"only the first {MAX_DOWNLOAD_BYTES:,} bytes were read")
        if page.truncated_chars:
            notes.append(f"{page.truncated_chars:,} more characters were cut")
        if action.question:
            notes.append(f"your question: {action.question.strip()}")
        header = "\n".join(f"[{note}]" for note in notes)
        return Observation(text=f"{header}\n\n{page.text}", is_error=page.status >= 400)


def _not_asked(url: str) -> str | None:
    """Why a redirect to `url` is not followed: it would have been asked."""
    high = [finding.reason for finding in assess_url(url) if finding.risk is Risk.HIGH]
    return high[0] if high else None


def create_web_fetch(params: dict[str, Any], ctx: ToolContext) -> list[WebFetchTool]:
    return [WebFetchTool()]
