"""Reading one microagent, skill or instruction file into a Skill, or saying why not.

Real files are written by people and by other tools, so reading is forgiving where that
cannot hurt and strict where it can: frontmatter that is not valid YAML but is plain
`key: value` lines (an Agent Skills `description: Use when: ...` with an unquoted colon, which
other tools accept) is read line by line; an instruction file whose frontmatter belongs to another
tool (Cursor's `globs: **/*.ts`) is loaded as text; anything else that cannot be understood
(broken YAML that is not simple lines, wrong field types, unreadable, empty, too big) is
skipped with a warning naming the file and the cause.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.context.arguments import CLAUDE, argument_names
from openhands_tui.sdk.context.frontmatter import parse_header, split_frontmatter, unclosed_frontmatter
from openhands_tui.sdk.context.skill import COMMAND_NAME, Skill, tool_list
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.security.files import credentials_reason

MAX_FILE_BYTES = 256 * 1024  # larger files are not read at all
MAX_CONTENT_CHARS = 24_000  # about 6,000 tokens per microagent
#: The `type` values of OpenHands microagents, and the type each means here.
MICROAGENT_TYPES = {"repo": "repo", "repo_knowledge": "repo", "knowledge": "knowledge", "task": "task"}
COMMAND_WORD = re.compile(COMMAND_NAME)


def _credentials(path: Path) -> str | None:
    """Why a repository's microagent file is really a link to a credentials file (`SKILL.md ->
    ../../.env`, a link into `.git`), or None: its text would reach the model without the agent
    asking. A file that is not a link is the repository's own words, whatever its name."""
    real = os.path.realpath(path)
    if real == os.path.abspath(path):
        return None
    return credentials_reason(real, os.path.dirname(os.path.dirname(real)))


def load_file(
    path: Path,
    origin: str,
    warnings: list[str],
    *,
    default_name: str,
    instructions: bool = False,
    force_repo: bool | None = None,
) -> Skill | None:
    """One file as a Skill, or None with a warning. `instructions`: an always-on instruction
    file (AGENTS.md, CLAUDE.md, .cursorrules...), whose frontmatter, if any, is another tool's."""
    instructions = instructions or bool(force_repo)
    text = read_source(path, origin, warnings)
    if text is None:
        return None
    header, body = split_frontmatter(text)
    if header is None and path.name.lower() == "skill.md" and not instructions:
        header, body = unclosed_frontmatter(text, path, warnings)
    metadata: dict[str, Any] = {}
    if header is not None and not instructions:
        parsed, problem = parse_header(header)
        if parsed is None:
            warnings.append(f"{path}: skipped, {problem}")
            return None
        metadata = parsed  # read line by line when not YAML: other tools accept these files too
    # An instruction file's frontmatter (Cursor's `globs: **/*.ts`, `alwaysApply`) belongs to
    # another tool and need not be YAML we can read: its body is the instructions.
    body = body.strip()
    if not body and not metadata.get("mcp_tools"):
        warnings.append(f"{path}: skipped, it has no content")
        return None
    return build_skill(path, origin, metadata, body, default_name, instructions, warnings)


def read_source(path: Path, origin: str, warnings: list[str]) -> str | None:
    """A microagent file's text, or None with a warning: not a workspace's link to a credentials
    file, not over the size limit, readable, decoded."""
    if origin == "workspace" and (secret := _credentials(path)) is not None:
        warnings.append(f"{path}: skipped, {secret}")  # a link to `.env` would ride in every request
        return None
    return _read(path, warnings)


def _read(path: Path, warnings: list[str]) -> str | None:
    try:
        return _decoded(read_regular(path, MAX_FILE_BYTES))
    except OSError as exc:
        too_big = exc.errno == errno.EFBIG
        warnings.append(
            f"{path}: skipped, {exc.strerror}" if too_big else f"{path}: skipped, unreadable ({exc.strerror})"
        )
        return None
    except UnicodeDecodeError as exc:
        warnings.append(f"{path}: skipped, unreadable ({exc})")
        return None


def _decoded(data: bytes) -> str:
    """UTF-8 (a BOM or not), or UTF-16 with its BOM: what Windows PowerShell's `>` writes."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    return data.decode("utf-8-sig")


def build_skill(
    path: Path,
    origin: str,
    metadata: dict[str, Any],
    body: str,
    default_name: str,
    instructions: bool,
    warnings: list[str],
) -> Skill | None:
    """A Skill from a file's frontmatter and body, following OpenHands' rules: `inputs` make a
    task, `triggers` a knowledge microagent, neither an always-on one; a SKILL.md is an Agent
    Skill, listed with its description and loaded on demand."""
    truncated = len(body) > MAX_CONTENT_CHARS
    if truncated:
        body = body[:MAX_CONTENT_CHARS] + (
            f"\n\n[... truncated: {path.name} has {len(body):,} characters; only the first "
            f"{MAX_CONTENT_CHARS:,} are included. Read the file for the rest ...]"
        )
    agent_skill = path.name.lower() == "skill.md" and not instructions
    triggers = _triggers(metadata.get("triggers", metadata.get("trigger", [])), agent_skill)
    name = metadata.get("name")
    fields: dict[str, Any] = {
        "name": str(name).strip() if isinstance(name, str | int | float) and str(name).strip() else default_name,
        "content": body,
        "triggers": triggers if not instructions else [],
        "inputs": _inputs(metadata.get("inputs")),
        "description": _description(metadata, body, agent_skill),
        "source": str(path),
        "origin": origin,
        "truncated": truncated,
        "agent_skill": agent_skill,
        "directory": str(path.parent) if agent_skill else None,
    }
    for key in ("license", "compatibility"):
        if isinstance(metadata.get(key), str):
            fields[key] = metadata[key]
    if isinstance(metadata.get("metadata"), dict):
        fields["metadata"] = metadata["metadata"]
    allowed = metadata.get("allowed-tools", metadata.get("allowed_tools"))
    if isinstance(allowed, str | list):
        fields["allowed_tools"] = tool_list(allowed) if isinstance(allowed, str) else [str(t) for t in allowed]
    if "mcp_tools" in metadata:
        fields["mcp_tools"] = metadata["mcp_tools"]
    kind = _kind(metadata.get("type"), path, [] if agent_skill else warnings)  # a SKILL.md's is another tool's
    if instructions or (path.name.lower() == "repo.md" and kind is None):
        kind = "repo"
    if kind is None and "inputs" in metadata and not instructions:
        kind = "task"  # OpenHands: a file with `inputs` is a task, `type: task` or not
    if kind in (None, "knowledge") and agent_skill and not fields["triggers"] and "inputs" not in metadata:
        kind, fields["triggers"] = "knowledge", _name_triggers(str(fields["name"]))
    if kind == "knowledge" and not fields["triggers"] and not agent_skill and "inputs" not in metadata:
        kind = "repo"  # OpenHands reads `type` as a comment: no triggers and no inputs is always on
    if agent_skill and kind in (None, "knowledge") and "inputs" not in metadata:  # a knowledge skill
        # Claude Code: `/name` runs any skill (`user-invocable: false` says not); a user-only
        # skill (`disable-model-invocation: true`) is not offered to the model.
        by_user = not _no(metadata.get("user-invocable", metadata.get("user_invocable")))
        command = [f"/{word}"] if by_user and (word := _command_word(str(fields["name"]), path)) else []
        if _yes(metadata.get("disable-model-invocation")):
            if not by_user:
                warnings.append(f"{path}: skipped, neither the model nor `/name` may use it (it says so)")
                return None
            fields["agent_skill"], fields["triggers"] = False, command
        else:
            fields["triggers"] = [*fields["triggers"], *(c for c in command if c not in fields["triggers"])]
    if kind is not None:
        fields["type"] = kind
    try:
        skill = Skill.model_validate(fields)
        if agent_skill and skill.type == "knowledge":  # run as `/name 42`: `$ARGUMENTS`, `$0` as Claude Code
            skill.takes_arguments(CLAUDE.with_names(argument_names(metadata.get("arguments"))))
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "frontmatter"
        warnings.append(f"{path}: skipped, wrong type for {where!r} ({error['msg']})")
        return None
    except UnsupportedArgument as exc:  # pragma: no cover - fields above are all known
        warnings.append(f"{path}: skipped ({exc})")
        return None
    if skill.type == "knowledge" and not skill.triggers:
        warnings.append(f"{path}: skipped, a knowledge microagent needs `triggers`")
        return None
    return skill


def _triggers(raw: Any, agent_skill: bool) -> Any:
    """`triggers` as files write them: a list, one word, `"deploy, release"` (a list written as
    text), or the SDK's `{type: keyword, keywords: [...]}` mapping (what some skill tools write,
    `triggers: {keywords: [graph, index]}`). Anything else in a SKILL.md is another tool's field
    and ignored; in a microagent it is reported as the wrong type."""
    if isinstance(raw, dict):
        raw = raw.get("keywords", raw if not agent_skill else [])
    if isinstance(raw, str):
        raw = raw.split(",")
    if isinstance(raw, list):
        return [str(t).strip() for t in raw if isinstance(t, str | int | float) and str(t).strip()]
    return [] if agent_skill else raw


def _yes(raw: Any) -> bool:
    return raw is True or (isinstance(raw, str) and raw.strip().lower() in ("true", "yes", "on"))


def _no(raw: Any) -> bool:
    return raw is False or (isinstance(raw, str) and raw.strip().lower() in ("false", "no", "off"))


def _command_word(name: str, path: Path) -> str | None:
    """What `/` runs a skill by: its name, or its folder's when the name is no single word
    (`name: AI Advisor Workflow` in `ai-advisor-workflow/`); None when neither is."""
    for word in (name, path.parent.name):
        if COMMAND_WORD.fullmatch(word):
            return word
    return None


def _kind(raw: Any, path: Path, warnings: list[str]) -> str | None:
    if raw is None:
        return None
    kind = MICROAGENT_TYPES.get(str(raw).strip().lower())
    if kind is None:
        warnings.append(f"{path}: unknown type {raw!r} ignored (repo, knowledge or task)")
    return kind


def _inputs(raw: Any) -> Any:
    """OpenHands writes inputs as `[{name, description}]` (other keys, like `required`, are
    the file's business); a bare list of names works too."""
    if not isinstance(raw, list):
        return raw or []
    inputs = []
    for item in raw:
        if isinstance(item, str | int):
            inputs.append({"name": str(item)})
        elif isinstance(item, dict) and item.get("name") is not None:
            inputs.append({"name": str(item["name"]), "description": _text(item.get("description"))})
        else:
            return raw  # reported as a wrong type
    return inputs


def _text(raw: Any) -> str:
    if isinstance(raw, str):
        return " ".join(raw.split())
    return "" if raw is None else str(raw)


def _description(metadata: dict[str, Any], body: str, agent_skill: bool) -> str:
    """`description`, and Claude Code's `when_to_use` after it (it lists the two together); a
    SKILL.md with neither is described by its first line of prose."""
    parts = [_text(metadata.get("description")), _text(metadata.get("when_to_use"))]
    return " ".join(p for p in parts if p) or (_first_line(body) if agent_skill else "")


def _first_line(body: str) -> str:
    """A description for a SKILL.md that has none: its first line of prose."""
    for line in body.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "---", "```", "<!--")):
            return line[:200]
    return ""


def _name_triggers(name: str) -> list[str]:
    """An Agent Skill without triggers fires on its name (`pdf-tools` or `pdf tools`)."""
    spaced = name.replace("-", " ").replace("_", " ")
    return [name] if spaced == name else [name, spaced]
