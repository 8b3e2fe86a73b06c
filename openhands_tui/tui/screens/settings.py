"""First run without a model: ask for model, API key and base URL, test, save to config.

Testing sends one request through the check the launcher gave the app (`AppConfig.check_model`):
the app never calls the model client itself."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.settings import config_path, save_llm_config, unsaved_reason
from openhands_tui.sdk.terminal_text import one_line
from openhands_tui.tui.config import ModelCheck, ModelChoice

#: Enter in one field moves to the next; in the last it saves and starts.
NEXT_FIELD = {"model": "api-key", "api-key": "base-url"}


class SettingsScreen(ModalScreen[ModelChoice | None]):
    """Returns the model chosen (saved to the config file), or None if the user gave up (Quit or
    Esc). Enter moves down the fields and, in the last one, saves; errors are shown whole.
    `check` tries a choice ("Test connection"; None: testing is not available)."""

    BINDINGS = [
        Binding("escape", "quit", "Quit"),
        # priority: decided as the key arrives, see `action_next_field`
        Binding("enter", "next_field", "Next field", show=False, priority=True),
    ]

    def __init__(self, check: ModelCheck | None = None, model: str = "", base_url: str = "") -> None:
        super().__init__()
        self.check = check
        self.initial_model = model
        self.initial_base_url = base_url

    def compose(self) -> ComposeResult:
        with Vertical(id="settings-dialog"):
            yield Static(Text("Connect a model", style="bold"))
            yield Static(Text(f"Saved to {config_path()} (readable only by you).", style="dim"))
            yield Label("Model (litellm name, e.g. anthropic/claude-sonnet-4-5, openai/gpt-4o)")
            yield Input(value=self.initial_model, id="model")
            yield Label("API key")
            yield Input(password=True, id="api-key")
            yield Label("Base URL (only for OpenAI-compatible servers)")
            yield Input(value=self.initial_base_url, id="base-url")
            yield Static(Text("Enter: next field, and from the last one save and start · Esc: quit", style="dim"))
            yield Static("", id="settings-result")
            with Horizontal(id="settings-buttons"):
                yield Button("Test connection", id="test")
                yield Button("Save and start", id="save", variant="primary")
                yield Button("Quit", id="quit", variant="error")

    def _choice(self) -> ModelChoice | None:
        model = self.query_one("#model", Input).value.strip()
        if not model:
            self.query_one("#settings-result", Static).update("Give a model name first.")
            return None
        key = self.query_one("#api-key", Input).value.strip() or None
        base = self.query_one("#base-url", Input).value.strip() or None
        return ModelChoice(model=model, api_key=key, base_url=base)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quit":
            self.action_quit()
        elif event.button.id == "test":
            choice = self._choice()
            if choice is None:
                return
            if self.check is None:
                self.query_one("#settings-result", Static).update("Testing is not available here.")
                return
            self.query_one("#settings-result", Static).update("Testing…")
            self.test_connection(self.check, choice)
        elif event.button.id == "save":
            self._save()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_field":  # Enter elsewhere (the last field, a button) is theirs
            return isinstance(self.focused, Input) and self.focused.id in NEXT_FIELD
        return True

    def action_next_field(self) -> None:
        """Enter in a field moves to the next one at once, before any key typed after it is
        handed out: moved later (when the field's Submitted message came back, then `focus()`'s
        own deferred call), the keys typed fast after Enter had already gone to the field left."""
        following = NEXT_FIELD.get(self.focused.id or "") if self.focused is not None else None
        if following is not None:
            self.set_focus(self.query_one(f"#{following}", Input))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the last field: save, once the keys typed before it are in."""
        if event.input.id not in NEXT_FIELD:
            self._save()

    def action_quit(self) -> None:
        self.dismiss(None)

    def _save(self) -> None:
        choice = self._choice()
        if choice is not None:
            try:
                save_llm_config(choice.model, choice.api_key, choice.base_url)
            except (OSError, SettingsError) as exc:  # a read-only ~/.config: used for this session only
                self.app.notify(f"Model not saved, used this session only: {unsaved_reason(exc)}", severity="warning")
            self.dismiss(choice)

    @work(thread=True, exclusive=True)
    def test_connection(self, check: ModelCheck, choice: ModelChoice) -> None:
        try:
            answer = check(choice)
            message = f"✓ Connected: the model answered {answer.strip()[:40]!r}"
        except Exception as exc:  # every provider error is shown, none crashes the screen
            message = f"✗ {type(exc).__name__}: {one_line(str(exc))}"  # whole, wrapped, as text
        self.app.call_from_thread(self.query_one("#settings-result", Static).update, Text(message))
