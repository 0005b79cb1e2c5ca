"""Compiled engines and match loop (referee.api.native, scripts/build_native.py): a build
is used only while it matches its sources, and it plays exactly the games the Python
sources play."""

from __future__ import annotations

import ast
import copy
import json
import os
import pickle
import random
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from referee.api import native
from referee.api.engine import CHANCE
from referee.games import get_game
from tests.core.python_build import assert_all_pass_in_python
from tests.zoo.procs import require

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import build_native  # noqa: E402
from build_native import TARGETS  # noqa: E402

GAMES = sorted(folder for folder in TARGETS if folder.startswith("referee/games/"))
"""The engines' packages among the compiled ones (the match loop is the other)."""

# ---------------------------------------------------------------- the freshness check


def fake_build(tmp_path: Path, **changes: object) -> Path:
    """A package folder with one source and a fresh manifest for it (with ``changes``
    to the manifest's fields); returns the folder."""
    package = tmp_path / "pkg"
    (package / native.NATIVE_DIR).mkdir(parents=True)
    source = package / "state.py"
    source.write_text("X = 1\n")
    compiled = f"state{EXTENSION_SUFFIXES[0]}"
    (package / native.NATIVE_DIR / compiled).write_bytes(b"\x7fELF")
    fields: dict[str, object] = {
        "cache_tag": sys.implementation.cache_tag,
        "suffix": EXTENSION_SUFFIXES[0],
        "compiler": "mypyc test",
        "sources": {"state.py": native.describe(source)},
        "files": [compiled],
    }
    fields.update(changes)
    manifest = native.Manifest(**fields)  # type: ignore[arg-type]
    (package / native.NATIVE_DIR / native.MANIFEST).write_bytes(
        native.msgspec.json.encode(manifest)
    )
    return package


@pytest.fixture(autouse=True)
def no_pure_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)


def test_a_fresh_build_is_used_and_goes_first_on_the_path(tmp_path: Path) -> None:
    package = fake_build(tmp_path)
    assert native.problem(package) is None
    path = [str(package)]
    assert native.accelerate("pkg", path) is True
    assert path == [str(package / native.NATIVE_DIR), str(package)]
    assert native.status()["pkg"] == "compiled"


def test_an_edited_source_sends_the_package_back_to_python(tmp_path: Path) -> None:
    package = fake_build(tmp_path)
    (package / "state.py").write_text("X = 2\n")  # same size, other content
    os.utime(package / "state.py", ns=(1, 1))
    assert "state.py changed" in (native.problem(package) or "")
    path = [str(package)]
    assert native.accelerate("pkg", path) is False
    assert path == [str(package)]
    assert native.status()["pkg"].startswith("Python (state.py changed")


def test_a_touched_but_unchanged_source_keeps_the_build(tmp_path: Path) -> None:
    package = fake_build(tmp_path)
    os.utime(package / "state.py", ns=(10**18, 10**18))
    assert native.problem(package) is None


def test_a_grown_source_is_stale_without_hashing(tmp_path: Path) -> None:
    package = fake_build(tmp_path)
    (package / "state.py").write_text("X = 10\n")
    assert "state.py changed" in (native.problem(package) or "")


def test_a_missing_source_or_compiled_file_or_manifest_is_not_used(tmp_path: Path) -> None:
    package = fake_build(tmp_path)
    (package / "state.py").unlink()
    assert "state.py cannot be read" in (native.problem(package) or "")
    package = fake_build(tmp_path / "b")
    (package / native.NATIVE_DIR / f"state{EXTENSION_SUFFIXES[0]}").unlink()
    assert "is missing" in (native.problem(package) or "")
    package = fake_build(tmp_path / "c")
    (package / native.NATIVE_DIR / native.MANIFEST).unlink()
    assert "no compiled build" in (native.problem(package) or "")
    package = fake_build(tmp_path / "d")
    (package / native.NATIVE_DIR / native.MANIFEST).write_text("{")
    assert "unreadable manifest" in (native.problem(package) or "")


def test_a_build_for_another_interpreter_is_not_used(tmp_path: Path) -> None:
    package = fake_build(tmp_path, cache_tag="cpython-399")
    assert "another interpreter" in (native.problem(package) or "")
    package = fake_build(tmp_path / "b", suffix=".cpython-399-x86_64-linux-gnu.so")
    assert "another interpreter" in (native.problem(package) or "")


def test_the_environment_can_force_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = fake_build(tmp_path)
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.PURE_ENV in (native.problem(package) or "")
    monkeypatch.setenv(native.PURE_ENV, "0")
    assert native.problem(package) is None


def test_the_environment_can_force_python_for_named_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = fake_build(tmp_path)
    monkeypatch.setenv(native.PURE_ENV, "referee.match, referee.games.manila")
    assert native.PURE_ENV in (native.problem(package, "referee.match") or "")
    assert native.PURE_ENV in (native.problem(package, "referee.games.manila") or "")
    assert native.problem(package, "referee.games.navegador") is None
    assert native.problem(package) is None  # no name: only a global setting applies
    assert not native.pure_forced()  # the build script still builds every package
    monkeypatch.setenv(native.PURE_ENV, "yes")
    assert native.problem(package, "referee.games.navegador") is not None


# ---------------------------------------------------------------- same games, both builds


