"""How a web request is rated, by what its URL says (the fetch tool's subject).

Reading a public page by GET changes nothing: LOW. What makes a request risky is where it goes
and what it carries, since a URL is also a way out for data:
- a host on this machine or its network (loopback, private and link-local ranges, `localhost`,
  `.local`, `.internal`): another service's admin page is not the model's to read unasked;
- a URL that carries something secret-shaped (a token, a key, `user:password@`) or a value of
  the user's secret environment;
- a URL that carries a blob (a long run of base64 or hex, a very long query): the shape of the
  workspace's content being smuggled out;
- anything but GET/HEAD, or a scheme other than http(s).
Each finding has a stable rule id; rules the user keeps ("always for docs.python.org") are
applied after, by the permission set, and never approve a HIGH request.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote, urlsplit

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Finding
from openhands_tui.sdk.security.secrets import looks_secret, secret_environment

#: Names that never reach the public internet.
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp")
#: A run this long of base64/hex-like characters is data, not a page's name.
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]{64,}")
_LONGEST_QUERY = 512


def assess_url(url: str, method: str = "GET") -> list[Finding]:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower().rstrip(".")
        _ = parts.port
    except ValueError:
        return [Finding(Risk.HIGH, f"{url[:200]!r} is not a URL that can be read", "web:invalid")]
    findings: list[Finding] = []
    if parts.scheme not in ("http", "https") or not host:
        findings.append(
            Finding(Risk.HIGH, f"only http(s) pages can be fetched, not {parts.scheme or 'this'}:", "web:scheme")
        )
    if method.upper() not in ("GET", "HEAD"):
        findings.append(Finding(Risk.HIGH, f"{method.upper()} sends data to {host}", "web:sends"))
    if host and is_local_host(host):
        findings.append(Finding(Risk.HIGH, f"{host} is on this machine or its network (asked)", "web:private"))
    carried = unquote(f"{parts.path}?{parts.query}#{parts.fragment}")
    secrets = [value for value in secret_environment().values() if len(value) >= 8 and value in unquote(url)]
    if parts.username or parts.password or secrets or looks_secret(unquote(url)):
        findings.append(Finding(Risk.HIGH, "the URL carries something secret-shaped", "web:secret"))
    elif len(parts.query) > _LONGEST_QUERY or _BLOB.search(carried):
        findings.append(Finding(Risk.HIGH, "the URL carries a blob of data (a way out for files)", "web:data"))
    if not findings:
        findings.append(Finding(Risk.LOW, f"reads a public page from {host}", "web:read"))
    return findings


def is_local_host(host: str) -> bool:
    """Whether `host` (a name or an address) is this machine or a private network."""
    host = host.strip("[]").lower().rstrip(".")
    if host == "localhost" or host.endswith(_LOCAL_SUFFIXES) or ("." not in host and ":" not in host):
        return True  # a bare name resolves on the local network, if at all
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return is_local_address(address)


def is_local_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not address.is_global or address.is_multicast
