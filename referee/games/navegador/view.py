"""What a Navegador seat sees: the view structs (everything in a view is public
information); :func:`.viewbuild.build_view` builds them from a state.

The structs stay in a module of their own, never compiled (:mod:`referee.api.native`):
a compiled module keeps its classes' annotations only as bare classes (``list`` for
``list[PlayerView]``), and msgspec reads a struct's types from them.

The view structs also take their fields positionally, in declaration order: that is how
:func:`.viewbuild.build_view` builds them at every decision (msgspec matches keyword arguments one
by one; for the 31-field view a keyword call costs over ten times a positional one).
Keep the order in ``build_view`` in step with the fields.  The way back, a state from a
view, is :func:`referee.games.navegador.state.state_from_view`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.api.engine import View
from referee.games.navegador.options import NavegadorOptions


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


def __getattr__(name: str) -> Any:
    """``build_view``, which lives in :mod:`.viewbuild`, is still found here (imported on
    first use: that module imports this one)."""
    if name == "build_view":
        from referee.games.navegador.viewbuild import build_view

        return build_view
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
