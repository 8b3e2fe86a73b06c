"""`tui help [TOPIC]` and the README it stands behind: the README stays short and starts with the
two commands CI runs, every page file is a topic that prints as it is written, an unknown topic
is one line (exit 2), and every `tui help X` and relative link in the README and the pages leads
somewhere. In-process: `cli.main` is the entry point itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openhands_tui import help as pages
from openhands_tui.cli import main
from openhands_tui.sdk.strategy import load_strategy
from tests.conftest import REPO

README = REPO / "README.md"
HELP = REPO / "openhands_tui" / "help"
PAGE_FILES = sorted(HELP.glob("*.md"))
TOP = """\
# openhands-tui

```bash
python3 -m venv .venv && . .venv/bin/activate && pip install . && tui --demo
pip install -e ".[dev]" && python -m pytest
```
"""


def test_tui_help_lists_every_page_with_one_line(capsys) -> None:
    assert main(["help"]) == 0
    captured = capsys.readouterr()
    listed = {line.split()[0]: line for line in captured.out.splitlines()[1:]}
    assert set(listed) == {page.stem for page in PAGE_FILES} and captured.err == ""
    for name, line in listed.items():
        assert len(line.split(maxsplit=1)) == 2, f"{name} has no one-line summary"


@pytest.mark.parametrize("page", PAGE_FILES, ids=lambda p: p.stem)
def test_every_topic_prints_its_page_as_plain_markdown_when_piped(page: Path, capsys) -> None:
    assert main(["help", page.stem]) == 0
    captured = capsys.readouterr()
    assert captured.out == page.read_text() and captured.err == ""
    assert page.read_text().startswith("# ")


def test_an_unknown_topic_is_one_line_naming_it_and_the_known_ones(capsys) -> None:
    assert main(["help", "nosuch"]) == 2
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("tui: help: no topic 'nosuch'; topics: ") and captured.out == ""
    assert all(page.stem in line for page in PAGE_FILES)


def test_the_readme_is_short_and_starts_with_the_two_commands_ci_runs() -> None:
    text = README.read_text()
    assert text.startswith(TOP)
    assert len(text.splitlines()) <= 320
    assert 'pip install -e ".[dev]" && python -m pytest' in (REPO / ".ci" / "run").read_text()


def test_every_topic_the_readme_names_exists() -> None:
    text = README.read_text()
    named = set(re.findall(r"(?:tui help|/help) ([a-z]+)", text)) - {"TOPIC"}
    assert named, "the README names no topic"
    assert named <= set(pages.topics()), named - set(pages.topics())
    listed = set(re.findall(r"\(openhands_tui/help/(\w+)\.md\)", text))
    assert listed == set(pages.topics()), "the README's list of topic pages is not every page"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    found, fenced = set(), False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#+ ", line):
            found.add(_slug(line))
    return found


@pytest.mark.parametrize("document", [README, *PAGE_FILES], ids=lambda p: p.name)
def test_relative_links_resolve(document: Path) -> None:
    text = re.sub(r"```.*?```", "", document.read_text(), flags=re.DOTALL)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        assert file.exists(), f"{document.name}: {target}"
        if anchor:
            assert anchor in _anchors(file), f"{document.name}: {target}"


def test_the_readmes_strategy_example_loads(tmp_path: Path) -> None:
    text = README.read_text()
    section = text[text.index("\n## Writing a strategy\n") :]
    code = section[section.index("```python\n") + len("```python\n") : section.index("\n```\n")]
    (tmp_path / "careful.py").write_text(code + "\n")
    strategy = load_strategy(tmp_path / "careful.py")
    assert strategy.name == "careful" and [p.name for p in strategy.params] == ["test_cmd"]


def test_the_configuration_page_names_every_option_tui_help_lists(capsys) -> None:
    assert main(["--help"]) == 0
    listed = set(re.findall(r"--[a-z][a-z-]+", capsys.readouterr().out)) - {"--help"}
    page = (HELP / "configuration.md").read_text()
    missing = sorted(option for option in listed if f"`{option}" not in page and f" {option}" not in page)
    assert missing == []
