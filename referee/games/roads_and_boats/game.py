"""The Roads & Boats :class:`~referee.engine.Game`: options, maps and the factory."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.engine import Game, OptionError
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.actions import RBAction
from referee.games.roads_and_boats.options import RBOptions
from referee.games.roads_and_boats.state import RBState, state_from_view
from referee.games.roads_and_boats.view import RBView
from referee.games.roads_and_boats.world import (
    World,
    generate_map,
    load_map_file,
    world_from_spec,
)


def resolve_map(options: RBOptions, seats: int) -> World:
    """The :class:`World` chosen by ``options.map`` for ``seats`` players.

    Raises :class:`~referee.engine.OptionError` (a ``MapError``) for an unknown name
    or an invalid map file.
    """
    name = options.map
    if name == "auto":
        name = D.DEFAULT_MAP.get(seats, "generated")
    if name == "generated":
        gen_name, spec = generate_map(seats, options.map_seed)
        return world_from_spec(gen_name, spec)
    if name in D.MAPS:
        return world_from_spec(name, D.MAPS[name][1])
    if name.endswith(".json"):
        file_name, spec = load_map_file(name)
        return world_from_spec(file_name, spec)
    known = ", ".join(["auto", "generated", *D.MAPS])
    raise OptionError(f"roads-and-boats: unknown map {name!r} (known: {known}, or a .json file)")


class RoadsAndBoats(Game[RBOptions]):
    """Roads & Boats (Splotter, 3rd edition), 1-4 players."""

    name: ClassVar[str] = "roads-and-boats"
    title: ClassVar[str] = "Roads & Boats"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 4
    action_type: ClassVar[Any] = RBAction
    view_type: ClassVar[Any] = RBView
    options_type: ClassVar[type[RBOptions]] = RBOptions

    def new_game(self, seats: int, options: RBOptions | None = None) -> RBState:
        """A new match at its setup chance node (the temple draw; solo starts at homes).

        Raises OptionError for a bad seat count, map or option value.
        """
        self.check_seats(seats)
        options = options or RBOptions()
        if options.solo_turns < 1:
            raise OptionError("roads-and-boats: solo_turns must be at least 1")
        return RBState(resolve_map(options, seats), seats, options)

    def determinize(self, view: RBView, rng: random.Random) -> RBState:
        """The full state behind ``view`` (nothing is hidden; ``rng`` is unused)."""
        seats = len(view.homes)
        world = world_from_spec(view.map_name, view.map)
        return state_from_view(world, view.options, seats, view)
