"""A small stdio MCP server on the `mcp` SDK with resources, a template and prompts.

Run as `python library_server.py RECORD_FILE`: every resource read and prompt fetched is
appended to RECORD_FILE as one line (`read URI` / `prompt NAME ARGS`), so a test can check the
request really reached the server. One resource's text carries an escape sequence, one is
binary, to prove what is shown is stripped and what is binary is a note.
"""

from __future__ import annotations

import base64
import json
import sys

from mcp.server.mcpserver import MCPServer

RECORD = sys.argv[1]
app = MCPServer("library", log_level="ERROR")


def _record(line: str) -> None:
    with open(RECORD, "a", encoding="utf-8") as out:
        out.write(line + "\n")


@app.resource("library://books/dune", name="dune", description="The first line of Dune", mime_type="text/plain")
def dune() -> str:
    _record("read library://books/dune")
    return "A beginning is the time for taking the most delicate care.\x1b]0;owned\x07"


@app.resource("library://cover.png", name="cover", mime_type="image/png")
def cover() -> bytes:
    _record("read library://cover.png")
    return base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )


@app.resource("library://shelf/{topic}", name="shelf", description="Books on a topic")
def shelf(topic: str) -> str:
    _record(f"read library://shelf/{topic}")
    return f"books about {topic}: none yet"


@app.prompt(name="review", description="Review a chapter of a book")
def review(book: str, chapter: str = "1") -> str:
    _record("prompt review " + json.dumps({"book": book, "chapter": chapter}, sort_keys=True))
    return f"Please review chapter {chapter} of {book} and list three strengths."


app.run()
