"""Fetching one page for the model: with our own process's network (commands have none),
within bounds, without credentials, as markdown.

- Only http(s). No cookies, no `Authorization`, no credentials from the URL or the
  environment's proxies (`trust_env=False`); a fixed, honest user agent.
- Redirects are followed by hand, at most `MAX_REDIRECTS`, each target rated again: a public
  page that redirects to `localhost` or a private address is not followed, nor one that the
  user's rules would not allow.
- A name is resolved before connecting, and a public-looking name that resolves to a private
  address is refused (unless the URL itself named a local host, which was asked).
- At most `MAX_DOWNLOAD_BYTES` are read; at most `MAX_TEXT_CHARS` go back to the model.
- HTML becomes markdown (markdownify, on BeautifulSoup's parser; scripts, styles and forms
  dropped); text, markdown and JSON pass through; other types are refused. Terminal control
  characters are stripped from all of it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from openhands_tui.sdk.security.urls import is_local_address, is_local_host
from openhands_tui.sdk.terminal_text import strip_controls

if TYPE_CHECKING:
    import httpx

MAX_REDIRECTS = 5
MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024
MAX_TEXT_CHARS = 40_000
TIMEOUT_SECONDS = 20.0
USER_AGENT = "openhands-tui web_fetch (a coding agent reading documentation)"
_TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown", "application/json", "text/csv", "application/xml")


class FetchError(Exception):
    """One line the model reads: why the page was not fetched."""


@dataclass
class Page:
    url: str
    status: int
    content_type: str
    text: str
    truncated_chars: int = 0
    downloaded_bytes: int = 0
    cut_at_bytes: bool = False


async def fetch(url: str, allowed: object = None) -> Page:
    """GET `url`. `allowed(url) -> str | None` is asked about every redirect target: None to
    follow it, else why not."""
    import httpx  # on first use: importing it loads rich (for its command line), ~90 ms

    async with httpx.AsyncClient(
        follow_redirects=False, trust_env=False, timeout=TIMEOUT_SECONDS, headers={"User-Agent": USER_AGENT}
    ) as client:
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            await _check_destination(current, first=current == url)
            async with client.stream("GET", current) as response:
                if response.is_redirect and "location" in response.headers:
                    target = urljoin(current, response.headers["location"])
                    why = _redirect_refusal(current, target, allowed)
                    if why:
                        raise FetchError(f"{current} redirects to {target}, which was not followed: {why}")
                    current = target
                    continue
                body, cut = await _read_capped(response)
                return _page(current, response, body, cut)
        raise FetchError(f"more than {MAX_REDIRECTS} redirects from {url}")


def _redirect_refusal(current: str, target: str, allowed: object) -> str | None:
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https"):
        return f"it is not http(s) ({parts.scheme}:)"
    if (parts.hostname or "").lower() == (urlsplit(current).hostname or "").lower():
        return None  # the same host: as approved (or as public) as the page that moved
    if is_local_host(parts.hostname or ""):
        return "it is on this machine or its network"
    if callable(allowed):
        why = allowed(target)
        return str(why) if why else None
    return None


async def _check_destination(url: str, first: bool) -> None:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host:
        raise FetchError(f"only http(s) URLs can be fetched: {url[:200]}")
    if is_local_host(host):
        return  # named as local in the URL, and asked as such
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise FetchError(f"cannot resolve {host}: {exc.strerror or exc}") from None
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if is_local_address(address):
            raise FetchError(f"{host} resolves to {address}, an address on this machine or its network; not fetched")


async def _read_capped(response: httpx.Response) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_DOWNLOAD_BYTES:
            return b"".join(chunks)[:MAX_DOWNLOAD_BYTES], True
    return b"".join(chunks), False


def _page(url: str, response: httpx.Response, body: bytes, cut: bool) -> Page:
    content_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    encoding = response.charset_encoding or "utf-8"
    if content_type in ("text/html", "application/xhtml+xml") or (not content_type and body.lstrip()[:1] == b"<"):
        text = html_to_markdown(body.decode(encoding, errors="replace"))
    elif content_type.startswith("text/") or content_type in _TEXT_TYPES or content_type.endswith("+json"):
        text = body.decode(encoding, errors="replace")
    else:
        raise FetchError(f"{url} is {content_type or 'of an unknown type'} ({len(body):,} bytes), not a page to read")
    text = strip_controls(text).strip()
    dropped = max(0, len(text) - MAX_TEXT_CHARS)
    return Page(url, response.status_code, content_type, text[:MAX_TEXT_CHARS], dropped, len(body), cut)


def html_to_markdown(html: str) -> str:
    """Markdown of a page's content, without scripts, styles, forms or navigation chrome."""
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    for element in soup(["script", "style", "noscript", "template", "iframe", "form", "svg", "head"]):
        element.decompose()
    markdown = MarkdownConverter(heading_style="ATX", strip=["img"]).convert_soup(soup)
    lines = [line.rstrip() for line in markdown.splitlines()]
    collapsed: list[str] = []
    for line in lines:
        if line or (collapsed and collapsed[-1]):
            collapsed.append(line)
    return "\n".join(collapsed)
