"""Every game package has the same shape (issue 34), and the names it had before still
work for one release, with a ``DeprecationWarning``."""

from __future__ import annotations

import ast
import importlib
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL
from referee.games import all_games

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = sorted(name.replace("-", "_") for name in all_games())
COMMON_FILES = [
    "__init__.py",
    "game.py",
    "state.py",
    "actions.py",
    "options.py",
    "view.py",
    "phases.py",
    "data.py",
    "render.py",
    "render.js",
]


def class_name(package: str) -> str:
    """``roads_and_boats`` -> ``RoadsAndBoatsGame``."""
    return "".join(part.capitalize() for part in package.split("_")) + "Game"


def test_the_four_games_are_there() -> None:
    assert PACKAGES == ["manila", "navegador", "puerto_rico", "roads_and_boats"]


@pytest.mark.parametrize("package", PACKAGES)
def test_same_files_and_names(package: str) -> None:
    folder = ROOT / "referee" / "games" / package
    assert [f for f in COMMON_FILES if not (folder / f).is_file()] == []
    module = importlib.import_module(f"referee.games.{package}")
    game_module = importlib.import_module(f"referee.games.{package}.game")
    cls = getattr(game_module, class_name(package))
    assert module.__all__ == ["GAME", class_name(package)]
    assert type(module.GAME) is cls and getattr(module, class_name(package)) is cls
    doc = module.__doc__ or ""
    assert (
        f"docs/rules/{package}.md" in doc and (ROOT / "docs" / "rules" / f"{package}.md").is_file()
    )
    for part in ("game", "state", "actions", "options", "view", "phases", "data", "render"):
        assert f"``{part}``" in doc, part


@pytest.mark.parametrize("package", PACKAGES)
def test_only_absolute_imports(package: str) -> None:
    folder = ROOT / "referee" / "games" / package
    relative = [
        f"{path.name}:{node.lineno}"
        for path in sorted(folder.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level
    ]
    assert relative == []


@pytest.mark.parametrize("package", PACKAGES)
def test_build_view_is_the_states_view(package: str) -> None:
    """``view.build_view(state, seat)`` gives what ``state.view(seat)`` gives, all along a
    random game's first plies."""
    game = importlib.import_module(f"referee.games.{package}").GAME
    build_view = importlib.import_module(f"referee.games.{package}.view").build_view
    rng = random.Random(package)
    seats = max(game.min_seats, 3 if game.max_seats >= 3 else game.min_seats)
    state = game.new_game(seats, game.parse_options({}))
    compared = 0
    for _ in range(300):
        seat = state.to_move()
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        for viewer in range(seats):
            mine = msgspec.json.encode(build_view(state, viewer))
            assert mine == msgspec.json.encode(state.view(viewer))
            compared += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 30


# --- the names of before, for one release ---


def fresh_import(name: str) -> ModuleType:
    """Import ``name`` anew (a module warns once, when it is first imported)."""
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        ("referee.games.navegador", "Navegador", "referee.games.navegador.game:NavegadorGame"),
        ("referee.games.navegador.game", "Navegador", "referee.games.navegador.game:NavegadorGame"),
        (
            "referee.games.roads_and_boats",
            "RoadsAndBoats",
            "referee.games.roads_and_boats.game:RoadsAndBoatsGame",
        ),
        (
            "referee.games.roads_and_boats.game",
            "RoadsAndBoats",
            "referee.games.roads_and_boats.game:RoadsAndBoatsGame",
        ),
        (
            "referee.games.puerto_rico.view",
            "make_view",
            "referee.games.puerto_rico.view:build_view",
        ),
    ],
)
def test_an_old_name_works_and_warns(module: str, old: str, new: str) -> None:
    where, name = new.split(":")
    target = getattr(importlib.import_module(where), name)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{old} is deprecated: use {name}"):
        found = getattr(importlib.import_module(module), old)
    assert found is target
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        importlib.import_module(module).NoSuchName  # noqa: B018 - the lookup is the test


@pytest.mark.parametrize(
    ("module", "names"),
    [
        (
            "referee.games.manila.information",
            {"build_view": "referee.games.manila.view:build_view"},
        ),
        (
            "referee.games.navegador.views",
            {
                "NavegadorOptions": "referee.games.navegador.options:NavegadorOptions",
                "NavegadorView": "referee.games.navegador.view:NavegadorView",
                "PlayerView": "referee.games.navegador.view:PlayerView",
                "RegionView": "referee.games.navegador.view:RegionView",
            },
        ),
        (
            "referee.games.navegador.stages",
            {
                "STAGE_NAMES": "referee.games.navegador.phases:STAGE_NAMES",
                "RONDEL_STAGE": "referee.games.navegador.phases:RONDEL_STAGE",
                "OVER": "referee.games.navegador.phases:OVER",
            },
        ),
        (
            "referee.games.navegador.snapshot",
            {
                "make_view": "referee.games.navegador.view:build_view",
                "from_view": "referee.games.navegador.state:state_from_view",
            },
        ),
    ],
)
def test_an_old_module_works_and_warns(module: str, names: dict[str, str]) -> None:
    with pytest.warns(DeprecationWarning, match=rf"{module} is deprecated"):
        old = fresh_import(module)
    for name, new in names.items():
        where, attr = new.split(":")
        assert getattr(old, name) is getattr(importlib.import_module(where), attr), name


def test_the_games_and_bots_use_no_deprecated_name() -> None:
    """Importing every game, its renderer and every bundled bot raises no deprecation
    warning: the aliases are for outside code only."""
    script = (
        "import importlib, pkgutil\n"
        "from referee.games import all_games\n"
        "for name in all_games():\n"
        "    importlib.import_module('referee.games.' + name.replace('-', '_') + '.render')\n"
        "import bots\n"
        "for info in pkgutil.iter_modules(bots.__path__):\n"
        "    if not info.ispkg:\n"
        "        importlib.import_module('bots.' + info.name)\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
