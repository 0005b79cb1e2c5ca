"""Sea distances on the Navegador map (rulebook: Sailing, Exploration).

A ship may cross explored regions freely but must stop in an unexplored one (entering
it is exploring it), so the distance from ``a`` to ``b`` is the fewest borders on a
path whose intermediate regions are all explored.  Tables are cached per explored set.
"""

from __future__ import annotations

from functools import cache

from referee.games.navegador import data

UNREACHABLE = 99
"""Distance of a region that no path of explored regions reaches."""

_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({b for a, b in data.BORDERS if a == r} | {a for a, b in data.BORDERS if b == r}))
    for r in range(len(data.REGIONS))
)


def neighbours(region: int) -> tuple[int, ...]:
    """Regions sharing a border with ``region`` (ascending indices)."""
    return _NEIGHBOURS[region]


@cache
def distances(explored_mask: int) -> tuple[tuple[int, ...], ...]:
    """``table[a][b]``: borders from ``a`` to ``b`` through explored regions only.

    ``explored_mask`` has bit ``r`` set when region ``r`` is explored.  Entries are
    :data:`UNREACHABLE` when no such path exists.
    """
    size = len(data.REGIONS)
    table = []
    for start in range(size):
        dist = [UNREACHABLE] * size
        dist[start] = 0
        frontier = [start]
        while frontier:
            following = []
            for here in frontier:
                if here != start and not explored_mask >> here & 1:
                    continue  # an unexplored region ends every path
                for there in _NEIGHBOURS[here]:
                    if dist[there] == UNREACHABLE:
                        dist[there] = dist[here] + 1
                        following.append(there)
            frontier = following
        table.append(tuple(dist))
    return tuple(table)
