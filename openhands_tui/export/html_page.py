"""A session as one HTML page that any browser shows without tui: the style inline, no script,
nothing fetched from anywhere; each sub-agent a `<details>` block inside the call that started it.

Everything a model, a command or a file wrote is hostile here. Every piece of text goes through
`html.escape` (quotes included) and only ever lands between tags, never in an attribute: the
page's attributes are the renderer's own constants. A Content-Security-Policy that allows no
script and no fetch stands behind that, should a browser ever read something differently.
"""

from __future__ import annotations

from html import escape

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

_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 64rem; margin: 1.5rem auto; padding: 0 1rem;
       color: #1d232a; background: #fdfdfc; }
h1 { font-size: 1.4rem; margin-bottom: .3rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 0; display: inline; overflow-wrap: anywhere; }
.forked { color: #6a4d00; font-style: italic; }
.facts { color: #444; margin: .5rem 0 1rem; padding-left: 1.2rem; }
.warning { background: #fff4d6; border-left: 4px solid #d39e00; padding: .3rem .6rem; }
details.agent { border: 1px solid #d5d9de; border-radius: 6px; margin: .7rem 0; padding: .3rem .8rem .6rem;
                background: #fff; }
details.agent > summary { cursor: pointer; padding: .3rem 0; }
.figures { color: #59636e; font-size: .85rem; margin-left: .5rem; }
.said { margin: .6rem 0; padding: .4rem .7rem; border-radius: 6px; white-space: pre-wrap;
        overflow-wrap: anywhere; }
.said .who { display: block; font-size: .8rem; font-weight: 600; color: #59636e; white-space: normal; }
.user { background: #eef4ff; }
.assistant { background: #f4f4f2; }
.final { background: #eaf7ee; border-left: 4px solid #2f8f4e; }
.call { margin: .6rem 0; }
.call .tool { font-weight: 600; overflow-wrap: anywhere; }
.label { font-size: .8rem; color: #59636e; margin-top: .3rem; }
.label.bad { color: #b3261e; }
pre { background: #f6f8fa; border: 1px solid #e1e4e8; border-radius: 4px; padding: .5rem .7rem; margin: .2rem 0;
      white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, monospace; }
.cut { display: block; color: #8a5a00; font-style: italic; margin: .2rem 0; }
.note { color: #444; font-size: .9rem; margin: .3rem 0; overflow-wrap: anywhere; }
.started { margin: .4rem 0 0 1rem; }
"""


def render_html(export: SessionExport) -> str:
    session = export.session
    title = f"Session {session['id']}" + (f": {session['title']}" if session.get("title") else "")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{_text(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{_text(title)}</h1>",
    ]
    if export.forked:
        parts.append(f'<p class="forked">{_text(export.forked)}</p>')
    parts.append(_facts(export))
    parts += [f'<p class="warning">warning: {_text(warning)}</p>' for warning in export.warnings]
    if not export.agents:
        parts.append("<p><em>Nothing happened in this session yet.</em></p>")
    shown: set[str] = set()
    for agent in export.agents:  # each agent inside its parent's; any left over at the top
        if agent.key not in shown:
            parts.append(_agent(agent, export, shown))
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _text(text: str) -> str:
    return escape(text, quote=True)


def _facts(export: SessionExport) -> str:
    items = [f"<li><b>{label}:</b> {_text(value)}</li>" for label, value in session_facts(export)]
    return '<ul class="facts">' + "".join(items) + "</ul>"


def _agent(agent: AgentExport, export: SessionExport, shown: set[str]) -> str:
    shown.add(agent.key)
    figures = " · ".join(agent_figures(agent))
    parts = [
        '<details class="agent" open>',
        f'<summary><h2>{_text(agent_title(agent))}</h2><span class="figures">{_text(figures)}</span></summary>',
    ]
    if shows_task(agent):
        parts.append(_said_block("task", "user", task_text(agent)))
    for entry in agent.entries:
        if isinstance(entry, Said):
            parts.append(_said_block(said_title(entry), "final" if entry.final else _role(entry.role), entry.text))
        elif isinstance(entry, Call):
            parts.append(_call(entry, export, shown))
        elif isinstance(entry, Note):
            parts.append(f'<p class="note">{_text(note_line(entry))}</p>')
    parts += [_child(export.agent(key), export, shown) for key in agent.loose]
    parts.append("</details>")
    return "\n".join(parts)


def _role(role: str) -> str:
    """A CSS class from the renderer's own names, never from the event."""
    return "user" if role == "user" else "assistant"


def _said_block(title: str, style: str, text: Clipped) -> str:
    return f'<div class="said {style}"><span class="who">{_text(title)}</span>{_clipped(text)}</div>'


def _clipped(text: Clipped) -> str:
    if not text.shortened:
        return _text(text.head)
    return f'{_text(text.head)}<span class="cut">{_text(text.note())}</span>{_text(text.tail)}'


def _call(call: Call, export: SessionExport, shown: set[str]) -> str:
    parts = ['<div class="call">', f'<div class="tool">▸ {_text(call_title(call))}</div>']
    if call.arguments:
        arguments = "\n".join(f"{_text(name)}: {_clipped(value)}" for name, value in call.arguments)
        parts.append(f"<pre>\n{arguments}</pre>")  # the newline after <pre> is not shown
    parts += [_child(export.agent(key), export, shown) for key in call.children]
    bad = call.result is None or call.result.outcome != "ok"
    parts.append(f'<div class="label{" bad" if bad else ""}">{_text(result_title(call))}</div>')
    if call.result is not None:
        parts.append(f"<pre>\n{_clipped(call.result.text)}</pre>")
    parts.append("</div>")
    return "\n".join(parts)


def _child(child: AgentExport, export: SessionExport, shown: set[str]) -> str:
    if child.key in shown:  # never twice, whatever the log claims
        return f'<p class="note">↳ {_text(agent_title(child))}: shown above</p>'
    return f'<div class="started">{_agent(child, export, shown)}</div>'
