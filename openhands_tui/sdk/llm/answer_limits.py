"""How much of one model answer is kept: a provider (or a model in a loop) can stream tens of
megabytes of text, and every copy of it — the joined text, the event, its JSON line, the printed
transcript — cost that much again (a 30 MB answer peaked at ~470 MB RSS headless, and was printed
twice). So the answer is bounded while it streams: text and thinking keep their start and their
end with a note of what was left out between; a tool call keeps only enough to be refused (calls
over `MAX_CALL_CHARS` never run) while its true length is still counted for the error.
"""

from __future__ import annotations

#: Most characters of an answer's text (or thinking) kept: far more than any real answer, small
#: enough that the few copies made of it downstream stay a few megabytes.
MAX_ANSWER_CHARS = 1_000_000
#: Largest tool call accepted (its arguments as JSON); the file editor takes 1M-character files.
MAX_CALL_CHARS = 2_500_000


class BoundedText:
    """Streamed pieces joined, keeping at most `limit` characters: the first half and the last
    half, with a one-line note of how many characters were left out between them."""

    def __init__(self, limit: int = MAX_ANSWER_CHARS, *, keep_tail: bool = True) -> None:
        self.limit = limit
        self.keep_tail = keep_tail
        self.total = 0
        self._head: list[str] = []
        self._head_len = 0
        self._head_cap = limit // 2 if keep_tail else limit
        self._tail = ""

    @property
    def overflowed(self) -> bool:
        return self.total > self.limit

    def add(self, piece: str) -> None:
        if not piece:
            return
        self.total += len(piece)
        room = self._head_cap - self._head_len
        if room > 0:
            self._head.append(piece[:room])
            self._head_len += min(room, len(piece))
            piece = piece[room:]
        if piece and self.keep_tail:
            self._tail += piece
            keep = self.limit - self._head_cap
            if len(self._tail) > 2 * keep:  # trimmed now and then: amortised, never quadratic
                self._tail = self._tail[-keep:]

    def text(self) -> str:
        head = "".join(self._head)
        if not self.keep_tail:
            return head
        keep = self.limit - self._head_cap
        if self.total <= self.limit:
            return head + self._tail
        tail = self._tail[-keep:] if keep else ""
        left_out = self.total - len(head) - len(tail)
        return f"{head}\n[… {left_out:,} characters of this answer were not kept …]\n{tail}"


def bounded(text: str, limit: int = MAX_ANSWER_CHARS) -> str:
    """A whole answer (not streamed) bounded the same way."""
    collector = BoundedText(limit)
    collector.add(text)
    return collector.text()
