"""The Roads & Boats :class:`~referee.api.engine.Game`: options, maps and the factory."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from referee.api.deprecation import renamed
from referee.api.engine import Game, OptionError
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.actions import RBAction
from referee.games.roads_and_boats.options import RULE_SETS, RBOptions, upgrade_raw_options
from referee.games.roads_and_boats.state import RBState, state_from_view
from referee.games.roads_and_boats.view import RBView
from referee.games.roads_and_boats.world import (
    World,
    generate_map,
    load_map_file,
    world_from_spec,
)


def map_name(options: RBOptions, seats: int) -> str:
    """The map ``options.map`` names for ``seats`` players (``auto`` resolved)."""
    if options.map == "auto":
        return D.DEFAULT_MAP.get(seats, "generated")
    return options.map


def pinned_seed(options: RBOptions) -> int | None:
    """The generated map's seed fixed by the options, or None when it is drawn at setup
    (the ``referee-0.1`` rules always used seed 1)."""
    if options.map_seed is None and options.legacy:
        return 1
    return options.map_seed


def resolve_map(options: RBOptions, seats: int, seed: int | None = None) -> World:
    """The :class:`World` chosen by ``options.map`` for ``seats`` players; a generated
    map uses ``seed`` (the setup chance outcome) unless ``map_seed`` pins one.

    Raises :class:`~referee.api.engine.OptionError` (a ``MapError``) for an unknown name,
    an invalid map file, or a generated map without any seed.
    """
    name = map_name(options, seats)
    if name == "generated":
        seed = pinned_seed(options) if pinned_seed(options) is not None else seed
        if seed is None:
            raise OptionError("roads-and-boats: a generated map needs a seed")
        gen_name, spec = generate_map(seats, seed)
        return world_from_spec(gen_name, spec)
    if name in D.MAPS:
        return world_from_spec(name, D.MAPS[name][1])
    if name.endswith(".json"):
        file_name, spec = load_map_file(name)
        return world_from_spec(file_name, spec)
    known = ", ".join(["auto", "generated", "drafted", *D.MAPS])
    raise OptionError(f"roads-and-boats: unknown map {name!r} (known: {known}, or a .json file)")


class RoadsAndBoatsGame(Game[RBOptions]):
    """Roads & Boats (Splotter, 3rd edition), 1-4 players."""

    name: ClassVar[str] = "roads-and-boats"
    title: ClassVar[str] = "Roads & Boats"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 4
    action_type: ClassVar[Any] = RBAction
    view_type: ClassVar[Any] = RBView
    options_type: ClassVar[type[RBOptions]] = RBOptions

    def new_game(self, seats: int, options: RBOptions | None = None) -> RBState:
        """A new match at its setup chance node: the generated map's seed when the map
        is drawn (no ``map_seed``), then the temple draw (solo starts at homes); with
        ``map=drafted`` the temple draw, then the tile draft (deal/tile/rivers).

        Raises OptionError for a bad seat count, map or option value.
        """
        self.check_seats(seats)
        options = options or RBOptions()
        if options.solo_turns < 1:
            raise OptionError("roads-and-boats: solo_turns must be at least 1")
        name = map_name(options, seats)
        if name == "drafted" or (name == "generated" and pinned_seed(options) is None):
            return RBState(None, seats, options)  # the map is laid by chance (and players)
        return RBState(resolve_map(options, seats), seats, options)

    def parse_options(self, raw: Mapping[str, Any]) -> RBOptions:
        """Options from a mapping (see :class:`RBOptions`); a complete options object of
        referee 0.1.x (an old record header) gets ``rules = "referee-0.1"``.

        Raises OptionError naming a bad key or value.
        """
        options = super().parse_options(upgrade_raw_options(dict(raw)))
        if options.rules not in RULE_SETS:
            known = ", ".join(RULE_SETS)
            raise OptionError(f"roads-and-boats: unknown rules {options.rules!r} (known: {known})")
        if options.wall_limit < 0:
            raise OptionError("roads-and-boats: wall_limit must be 0 (no limit) or more")
        return options

    def chance_schema(self) -> dict[str, Any]:
        """The generated map's seed at setup, the temple order, or the mine draws."""
        natural = {"type": "integer", "minimum": 0}
        seat = {"type": "integer", "minimum": 0, "maximum": 4}
        return {
            "anyOf": [
                {"description": "The generated map's seed (setup).", **natural},
                {
                    "description": "The temple order (seats, closest first), or the mine "
                    "draws: one [hex, 'gold' | 'iron'] per non-empty bag.",
                    "type": "array",
                    "items": {
                        "anyOf": [
                            seat,
                            {
                                "type": "array",
                                "prefixItems": [natural, {"enum": ["gold", "iron"]}],
                                "items": False,
                                "minItems": 2,
                            },
                        ]
                    },
                },
            ]
        }

    def field_docs(self) -> dict[type[Any], dict[str, str]]:
        """The meaning of every view and action field (:mod:`.fields`, loaded on demand)."""
        from referee.games.roads_and_boats.fields import FIELD_DOCS

        return FIELD_DOCS

    def determinize(self, view: RBView, rng: random.Random) -> RBState:
        """The full state behind ``view`` (nothing is hidden; ``rng`` is unused)."""
        seats = len(view.homes)
        world = world_from_spec(view.map_name, view.map) if view.map else None
        return state_from_view(world, view.options, seats, view)


__getattr__ = renamed(__name__, {"RoadsAndBoats": ("RoadsAndBoatsGame", RoadsAndBoatsGame)})
