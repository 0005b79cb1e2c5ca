"""Roads & Boats chance nodes: the map seed, the temple order, mine draws, drafted tiles.

With ``map=drafted`` the land is dealt as tiles that the players place in turn before a
seed lays the rivers: those steps live here with the chance nodes that drive them.
"""

from __future__ import annotations

import random
from typing import Any

from referee.api.engine import InvalidChance
from referee.api.native import trait
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.base import MAP_SEEDS, UNDRAWN, StateBase
from referee.games.roads_and_boats.world import drafted_map, generate_map, world_from_spec


@trait
class ChanceRules(StateBase):
    """Chance outcomes (sampled and applied) and the drafted-map steps."""

    def sample_chance(self, rng: random.Random) -> Any:
        """Setup: the generated map's seed (an int, when no ``map_seed`` pins it), then
        a temple order (list of seats, closest first); production: one mine draw per
        non-empty bag, ``[[hex, "gold"|"iron"], ...]`` (rulebook p8)."""
        if self.step in ("map", "rivers"):
            return rng.randrange(MAP_SEEDS)
        if self.step == "deal":
            names = [t for t, w in D.GEN_TERRAIN_WEIGHTS for _ in range(w)]
            return [rng.choice(names) for _ in range(self._deal_size())]
        if self.step == "setup":
            order = list(range(self.seats))
            rng.shuffle(order)
            return order
        if self.step == "draw":
            out = []
            for h in self.draws:
                gold, iron = self.bags[h]
                out.append([h, "gold" if rng.randrange(gold + iron) < gold else "iron"])
            return out
        raise InvalidChance("not at a chance node")

    def apply_chance(self, outcome: Any) -> None:
        """Apply a map seed, a temple order or mine draws; raises InvalidChance when
        impossible (a temple order where the map seed is due names the rule change)."""
        self._legal = None
        if self.step == "map":
            if type(outcome) is not int or not 0 <= outcome < MAP_SEEDS:
                raise InvalidChance(
                    f"expected the generated map's seed (an int below {MAP_SEEDS}), got "
                    f"{outcome!r}: since referee 0.2 the map is drawn at setup unless "
                    "option map_seed pins it (records of 0.1 used map_seed=1)"
                )
            world = world_from_spec(*generate_map(self.seats, outcome))
            self.world = world
            self.root = list(range(len(world.place_kind)))
            self.step = "homes" if self.seats == 1 else "setup"
            return
        if self.step == "setup":
            if (
                not isinstance(outcome, list)
                or not all(type(x) is int for x in outcome)
                or sorted(outcome) != list(range(self.seats))
            ):
                raise InvalidChance(f"temple order must be a permutation of seats: {outcome!r}")
            self.temple = list(outcome)
            self.sequence = self.temple[::-1]
            self.step = "deal" if self.world is UNDRAWN else "homes"
            self.actor = 0
            return
        if self.step == "deal":
            self._apply_deal(outcome)
            return
        if self.step == "rivers":
            if type(outcome) is not int or not 0 <= outcome < MAP_SEEDS:
                raise InvalidChance(f"expected the rivers' seed (an int below {MAP_SEEDS})")
            world = world_from_spec(*drafted_map(self.seats, self.tiles, outcome))
            self.world = world
            self.root = list(range(len(world.place_kind)))
            self.step, self.actor = "homes", 0
            return
        if self.step != "draw":
            raise InvalidChance("not at a chance node")
        if not isinstance(outcome, list) or len(outcome) != len(self.draws):
            raise InvalidChance(f"expected {len(self.draws)} mine draws, got {outcome!r}")
        for h, item in zip(self.draws, outcome, strict=True):
            if not (isinstance(item, list) and len(item) == 2 and item[0] == h):
                raise InvalidChance(f"bad mine draw {item!r} (expected [{h}, good])")
            if item[1] not in ("gold", "iron"):
                raise InvalidChance(f"a mine yields gold or iron, not {item[1]!r}")
            if self.bags[h][0 if item[1] == "gold" else 1] <= 0:
                raise InvalidChance(f"the bag of the mine on hex {h} holds no {item[1]}")
        for h, (_, good) in zip(self.draws, outcome, strict=True):
            self._mine_yield(h, good == "gold")
        self.draws = []
        self._begin_order()

    def _deal_size(self) -> int:
        """Tiles the next draw gives: 1 for the opening tile, then 2 (fewer at the end)."""
        if not self.tiles:
            return 1
        return min(2, D.GEN_LAND_PER_PLAYER * self.seats - len(self.tiles))

    def _apply_deal(self, outcome: Any) -> None:
        land = [t for t, _w in D.GEN_TERRAIN_WEIGHTS]
        if (
            not isinstance(outcome, list)
            or len(outcome) != self._deal_size()
            or not all(t in land for t in outcome)
        ):
            raise InvalidChance(
                f"expected {self._deal_size()} drawn land tiles (of {', '.join(land)}), "
                f"got {outcome!r}"
            )
        self.hand = list(outcome)
        self.step = "tile"

    def tile_spots(self) -> list[tuple[int, int]]:
        """Free cells a drafted tile may go to: next to the map (the opening tile at 0,0)."""
        if not self.tiles:
            return [(0, 0)]
        taken = {(q, r) for q, r, _t in self.tiles}
        spots = {
            (q + dq, r + dr)
            for q, r, _t in self.tiles
            for dq, dr in D.DELTAS
            if (q + dq, r + dr) not in taken
        }
        return sorted(spots)

    def _apply_tile(self, action: A.PlaceTile) -> None:
        self.hand.remove(action.terrain)
        self.tiles.append((action.q, action.r, action.terrain))
        if self.hand:
            return
        if len(self.tiles) >= D.GEN_LAND_PER_PLAYER * self.seats:
            self.step = "rivers"
            return
        if len(self.tiles) > 1:  # the opener places one tile, then the next player draws
            self.actor = (self.actor + 1) % len(self.sequence)
        elif self.seats > 1:
            self.actor = 1
        self.step = "deal"

    def _do_place_tile(self, seat: int, action: A.PlaceTile) -> None:
        self._apply_tile(action)
