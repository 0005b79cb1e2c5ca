"""Building a Navegador seat's :class:`NavegadorView` from a state, reusing unchanged
parts of the last view.  Compiled where built (:mod:`referee.api.native`)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from referee.api.engine import CHANCE, TERMINAL
from referee.games.navegador import data
from referee.games.navegador.phases import OVER, STAGE_NAMES
from referee.games.navegador.view import NavegadorView, PlayerView, RegionView

if TYPE_CHECKING:
    from referee.games.navegador.player import Player
    from referee.games.navegador.state import NavegadorState


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
