"""Fan-out: several researchers at the same time, then one synthesizer merges their findings.

When to use it: questions that split into independent parts — surveying a repository, comparing
options, auditing several modules. The root splits the question into `workers` parts, sends
them to `researcher` agents with one `delegate_parallel` call (they run concurrently), then asks
`synthesizer` to merge the findings into one answer.

    tui --strategy strategies/fanout.py --param workers=3 --task "survey this repo"

Param `workers`: how many researchers run at once.
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import LLM, Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy, StrategyParam
from openhands_tui.sdk.tool import Tool
from openhands_tui.tools.delegate import register_agent

RESEARCHER_PROMPT = """\
You are a researcher. Investigate only the question you are given, using the terminal and the \
file viewer to read (do not change files). Report findings as short bullet points, each with \
the file or command it comes from."""

SYNTHESIZER_PROMPT = """\
You are a synthesizer. You are given findings from several researchers. Merge them into one \
clear answer: remove duplicates, resolve contradictions (say which source you trust and why), \
and keep the references. Report the merged answer."""


class Fanout(Strategy):
    """Parallel researchers plus a synthesizer."""

    name = "fanout"
    description = "N parallel researchers + a synthesizer"
    params = [StrategyParam(name="workers", type="integer", default=3, description="Researchers run at once")]

    def setup(self) -> None:
        register_agent("researcher", _researcher, "Researcher: investigates one question and reports findings")
        register_agent("synthesizer", _synthesizer, "Synthesizer: merges several researchers' findings")

    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        workers = max(1, int((params or {}).get("workers", 3)))
        delegate = Tool(
            name="DelegateTool",
            params={"agents": ["researcher", "synthesizer"], "max_parallel": max(4, workers)},
        )
        return Agent(
            llm=llm,
            name="fanout",
            tools=[delegate],
            agent_context=AgentContext(
                system_message_suffix=f"""\
Fan the work out:
1. Split the task into {workers} independent research questions.
2. Call delegate_parallel once with {workers} tasks, all for 'researcher'.
3. Delegate to 'synthesizer' with every researcher's findings in the task text.
Finish with the synthesizer's answer."""
            ),
        )


def _researcher(llm: LLM) -> Agent:
    return Agent(
        llm=llm,
        name="researcher",
        tools=[Tool(name="TerminalTool"), Tool(name="FileEditorTool")],
        agent_context=AgentContext(system_message_suffix=RESEARCHER_PROMPT),
    )


def _synthesizer(llm: LLM) -> Agent:
    return Agent(
        llm=llm,
        name="synthesizer",
        tools=[],
        agent_context=AgentContext(system_message_suffix=SYNTHESIZER_PROMPT),
    )
