"""A session as Markdown: a heading per agent (deeper agents, deeper headings), its messages
as quotes, its tool calls and their results in fenced code blocks.

What a model or a command wrote must not change the document around it. Messages are quoted
(`> ` on every line): whatever Markdown they hold, an unclosed fence or an HTML comment
included, ends with the quote. Arguments and results are fenced with more backticks than the
longest run of backticks they contain, so no line of theirs can close the fence. Names, titles
and one-line markers have Markdown's punctuation escaped. Every text arrives without terminal
controls (`collect.py`), so printing the document cannot act on a terminal either.
"""

from __future__ import annotations

import re

from openhands_tui.export.model import AgentExport, Call, Clipped, Note, Said, SessionExport
from openhands_tui.export.words import (
    agent_figures,
    agent_title,
    call_title,
    note_line,
    result_title,
    said_title,
    session_facts,
    shows_task,
    task_text,
)

#: What could make a name or a one-line marker markup: emphasis, code spans, links and images
#: (an image would be fetched when the document is shown), HTML and entities, headings, tables,
#: strikethrough. `_` only where it can start or end emphasis (never inside a word).
_PUNCTUATION = re.compile(r"([\\`*\[\]<>#!|~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_BACKTICKS = re.compile(r"`+")


def inline(text: str) -> str:
    """`text` with Markdown's punctuation escaped: it shows as typed, never as markup."""
    return _PUNCTUATION.sub(r"\\\1", " ".join(text.split()))


def fence(text: str) -> str:
    """`text` in a fenced code block no line of it can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}\n{text.rstrip(chr(10))}\n{marks}"


def quote(text: str) -> str:
    """`text` as a block quote: its Markdown renders, inside the quote."""
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.rstrip("\n").split("\n"))


def whole(text: Clipped) -> str:
    """A shortened text with the note of what was cut between its head and tail."""
    return f"{text.head}\n{text.note()}\n{text.tail}" if text.shortened else text.head


def render_markdown(export: SessionExport) -> str:
    session = export.session
    title = f": {inline(session['title'])}" if session.get("title") else ""
    blocks = [f"# Session {inline(session['id'])}{title}"]
    if export.forked:
        blocks.append(f"*{inline(export.forked)}*")
    blocks.append(_facts(export))
    blocks += [f"> **warning:** {inline(warning)}" for warning in export.warnings]
    if export.agents:
        outline = "\n".join(
            f"{'  ' * agent.depth}- {inline(agent_title(agent))}: {inline(agent.status)}" for agent in export.agents
        )
        blocks.append(f"## Agents\n\n{outline}")
    else:
        blocks.append("*Nothing happened in this session yet.*")
    for agent in export.agents:
        blocks += _agent(agent, export)
    return "\n\n".join(blocks) + "\n"


def _facts(export: SessionExport) -> str:
    return "\n".join(f"- **{label}:** {inline(value)}" for label, value in session_facts(export))


def _agent(agent: AgentExport, export: SessionExport) -> list[str]:
    level = "#" * min(6, agent.depth + 2)
    blocks = [f"{level} {inline(agent_title(agent))}", f"*{inline(' · '.join(agent_figures(agent)))}*"]
    if shows_task(agent):
        blocks.append(f"**task**\n{quote(whole(task_text(agent)))}")
    for entry in agent.entries:
        if isinstance(entry, Said):
            blocks.append(f"**{inline(said_title(entry))}**\n{quote(whole(entry.text))}")
        elif isinstance(entry, Call):
            blocks += _call(entry, export)
        elif isinstance(entry, Note):
            blocks.append(f"- {inline(note_line(entry))}")
    blocks += [_started(export.agent(key)) for key in agent.loose]
    return blocks


def _call(call: Call, export: SessionExport) -> list[str]:
    blocks = [f"**▸ {inline(call_title(call))}**"]
    if call.arguments:
        blocks.append(fence("\n".join(_argument(name, text) for name, text in call.arguments)))
    blocks += [_started(export.agent(key)) for key in call.children]
    if call.result is None:
        blocks.append(f"*{inline(result_title(call))}*")
    else:
        blocks.append(f"*{inline(result_title(call))}*\n{fence(whole(call.result.text))}")
    return blocks


def _argument(name: str, text: Clipped) -> str:
    value = whole(text)
    if "\n" not in value:
        return f"{name}: {value}"
    return f"{name}:\n" + "\n".join(f"  {line}" for line in value.split("\n"))


def _started(child: AgentExport) -> str:
    return f"↳ started **{inline(child.name)}**: see *{inline(agent_title(child))}* below"
