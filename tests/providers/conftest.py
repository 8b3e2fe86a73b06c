"""The pre-warmed `tui` launcher, for the CLI runs here (each would otherwise import litellm)."""

from tests.reliability.conftest import forker  # noqa: F401
