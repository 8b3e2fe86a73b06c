from openhands_tui.tools.task_tracker.tool import (
    TaskItem,
    TaskTrackerAction,
    TaskTrackerTool,
    create_task_tracker,
)

__all__ = ["TaskItem", "TaskTrackerAction", "TaskTrackerTool", "create_task_tracker"]
