"""What a Navegador seat sees: the view structs and :func:`build_view`, which builds them
from a state (everything in a view is public information).

The view structs also take their fields positionally, in declaration order: that is how
:func:`build_view` builds them at every decision (msgspec matches keyword arguments one
by one; for the 31-field view a keyword call costs over ten times a positional one).
Keep the order in ``build_view`` in step with the fields.  The way back, a state from a
view, is :func:`referee.games.navegador.state.state_from_view`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import msgspec

from referee.api.engine import CHANCE, TERMINAL, View
from referee.games.navegador import data
from referee.games.navegador.options import NavegadorOptions
from referee.games.navegador.phases import OVER, STAGE_NAMES

if TYPE_CHECKING:
    from referee.games.navegador.player import Player
    from referee.games.navegador.state import NavegadorState


class PlayerView(msgspec.Struct):
    """One player's public holdings.

    ``money`` Cruzados; ``ships`` own ships per region (index as ``regions``);
    ``colonies`` / ``factories`` per good (sugar, gold, spice); ``wild`` orange
    factories; ``privileges`` tiles per column (colony, factory, explorer, shipyard,
    church); ``king_col`` column of a placed King (-1 none); ``has_king`` King still in
    hand; ``stone`` rondel space (-1 before the first turn); ``turns`` turns completed;
    ``score`` VP if the game ended now.
    """

    money: int
    workers: int
    ships: list[int]
    colonies: list[int]
    factories: list[int]
    wild: int
    shipyards: int
    churches: int
    explorers: int
    privileges: list[int]
    king_col: int
    has_king: bool
    stone: int
    turns: int
    score: int


class RegionView(msgspec.Struct):
    """A sea region: ``good`` of its colonies ("" for Portugal), face-up ``tiles``
    (prices still available), ``hidden`` face-down tiles (count only), ``double_loss``."""

    name: str
    good: str
    explored: bool
    tiles: list[int]
    hidden: int
    double_loss: bool


class NavegadorView(View):
    """What a seat sees (Navegador has no private information besides face-down tiles).

    Board: ``phase`` 1..3 (``phase_pending`` the phase that starts after the current
    Sailing action, 0 if none); ``market`` cube row per good (0 = top, prices in
    ``data.MARKET_PRICE``); ``regions``; ``gallery`` privileges available per column and
    ``gallery_box`` tiles left to refill; ``display`` buildings left per row (sugar, gold,
    spice, shipyard, church) and ``display_taken`` bought per row; ``unseen`` colony
    prices per good not yet revealed (face-down stacks and the removed tile).

    Turn: ``to_move`` seat (-1 chance, -2 over); ``current`` seat whose turn it is;
    ``reveal`` region whose tiles are being turned up (-1 none); ``stage`` one of
    start, scrap, sailing, colony, market, privilege, workers, ships, buildings,
    reveal, over; ``card_sailing`` the current Sailing is the card's; ``ships_owed``
    ships still to scrap; ``movers`` pairs [region, borders left] of ships that may
    still sail; ``explored_now`` this Sailing already explored; ``expedition`` region
    being entered (-1) and ``expedition_ships`` ships already in it; ``founded``
    colonies founded this action per region; ``goods_used`` goods already sold or
    processed this Market; ``wild_used`` orange factories used this Market;
    ``workers_used`` workers tied up by buildings this action.  Card and end:
    ``card_holder``, ``card_marker`` (rondel space, -1 unset), ``end_seat`` /
    ``end_turns`` (the game ends when that seat completes that many turns; -1 if not
    triggered).
    """

    seat: int
    seats: int
    to_move: int
    current: int
    reveal: int
    phase: int
    phase_pending: int
    market: list[int]
    regions: list[RegionView]
    gallery: list[int]
    gallery_box: list[int]
    display: list[int]
    display_taken: list[int]
    unseen: list[list[int]]
    players: list[PlayerView]
    card_holder: int
    card_marker: int
    end_seat: int
    end_turns: int
    stage: str
    card_sailing: bool
    ships_owed: int
    movers: list[list[int]]
    explored_now: bool
    expedition: int
    expedition_ships: int
    founded: list[int]
    goods_used: list[bool]
    wild_used: int
    workers_used: int
    options: NavegadorOptions


_REGION_GOODS = tuple(data.GOODS[g] if g >= 0 else "" for g in data.REGION_GOOD)
"""Good name of each region's colony stack ("" for Portugal)."""


