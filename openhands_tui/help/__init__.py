"""The topic pages: the depth the README leaves out, one Markdown file per topic in this folder
(shipped as package data), shown by `tui help TOPIC` and the app's `/help TOPIC`. Standard
library only, so the command line can import it without slowing `tui --help`."""

from __future__ import annotations

from importlib import resources

#: The order `tui help` lists them in: from using the tool to working on it. A page not named
#: here is still a topic, listed after these.
ORDER = (
    "configuration",
    "strategies",
    "skills",
    "models",
    "mcp",
    "safety",
    "acp",
    "app",
    "sessions",
    "reliability",
    "performance",
    "development",
)


def _pages() -> dict[str, str]:
    """Each topic's name (its file's stem) and its text."""
    folder = resources.files(__name__)
    return {
        entry.name.removesuffix(".md"): entry.read_text(encoding="utf-8")
        for entry in folder.iterdir()
        if entry.name.endswith(".md") and entry.is_file()
    }


def topics() -> dict[str, str]:
    """Every topic and its one line (the page's first line after its title), in ORDER."""
    pages = _pages()
    names = [n for n in ORDER if n in pages] + sorted(n for n in pages if n not in ORDER)
    return {name: summary(pages[name]) for name in names}


def summary(text: str) -> str:
    lines = [line.strip() for line in text.splitlines()]
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    return next((line for line in body if line), "")


def page(topic: str) -> str | None:
    """A topic's page, or None when there is no such topic."""
    return _pages().get(topic.strip().lower().removesuffix(".md"))
