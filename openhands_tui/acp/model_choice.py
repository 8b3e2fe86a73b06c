"""The model an editor may choose for a session: an ACP session config option of category
"model" (a select), changed with `session/set_config_option`.

The choices are the model the session calls now, then the models this workspace's recent
sessions called, then `LLM_MODEL`: what this user has used here, newest first. Any other name
the editor sends is tried as `/model NAME` is in the app (the engine refuses a name litellm
cannot place, changing nothing); the switch is recorded as a `ModelChangedEvent` and in the
session's meta, and a session the editor loads again calls the model chosen last (not the one
`tui acp --model` was started with, which is for new sessions).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from acp import RequestError
from acp.schema import SessionConfigOptionSelect, SessionConfigSelectOption

from openhands_tui.demo import DEMO_MODEL
from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.run.conversation import Conversation

MODEL_OPTION = "model"
#: Most models offered.
MAX_CHOICES = 10


def model_choices(current: str, workspace: Path, state_dir: Path | None) -> list[str]:
    """The current model, then this workspace's recent ones, then LLM_MODEL (each once)."""
    choices = [current]
    try:
        recent = [meta.model for meta, _when in SessionStore(state_dir).recent() if Path(meta.workspace) == workspace]
    except (OSError, OpenHandsTUIError):  # an unreadable sessions folder: offer what is known
        recent = []
    for model in [*recent, os.environ.get("LLM_MODEL", "")]:
        if model and model != DEMO_MODEL and model not in choices and len(choices) < MAX_CHOICES:
            choices.append(model)
    return choices


def stored_model(state_dir: Path | None, session_id: str) -> str | None:
    """The model a stored session calls now (its meta follows every switch of the root's), or
    None when it cannot be read (the launch that follows says why)."""
    try:
        model = SessionStore(state_dir).open(session_id).meta.model
    except (OSError, OpenHandsTUIError):
        return None
    return model if model and model != DEMO_MODEL else None


def model_option(conversation: Conversation, workspace: Path, state_dir: Path | None) -> SessionConfigOptionSelect:
    current = conversation.root.agent.llm.model
    return SessionConfigOptionSelect(
        id=MODEL_OPTION,
        name="Model",
        description="The model the root agent calls (litellm name)",
        category="model",
        type="select",
        current_value=current,
        options=[SessionConfigSelectOption(value=m, name=m) for m in model_choices(current, workspace, state_dir)],
    )


def choose_model(conversation: Conversation, config_id: str, value: Any) -> None:
    """Apply the editor's choice; RequestError (invalid params) for an unknown option or a
    model the engine refuses."""
    if config_id != MODEL_OPTION:
        raise RequestError.invalid_params({"configId": f"no option {str(config_id)[:80]!r} (have: {MODEL_OPTION})"})
    if not isinstance(value, str) or not value.strip():
        raise RequestError.invalid_params({"value": "a model name"})
    try:
        conversation.set_model(value)
    except OpenHandsTUIError as exc:
        raise RequestError.invalid_params({"value": str(exc)}) from None
