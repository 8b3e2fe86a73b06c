"""The base of the engine's pydantic models.

Building a model's validator costs 0.5-30 ms at class creation; with `defer_build` it is paid on
first use instead, so start-up (the TUI's first frame) only pays for the models it touches.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(defer_build=True)
