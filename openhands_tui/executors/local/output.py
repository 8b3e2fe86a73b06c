"""A command's output as the model sees it: bounded (head and tail kept), decoded, and
cleaned of escape sequences, control bytes and carriage-return redraws."""

from __future__ import annotations

from openhands_tui.sdk.terminal_text import safe_for_terminal


class BoundedOutput:
    """A command's output so far. Past twice the limit, the middle is dropped: the head and
    a generous tail are kept (the tail must still hold the sentinel line when it arrives)."""

    SLACK = 70_000  # more than one read plus the sentinel

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.omitted = 0
        self.cut_at = 0

    def add(self, chunk: bytes) -> None:
        self.buffer += chunk
        if len(self.buffer) > 2 * self.limit + self.SLACK:
            head = self.limit // 2
            keep_tail = self.limit // 2 + self.SLACK
            cut = len(self.buffer) - head - keep_tail
            del self.buffer[head : head + cut]
            self.omitted += cut
            self.cut_at = head

    def render(self, end: int | None = None) -> str:
        body = bytes(self.buffer[:end] if end is not None else self.buffer)
        if len(body) > self.limit:  # what is left of the slack: trim to the limit, keep the tail
            extra = len(body) - self.limit
            keep_from = max(self.cut_at, self.limit // 2)
            body = body[:keep_from] + body[keep_from + extra :]
            self.omitted += extra
            self.cut_at = keep_from
        if self.omitted:
            note = f"\n[... {self.omitted:,} bytes of output omitted ...]\n".encode()
            body = body[: self.cut_at] + note + body[self.cut_at :]
        return clean_output(body)


def clean_output(data: bytes) -> str:
    """Decode (invalid UTF-8 becomes U+FFFD), then drop escape sequences and control bytes
    (binary output included) and keep what a terminal would show after carriage returns."""
    return safe_for_terminal(data.decode("utf-8", errors="replace"))