@pytest.mark.parametrize("folder", sorted(TARGETS))
def test_no_compiled_module_defines_a_struct(folder: str) -> None:
    """msgspec reads a struct's field types and tag from its class annotations, which a
    compiled module keeps only as bare classes: structs live in modules never compiled."""
    for module in TARGETS[folder]:
        tree = ast.parse((ROOT / folder / module).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
                assert not bases & {"Struct", "View", "Action", "Options"}, (module, node.name)


PLAYOUTS = """
import hashlib, json, random, sys
import msgspec
from referee.api.engine import CHANCE, TERMINAL
from referee.api.native import status
from referee.games import get_game

game_name, package, seats, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
game = get_game(game_name)
digest = hashlib.sha256()
for kind in (game.view_type, game.action_type, game.options_type):
    digest.update(msgspec.json.encode(msgspec.json.schema(kind)))
decisions = 0
for number in range(games):
    rng = random.Random(number)
    state = game.new_game(seats)
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            outcome = state.sample_chance(rng)
            for viewer in range(seats):
                digest.update(msgspec.json.encode(state.observe_chance(outcome, viewer)))
            state.apply_chance(outcome)
            continue
        digest.update(msgspec.json.encode(state.view(seat)))
        legal = state.legal_actions()
        digest.update(msgspec.json.encode(legal))
        action = legal[rng.randrange(len(legal))]
        for viewer in range(seats):
            digest.update(msgspec.json.encode(state.observe_action(seat, action, viewer)))
        if decisions % 7 == 0:  # go on in a clone now and then
            state = state.clone()
        state.apply_action(action)
        decisions += 1
    digest.update(msgspec.json.encode([state.scores(), state.ranks()]))
print(json.dumps({"digest": digest.hexdigest(), "decisions": decisions,
                  "status": status().get(package, "not imported")}))
"""


def playouts(game: str, package: str, seats: int, games: int, pure: bool) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PLAYOUTS, game, package, str(seats), str(games)],
        cwd=ROOT,
        env=native.environment(python=pure),
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.parametrize("folder", GAMES)
def test_the_compiled_engine_plays_the_games_the_python_one_plays(folder: str) -> None:
    """The schemas of the game's structs, then the views, legal actions, observations,
    clones and results of 12 seeded random games, compiled against Python, compared
    through one digest."""
    package = folder.replace("/", ".")
    game = package.rsplit(".", 1)[1].replace("_", "-")
    require(native.problem(ROOT / folder), f"compiled {game} engine")
    seats = 4
    compiled = playouts(game, package, seats, 12, pure=False)
    python = playouts(game, package, seats, 12, pure=True)
    assert compiled["status"] == "compiled"
    assert str(python["status"]).startswith("Python (REFEREE_PURE")
    assert compiled["decisions"] == python["decisions"]
    assert int(str(compiled["decisions"])) > 500
    assert compiled["digest"] == python["digest"]


@pytest.mark.parametrize("folder", GAMES)
def test_states_copy_and_pickle_alike_compiled_or_not(folder: str) -> None:
    """``copy.copy``, ``copy.deepcopy`` and a pickle round trip of a mid-game state give
    the same view and go on independently (a compiled class has no default for them)."""
    game = get_game(folder.rsplit("/", 1)[1].replace("_", "-"))
    state = game.new_game(4)
    rng = random.Random(3)
    for _ in range(60):
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.to_move()
    assert seat >= 0
    for copied in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert type(copied) is type(state)
        assert copied.view(seat) == state.view(seat)
        assert copied.legal_actions() == state.legal_actions()
    twin = copy.deepcopy(state)
    twin.apply_action(twin.legal_actions()[-1])
    assert twin.view(seat) != state.view(seat)


def test_the_python_build_replays_the_golden_trajectories() -> None:
    """Where the engines run compiled, the golden trajectories (every view, legal list
    and observation of recorded games) also run against the Python sources, which a
    machine without a C compiler, or ``REFEREE_PURE=1``, plays with."""
    if all(native.problem(ROOT / folder) is not None for folder in GAMES):
        pytest.skip("every engine runs in Python here: the suite itself replays them so")
    assert_all_pass_in_python("tests/test_golden_trajectories.py")


# ---------------------------------------------------------------- the build script


def test_the_build_is_made_again_when_its_module_list_changes(tmp_path: Path) -> None:
    """A fresh build of other modules than the list asks for is stale for the build
    script (a module added to or taken from TARGETS), though still usable meanwhile."""
    package = fake_build(tmp_path)
    assert native.problem(package) is None
    assert build_native.fresh(package, ["state.py"])
    assert not build_native.fresh(package, ["state.py", "view.py"])
    (package / "state.py").write_text("X = 22\n")
    assert not build_native.fresh(package, ["state.py"])


def test_install_replaces_a_build_whole(tmp_path: Path) -> None:
    """The new build takes the old one's place; nothing of the old one or of the
    staging folders is left."""
    package = fake_build(tmp_path)
    (package / native.NATIVE_DIR / "old-only.so").write_bytes(b"old")
    new = tmp_path / "work" / native.NATIVE_DIR
    new.mkdir(parents=True)
    (new / "state.so").write_bytes(b"new")
    (new / native.MANIFEST).write_text("{}")
    build_native.install(new, package)
    assert sorted(p.name for p in (package / native.NATIVE_DIR).iterdir()) == [
        native.MANIFEST,
        "state.so",
    ]
    assert sorted(p.name for p in package.iterdir()) == [native.NATIVE_DIR, "state.py"]
