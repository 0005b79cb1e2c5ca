"""Conversion between a :class:`NavegadorState` and its :class:`NavegadorView`.

The view holds every public fact, so a state can be rebuilt from it (``from_view``);
this is what ``Game.determinize`` uses (the only hidden facts, face-down tile prices,
are not decided until a region is explored).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from referee.games.navegador import data
from referee.games.navegador.stages import STAGE_NAMES
from referee.games.navegador.views import NavegadorView, PlayerView, RegionView

if TYPE_CHECKING:
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


def make_view(state: NavegadorState, seat: int) -> NavegadorView:
    """The view of ``seat`` (-1 for an observer); raises nothing."""
    players = [
        PlayerView(
            money=p.money,
            workers=p.workers,
            ships=p.ships[:],
            colonies=p.colonies[:],
            factories=p.factories[:],
            wild=p.wild,
            shipyards=p.shipyards,
            churches=p.churches,
            explorers=p.explorers,
            privileges=p.privileges[:],
            king_col=p.king_col,
            has_king=p.has_king,
            stone=p.stone,
            turns=p.turns,
            score=p.score(),
        )
        for p in state.players
    ]
    regions = [
        RegionView(
            name=name,
            good=good,
            explored=explored,
            tiles=tiles,
            hidden=hidden,
            double_loss=double_loss,
        )
        for (name, good, explored, hidden, double_loss), tiles in zip(
            _region_rows(state.explored, state.double_loss),
            map(list.copy, state.tiles),
            strict=True,
        )
    ]
    reveal = state.reveal
    stage = "reveal" if reveal >= 0 else STAGE_NAMES[state.stage]
    return NavegadorView(
        seat=seat,
        seats=state.seats,
        to_move=state.to_move(),
        current=state.current,
        reveal=reveal,
        phase=state.phase,
        phase_pending=state.phase_pending,
        market=state.market[:],
        regions=regions,
        gallery=state.gallery[:],
        gallery_box=state.gallery_box[:],
        display=state.display[:],
        display_taken=state.display_taken[:],
        unseen=[u[:] for u in state.unseen],
        players=players,
        card_holder=state.card_holder,
        card_marker=state.card_marker,
        end_seat=state.end_seat,
        end_turns=state.end_turns,
        stage=stage,
        card_sailing=state.card_sailing,
        ships_owed=state.ships_owed,
        movers=[[r, left] for r, lefts in enumerate(state.movers) for left in lefts],
        explored_now=state.explored_now,
        expedition=state.expedition,
        expedition_ships=state.expedition_ships,
        founded=state.founded[:],
        goods_used=state.goods_used[:],
        wild_used=state.wild_used,
        workers_used=state.workers_used,
        options=state.options,
    )


def from_view(view: NavegadorView) -> NavegadorState:
    """A state equal in every public fact to ``view``.

    A view taken at a reveal (chance) node gives a state at that chance node.
    """
    from referee.games.navegador.state import NavegadorState

    state = NavegadorState(view.seats, view.options)
    for player, pv in zip(state.players, view.players, strict=True):
        player.money = pv.money
        player.workers = pv.workers
        player.ships = pv.ships[:]
        player.colonies = pv.colonies[:]
        player.factories = pv.factories[:]
        player.wild = pv.wild
        player.shipyards = pv.shipyards
        player.churches = pv.churches
        player.explorers = pv.explorers
        player.privileges = pv.privileges[:]
        player.king_col = pv.king_col
        player.has_king = pv.has_king
        player.stone = pv.stone
        player.turns = pv.turns
    state.phase = view.phase
    state.phase_pending = view.phase_pending
    state.market = view.market[:]
    state.explored = sum(1 << r for r, rv in enumerate(view.regions) if rv.explored)
    state.tiles = [rv.tiles[:] for rv in view.regions]
    state.unseen = [u[:] for u in view.unseen]
    state.gallery = view.gallery[:]
    state.gallery_box = view.gallery_box[:]
    state.display = view.display[:]
    state.display_taken = view.display_taken[:]
    state.card_holder = view.card_holder
    state.card_marker = view.card_marker
    state.end_seat = view.end_seat
    state.end_turns = view.end_turns
    state.card_sailing = view.card_sailing
    state.ships_owed = view.ships_owed
    state.movers = [[] for _ in data.REGIONS]
    for region, left in view.movers:
        state.movers[region].append(left)
    for ranges in state.movers:
        ranges.sort()
    state.explored_now = view.explored_now
    state.expedition = view.expedition
    state.expedition_ships = view.expedition_ships
    state.founded = view.founded[:]
    state.goods_used = view.goods_used[:]
    state.wild_used = view.wild_used
    state.workers_used = view.workers_used
    state.current = view.current
    state.reveal = view.reveal
    state.stage = STAGE_NAMES.index("sailing" if view.stage == "reveal" else view.stage)
    return state
