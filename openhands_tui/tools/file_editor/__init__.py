from openhands_tui.tools.file_editor.editor import EditorError, FileEditor
from openhands_tui.tools.file_editor.tool import (
    FileEditorAction,
    FileEditorObservation,
    FileEditorTool,
    create_file_editor,
)

__all__ = [
    "EditorError",
    "FileEditor",
    "FileEditorAction",
    "FileEditorObservation",
    "FileEditorTool",
    "create_file_editor",
]
