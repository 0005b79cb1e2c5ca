"""Map helpers of the Roads & Boats heuristic bot: brick prices, land links and
neighbours (memoised during one decision), the worth of a home site."""

from __future__ import annotations

from typing import Any

from bots.roads_and_boats import settings as S
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState
from referee.games.roads_and_boats.world import World


def brick_cost(k: int, wonder: int) -> int:
    """Goods for ``k`` bricks bought in one turn with ``wonder`` bricks standing."""
    total = 0
    for i in range(k):
        total += i + 1 + (1 if wonder + i >= D.PRICE_STEP_AT else 0)
    return total


def links(state: RBState, place: int) -> list[tuple[int, int]]:
    """(crossing, neighbouring land area) pairs of a (possibly bridged) land area."""
    w = state.world
    out: list[tuple[int, int]] = []
    for a in w.areas[w.place_hex[place]]:
        if state.root[a] == place:
            out.extend((edge, state.root[q]) for edge, q in w.land_links[a])
    return out


def trunks_aboard(t: Any) -> int:
    """Trunks in transporter ``t``'s cargo."""
    return sum(1 for g in t.cargo if g & D.GOOD_MASK == D.TRUNK)


_NEIGHBOURS: dict[int, list[int]] | None = None
"""Neighbours by land area while ``Planner.choose`` looks at one state (None outside
it): a decision asks for the same ones many times, and the state does not change."""


def neighbours(state: RBState, place: int) -> list[int]:
    """Distinct land areas one off-road step from ``place`` (callers must not change
    the list returned)."""
    memo = _NEIGHBOURS
    if memo is not None and (got := memo.get(place)) is not None:
        return got
    out: list[int] = []
    for _edge, q in links(state, place):
        if q not in out:
            out.append(q)
    if memo is not None:
        memo[place] = out
    return out


def home_value(state: RBState, place: int) -> float:
    """Worth of a home on land area ``place``: its hex's terrain (``HOME_TERRAIN``)
    plus its land neighbours' (``NEIGHBOUR_VALUE``: the first, second... hex of each
    terrain, each neighbouring hex counted once).  The search bot groups homes by it."""
    w = state.world
    h = w.place_hex[place]
    score = S.HOME_TERRAIN.get(w.hexes[h].terrain, 1.0)
    seen: set[int] = {h}
    counts: dict[str, int] = {}
    for q in neighbours(state, place):
        j = w.place_hex[q]
        if j in seen:
            continue
        seen.add(j)
        t = w.hexes[j].terrain
        k = counts.get(t, 0)
        counts[t] = k + 1
        gains = S.NEIGHBOUR_VALUE.get(t, ())
        if k < len(gains):
            score += gains[k]
    if counts.get(D.ROCK) and (counts.get(D.MOUNTAIN) or w.hexes[h].terrain == D.MOUNTAIN):
        score += S.ROCK_AND_MOUNTAIN
    return score


_BOAT_STEPS: dict[int, tuple[World, dict[tuple[int, ...], dict[int, int]]]] = {}
"""Boat distances by map (``id`` of its :class:`World`, which is kept here so the id
stays its own) and start places: see ``Planner._boat_distances``."""
