"""The SDK's `TaskToolSet` (a `task` tool that hands work to a registered sub-agent): here that
is the delegate tool, so `Tool(name=TaskToolSet.name)` gives an agent `delegate` and
`delegate_parallel` over the agents registered with `register_agent`."""

from openhands_tui.tools.delegate import DelegateTool

TaskToolSet = DelegateTool

__all__ = ["TaskToolSet"]
