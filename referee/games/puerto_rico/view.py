"""What a seat sees of a Puerto Rico match.

Everything in Puerto Rico is public except the order of the face-down plantation stack,
of which a view shows only the size.  (Chip VP are public here: every shipment is
announced, so a player with perfect memory knows them anyway.)  Lists indexed by good
use the order corn, indigo, sugar, tobacco, coffee; lists indexed by island tile add
quarry as the sixth entry.  Money in doubloons, scores in VP.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine import View
from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import BUILDINGS, GOOD_NAMES, N_BUILDINGS, ROLE_NAMES
from referee.games.puerto_rico.options import PuertoRicoOptions
from referee.games.puerto_rico.phases import NO_ROLE, PHASE_NAMES
from referee.games.puerto_rico.scoring import player_score


class PlayerView(msgspec.Struct, kw_only=True):
    """One player's public board.

    ``goods`` barrels by good; ``plantations`` island tiles by kind (5 goods + quarry) and
    ``occupied`` how many of those hold a colonist; ``buildings`` maps each owned
    building's name to its colonists; ``san_juan`` colonists waiting; ``unplaced``
    colonists in hand during his mayor turn; ``city_spaces`` used of 12; ``vp`` chip
    VP (paper VP included); ``score`` the VP he would have if the game ended now.
    """

    doubloons: int
    vp: int
    goods: list[int]
    plantations: list[int]
    occupied: list[int]
    buildings: dict[str, int]
    san_juan: int
    unplaced: int
    city_spaces: int
    score: int


class ShipView(msgspec.Struct, kw_only=True):
    """A cargo ship: ``capacity`` barrels, ``good`` on board (``None`` if empty), ``load``."""

    capacity: int
    good: str | None
    load: int


class PuertoRicoView(View, kw_only=True):
    """The observation of seat ``seat`` (all public but the stack order).

    ``phase`` is one of setup, plantation_draw, hacienda_draw, role, settler, mayor,
    builder, craftsman, trader, captain, storage, over; ``role`` the role being
    carried out (``None`` while choosing) and ``chooser`` who took it; ``order`` the
    seats in the order of the current phase and ``turn`` the index of the seat acting.
    ``roles`` maps every role card still available this round to the doubloons on it;
    ``taken_roles`` the cards taken this round.  ``plantation_stack`` is the number of
    face-down tiles; ``plantation_discards`` and ``face_up`` count tiles by good.
    ``captain_bonus_used``, ``wharf_used`` (by seat) and ``idle`` (consecutive turns
    without a load) describe the captain phase; ``kept`` the kinds the storing player
    has put in warehouses; ``produced`` the craftsman's kinds eligible for his extra
    good; ``hacienda_used`` whether the settling player already drew with his hacienda.
    """

    seat: int
    seats: int
    options: PuertoRicoOptions
    phase: str
    round: int
    governor: int
    role: str | None
    chooser: int
    order: list[int]
    turn: int
    roles: dict[str, int]
    taken_roles: list[str]
    players: list[PlayerView]
    colonist_supply: int
    colonist_ship: int
    vp_chips_left: int
    goods_supply: list[int]
    ships: list[ShipView]
    trading_house: list[str]
    face_up: list[int]
    plantation_stack: int
    plantation_discards: list[int]
    quarries: int
    building_supply: dict[str, int]
    end_triggered: bool
    captain_bonus_used: bool
    wharf_used: list[bool]
    idle: int
    kept: list[str]
    produced: list[str]
    hacienda_used: bool


def _player_view(p: Player) -> PlayerView:
    # The score and the building names are memoised on the board (with copies of the
    # lists, which change in place): most decisions leave most boards as they were, and
    # a colonist placed on a plantation leaves the buildings as they were.
    bld = p.bld
    key = (p.vp, p.san_juan, p.pool, bld, p.tiles, p.occ)
    memo = p._view_memo
    if memo and memo[0] == key:
        score, buildings = memo[1], memo[2]
    else:
        score = player_score(p)
        if memo and memo[0][3] == bld:
            buildings = memo[2]
        else:
            buildings = {BUILDINGS[b].name: bld[b] for b in range(N_BUILDINGS) if bld[b] >= 0}
        p._view_memo = ((p.vp, p.san_juan, p.pool, bld[:], p.tiles[:], p.occ[:]), score, buildings)
    return PlayerView(
        doubloons=p.doubloons,
        vp=p.vp,
        goods=p.goods[:],
        plantations=p.tiles[:],
        occupied=p.occ[:],
        buildings=buildings.copy(),
        san_juan=p.san_juan,
        unplaced=p.pool,
        city_spaces=p.city,
        score=score,
    )


_ROLES = tuple(enumerate(ROLE_NAMES))


def _roles(state: Any) -> tuple[dict[str, int], list[str]]:
    """Fresh ``(roles on offer -> doubloons, taken role names)``, memoised on the state's
    role lists (they change once per role choice, views are built at every decision)."""
    in_play, taken, coins = state.role_in_play, state.role_taken, state.role_coins
    memo = state.__dict__.get("_roles_memo")
    if memo is None or memo[0] != (in_play, taken, coins):
        offer = {name: coins[r] for r, name in _ROLES if in_play[r] and not taken[r]}
        names = [name for r, name in _ROLES if taken[r]]
        memo = state._roles_memo = ((in_play[:], taken[:], coins[:]), offer, names)
    return memo[1].copy(), memo[2][:]


def _building_supply(state: Any) -> dict[str, int]:
    """Fresh building name -> copies left, memoised on the state's supply list."""
    supply = state.building_supply
    memo = state.__dict__.get("_supply_memo")
    if memo is None or memo[0] != supply:
        names = {BUILDINGS[b].name: supply[b] for b in range(N_BUILDINGS)}
        memo = state._supply_memo = (supply[:], names)
    return memo[1].copy()


