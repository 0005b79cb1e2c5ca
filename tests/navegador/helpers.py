"""Helpers that set up Navegador positions for rulebook examples."""

from __future__ import annotations

from referee.games.navegador import data
from referee.games.navegador.actions import Rondel
from referee.games.navegador.options import NavegadorOptions
from referee.games.navegador.state import NavegadorState

R = {name: i for i, name in enumerate(data.REGIONS)}
"""Region index by name."""


def new_state(seats: int = 4, **options: object) -> NavegadorState:
    """A freshly set-up match."""
    return NavegadorState(seats, NavegadorOptions(**options))  # type: ignore[arg-type]


def space(name: str) -> int:
    """The first rondel space with action ``name``."""
    return data.RONDEL.index(name)


def enter(state: NavegadorState, action: str, seat: int = 0) -> None:
    """Make it ``seat``'s turn (not its first) and move its stone one space onto ``action``."""
    target = space(action)
    player = state.players[seat]
    player.stone = (target - 1) % len(data.RONDEL)
    player.turns = max(player.turns, 1)
    state.current = seat
    state.stage = 0
    state._legal = None
    state.apply_action(Rondel(space=target))


def explore(state: NavegadorState, region: str) -> None:
    """Mark ``region`` explored with the given tiles left untouched (test shortcut)."""
    state.explored |= 1 << R[region]
    state._legal = None


def set_tiles(state: NavegadorState, region: str, prices: list[int]) -> None:
    """Explore ``region`` and lay ``prices`` face up there (removed from the unseen pile)."""
    explore(state, region)
    good = data.REGION_GOOD[R[region]]
    for price in prices:
        state.unseen[good].remove(price)
    state.tiles[R[region]] = sorted(prices)