@lru_cache(maxsize=1024)
def _region_rows(
    explored: int, double_loss: frozenset[int]
) -> tuple[tuple[str, str, bool, int, bool], ...]:
    """``(name, good, explored, face-down tiles, double loss)`` of every region for an
    ``explored`` bit mask: everything of a region's view but its tiles."""
    return tuple(
        (
            name,
            _REGION_GOODS[r],
            bool(explored >> r & 1),
            0 if explored >> r & 1 else data.REGION_TILES[r],
            r in double_loss,
        )
        for r, name in enumerate(data.REGIONS)
    )


def _player_view(p: Player) -> PlayerView:
    """The :class:`PlayerView` of ``p``, memoised on the player (shared by the views of
    consecutive decisions while these holdings stay as they are: only the seat to move
    changes at a decision).  The memo keys on every field, with copies of the lists,
    which change in place; the rondel stone and turn count come last, so that a move
    that changed only those keeps the score without asking :meth:`Player.score`."""
    key = (
        p.money,
        p.workers,
        p.wild,
        p.explorers,
        p.shipyards,
        p.churches,
        p.king_col,
        p.has_king,
        p.ships,
        p.colonies,
        p.factories,
        p.privileges,
        p.stone,
        p.turns,
    )
    memo = p._view_memo
    if memo is not None:
        if memo[0] == key:
            return memo[1]
        score = memo[1].score if memo[0][:12] == key[:12] else p.score_now()
    else:
        score = p.score()
    ships, colonies, factories, privileges = (
        p.ships[:],
        p.colonies[:],
        p.factories[:],
        p.privileges[:],
    )
    view = PlayerView(
        p.money,
        p.workers,
        ships,
        colonies,
        factories,
        p.wild,
        p.shipyards,
        p.churches,
        p.explorers,
        privileges,
        p.king_col,
        p.has_king,
        p.stone,
        p.turns,
        score,
    )
    p._view_memo = (
        (*key[:8], ships[:], colonies[:], factories[:], privileges[:], p.stone, p.turns),
        view,
    )
    return view


def _movers(state: NavegadorState) -> list[list[int]]:
    """The ``[region, borders left]`` pairs of ships that may still sail, memoised on the
    state (keyed on a copy of its ranges by region; they only change while sailing)."""
    movers = state.movers
    memo = state._movers_memo
    if memo is None or memo[0] != movers:
        pairs = [[r, left] for r, lefts in enumerate(movers) for left in lefts]
        memo = state._movers_memo = ([m[:] for m in movers], pairs)
    return memo[1][:]


def _region_views(state: NavegadorState) -> list[RegionView]:
    """A fresh list of the :class:`RegionView` records, which are memoised on the state
    (keyed on the explored mask and copies of the face-up tiles) and shared by views
    until a colony is founded or a region explored."""
    memo = state._regions_memo
    if memo is None or memo[0] != state.explored or memo[1] != state.tiles:
        regions = [
            RegionView(name, good, explored, tiles, hidden, double_loss)
            for (name, good, explored, hidden, double_loss), tiles in zip(
                _region_rows(state.explored, state.double_loss),
                map(list.copy, state.tiles),
                strict=True,
            )
        ]
        memo = state._regions_memo = (state.explored, [t[:] for t in state.tiles], regions)
    return memo[2][:]


def build_view(state: NavegadorState, seat: int) -> NavegadorView:
    """The view of ``seat`` (-1 for an observer); raises nothing.

    The view and its lists are fresh, but the region and player records and the
    movers' pairs are shared with earlier views of the same match while unchanged: treat a view as a
    read-only snapshot (``state_from_view`` copies what it keeps).  Structs are built
    positionally, in the order their fields are declared above.
    """
    reveal = state.reveal
    stage = state.stage
    return NavegadorView(
        seat,
        state.seats,
        TERMINAL if stage == OVER else CHANCE if reveal >= 0 else state.current,
        state.current,
        reveal,
        state.phase,
        state.phase_pending,
        state.market[:],
        _region_views(state),
        state.gallery[:],
        state.gallery_box[:],
        state.display[:],
        state.display_taken[:],
        [u[:] for u in state.unseen],
        [_player_view(p) for p in state.players],
        state.card_holder,
        state.card_marker,
        state.end_seat,
        state.end_turns,
        "reveal" if reveal >= 0 else STAGE_NAMES[stage],
        state.card_sailing,
        state.ships_owed,
        _movers(state),
        state.explored_now,
        state.expedition,
        state.expedition_ships,
        state.founded[:],
        state.goods_used[:],
        state.wild_used,
        state.workers_used,
        state.options,
    )
