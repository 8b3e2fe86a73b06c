"""The Textual app. Only this package imports textual; the engine never does."""
