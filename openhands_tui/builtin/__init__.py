"""Strategies shipped inside the package (used when no --strategy is given)."""
