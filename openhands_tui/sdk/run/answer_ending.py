"""Why a model's answer ended, as the provider said it (litellm's `finish_reason`), and what a
step must do about it beyond running the calls.

- `length` (Anthropic `max_tokens`): the answer hit the output-token limit. Its last tool call
  may be cut anywhere — its JSON may even parse (Anthropic's non-streaming answer turns a cut
  `input` into `{}`) — so no call of a cut answer is run: each is answered with `CUT_OFF_CALL`
  and the model sends them again. A cut answer without calls is not a final answer: the model
  is told to go on.
- `content_filter` (Anthropic `refusal`, Gemini `SAFETY`...): the provider stopped the answer.
  Nothing it began is run and the run ends, saying so; the session stays resumable.

Anthropic's `pause_turn` cannot be seen here: litellm maps it to `stop`. It only comes with
server tools (web search, code execution), which we never send.

Tool call ids: some OpenAI-compatible servers send none, repeat one within an answer, or
restart at `call_0` on every answer. Results are matched to calls by id (by the provider, and
by resume, which looks for calls without a result), and Anthropic refuses a history with a
repeated or non-alphanumeric `tool_use` id, so each call gets an id unique in its agent's history.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from openhands_tui.sdk.llm.response import LLMResponse, ToolCall
from openhands_tui.sdk.run.outcome import AnswerCutOff, AnswerRefused, Finished, RunFailed

CUT_OFF = "length"
FILTERED = "content_filter"

CUT_OFF_CALL = (
    "Not run: your answer reached the output token limit before this call was complete, so its "
    "arguments may be cut short. Send the call again; if it is long, make it smaller (write a big "
    "file in parts, or generate it with a script)."
)
EMPTY_ANSWER_NUDGE = "Your last reply was empty. Continue the task with a tool call, or call `finish` if it is done."
CUT_OFF_TEXT = (
    "Your last answer reached the output token limit and was cut off. Continue from where it "
    "stopped, in shorter pieces, or call `finish` if the task is done."
)

#: Marks of a tool call written as text, by chat templates (Hermes/Qwen, Llama 3, Mistral,
#: DeepSeek): the server did not parse calls out of the model's output. A plain answer that
#: holds one is no final answer: the model meant to act, and nothing ran.
_CALL_AS_TEXT = re.compile(r"<tool_call>|<\|python_tag\|>|\[TOOL_CALLS\]|<｜tool▁calls▁begin｜>|<function=[\w.-]+>")
CALL_AS_TEXT = (
    "Your reply holds a tool call written as text, which does not run anything. Call tools "
    "through the API's function calling (tool_calls), or call `finish` if the task is done."
)

#: Answers in a row cut off at the output token limit before the run gives up.
MAX_CUT_OFFS = 3

#: Ids Anthropic takes for `tool_use` blocks (OpenAI takes any string; this suits both).
_SENDABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def cut_off(finish_reason: str | None) -> bool:
    return finish_reason == CUT_OFF


def filtered(finish_reason: str | None) -> bool:
    return finish_reason == FILTERED


def filtered_detail(text: str) -> str:
    """The run's ending when the provider stopped the answer, with what the model had said."""
    said = " ".join(text.split())
    said = f': "{said[:200]}{"…" if len(said) > 200 else ""}"' if said else ""
    return (
        "the model provider stopped the answer (finish_reason content_filter: a refusal or a safety "
        f"filter); nothing it began was run{said}"
    )


class AnswerEndings:
    """How an agent's answers have been ending, to end its run when they cannot go on."""

    def __init__(self) -> None:
        self.cut_offs = 0  # answers in a row cut off at the output token limit
        self.nudged = False  # told once that an empty answer or a call written as text does nothing

    def check(self, response: LLMResponse) -> bool:
        """Whether `response` was cut at the output token limit. A refused or filtered answer
        ends the run, and so does the MAX_CUT_OFFS-th cut answer in a row."""
        if filtered(response.finish_reason):
            raise AnswerRefused(filtered_detail(response.text))
        cut = cut_off(response.finish_reason)
        self.cut_offs = self.cut_offs + 1 if cut else 0
        if self.cut_offs >= MAX_CUT_OFFS:
            raise AnswerCutOff(f"the model's answer reached the output token limit {MAX_CUT_OFFS} times in a row")
        return cut

    def without_tools(self, text: str, cut: bool) -> tuple[str, str]:
        """For an answer without tool calls: (a warning for the user or "", what the model is to
        be told), when it is no final answer. Raises Finished for one that is, and RunFailed when
        the model was already told once and did it again."""
        if cut:
            return "the answer reached the output token limit (finish_reason length); asking for the rest", CUT_OFF_TEXT
        mark = call_as_text(text)
        if mark is None and text.strip():
            raise Finished(text)
        if self.nudged:
            raise RunFailed(calls_as_text_detail(mark) if mark else "the model returned an empty answer twice")
        self.nudged = True
        if mark is not None:
            return f"the answer holds a tool call written as text ({mark}); nothing ran", CALL_AS_TEXT
        return "", EMPTY_ANSWER_NUDGE


#: Code the answer quotes (fenced blocks, inline spans): a mark there is shown, not meant.
_QUOTED = re.compile(r"```.*?(```|$)|`[^`\n]*`", re.DOTALL)


def call_as_text(text: str) -> str | None:
    """The mark of a tool call written as text in `text` (outside quoted code), if there is one."""
    found = _CALL_AS_TEXT.search(_QUOTED.sub(" ", text))
    return found.group(0) if found else None


def calls_as_text_detail(mark: str) -> str:
    return (
        f"the model wrote its tool calls as text ({mark}) again: the model server is not turning them into "
        "calls. Check that it supports tool calling for this model (vLLM: --enable-auto-tool-choice with a "
        "--tool-call-parser; llama.cpp: --jinja; Ollama: a model with tool support)"
    )


class CallIds:
    """The tool call ids an agent has used, to give each new call an id of its own."""

    def __init__(self, used: Iterable[str] = ()) -> None:
        self._used = set(used)

    def assign(self, calls: list[ToolCall], response_id: str) -> list[ToolCall]:
        """`calls` with every id sendable and unique in the agent's history: a repeated, missing
        or unsendable id is replaced by one made from the response and the call's position
        (the same on every run of the same log)."""
        fixed = []
        for position, call in enumerate(calls):
            call_id = call.id
            if not _SENDABLE_ID.fullmatch(call_id) or call_id in self._used:
                call_id = _made_id(response_id, position, self._used)
                call = call.model_copy(update={"id": call_id})
            self._used.add(call_id)
            fixed.append(call)
        return fixed


def _made_id(response_id: str, position: int, used: set[str]) -> str:
    digest = hashlib.sha256(f"{response_id}:{position}".encode()).hexdigest()
    for start in range(0, len(digest) - 24):
        candidate = f"call_{digest[start : start + 24]}"
        if candidate not in used:
            return candidate
    return f"call_{response_id[:40]}_{position}_{len(used)}"  # 40 collisions in a row: never in practice
