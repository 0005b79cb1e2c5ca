"""The costly parts of a Roads & Boats view, rebuilt only when their part of the state
changed since the last view of the same game (:meth:`RBState.view`).

Between two decisions a move changes a transporter or two and a pile, rarely a
building, a road or a research project; yet a view lists every transporter,
building, pile, road and wall.  :class:`ViewMemo` keeps, for each such part, what it
was built from and the view objects built, and the next view reuses the objects
where nothing changed.  Transporters are told apart by their stamps
(:class:`.base.Transporter`): a transporter gets a new stamp at every assignment and
its cargo is a tuple, so an unchanged stamp is unchanged content, enforced by the
class rather than by each rule remembering to report a change.  The other parts
keep a copy of the state they were built from and compare it (list and dict
equality, in C).  The output is exactly what building everything afresh gives
(``tests/roads_and_boats/test_view_memo.py``, ``tests/test_golden_trajectories.py``).

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

    __slots__ = ("buildings", "known", "layout", "piles", "research", "trans")

    def __init__(self) -> None:
        # trans: the transporters' stamps, the views built; known: a view by stamp, for
        # every stamp met lately (a stamp's view never changes, so sharing the dict
        # between clones in several threads is safe; it is replaced, not emptied)
        self.trans: tuple[list[int], list[TransporterView]] = ([], [])
        self.known: dict[int, TransporterView] = {}
        # buildings, bags (copies), the list built
        self.buildings: tuple[dict[int, list[int]], dict[int, list[int]], list[BuildingView]] = (
            {},
            {},
            [],
        )
        # piles: the state's piles copied ({place: goods}), the list built
        self.piles: tuple[dict[int, list[int]], list[PileView]] | None = None
        # roads, bridges, walls (copies) and (roads, bank_roads, bridges, walls) built
        self.layout: tuple[Any, ...] | None = None
        # research and fresh bit sets (copies), and the two lists built
        self.research: tuple[list[int], list[int], list[list[str]], list[list[str]]] | None = None


_STAMP = attrgetter("stamp")


def transporters(memo: ViewMemo, trans: dict[int, Any], names: tuple[str, ...]) -> list[Any]:
    """``TransporterView`` of every transporter in ``trans`` order, each reused from an
    earlier view where the transporter's stamp is the same (:class:`.base.Transporter`:
    every change of a transporter gives it a new stamp, so an equal stamp is equal
    content)."""
    stamps = list(map(_STAMP, trans.values()))
    seen, last = memo.trans
    if stamps == seen:
        return last
    known = memo.known
    out: list[Any] = list(map(known.get, stamps))  # in C: all but one or two found
    missing = out.count(None)
    if missing:
        values = list(trans.values())
        i = 0
        for _ in range(missing):
            i = out.index(None, i)
            t = values[i]
            out[i] = known[stamps[i]] = TransporterView(
                t.id, t.owner, names[t.kind], t.place, t.moved, list(t.cargo), t.carrier
            )
        if len(known) > 4 * len(out) + 16:  # forget the stamps of the past
            memo.known = dict(zip(stamps, out, strict=True))
    memo.trans = (stamps, out)
    return out


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
    entry = memo.research
    if entry is not None and entry[0] == done and entry[1] == fresh:
        return entry[2], entry[3]
    out = ([list(names(r)) for r in done], [list(names(r)) for r in fresh])
    memo.research = (done[:], fresh[:], *out)
    return out
