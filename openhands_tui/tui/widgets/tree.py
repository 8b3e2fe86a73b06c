"""The delegation tree: one node per agent, nested to any depth, updated from events."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from openhands_tui.sdk.tree import DelegationTree
from openhands_tui.tui.widgets.entries import STATUS_ICONS

#: status -> (theme colour, extra style)
STATUS_STYLES = {
    "running": ("primary", "bold"),
    "waiting_for_confirmation": ("warning", "bold reverse"),
    "finished": ("success", ""),
    "failed": ("error", "bold"),
    "rejected": ("error", ""),
    "interrupted": ("warning", ""),
    "paused": ("warning", ""),
    "idle": ("foreground", "dim"),
}
STATUS_WORDS = {"waiting_for_confirmation": "waiting for you"}


def compact(tokens: float) -> str:
    return f"{tokens / 1000:.1f}k" if tokens >= 1000 else f"{int(tokens)}"


def cache_text(prompt_tokens: int, read: int, written: int) -> str:
    """` 94% cached`: the share of input read from the provider's prompt cache (nothing when
    the provider reported no caching at all)."""
    if not prompt_tokens or not (read or written):
        return ""
    return f" {100 * read / prompt_tokens:.0f}% cached"


def elapsed_text(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class AgentTree(Tree[str]):
    """Select a node to read that agent's transcript."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__("agents", **kwargs)  # type: ignore[arg-type]
        self.show_root = False
        self.guide_depth = 3
        self._agent_nodes: dict[str, TreeNode[str]] = {}

    def sync(self, tree: DelegationTree) -> None:
        for agent_id, node in tree.nodes.items():
            parent = self._agent_nodes.get(node.parent_id or "", self.root)
            widget_node = self._agent_nodes.get(agent_id)
            label = self.label_for(tree, agent_id)
            if widget_node is None:
                widget_node = parent.add(label, data=agent_id, expand=True)
                self._agent_nodes[agent_id] = widget_node
            elif widget_node.label != label:
                widget_node.set_label(label)

    def label_for(self, tree: DelegationTree, agent_id: str) -> Text:
        node = tree.nodes[agent_id]
        status = node.status
        icon = STATUS_ICONS.get(status, "•")
        colour_name, extra = STATUS_STYLES.get(status, ("foreground", ""))
        colour = getattr(self.app.current_theme, colour_name, None) or ""
        style = f"{extra} {colour}".strip()
        label = Text()
        label.append(f"{icon} {node.name}", style=style)
        label.append(f" {STATUS_WORDS.get(status, status)}", style=style if status != "running" else "")
        tokens, cost = tree.subtree_tokens(agent_id), tree.subtree_cost(agent_id)
        money = f" ${cost:.3f}" if cost else ""
        label.append(f"  {compact(tokens)} tok{cache_text(*tree.subtree_cache(agent_id))}{money}", style="dim")
        label.append(f" {elapsed_text(node.elapsed_s)}", style="dim")
        if node.task:
            label.append(f"  {node.task.splitlines()[0][:48]}", style="italic dim")
        return label

    def select_agent(self, agent_id: str) -> None:
        node = self._agent_nodes.get(agent_id)
        if node is not None:
            self.move_cursor(node)
