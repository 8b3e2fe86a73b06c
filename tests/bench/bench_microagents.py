"""Loading microagents from a large vendored skills repository, and what it costs per request.

Builds (in a temporary directory) a workspace whose `.agents/skills/` holds a skills repository
of N skills, each with references/, scripts/ and themes/ resources, plus OpenHands
microagents and instruction files, then prints: load time (median of 5), how many skills
loaded, how many resource files were ignored, and the size of the first message's
workspace block (listing included) against the always-on budget.

    python tests/bench/bench_microagents.py [N]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.context.agent_context import workspace_block
from openhands_tui.sdk.context.loader import ALWAYS_ON_BUDGET


def build(root: Path, count: int) -> int:
    resources = 0
    vendor = root / ".agents" / "skills" / "vendor"
    for n in range(count):
        skill = vendor / "skills" / f"skill-{n:03d}"
        (skill / "references").mkdir(parents=True)
        (skill / "scripts").mkdir()
        (skill / "themes").mkdir()
        description = f"Does task family {n}: use when the user asks about area {n} or its tools."
        (skill / "SKILL.md").write_text(
            f"---\nname: skill-{n:03d}\ndescription: {description}\n---\n" + "Step.\n" * 200
        )
        for r in range(6):
            (skill / "references" / f"ref{r}.md").write_text("---\nname: ref\n---\n" + "Reference text.\n" * 300)
        (skill / "scripts" / "run.py").write_text("print('hi')\n")
        for t in range(3):
            (skill / "themes" / f"t{t}.md").write_text("# theme\n" + "colour\n" * 50)
        resources += 10
    (vendor / "README.md").write_text("# vendor skills\n")
    (root / "AGENTS.md").write_text("Project rules.\n" * 40)
    micro = root / ".openhands" / "microagents"
    micro.mkdir(parents=True)
    for n in range(20):
        (micro / f"k{n}.md").write_text(f"---\ntriggers: [kw{n}]\n---\nKnowledge {n}.\n")
    return resources


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        home = Path(tmp) / "home"
        home.mkdir()
        resources = build(root, count)
        times = []
        for _ in range(5):
            started = time.perf_counter()
            loaded = load_microagents(root, home=home)
            times.append(time.perf_counter() - started)
        block = workspace_block(root, loaded.skills)
        listed = sum(s.agent_skill for s in loaded.skills)
        print(f"skills repository: {count} skills, {resources} resource files")
        print(f"load time: median {statistics.median(times) * 1000:.1f} ms (min {min(times) * 1000:.1f} ms)")
        print(f"loaded: {len(loaded.skills)} ({listed} Agent Skills listed); resource files loaded as microagents: 0")
        print(
            f"first message workspace block: {len(block):,} chars ~{len(block) // 4:,} tokens "
            f"(budget {ALWAYS_ON_BUDGET:,}); warnings: {len(loaded.warnings)}"
        )
        for warning in loaded.warnings[:5]:
            print(f"  {warning[:200]}")


if __name__ == "__main__":
    main()