def make_view(state: Any, seat: int) -> PuertoRicoView:
    """Build the view of ``seat`` from a :class:`PuertoRicoState`."""
    players = []
    chips = 0
    for p in state.players:
        players.append(_player_view(p))
        chips += p.vp
    roles, taken_roles = _roles(state)
    ship_good = state.ship_good
    ship_load = state.ship_load
    house = state.house
    kept = state.kept
    produced = state.produced
    return PuertoRicoView(
        seat=seat,
        seats=state.seats,
        options=state.options,
        phase=PHASE_NAMES[state.phase],
        round=state.round,
        governor=state.governor,
        role=None if state.role == NO_ROLE else ROLE_NAMES[state.role],
        chooser=state.chooser,
        order=state.order[:],
        turn=state.turn,
        roles=roles,
        taken_roles=taken_roles,
        players=players,
        colonist_supply=state.colonist_supply,
        colonist_ship=state.colonist_ship,
        vp_chips_left=max(0, state.vp_pool - chips),
        goods_supply=state.goods_supply[:],
        ships=[
            ShipView(
                capacity=capacity,
                good=GOOD_NAMES[ship_good[s]] if ship_good[s] >= 0 else None,
                load=ship_load[s],
            )
            for s, capacity in enumerate(state.ship_cap)
        ],
        trading_house=[GOOD_NAMES[g] for g in house] if house else [],
        face_up=state.face_up[:],
        plantation_stack=sum(state.stack),
        plantation_discards=state.discard[:],
        quarries=state.quarries,
        building_supply=_building_supply(state),
        end_triggered=state.end_triggered,
        captain_bonus_used=state.captain_bonus_used,
        wharf_used=state.wharf_used[:],
        idle=state.idle,
        kept=[GOOD_NAMES[g] for g in kept] if kept else [],
        produced=[GOOD_NAMES[g] for g in produced] if produced else [],
        hacienda_used=state.hacienda_used,
    )
