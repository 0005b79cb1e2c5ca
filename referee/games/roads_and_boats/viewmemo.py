"""The costly parts of a Roads & Boats view, rebuilt only when their part of the state
changed since the last view of the same game (:meth:`RBState.view`).

Between two decisions a move changes a transporter or two and a pile, rarely a
building, a road or a research project; yet a view lists every transporter,
building, pile, road and wall.  :class:`ViewMemo` keeps, for each such part, a copy
of the state it was built from and the view objects built; the next view compares
the state with the copy (list and dict equality, in C) and reuses the objects where
nothing changed, item by item for transporters and piles.  The output is exactly what
building everything afresh gives (``tests/test_golden_trajectories.py``); the check is
by content, never by a counter that a mutation could forget to move, so no code path
of the rules has to report what it changed.

Consequence for callers: successive views may share these sub-objects (the
``TransporterView``, ``BuildingView``, ``PileView`` and ``WallView`` items and their
lists), so a view must be treated as read-only, as every caller does (views are
encoded for the wire, hashed or compared, and :func:`state_from_view` copies).

Each entry is one tuple read and written whole, so a memo shared by clones of a
state (``clone`` copies the attribute) in several threads still pairs every output
with the input it was built from.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from referee.games.roads_and_boats.view import BuildingView, PileView, TransporterView, WallView


class ViewMemo:
    """Last inputs and outputs of each costly part of a view (see the module)."""

    __slots__ = ("buildings", "layout", "piles", "research", "trans")

    def __init__(self) -> None:
        # trans: (id, owner, kind, place, moved, carrier, cargo copy) each, views built
        self.trans: tuple[list[tuple[Any, ...]], list[TransporterView]] = ([], [])
        # buildings, bags (copies), the list built
        self.buildings: tuple[dict[int, list[int]], dict[int, list[int]], list[BuildingView]] = (
            {},
            {},
            [],
        )
        # piles: {place: (goods copy, view)}, the state's piles copied, the list built
        self.piles: tuple[dict[int, list[int]], list[PileView]] | None = None
        # roads, bridges, walls (copies) and (roads, bank_roads, bridges, walls) built
        self.layout: tuple[Any, ...] | None = None
        # research and fresh bit sets, and the two lists built
        self.research: tuple[tuple[int, ...], list[list[str]], list[list[str]]] | None = None


_FIELDS = attrgetter("id", "owner", "kind", "place", "moved", "carrier", "cargo")
"""A transporter's fields as one tuple (read in C; the cargo is the live list)."""


def transporters(memo: ViewMemo, trans: dict[int, Any], names: tuple[str, ...]) -> list[Any]:
    """``TransporterView`` of every transporter in ``trans`` order, each reused from the
    last view where its id, owner, kind, place, moved flag, carrier and cargo are equal."""
    seen, last = memo.trans
    now = list(map(_FIELDS, trans.values()))
    if now == seen:
        return last
    if len(now) == len(seen):
        # The same transporters in the same order: rebuild only those that changed.
        out = last[:]
        snapshot = seen[:]
        for i, (key, old) in enumerate(zip(now, seen, strict=True)):
            if key != old:
                snapshot[i], out[i] = _built(key, names)
        memo.trans = (snapshot, out)
        return out
    known = {key[0]: (key, view) for key, view in zip(seen, last, strict=True)}
    snapshot, out = [], []
    for key in now:
        kept = known.get(key[0])
        copy, view = kept if kept is not None and kept[0] == key else _built(key, names)
        snapshot.append(copy)
        out.append(view)
    memo.trans = (snapshot, out)
    return out


def _built(key: tuple[Any, ...], names: tuple[str, ...]) -> tuple[tuple[Any, ...], Any]:
    """A transporter's snapshot (its cargo copied) and its new ``TransporterView``."""
    tid, owner, kind, place, moved, carrier, cargo = key
    return (
        (tid, owner, kind, place, moved, carrier, cargo[:]),
        TransporterView(tid, owner, names[kind], place, moved, cargo[:], carrier),
    )


def buildings(
    memo: ViewMemo, built: dict[int, list[int]], bags: dict[int, list[int]], names: tuple[str, ...]
) -> list[BuildingView]:
    """``BuildingView`` of every building, sorted by hex; rebuilt when a building or a
    mine's bag changed."""
    seen, seen_bags, last = memo.buildings
    if built == seen and bags == seen_bags:
        return last
    out = [
        BuildingView(h, names[b[0]], b[1], b[2], b[3], *bags.get(h, (0, 0)))
        for h, b in sorted(built.items())
    ]
    memo.buildings = ({h: b[:] for h, b in built.items()}, {h: b[:] for h, b in bags.items()}, out)
    return out


def piles(memo: ViewMemo, state_piles: dict[int, list[int]]) -> list[PileView]:
    """``PileView`` of every pile, sorted by place, each reused where its goods are equal."""
    entry = memo.piles
    if entry is not None and entry[0] == state_piles:
        return entry[1]
    known = {} if entry is None else {v.place: v for v in entry[1]}
    out = []
    for p, goods in sorted(state_piles.items()):
        v = known.get(p)
        if v is None or v.goods != goods:
            v = PileView(p, goods[:])
        out.append(v)
    memo.piles = ({p: g[:] for p, g in state_piles.items()}, out)
    return out


def layout(
    memo: ViewMemo,
    roads: set[int],
    bridges: list[tuple[int, int]],
    walls: dict[int, list[int]],
    n_edges: int,
    cross_edge: Any,
) -> tuple[list[int], list[list[int]], list[list[int]], list[WallView]]:
    """``(roads, bank_roads, bridges, walls)`` of the view; rebuilt when a road, a bridge
    or a wall changed."""
    entry = memo.layout
    if entry is not None and entry[0] == roads and entry[1] == bridges and entry[2] == walls:
        return entry[3]
    ordered = sorted(roads)
    built = (
        [c for c in ordered if c < n_edges],
        [[cross_edge[c], (c - n_edges) % 2] for c in ordered if c >= n_edges],
        [[h, s] for h, s in bridges],
        [WallView(e, o, s) for e, (o, s) in sorted(walls.items())],
    )
    memo.layout = (set(roads), bridges[:], {e: w[:] for e, w in walls.items()}, built)
    return built


def research(
    memo: ViewMemo, done: list[int], fresh: list[int], names: Any
) -> tuple[list[list[str]], list[list[str]]]:
    """``(research, fresh)`` name lists by seat; rebuilt when a bit set changed."""
    key = (*done, -1, *fresh)
    entry = memo.research
    if entry is not None and entry[0] == key:
        return entry[1], entry[2]
    out = ([list(names(r)) for r in done], [list(names(r)) for r in fresh])
    memo.research = (key, *out)
    return out
