"""The delegation tree: one node per agent, nested to any depth, updated from events."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.timeline_lines import fork_origin
from openhands_tui.tui.widgets.entries import STATUS_ICONS
from openhands_tui.verdict_lines import stars

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
    """Enter (or a click) on a node shows that agent's transcript; Space folds it. Labels are cut
    to the panel's width with an ellipsis; hovering a node shows its whole task."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Show agent"),
        Binding("space", "toggle_node", "Fold"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__("agents", **kwargs)  # type: ignore[arg-type]
        self.show_root = False
        self.guide_depth = 3
        self.auto_expand = False  # selecting is not folding
        self._agent_nodes: dict[str, TreeNode[str]] = {}
        self._tasks: dict[str, str] = {}
        self._synced: DelegationTree | None = None
        #: The widest whole label seen this session, with its guides: how wide the panel would
        #: like to be (it never shrinks mid-session, so the transcript does not jump about).
        self.natural_width = 0

    def on_mount(self) -> None:
        # labels are coloured from the theme: a theme switch recolours them (not left dark on light)
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        if self._synced is not None:
            self.sync(self._synced)

    def forget_agents(self) -> None:
        """Forget every agent (a new session starts with an empty tree)."""
        self.clear()
        self.show_root = False
        self.root.set_label("agents")
        self._agent_nodes.clear()
        self._tasks.clear()
        self._synced = None
        self.natural_width = 0

    def on_resize(self, event: events.Resize) -> None:
        """Labels are cut to the width: cut them again when it changes (and once it is known)."""
        if self._synced is not None:
            self.sync(self._synced)

    def sync(self, tree: DelegationTree) -> None:
        self._synced = tree
        if tree.origin is not None and not self.show_root:  # a fork: a line above its agents says whence
            self.show_root = True
            origin = Text(fork_origin(tree.origin), style="italic")
            self.natural_width = max(self.natural_width, origin.cell_len + 2 + 3)
            self.root.set_label(origin)
            self.root.expand()
        for agent_id, node in tree.nodes.items():
            parent = self._agent_nodes.get(node.parent_id or "", self.root)
            widget_node = self._agent_nodes.get(agent_id)
            label = self.label_for(tree, agent_id)
            self._tasks[agent_id] = node.task
            if widget_node is None:
                widget_node = parent.add(label, data=agent_id, expand=True)
                self._agent_nodes[agent_id] = widget_node
            elif widget_node.label != label:
                widget_node.set_label(label)

    def watch_hover_line(self, previous_hover_line: int, hover_line: int) -> None:
        super().watch_hover_line(previous_hover_line, hover_line)
        node = self.get_node_at_line(hover_line) if hover_line >= 0 else None
        self.tooltip = self._tasks.get(node.data or "") or None if node is not None else None

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
        if node.critic_score is not None:  # what its critic last said, coloured like a grade
            grade = "success" if node.critic_score >= 0.6 else "warning" if node.critic_score >= 0.4 else "error"
            rounds = f" ↻{node.critic_rounds}" if node.critic_rounds else ""
            label.append(f" {stars(node.critic_score)}{rounds}", style=getattr(self.app.current_theme, grade, "") or "")
        if node.merged_files is not None:  # what came back from its own working copy
            label.append(f" ⑂{node.merged_files}", style="dim")
            if node.conflicted_files:
                label.append(f" ✗{node.conflicted_files}", style=getattr(self.app.current_theme, "warning", "") or "")
        tokens, cost = tree.subtree_tokens(agent_id), tree.subtree_cost(agent_id)
        money = f" ${cost:.3f}" if cost else ""
        label.append(f"  {compact(tokens)} tok{cache_text(*tree.subtree_cache(agent_id))}{money}", style="dim")
        label.append(f" {elapsed_text(node.elapsed_s)}", style="dim")
        if node.task:
            label.append(f"  {node.task.splitlines()[0]}", style="italic dim")
        depth = node.depth + self.show_root  # the fork's line above the agents is one level more
        # guides and ▼, the padding either side and the border: what the panel needs for it whole
        self.natural_width = max(self.natural_width, label.cell_len + depth * self.guide_depth + 2 + 3)
        room = self.scrollable_content_region.width - depth * self.guide_depth - 2  # guides, ▼
        if room > 8:
            label.truncate(room, overflow="ellipsis")
        return label

    def select_agent(self, agent_id: str) -> None:
        node = self._agent_nodes.get(agent_id)
        if node is not None:
            self.move_cursor(node)
