"""Strategies: a Python file with a class that builds the Agent for a run (the RFC's protocol).

Loading user code fails in many ways, and a user should never see a traceback for any of
them: every failure here is a StrategyError whose message is one line naming the file and
the cause (missing, syntax error with line, import error, no/several/abstract classes, a
setup() or build_agent() that raises or returns the wrong thing, unknown or ill-typed params).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import os
import sys
import sysconfig
import traceback
from abc import ABC, abstractmethod
from collections.abc import Iterator
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from pydantic import Field, ValidationError

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.errors import OpenHandsTUIError, StrategyError
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.model import StrictModel, UnsupportedArgument
from openhands_tui.sdk.plugin.folder import PluginFolder
from openhands_tui.sdk.security.trusted import TrustedFiles

ParamType = Literal["string", "integer", "boolean"]
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
#: Kept on a strategy's module: the project modules and import-path folders loading it brought
#: in. The import system keeps those for the whole process, so a later load of the same file
#: (the next session in the app, an editor's second session) imports nothing new; it reads them
#: here, so its session protects them too.
_BROUGHT_IN = "_openhands_tui_brought_in"


class StrategyParam(StrictModel):
    """A `--param name=value` the strategy takes."""

    name: str = Field(description="The flag's name: --param NAME=value.")
    description: str = Field(default="", description="Shown by --describe.")
    type: ParamType = Field(default="string", description="string, integer or boolean; values are coerced.")
    default: Any = Field(default=None, description="Used when the flag is not given.")

    def coerce(self, value: Any) -> Any:
        """Convert a `--param` string (or a stored value) to this param's type; ValueError if not."""
        if self.type == "integer":
            if isinstance(value, bool):
                raise ValueError("expected an integer")
            try:
                return int(value)
            except (TypeError, ValueError):
                raise ValueError("expected an integer") from None
        if self.type == "boolean":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError("expected a boolean (true/false)")
        return str(value)


class Strategy(ABC):
    """A factory that assembles engine primitives into a configured Agent."""

    name: str = ""
    description: str = ""
    params: list[StrategyParam] = []

    def setup(self) -> None:  # noqa: B027 - optional hook, empty on purpose
        """Called once on load. Register tools, agent types, etc."""

    @abstractmethod
    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        """Return a fully configured Agent for this strategy."""


class LoadedStrategy:
    """A strategy instance plus where it came from, so later failures can name the file, and
    the session's trusted files, where the project modules its code imports are recorded."""

    def __init__(
        self,
        strategy: Strategy,
        source: str,
        trusted: TrustedFiles | None = None,
        brought_in: list[str] | None = None,
    ) -> None:
        self.strategy = strategy
        self.source = source
        self.trusted = trusted if trusted is not None else TrustedFiles()
        #: What loading it brought in so far (kept on its module too: `_BROUGHT_IN`).
        self.brought_in = brought_in if brought_in is not None else []
        #: The plugin folder it came from (`--strategy DIR`): its skills, agents, hooks, servers.
        self.plugin: PluginFolder | None = None

    @property
    def name(self) -> str:
        return self.strategy.name or type(self.strategy).__name__.lower()

    @property
    def description(self) -> str:
        if self.strategy.description:
            return self.strategy.description
        doc = inspect.getdoc(type(self.strategy)) or ""
        return doc.split("\n\n")[0].replace("\n", " ")

    @property
    def guide(self) -> str:
        """The strategy file's module docstring: when to use it, and how."""
        module = sys.modules.get(type(self.strategy).__module__)
        return inspect.cleandoc(module.__doc__) if module is not None and module.__doc__ else ""

    def resolve_params(self, given: dict[str, Any]) -> dict[str, Any]:
        """Declared defaults overlaid with `given`, each coerced to its declared type."""
        declared = {p.name: p for p in self.strategy.params}
        for key in given:
            if key not in declared:
                valid = ", ".join(declared) if declared else "this strategy takes no params"
                raise StrategyError(f"{self.source}: unknown param {key!r} (valid: {valid})")
        resolved = {}
        for name, param in declared.items():
            if name in given:
                try:
                    resolved[name] = param.coerce(given[name])
                except ValueError as exc:
                    raise StrategyError(f"{self.source}: --param {name}={given[name]}: {exc}") from None
            else:
                resolved[name] = param.default
        return resolved

    def build_agent(self, llm: LLM, params: dict[str, Any]) -> Agent:
        cls = type(self.strategy).__name__
        try:
            with _noting_imports(self.trusted, self.brought_in):
                agent = self.strategy.build_agent(llm, params)
        except (Exception, SystemExit) as exc:
            raise StrategyError(
                f"{self.source}: {cls}.build_agent() failed{_where(exc, self.source)}: {_one_line(exc)}"
            ) from None
        if not isinstance(agent, Agent):
            raise StrategyError(
                f"{self.source}: {cls}.build_agent() returned {type(agent).__name__}, expected an Agent"
            )
        self._check_tools(agent, llm)
        return agent

    def _check_tools(self, agent: Agent, llm: LLM) -> None:
        """Every tool the root agent and the agents it can delegate to name must be registered:
        a typo fails now, naming the file, not when a child starts halfway through a run."""
        from openhands_tui.sdk.tool.registry import registered_tools, unknown_tools

        agents: list[tuple[str, Agent]] = [(agent.name, agent)]
        for name, build in _delegates():
            try:
                agents.append((name, build(llm)))
            except (Exception, SystemExit) as exc:
                raise StrategyError(
                    f"{self.source}: the factory of agent {name!r} failed{_where(exc, self.source)}: {_one_line(exc)}"
                ) from None
        for name, built in agents:
            if not isinstance(built, Agent):
                raise StrategyError(
                    f"{self.source}: the factory of agent {name!r} returned {type(built).__name__}, expected an Agent"
                )
            unknown = unknown_tools(built.tools)
            if unknown:
                known = ", ".join(registered_tools()) or "none"
                raise StrategyError(
                    f"{self.source}: agent {name!r} names unknown tool {unknown[0]!r} (registered: {known})"
                )


