"""Packaging details pyproject.toml cannot express: the top-level themes/ directory ships
inside the package as `openhands_tui.themes`, so an installed wheel has the same themes as
a checkout. Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["openhands_tui", "openhands_tui.*"]), "openhands_tui.themes"],
    package_dir={"openhands_tui.themes": "themes"},
)
