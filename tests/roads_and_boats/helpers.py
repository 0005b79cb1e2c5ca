"""Helpers that set up Roads & Boats positions for the tests."""

from __future__ import annotations

from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState, Transporter
from referee.games.roads_and_boats.world import World


def hx(world: World, q: int, r: int) -> int:
    """Hex index of axial ``(q, r)``."""
    return world.index[(q, r)]


def area(world: World, q: int, r: int, k: int = 0) -> int:
    """Place id of area ``k`` of hex ``(q, r)``."""
    return world.areas[hx(world, q, r)][k]


def started(
    seats: int = 2, map_name: str = "pacific", homes: list[tuple[int, int]] | None = None
) -> RBState:
    """A game after setup: temple order = seats in order (so sequence is reversed
    unless ``seats`` is 1), temple procedure off, homes at ``homes``."""
    state = GAME.new_game(seats, GAME.parse_options({"map": map_name, "temple": False}))
    if seats > 1:
        state.apply_chance(list(range(seats)))
    homes = homes or [(2, 1), (10, -3), (10, 1), (8, 3)][:seats]
    for q, r in [homes[s] for s in state.sequence]:
        state.apply_action(A.Home(area(state.world, q, r)))
    return state


def bare(
    seats: int = 2,
    map_name: str = "pacific",
    sequence: list[int] | None = None,
    options: dict[str, object] | None = None,
) -> RBState:
    """An empty position (no homes, goods or transporters) at turn 1, production.

    ``sequence`` sets the acting order (default seat order); ``options`` adds options.
    """
    raw = {"map": map_name, "temple": False, **(options or {})}
    state = GAME.new_game(seats, GAME.parse_options(raw))
    state.sequence = sequence or list(range(seats))
    state.temple = state.sequence[::-1]
    state.turn = 1
    jump(state, 0)
    return state


def jump(state: RBState, stage: int) -> None:
    """Put ``state`` at the start of the acting step of ``stage`` (no automatic
    production, no temple)."""
    state.stage = stage
    state.turn = max(state.turn, 1)
    state._begin_acting()


def put(state: RBState, place: int, good: int, n: int = 1) -> None:
    """Drop ``n`` loose goods of type ``good`` at ``place``."""
    for _ in range(n):
        state._drop(place, good)


def add(
    state: RBState, seat: int, kind: int, place: int, cargo: list[int] | None = None
) -> Transporter:
    """A new transporter of ``seat`` at ``place`` carrying ``cargo``."""
    t = state._new_transporter(seat, kind, place)
    t.cargo = tuple(cargo or ())
    return t


def building(state: RBState, kind: int, place: int, owner: int = 0) -> int:
    """Put building ``kind`` on the hex of ``place``; returns the hex."""
    h = state.world.place_hex[place]
    state.buildings[h] = [kind, place, owner, 0]
    if kind == D.MINE:
        state.bags[h] = [3, 3]
    return h


def kinds(actions: list[object]) -> list[str]:
    """The ``kind`` tag of every action."""
    return [type(a).__name__ for a in actions]


def totals(state: RBState) -> list[int]:
    """Count of every good type on the map and on transporters."""
    counts = [0] * len(D.GOODS)
    for pile in state.piles.values():
        for g in pile:
            counts[g & D.GOOD_MASK] += 1
    for t in state.trans.values():
        for g in t.cargo:
            counts[g & D.GOOD_MASK] += 1
    for g in state.herd:
        counts[g & D.GOOD_MASK] += 1
    return counts


def cargo_names(t: Transporter) -> list[str]:
    """Sorted good names carried by ``t``."""
    return sorted(D.GOODS[g & D.GOOD_MASK] for g in t.cargo)


def loose_names(state: RBState, place: int) -> list[str]:
    """Sorted good names lying at ``place``."""
    return sorted(D.GOODS[g & D.GOOD_MASK] for g in state.piles.get(place, []))
