"""Helpers to set up Puerto Rico positions in tests through chance outcomes and actions."""

from __future__ import annotations

from typing import Any

from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.actions import ChooseRole
from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import BUILDING_INDEX, GOOD_INDEX, TILE_INDEX
from referee.games.puerto_rico.state import PuertoRicoState


def new_state(
    seats: int = 4,
    governor: int = 0,
    draw: list[int] | None = None,
    **options: Any,
) -> PuertoRicoState:
    """A match after setup: ``governor`` chosen and ``draw`` (tile ints) face up."""
    state = GAME.new_game(seats, GAME.parse_options(options))
    state.apply_chance(governor)
    if draw is None:
        draw = [0, 1, 2, 3, 4, 0][: state.setup.face_up]
    state.apply_chance(draw)
    return state


def take_role(state: PuertoRicoState, seat: int, role: str) -> None:
    """Let ``seat`` pick ``role`` now (moves the pick counter to ``seat``'s turn)."""
    state.picks = (seat - state.governor) % state.seats
    state._legal = None
    state.apply_action(ChooseRole(role))


def give(
    p: Player,
    *,
    goods: dict[str, int] | None = None,
    tiles: dict[str, int] | None = None,
    occupied: dict[str, int] | None = None,
    buildings: dict[str, int] | None = None,
    doubloons: int | None = None,
) -> None:
    """Set parts of a player's board directly (goods, tiles, occupied tiles, buildings)."""
    for name, n in (goods or {}).items():
        p.goods[GOOD_INDEX[name]] = n
    for name, n in (tiles or {}).items():
        p.tiles[TILE_INDEX[name]] = n
    for name, n in (occupied or {}).items():
        p.occ[TILE_INDEX[name]] = n
    for name, n in (buildings or {}).items():
        building = BUILDING_INDEX[name]
        if p.bld[building] < 0:
            p.city += 2 if building >= BUILDING_INDEX["guild_hall"] else 1
        p.bld[building] = n
    if doubloons is not None:
        p.doubloons = doubloons


def names(legal: list[Any]) -> list[tuple[Any, ...]]:
    """Actions as plain tuples (kind, fields...) for readable assertions."""
    out = []
    for a in legal:
        fields = tuple(getattr(a, f) for f in a.__struct_fields__)
        out.append((type(a).__struct_config__.tag, *fields))
    return out


def finish_role(state: PuertoRicoState, seed: int = 0) -> None:
    """Play on until the next role choice (or the end): pass optional steps, take the
    first legal action otherwise, sample chance events from a fixed seed."""
    import random

    from referee.api.engine import CHANCE, TERMINAL
    from referee.games.puerto_rico.actions import Pass
    from referee.games.puerto_rico.state import P_ROLE

    rng = random.Random(seed)
    while state.phase != P_ROLE and state.to_move() != TERMINAL:
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply_action(Pass() if Pass() in legal else legal[0])
