from openhands_tui.tools.web.tool import WebFetchAction, WebFetchTool, create_web_fetch

__all__ = ["WebFetchAction", "WebFetchTool", "create_web_fetch"]
