"""How risky an action is: the one list of levels the rules, the model's estimate, the
confirmation threshold and `--risk-threshold` share. Its own module, importing only the
standard library, so the command line offers these levels without loading the engine."""

from __future__ import annotations

from enum import StrEnum


class Risk(StrEnum):
    """Risk of an action. Compare with `.severity`, never with string order."""

    LOW = "LOW"
    MEDIUM = "MEDIUM"
    HIGH = "HIGH"

    @property
    def severity(self) -> int:
        return _SEVERITY[self]

    @classmethod
    def max(cls, *risks: Risk | None) -> Risk:
        present = [r for r in risks if r is not None]
        return max(present, key=lambda r: r.severity) if present else cls.LOW


_SEVERITY = {Risk.LOW: 0, Risk.MEDIUM: 1, Risk.HIGH: 2}
