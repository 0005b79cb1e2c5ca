"""Building a Puerto Rico seat's :class:`PuertoRicoView` from a state, reusing the parts
of the last view that did not change.  Compiled where built (:mod:`referee.api.native`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import (
    BUILDINGS,
    CITY_HALL,
    CUSTOMS_HOUSE,
    FORTRESS,
    GOOD_NAMES,
    GUILD_HALL,
    RESIDENCE,
    ROLE_NAMES,
)
from referee.games.puerto_rico.phases import NO_ROLE, PHASE_NAMES
from referee.games.puerto_rico.scoring import BUILDING_VP as _BUILDING_VP
from referee.games.puerto_rico.scoring import player_score
from referee.games.puerto_rico.view import PlayerView, PuertoRicoView, ShipView

if TYPE_CHECKING:  # typed, so that the compiled build reads the state's fields directly
    from referee.games.puerto_rico.state import PuertoRicoState

_BUILDING_NAMES = tuple(b.name for b in BUILDINGS)


def _player_view(p: Player, key: tuple[Any, ...] | None = None) -> PlayerView:
    """The :class:`PlayerView` of ``p`` (``key``: its memo key if the caller already
    built it and found no match), memoised on the board and shared by the views
    of later decisions while the board stays as it was (most decisions change one board
    or none).  The memo keys on every field, with copies of the lists, which change in
    place.  A board whose buildings did not change keeps its building names, one that
    owns the same buildings keeps their printed VP, and the score is only worked out in
    full (:func:`player_score`) when a large building is occupied."""
    bld = p.bld
    memo = p._view_memo
    building_vp = None
    if key is None:
        key = (p.doubloons, p.vp, p.san_juan, p.pool, p.city, p.goods, p.tiles, p.occ, bld)
        if memo and memo[0] == key:
            view: PlayerView = memo[1]
            return view
    if memo:
        old = memo[0]
        if old[8] == bld:
            names, building_vp = memo[2], memo[3]
        else:
            names = {name: c for name, c in zip(_BUILDING_NAMES, bld, strict=True) if c >= 0}
            if names.keys() == memo[2].keys():
                building_vp = memo[3]
    else:
        names = {name: c for name, c in zip(_BUILDING_NAMES, bld, strict=True) if c >= 0}
    if building_vp is None:
        building_vp = sum([vp for vp, c in zip(_BUILDING_VP, bld, strict=True) if c >= 0])
    if (
        bld[GUILD_HALL] > 0
        or bld[RESIDENCE] > 0
        or bld[FORTRESS] > 0
        or bld[CUSTOMS_HOUSE] > 0
        or bld[CITY_HALL] > 0
    ):
        score = player_score(p)
    else:
        score = p.vp + building_vp
    goods, tiles, occ = p.goods[:], p.tiles[:], p.occ[:]
    view = PlayerView(
        p.doubloons,
        p.vp,
        goods,
        tiles,
        occ,
        names.copy(),
        p.san_juan,
        p.pool,
        p.city,
        score,
    )
    # The view's own lists serve as the key's copies: should a reader change them, a
    # later match still means the view shows the board as it is.
    p._view_memo = (
        (p.doubloons, p.vp, p.san_juan, p.pool, p.city, goods, tiles, occ, bld[:]),
        view,
        names,
        building_vp,
    )
    return view


_ROLES = tuple(enumerate(ROLE_NAMES))


def _roles_memo(state: PuertoRicoState) -> tuple[Any, ...]:
    """New memo of the role cards: ``(copies of role_taken, role_coins, role_in_play,
    roles on offer -> doubloons, taken role names)``; they change once per role choice
    while views are built at every decision."""
    in_play, taken, coins = state.role_in_play, state.role_taken, state.role_coins
    offer = {name: coins[r] for r, name in _ROLES if in_play[r] and not taken[r]}
    names = [name for r, name in _ROLES if taken[r]]
    memo = state._roles_memo = (taken[:], coins[:], in_play[:], offer, names)
    return memo


def _supply_memo(state: PuertoRicoState) -> tuple[Any, ...]:
    """New memo of the building supply: ``(copy of the supply, name -> copies left)``."""
    supply = state.building_supply
    memo = state._supply_memo = (supply[:], dict(zip(_BUILDING_NAMES, supply, strict=True)))
    return memo


def _ships_memo(state: PuertoRicoState) -> tuple[Any, ...]:
    """New memo of the cargo ships: ``(copies of the loads and goods, ship records)``."""
    ship_good, ship_load = state.ship_good, state.ship_load
    ships = [
        ShipView(capacity, GOOD_NAMES[good] if good >= 0 else None, load)
        for capacity, good, load in zip(state.ship_cap, ship_good, ship_load, strict=True)
    ]
    memo = state._ships_memo = (ship_load[:], ship_good[:], ships)
    return memo


def build_view(state: PuertoRicoState, seat: int) -> PuertoRicoView:
    """Build the view of ``seat`` from a :class:`PuertoRicoState`.

    Parts that did not change since an earlier view of the same match (player and
    ship records, the role, ship and building-supply lists and dicts) are that view's
    very objects: treat a view as a read-only snapshot (``determinize`` copies what it
    keeps).  Structs are built positionally, in the order their fields are declared
    above.
    """
    chips = 0
    players = []
    for p in state.players:
        chips += p.vp
        memo = p._view_memo
        key = (p.doubloons, p.vp, p.san_juan, p.pool, p.city, p.goods, p.tiles, p.occ, p.bld)
        if memo and memo[0] == key:
            players.append(memo[1])
        else:
            players.append(_player_view(p, key))
    # The memos below are checked here rather than in their own functions: this runs
    # at every decision.
    roles = state._roles_memo
    if (
        roles is None
        or roles[0] != state.role_taken
        or roles[1] != state.role_coins
        or roles[2] != state.role_in_play
    ):
        roles = _roles_memo(state)
    supply = state._supply_memo
    if supply is None or supply[0] != state.building_supply:
        supply = _supply_memo(state)
    ships = state._ships_memo
    if ships is None or ships[0] != state.ship_load or ships[1] != state.ship_good:
        ships = _ships_memo(state)
    house = state.house
    kept = state.kept
    produced = state.produced
    return PuertoRicoView(
        seat,
        state.seats,
        state.options,
        PHASE_NAMES[state.phase],
        state.round,
        state.governor,
        None if state.role == NO_ROLE else ROLE_NAMES[state.role],
        state.chooser,
        state.order[:],
        state.turn,
        roles[3],
        roles[4],
        players,
        state.colonist_supply,
        state.colonist_ship,
        max(0, state.vp_pool - chips),
        state.goods_supply[:],
        ships[2],
        [GOOD_NAMES[g] for g in house] if house else [],
        state.face_up[:],
        sum(state.stack),
        state.discard[:],
        state.quarries,
        supply[1],
        state.end_triggered,
        state.captain_bonus_used,
        state.wharf_used[:],
        state.idle,
        [GOOD_NAMES[g] for g in kept] if kept else [],
        [GOOD_NAMES[g] for g in produced] if produced else [],
        state.hacienda_used,
    )