def parse_param_flags(flags: list[str]) -> dict[str, str]:
    """`["a=1", "b=x"]` -> `{"a": "1", "b": "x"}`; a flag without `=` is a usage error."""
    params = {}
    for flag in flags:
        name, sep, value = flag.partition("=")
        if not sep or not name.strip():
            raise StrategyError(f"--param {flag!r}: expected name=value")
        params[name.strip()] = value
    return params


def load_strategy(path: str | Path) -> Strategy:
    """Import a strategy file (`file.py` or `file.py:ClassName`), instantiate it, call setup()."""
    return load_strategy_source(str(path)).strategy


def load_strategy_source(spec: str, trusted: TrustedFiles | None = None) -> LoadedStrategy:
    """Load a strategy for a session: the file, and the project modules its code imports, are
    recorded in `trusted`, the session's trusted files (None: a record of its own, for a load
    outside any session: `--describe`, a check before serving)."""
    trusted = trusted if trusted is not None else TrustedFiles()
    file_part, selector = _split_selector(spec)
    path = Path(file_part).expanduser()
    if not path.exists():
        raise StrategyError(f"{file_part}: no such strategy file")
    if path.is_dir():
        raise StrategyError(f"{file_part}: is a directory, expected a .py strategy file")
    if path.suffix != ".py":
        raise StrategyError(f"{file_part}: expected a .py strategy file")
    if not path.is_file():  # a pipe would block the import forever, a device fill memory
        raise StrategyError(f"{file_part}: not a regular file (a pipe, device or socket)")
    trusted.note(str(path))
    # what an earlier load of this file in this process brought in: imported already, so not new now
    brought_in = list(getattr(sys.modules.get(_module_name(path)), _BROUGHT_IN, None) or [])
    for entry in brought_in:
        trusted.note(entry)
    with _noting_imports(trusted, brought_in):
        module = _import_file(path, file_part)
    setattr(module, _BROUGHT_IN, brought_in)
    cls = _pick_class(module, file_part, selector)
    try:
        with _noting_imports(trusted, brought_in):
            strategy = cls()
    except (Exception, SystemExit) as exc:
        raise StrategyError(f"{file_part}: {cls.__name__}() failed: {_one_line(exc)}") from None
    try:
        with _noting_imports(trusted, brought_in):
            strategy.setup()
    except (Exception, SystemExit) as exc:
        raise StrategyError(
            f"{file_part}: {cls.__name__}.setup() failed{_where(exc, file_part)}: {_one_line(exc)}"
        ) from None
    return LoadedStrategy(strategy, file_part, trusted, brought_in)


def note_strategy_of_earlier_session(spec: str, trusted: TrustedFiles) -> None:
    """A strategy file an earlier session ran (a `--resume` runs it again, outside the sandbox):
    protect it and the modules beside it that it imports by name, without running it, among
    this session's `trusted` files."""
    file_part, _ = _split_selector(spec)
    path = Path(file_part)
    if spec.startswith("builtin:") or not path.is_file():
        return
    trusted.note(str(path))
    for module in _sibling_imports(path):
        trusted.note(str(module))


def _sibling_imports(path: Path) -> list[Path]:
    """The modules beside `path` (or packages' `__init__.py`) that its `import` statements name."""
    import ast

    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    found = []
    for name in sorted(names):
        for candidate in (path.parent / f"{name}.py", path.parent / name / "__init__.py"):
            if candidate.is_file():
                found.append(candidate)
    return found


def _split_selector(spec: str) -> tuple[str, str | None]:
    head, sep, tail = spec.rpartition(":")
    if sep and head.endswith(".py") and tail.isidentifier():
        return head, tail
    return spec, None


def _module_name(path: Path) -> str:
    """The name a strategy file is imported under: one per file, whatever path names it."""
    resolved = path.resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:8]
    return f"openhands_tui_strategy_{resolved.stem}_{digest}"


