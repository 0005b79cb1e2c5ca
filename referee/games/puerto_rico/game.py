"""The Puerto Rico game object: metadata, setup choice and determinization."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.api.engine import Game, OptionError
from referee.games.puerto_rico.actions import PuertoRicoAction
from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import (
    BUILDING_INDEX,
    DOUBLOONS_TOTAL,
    GOOD_INDEX,
    ROLE_INDEX,
    SETUPS,
    TWO_PLAYER_SETUP,
    Setup,
)
from referee.games.puerto_rico.options import PuertoRicoOptions
from referee.games.puerto_rico.state import NO_GOOD, NO_ROLE, PHASE_NAMES, PuertoRicoState
from referee.games.puerto_rico.view import PuertoRicoView


def setup_for(seats: int, options: PuertoRicoOptions) -> Setup:
    """The setup table for ``seats`` under ``options.variant``.

    Raises :class:`OptionError` if the variant does not fit the seat count (the base game
    is for 3-5 players, the official variant for exactly 2).
    """
    variant = options.variant
    if variant == "auto":
        variant = "2p" if seats == 2 else "standard"
    if variant == "2p":
        if seats != 2:
            raise OptionError(f"puerto-rico: variant=2p is for 2 seats, not {seats}")
        return TWO_PLAYER_SETUP
    if seats not in SETUPS:
        raise OptionError(f"puerto-rico: the base game is for 3-5 seats, not {seats}")
    return SETUPS[seats]


class PuertoRicoGame(Game[PuertoRicoOptions]):
    """Puerto Rico (alea 2002), 3-5 players, or 2 with the official 2-player variant."""

    name: ClassVar[str] = "puerto-rico"
    title: ClassVar[str] = "Puerto Rico"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 5
    action_type: ClassVar[Any] = PuertoRicoAction
    view_type: ClassVar[Any] = PuertoRicoView
    options_type: ClassVar[type[PuertoRicoOptions]] = PuertoRicoOptions

    def new_game(self, seats: int, options: PuertoRicoOptions | None = None) -> PuertoRicoState:
        """A new match at its first chance node (the choice of the first governor).

        Raises :class:`OptionError` for a seat count out of range or a variant that does
        not fit it.
        """
        self.check_seats(seats)
        opts = options if options is not None else PuertoRicoOptions()
        return PuertoRicoState(seats, opts, setup_for(seats, opts))

    def chance_schema(self) -> dict[str, Any]:
        """The first governor's seat, a hacienda tile, or the face-up plantations drawn."""
        tile = {"type": "integer", "minimum": 0, "maximum": 4}
        seat = {"type": "integer", "minimum": 0, "maximum": 4}
        return {
            "anyOf": [
                {
                    "description": "The first governor's seat, or one hacienda tile (kind 0-4).",
                    **seat,
                },
                {"description": "The face-up plantation tiles drawn (kinds 0-4).", "type": "array",
                 "items": tile},
            ]
        }  # fmt: skip

    def determinize(self, view: Any, rng: random.Random) -> PuertoRicoState:
        """The full state behind ``view``.

        Only the order of the face-down plantation stack is hidden, and the state keeps
        the stack as counts per kind (derived here from the tiles in view), so the
        result is exact and ``rng`` is not needed.
        """
        v: PuertoRicoView = view
        state = self.new_game(v.seats, v.options)
        state.phase = PHASE_NAMES.index(v.phase)
        state.round = v.round
        state.governor = v.governor
        state.role = NO_ROLE if v.role is None else ROLE_INDEX[v.role]
        state.chooser = v.chooser
        state.order = list(v.order)
        state.turn = v.turn
        state.role_taken = [False] * len(state.role_taken)
        for name in v.taken_roles:
            state.role_taken[ROLE_INDEX[name]] = True
        state.role_coins = [0] * len(state.role_coins)
        for name, coins in v.roles.items():
            state.role_coins[ROLE_INDEX[name]] = coins
        state.picks = len(v.taken_roles) - (0 if v.role is None else 1)
        state.players = [_player(pv) for pv in v.players]
        state.colonist_supply = v.colonist_supply
        state.colonist_ship = v.colonist_ship
        state.goods_supply = list(v.goods_supply)
        state.ship_good = [NO_GOOD if s.good is None else GOOD_INDEX[s.good] for s in v.ships]
        state.ship_load = [s.load for s in v.ships]
        state.house = [GOOD_INDEX[g] for g in v.trading_house]
        state.face_up = list(v.face_up)
        state.discard = list(v.plantation_discards)
        if v.phase != "setup":
            state.stack = [
                state.setup.plantations[k]
                - v.face_up[k]
                - v.plantation_discards[k]
                - sum(p.tiles[k] for p in state.players)
                for k in range(5)
            ]
        state.quarries = v.quarries
        state.building_supply = [0] * len(state.building_supply)
        for name, n in v.building_supply.items():
            state.building_supply[BUILDING_INDEX[name]] = n
        state.bank = (
            DOUBLOONS_TOTAL - sum(p.doubloons for p in state.players) - sum(state.role_coins)
        )
        state.end_triggered = v.end_triggered
        state.captain_bonus_used = v.captain_bonus_used
        state.wharf_used = list(v.wharf_used)
        state.idle = v.idle
        state.kept = [GOOD_INDEX[g] for g in v.kept]
        state.produced = [GOOD_INDEX[g] for g in v.produced]
        state.hacienda_used = v.hacienda_used
        return state


def _player(pv: Any) -> Player:
    p = Player()
    p.doubloons = pv.doubloons
    p.vp = pv.vp
    p.goods = list(pv.goods)
    p.tiles = list(pv.plantations)
    p.occ = list(pv.occupied)
    for name, colonists in pv.buildings.items():
        p.bld[BUILDING_INDEX[name]] = colonists
    p.san_juan = pv.san_juan
    p.pool = pv.unplaced
    p.city = pv.city_spaces
    return p
