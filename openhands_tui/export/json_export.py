"""A session as one JSON document, for scripts. Its shape is kept stable: a change that would
break a reader of it raises `version`; new keys may be added within a version.

    {
      "format": "openhands-tui-export",
      "version": 1,
      "session": {                      # meta.json, less `base_url`
        "id": str, "title": str, "created": str, "status": str, "strategy": str,
        "agent": str | null,            # the agent file run as the root agent, if any
        "params": {str: any}, "model": str | null, "reasoning_effort": str | null,
        "sandbox": str | null, "workspace": str
      },
      "forked_from": null | {"session": str, "title": str, "turn": int | null},
      "totals": {"tokens": int, "cost": float, "unpriced_calls": int},      # the exported history
      "log_totals": {"tokens": int, "cost": float, "unpriced_calls": int},  # every call in the log
      "warnings": [str],                # e.g. a torn last line that was left out
      "agents": [                       # root first; each agent followed by those it started
        {
          "id": str, "name": str,
          "parent": str | null,         # the id of the agent that started it (null: the root)
          "children": [str],            # the ids of the agents it started, in order
          "depth": int,                 # 0: the root
          "task": str,                  # what it was asked ("" for the root: see its messages)
          "status": "idle" | "running" | "waiting_for_confirmation" | "finished" | "failed"
                    | "rejected" | "interrupted" | "paused",
          "detail": str,                # why it failed or stopped, if it said
          "model": str,
          "tokens": int, "cost": float, "unpriced_calls": int,           # its own model calls
          "subtree_tokens": int, "subtree_cost": float,                  # with its sub-agents'
          "critic_score": float | null,
          "started": str | null, "ended": str | null, "elapsed_s": float,
          "events": [{...}]             # its events, in order
        }
      ]
    }

`events` are the agent's events exactly as `events.jsonl` stores them (the schema of
`tui --headless --json`, one object each, `kind` saying which; see `sdk/facts/event.py`), of the
history the session goes on from: what a rewind went back from is left out, and the rewind event
itself stays. Nothing in them is shortened. Every string in the document has been redacted
again. `cost` is in US dollars and leaves out the calls counted in `unpriced_calls` (models with
no known price).

The document is written with non-ASCII characters as they are, except those a terminal would act
on or that split a line (C1 controls, bidirectional overrides, U+2028/2029): those are `\\uXXXX`
escapes, as in `tui --headless --json`.
"""

from __future__ import annotations

import json
from typing import Any

from openhands_tui.export.model import AgentExport, SessionExport, Totals
from openhands_tui.sdk.terminal_text import inert_json

FORMAT = "openhands-tui-export"
VERSION = 1


def export_document(export: SessionExport) -> dict[str, Any]:
    ids = {agent.key: agent.id for agent in export.agents}
    return {
        "format": FORMAT,
        "version": VERSION,
        "session": export.session,
        "forked_from": export.forked_from,
        "totals": _totals(export.totals),
        "log_totals": _totals(export.logged),
        "warnings": export.warnings,
        "agents": [_agent(agent, ids) for agent in export.agents],
    }


def render_json(export: SessionExport) -> str:
    return inert_json(json.dumps(export_document(export), ensure_ascii=False, indent=2)) + "\n"


def _totals(totals: Totals) -> dict[str, Any]:
    return {"tokens": totals.tokens, "cost": round(totals.cost, 9), "unpriced_calls": totals.unpriced_calls}


def _agent(agent: AgentExport, ids: dict[str, str]) -> dict[str, Any]:
    return {
        "id": agent.id,
        "name": agent.name,
        "parent": agent.parent,
        "children": [ids[key] for key in agent.children],
        "depth": agent.depth,
        "task": agent.task,
        "status": agent.status,
        "detail": agent.detail,
        "model": agent.model,
        "tokens": agent.tokens,
        "cost": round(agent.cost, 9),
        "unpriced_calls": agent.unpriced_calls,
        "subtree_tokens": agent.subtree_tokens,
        "subtree_cost": round(agent.subtree_cost, 9),
        "critic_score": agent.critic_score,
        "started": agent.started,
        "ended": agent.ended,
        "elapsed_s": round(agent.elapsed_s, 3),
        "events": agent.events,
    }