def _import_file(path: Path, shown: str) -> ModuleType:
    resolved = path.resolve()
    module_name = _module_name(path)
    spec = importlib.util.spec_from_file_location(module_name, resolved, loader=_SourceOnly(module_name, str(resolved)))
    if spec is None or spec.loader is None:
        raise StrategyError(f"{shown}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # classes defined in it must be able to find their module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        sys.modules.pop(module_name, None)
        raise StrategyError(f"{shown}: syntax error at line {exc.lineno}: {exc.msg}") from None
    except ImportError as exc:
        sys.modules.pop(module_name, None)
        raise StrategyError(f"{shown}: import failed{_where(exc, str(resolved))}: {_one_line(exc)}") from None
    except (Exception, SystemExit) as exc:
        sys.modules.pop(module_name, None)
        raise StrategyError(f"{shown}: error while loading{_where(exc, str(resolved))}: {_one_line(exc)}") from None
    return module


class _SourceOnly(SourceFileLoader):
    """Loads the strategy file from its source, never from a `__pycache__` entry: Python would
    run a pyc there instead of the file whenever its recorded size and time match, and the
    workspace's caches are the agent's to write."""

    def path_stats(self, path: str) -> dict[str, float]:
        raise OSError("a strategy is compiled from its source")  # no stats: no cache is read or written


@contextlib.contextmanager
def _noting_imports(trusted: TrustedFiles, brought_in: list[str]) -> Iterator[None]:
    """Record the project modules a strategy imports (a helper beside it, `sys.path` pointed at
    its folder) in the session's `trusted` files, and in `brought_in` (kept on the strategy's
    module for a later load): `tui` runs them outside the sandbox too, so they are protected
    like the file. Installed packages and the standard library are not the project's (nor the
    sandbox's) to guard."""
    before, path_before = set(sys.modules), _import_folders()
    try:
        yield
    finally:
        found = []
        for name in set(sys.modules) - before:
            filename = getattr(sys.modules.get(name), "__file__", None)
            if isinstance(filename, str) and _project_module(filename):
                found.append(filename)
        # a folder the strategy put on the import path (`sys.path.insert(0, here)`): any module
        # made there later shadows one `tui` imports after it (`yaml.py` beside the strategy)
        for entry in _import_folders() - path_before:
            if os.path.isdir(entry) and _project_module(os.path.join(entry, "x.py")):
                found.append(entry)
        for entry in found:
            trusted.note(entry)
            if entry not in brought_in:
                brought_in.append(entry)


def _import_folders() -> set[str]:
    """The real paths of the import path's folders (one relative to a current directory that
    was deleted under `tui` has none, and is left out)."""
    found = set()
    for entry in sys.path:
        try:
            found.add(os.path.realpath(entry or "."))
        except OSError:
            continue
    return found


def _project_module(filename: str) -> bool:
    if filename.startswith(str(Path(__file__).parent.parent) + "/"):
        return False  # this tool's own package: installed code, like any other
    parts = Path(filename).parts
    if "site-packages" in parts or "dist-packages" in parts:
        return False
    library = {sysconfig.get_paths().get(key) for key in ("stdlib", "platstdlib")}
    return not any(root and filename.startswith(root.rstrip("/") + "/") for root in library)


def _pick_class(module: ModuleType, shown: str, selector: str | None) -> type[Strategy]:
    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Strategy) and value is not Strategy
    ]
    if selector is not None:
        chosen = [cls for cls in found if cls.__name__ == selector]
        if not chosen:
            names = ", ".join(cls.__name__ for cls in found) or "none"
            raise StrategyError(f"{shown}: no Strategy class named {selector!r} (found: {names})")
        found = chosen
    if not found:
        raise StrategyError(
            f"{shown}: no Strategy subclass found (define a class that inherits openhands_tui.sdk.strategy.Strategy)"
        )
    concrete = [cls for cls in found if not inspect.isabstract(cls)]
    if not concrete:
        cls = found[0]
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ()))) or "build_agent"
        raise StrategyError(f"{shown}: {cls.__name__} is abstract (it does not implement {missing})")
    local = [cls for cls in concrete if cls.__module__ == module.__name__]
    candidates = local or concrete
    if len(candidates) > 1:
        names = ", ".join(cls.__name__ for cls in candidates)
        raise StrategyError(
            f"{shown}: several Strategy classes ({names}); pick one with {shown}:{candidates[0].__name__}"
        )
    return candidates[0]


def _where(exc: BaseException, filename: str) -> str:
    """` at line N` for the deepest frame of the traceback that is in the strategy file."""
    target = str(Path(filename).resolve())
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if str(Path(frame.filename).resolve()) == target:
            line = frame.lineno
    return f" at line {line}" if line else ""


def _delegates() -> list[tuple[str, Any]]:
    """The agents registered for delegation (the registry lives with the delegate tool, which
    the engine does not import; it is read through the module if it was loaded)."""
    registry = sys.modules.get("openhands_tui.tools.delegate.registry")
    if registry is None:
        return []
    return [(entry.name, entry.factory) for entry in registry.registered_agents()]


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, UnsupportedArgument | OpenHandsTUIError):
        return " ".join(str(exc).split())  # already says what and what instead
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return f"{exc.title}({where}=...): {error['msg']}" if where else f"{exc.title}: {error['msg']}"
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
