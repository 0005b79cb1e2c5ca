"""The architecture as tests (issue 34, docs/architecture.md): which layer may import
which, a core that names no game, game packages that load no referee machinery, and no
import cycle."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import all_games

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "referee"

# Layers from the bottom up; a module may import its own layer and those below it.
# The top-level helpers (errors, display, wording, progress) sit under every layer.
LAYERS = [
    "api",
    "games",
    "botkit",
    "human",
    "process",
    "match",
    "tournament",
    "regress",
    "viewer",
    "interop",
    "cli",
]
HELPERS = {"referee", "referee.errors", "referee.display", "referee.wording", "referee.progress"}
SHIMS = {"referee.engine"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int | None:
    """The layer index of a ``referee`` module; ``None`` for the shared helpers."""
    if module in HELPERS:
        return None
    part = module.split(".")[1]
    if part == "process" and module.startswith("referee.process.isolation"):
        return LAYERS.index("process")
    return LAYERS.index(part)


def imports(path: Path, top_level_only: bool) -> set[str]:
    """The ``referee`` modules ``path`` imports (``from x import y`` counts ``x.y``
    when that is a module); imports under ``if TYPE_CHECKING`` are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    known = modules()
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    own = module_name(path).split(".")
                    keep = own if path.name == "__init__.py" else own[:-1]
                    base = ".".join(keep[: len(keep) - node.level + 1] + ([base] if base else []))
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known)
            if not top_level_only:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        visit([child])
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body + node.orelse + getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return {m for m in found if m == "referee" or m.startswith("referee.")}


def test_every_import_points_down() -> None:
    wrong = []
    for name, path in modules().items():
        if name in SHIMS:
            continue
        own = layer(name)
        for target in imports(path, top_level_only=False):
            theirs = layer(target) if target not in SHIMS else 0
            if theirs is None:
                continue
            if own is None or theirs > own:
                wrong.append(f"{name} -> {target}")
            inside = own is not None and LAYERS[own] == "process" and "isolation" in name
            if inside and layer(target) == own and "isolation" not in target:
                wrong.append(f"{name} -> {target} (isolation sits under process)")
    assert wrong == []


def test_the_shared_helpers_import_only_each_other() -> None:
    for name in HELPERS - {"referee"}:
        assert imports(modules()[name], top_level_only=False) <= HELPERS, name


GAME_WORDS = re.compile(r"manila|navegador|puerto|roads.and.boats|roads & boats", re.I)


def test_no_module_outside_the_games_names_a_game() -> None:
    """A fifth game edits no core module: each game brings its own schemas, renderer
    and documentation through its ``Game`` (and a planted name is found)."""
    outside = [
        p
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and p.suffix in {".py", ".js", ".css", ".html"}
        and "games" not in p.relative_to(PACKAGE).parts
    ]
    assert len(outside) > 40
    named = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in outside
        for m in [GAME_WORDS.search(p.read_text(encoding="utf-8"))]
        if m
    ]
    assert named == []
    assert GAME_WORDS.search("from referee.games.puerto_rico import data")


FORBIDDEN = (
    "referee.process",
    "referee.match",
    "referee.tournament",
    "referee.regress",
    "referee.viewer",
    "referee.cli",
)


def test_a_game_engine_and_renderer_load_no_referee_machinery() -> None:
    """Importing every game's engine and renderer loads only ``api``, ``games`` and the
    shared helpers: no process, match, tournament, regress, viewer or CLI code."""
    names = [name.replace("-", "_") for name in all_games()]
    script = (
        "import importlib, json, sys\n"
        f"for n in {names!r}:\n"
        "    importlib.import_module('referee.games.' + n)\n"
        "    importlib.import_module('referee.games.' + n + '.render')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('referee'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded = json.loads(out.stdout)
    assert any(m.endswith(".render") for m in loaded)
    assert [m for m in loaded if m.startswith(FORBIDDEN)] == []


def test_no_import_cycle_among_top_level_imports() -> None:
    graph = {name: imports(path, top_level_only=True) for name, path in modules().items()}
    known = set(graph)
    graph = {
        name: {t for t in targets if t in known and t != name} for name, targets in graph.items()
    }
    # A package's __init__ is imported before its modules; that edge is not a cycle.
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    cycles = strongly_connected(graph)
    assert [sorted(c) for c in cycles if len(c) > 1] == []


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of ``graph`` (node -> successors)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            found.append(component)

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    assert {"a", "b"} in strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}})


def test_at_most_eight_modules_at_the_top_of_the_package() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top


@pytest.mark.parametrize("limit_lines", [900])
def test_no_file_over_900_lines(limit_lines: int) -> None:
    frozen = ROOT / "bots" / "baselines"
    long = [
        f"{p.relative_to(ROOT)}: {n}"
        for base in (PACKAGE, ROOT / "bots")
        for p in base.rglob("*.py")
        if frozen not in p.parents
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > limit_lines
    ]
    assert long == []


def test_no_function_over_120_lines() -> None:
    frozen = ROOT / "bots" / "baselines"
    long = []
    for base in (PACKAGE, ROOT / "bots"):
        for p in base.rglob("*.py"):
            if frozen in p.parents:
                continue
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    if length > 120:
                        long.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name} {length}")
    assert long == []


def test_the_old_engine_path_still_works_and_warns() -> None:
    """``referee.engine`` (before the layers) re-exports ``referee.api.engine`` for one
    release, with a :class:`DeprecationWarning`."""
    script = (
        "import warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    from referee.engine import Game, State, CHANCE\n"
        "import referee.api.engine as api\n"
        "assert Game is api.Game and State is api.State and CHANCE == api.CHANCE\n"
        "print(sorted({w.category.__name__ for w in caught}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "['DeprecationWarning']"
