"""Puerto Rico action kinds (tagged on ``kind``) and shared prebuilt instances.

Every decision is atomic: one role, one tile, one colonist, one building, one barrel
sale, one load, one stored kind.  Goods and tiles are named by their wire names
(``"corn"``, ``"indigo"``, ``"sugar"``, ``"tobacco"``, ``"coffee"``, ``"quarry"``),
buildings by snake-case names from :data:`~referee.games.puerto_rico.data.BUILDINGS`.
"""

from __future__ import annotations

from typing import Final

from referee.api.engine import Action
from referee.games.puerto_rico.data import BUILDINGS, GOOD_NAMES, ROLE_NAMES, TILE_NAMES


class ChooseRole(Action, frozen=True, tag="role"):
    """Take the role card ``role`` (e.g. ``"settler"``, ``"prospector_2"``) and its doubloons."""

    role: str


class TakePlantation(Action, frozen=True, tag="plantation"):
    """Settler phase: take a face-up plantation of kind ``good``."""

    good: str


class TakeQuarry(Action, frozen=True, tag="quarry"):
    """Settler phase: take a quarry (settler privilege or occupied construction hut)."""


class HaciendaDraw(Action, frozen=True, tag="hacienda"):
    """Settler phase, occupied hacienda: first take the top face-down plantation."""


class Place(Action, frozen=True, tag="place"):
    """Mayor phase: put one colonist on ``spot`` (a tile name such as ``"corn"`` or
    ``"quarry"``, or a building name)."""

    spot: str


class Build(Action, frozen=True, tag="build"):
    """Builder phase: build ``building`` (a building name)."""

    building: str


class ExtraGood(Action, frozen=True, tag="extra_good"):
    """Craftsman privilege: one more barrel of ``good``, a kind just produced."""

    good: str


class Sell(Action, frozen=True, tag="sell"):
    """Trader phase: sell one barrel of ``good`` to the trading house."""

    good: str


class Load(Action, frozen=True, tag="load"):
    """Captain phase: load as many barrels of ``good`` as fit on cargo ship ``ship``
    (index into the ship list, smallest first)."""

    good: str
    ship: int


class UseWharf(Action, frozen=True, tag="wharf"):
    """Captain phase, occupied wharf: ship all barrels of ``good`` on the owner's wharf."""

    good: str


class KeepKind(Action, frozen=True, tag="keep_kind"):
    """End of captain phase: keep every barrel of ``good`` in a warehouse."""

    good: str


class KeepBarrel(Action, frozen=True, tag="keep_barrel"):
    """End of captain phase: keep one barrel of ``good`` on the windrose."""

    good: str


class Pass(Action, frozen=True, tag="pass"):
    """Decline the optional step at hand (tile, build, sale, privilege good, wharf)."""


PuertoRicoAction = (
    ChooseRole
    | TakePlantation
    | TakeQuarry
    | HaciendaDraw
    | Place
    | Build
    | ExtraGood
    | Sell
    | Load
    | UseWharf
    | KeepKind
    | KeepBarrel
    | Pass
)
"""The tagged union of all Puerto Rico actions."""

MAX_SHIPS: Final = 3

ROLE_ACTIONS: Final = tuple(ChooseRole(name) for name in ROLE_NAMES)
PLANTATION_ACTIONS: Final = tuple(TakePlantation(name) for name in GOOD_NAMES)
QUARRY_ACTION: Final = TakeQuarry()
HACIENDA_ACTION: Final = HaciendaDraw()
PLACE_TILE_ACTIONS: Final = tuple(Place(name) for name in TILE_NAMES)
PLACE_BUILDING_ACTIONS: Final = tuple(Place(b.name) for b in BUILDINGS)
BUILD_ACTIONS: Final = tuple(Build(b.name) for b in BUILDINGS)
EXTRA_GOOD_ACTIONS: Final = tuple(ExtraGood(name) for name in GOOD_NAMES)
SELL_ACTIONS: Final = tuple(Sell(name) for name in GOOD_NAMES)
LOAD_ACTIONS: Final = tuple(tuple(Load(name, s) for s in range(MAX_SHIPS)) for name in GOOD_NAMES)
WHARF_ACTIONS: Final = tuple(UseWharf(name) for name in GOOD_NAMES)
KEEP_KIND_ACTIONS: Final = tuple(KeepKind(name) for name in GOOD_NAMES)
KEEP_BARREL_ACTIONS: Final = tuple(KeepBarrel(name) for name in GOOD_NAMES)
PASS_ACTION: Final = Pass()
