"""The Puerto Rico match state: phases, legal actions, chance events and transitions.

Rulebook: ``shared/seeds/001_cb1d955d6e4a5129.txt`` (sections "角色", the role cards and
"建筑物"); subtle cases follow ``shared/rules/puerto_rico.md`` section 6.  Chance nodes:
the first governor (an int seat), every draw of face-up plantations (a list of tile
ints, stack part first) and every hacienda draw (one tile int).  The face-down stack is
kept as counts per kind, so its order never exists and cannot leak.  The option lists
of each phase are in :mod:`referee.games.puerto_rico.choices` (a base class).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Final, Self

from referee.api import native
from referee.api.engine import (
    CHANCE,
    TERMINAL,
    IllegalAction,
    InvalidChance,
    State,
    ranks_from_keys,
)
from referee.games.puerto_rico import actions as A
from referee.games.puerto_rico.board import PLAYER_FIELDS, Player
from referee.games.puerto_rico.choices import CIRCLES as _CIRCLES
from referee.games.puerto_rico.choices import Choices
from referee.games.puerto_rico.data import (
    BUILDINGS,
    CAPTAIN,
    CITY_SPACES,
    CRAFTSMAN,
    DOUBLOONS_TOTAL,
    FACTORY,
    FACTORY_BONUS,
    GOOD_INDEX,
    GOOD_NAMES,
    HARBOR,
    HOSPICE,
    LARGE_MARKET,
    MAYOR,
    N_BUILDINGS,
    QUARRY,
    ROLE_INDEX,
    ROLE_NAMES,
    SETTLER,
    SMALL_MARKET,
    TRADE_PRICE,
    TRADER,
    TRADING_HOUSE_SIZE,
    UNIVERSITY,
    Setup,
)
from referee.games.puerto_rico.options import PuertoRicoOptions
from referee.games.puerto_rico.phases import (
    CHANCE_PHASES as CHANCE_PHASES,
)
from referee.games.puerto_rico.phases import (
    NO_ROLE,
    P_BUILDER,
    P_CAPTAIN,
    P_CRAFTSMAN,
    P_DRAW,
    P_GOVERNOR,
    P_HACIENDA_DRAW,
    P_MAYOR,
    P_OVER,
    P_ROLE,
    P_SETTLER,
    P_STORAGE,
    P_TRADER,
    PHASE_NAMES,
)
from referee.games.puerto_rico.plantations import (
    apply_display,
    apply_one,
    display_draw_size,
    sample_display,
    sample_one,
)
from referee.games.puerto_rico.scoring import final_scores, tie_breaks
from referee.games.puerto_rico.view import PuertoRicoView
from referee.games.puerto_rico.viewbuild import build_view

NO_GOOD: Final = -1


# fmt: off
_FIELDS: tuple[str, ...] = (
    "seats", "options", "setup", "players", "governor", "phase", "round", "role_in_play",
    "role_coins", "role_taken", "picks", "role", "chooser", "order", "turn",
    "colonist_supply", "colonist_ship", "vp_pool", "goods_supply", "ship_cap", "ship_good",
    "ship_load", "house", "face_up", "stack", "discard", "quarries", "building_supply",
    "bank", "end_triggered", "hacienda_used", "produced", "captain_bonus_used",
    "wharf_used", "idle", "kept", "_legal", "_mayor_spots", "_roles_memo", "_supply_memo",
    "_ships_memo"
)
"""Every attribute of a :class:`PuertoRicoState` (what ``clone``, ``debug`` and
``__reduce__`` read: a compiled class has no ``__dict__``)."""
# fmt: on


class PuertoRicoState(State, Choices):
    """One position of a Puerto Rico match (3-5 players, or 2 with the official variant).

    Built by :meth:`PuertoRicoGame.new_game`; starts at the chance node choosing the
    first governor.  All information is public except the order of the face-down
    plantation stack, which this state does not even hold (only counts per kind).
    """

    def __init__(
        self, seats: int, options: PuertoRicoOptions, setup: Setup, *, _blank: bool = False
    ) -> None:
        # _blank: no attribute set (clone() sets them all); a compiled class cannot be
        # made with object.__new__ (referee.api.native)
        if _blank:
            return
        self.seats = seats
        self.options = options
        self.setup = setup
        self.players = [Player() for _ in range(seats)]
        self.governor = 0
        self.phase = P_GOVERNOR
        self.round = 0
        self.role_in_play = [False] * len(ROLE_NAMES)
        for r in setup.roles:
            self.role_in_play[r] = True
        self.role_coins = [0] * len(ROLE_NAMES)
        self.role_taken = [False] * len(ROLE_NAMES)
        self.picks = 0
        self.role = NO_ROLE
        self.chooser = 0
        self.order: list[int] = []
        self.turn = 0
        self.colonist_supply = setup.colonists
        self.colonist_ship = setup.ship_colonists
        self.vp_pool = options.vp_chips or setup.vp_chips
        self.goods_supply = list(setup.goods)
        self.ship_cap = list(setup.cargo_ships)
        self.ship_good = [NO_GOOD] * len(setup.cargo_ships)
        self.ship_load = [0] * len(setup.cargo_ships)
        self.house: list[int] = []
        self.face_up = [0] * 5
        self.stack = list(setup.plantations)
        self.discard = [0] * 5
        self.quarries = setup.quarries
        self.building_supply = list(setup.building_copies)
        self.bank = DOUBLOONS_TOTAL
        self.end_triggered = False
        self.hacienda_used = False
        self.produced: list[int] = []
        self.captain_bonus_used = False
        self.wharf_used = [False] * seats
        self.idle = 0
        self.kept: list[int] = []
        self._legal: list[Any] | None = None
        self._mayor_spots: tuple[list[Any], int] | None = None
        """The mayor's options last left by auto-placement and his free spots then."""
        # What views memoise (see :mod:`.view`); not part of the state.
        self._roles_memo: tuple[Any, ...] | None = None
        self._supply_memo: tuple[Any, ...] | None = None
        self._ships_memo: tuple[Any, ...] | None = None

    # ------------------------------------------------------------------ basics

    def __reduce__(self) -> tuple[Any, ...]:
        """``pickle`` and ``copy`` support, the same compiled or not: the fields by name
        (a compiled class has no default for either)."""
        return native.reduce(self, (self.seats, self.options, self.setup), _FIELDS)

    def clone(self) -> Self:
        """An independent copy (hand-written, no deepcopy)."""
        c = type(self)(self.seats, self.options, self.setup, _blank=True)
        c.seats = self.seats
        c.options = self.options
        c.setup = self.setup
        c.governor = self.governor
        c.phase = self.phase
        c.round = self.round
        c.picks = self.picks
        c.role = self.role
        c.chooser = self.chooser
        c.turn = self.turn
        c.colonist_supply = self.colonist_supply
        c.colonist_ship = self.colonist_ship
        c.vp_pool = self.vp_pool
        c.quarries = self.quarries
        c.bank = self.bank
        c.end_triggered = self.end_triggered
        c.hacienda_used = self.hacienda_used
        c.captain_bonus_used = self.captain_bonus_used
        c.idle = self.idle
        c._mayor_spots = self._mayor_spots
        c._roles_memo = self._roles_memo
        c._supply_memo = self._supply_memo
        c._ships_memo = self._ships_memo
        c.players = [p.copy() for p in self.players]
        c.role_in_play = self.role_in_play[:]
        c.role_coins = self.role_coins[:]
        c.role_taken = self.role_taken[:]
        c.order = self.order[:]
        c.goods_supply = self.goods_supply[:]
        c.ship_cap = self.ship_cap[:]
        c.ship_good = self.ship_good[:]
        c.ship_load = self.ship_load[:]
        c.house = self.house[:]
        c.face_up = self.face_up[:]
        c.stack = self.stack[:]
        c.discard = self.discard[:]
        c.building_supply = self.building_supply[:]
        c.produced = self.produced[:]
        c.wharf_used = self.wharf_used[:]
        c.kept = self.kept[:]
        c._legal = None
        return c

    @property
    def vp_left(self) -> int:
        """VP chips still in the supply; negative once players write VP on paper."""
        return self.vp_pool - sum(p.vp for p in self.players)

    def current(self) -> int:
        """The seat whose decision is due (meaningful at decision nodes only)."""
        if self.phase == P_ROLE:
            return (self.governor + self.picks) % self.seats
        if self.phase == P_CRAFTSMAN:
            return self.chooser
        return self.order[self.turn]

    def to_move(self) -> int:
        """The seat to move, :data:`CHANCE` or :data:`TERMINAL`."""
        phase = self.phase
        if phase == P_OVER:
            return TERMINAL
        if phase <= P_HACIENDA_DRAW:
            return CHANCE
        if phase == P_ROLE:
            return (self.governor + self.picks) % self.seats
        if phase == P_CRAFTSMAN:
            return self.chooser
        return self.order[self.turn]

    def _order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.seats for i in range(self.seats)]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Any]:
        """The legal actions of the seat to move, in a stable order.

        Raises :class:`IllegalAction` at chance and terminal nodes.
        """
        if self._legal is not None:
            return self._legal[:]
        if self.phase <= P_HACIENDA_DRAW or self.phase == P_OVER:
            raise IllegalAction(f"no decision is due ({PHASE_NAMES[self.phase]})")
        legal = self._compute_legal()
        self._legal = legal
        return legal[:]

    def _compute_legal(self) -> list[Any]:
        phase = self.phase
        if phase == P_ROLE:
            return [
                action
                for action, in_play, taken in zip(
                    A.ROLE_ACTIONS, self.role_in_play, self.role_taken, strict=True
                )
                if in_play and not taken
            ]
        seat = self.current()
        if phase == P_SETTLER:
            return self._settler_options(seat)
        if phase == P_MAYOR:
            return self._place_options(self.players[seat])
        if phase == P_BUILDER:
            return self._build_options(seat)
        if phase == P_CRAFTSMAN:
            return [A.EXTRA_GOOD_ACTIONS[g] for g in self.produced if self.goods_supply[g] > 0] + [
                A.PASS_ACTION
            ]
        if phase == P_TRADER:
            return self._sell_options(seat)
        if phase == P_CAPTAIN:
            return self._captain_options(seat)
        return self._storage_options(self.players[seat])

    # ------------------------------------------------------------------ actions

    def apply_action(self, action: Any) -> None:
        """Apply ``action`` for the seat to move; :class:`IllegalAction` if not legal."""
        legal = self._legal if self._legal is not None else None
        if legal is None:
            if self.phase <= P_HACIENDA_DRAW or self.phase == P_OVER:
                raise IllegalAction(f"no decision is due ({PHASE_NAMES[self.phase]})")
            legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(f"illegal in {PHASE_NAMES[self.phase]}: {action!r}")
        self._legal = None
        phase = self.phase
        if phase == P_ROLE:
            seat = (self.governor + self.picks) % self.seats
        elif phase == P_CRAFTSMAN:
            seat = self.chooser
        else:
            seat = self.order[self.turn]
        kind = type(action)
        if kind is A.ChooseRole:
            self._choose_role(seat, ROLE_INDEX[action.role])
        elif kind is A.Place:
            self._place(self.players[seat], action, legal)
        elif kind is A.Load:
            self._load(seat, GOOD_INDEX[action.good], action.ship)
        elif kind is A.TakePlantation:
            self._take_tile(seat, GOOD_INDEX[action.good])
        elif kind is A.TakeQuarry:
            self.quarries -= 1
            self._take_tile(seat, QUARRY)
        elif kind is A.HaciendaDraw:
            self.hacienda_used = True
            self.phase = P_HACIENDA_DRAW
        elif kind is A.Build:
            self._build(seat, A_BUILDING_INDEX[action.building])
        elif kind is A.ExtraGood:
            g = GOOD_INDEX[action.good]
            self.goods_supply[g] -= 1
            self.players[seat].goods[g] += 1
            self._end_role()
        elif kind is A.Sell:
            self._sell(seat, GOOD_INDEX[action.good])
        elif kind is A.UseWharf:
            self._wharf(seat, GOOD_INDEX[action.good])
        elif kind is A.KeepKind:
            self.kept.append(GOOD_INDEX[action.good])
            self._storage_continue()
        elif kind is A.KeepBarrel:
            self._store_finish(self.players[seat], GOOD_INDEX[action.good])
        else:  # Pass
            self._pass()

    def _pass(self) -> None:
        phase = self.phase
        if phase == P_SETTLER:
            self._settler_next()
        elif phase == P_BUILDER:
            self.turn += 1
            self._builder_continue()
        elif phase == P_CRAFTSMAN:
            self._end_role()
        elif phase == P_TRADER:
            self.turn += 1
            self._trader_continue()
        elif phase == P_CAPTAIN:
            self.idle += 1
            self.turn = (self.turn + 1) % self.seats
            self._captain_continue()

    # ------------------------------------------------------------------ roles and rounds

    def _start_round(self) -> None:
        self.picks = 0
        self.role_taken = [False] * len(ROLE_NAMES)
        self.phase = P_ROLE
        self.role = NO_ROLE

    def _choose_role(self, seat: int, role: int) -> None:
        p = self.players[seat]
        p.doubloons += self.role_coins[role]
        self.role_coins[role] = 0
        self.role_taken[role] = True
        self.role = role
        self.chooser = seat
        self.order = self._order_from(seat)
        self.turn = 0
        if role == SETTLER:
            self.phase = P_SETTLER
            self.hacienda_used = False
            self._settler_continue()
        elif role == MAYOR:
            self._start_mayor(seat)
        elif role == CRAFTSMAN:
            self._craftsman()
        elif role == TRADER:
            self.phase = P_TRADER
            self._trader_continue()
        elif role == CAPTAIN:
            self.phase = P_CAPTAIN
            self.captain_bonus_used = False
            self.wharf_used = [False] * self.seats
            self.idle = 0
            self._captain_continue()
        elif role == ROLE_INDEX["builder"]:
            self.phase = P_BUILDER
            self._builder_continue()
        else:  # prospector: privilege only
            self._pay(p, 1)
            self._end_role()

    def _pay(self, p: Player, amount: int) -> None:
        p.doubloons += amount
        self.bank -= amount

    def _end_role(self) -> None:
        self.picks += 1
        self.role = NO_ROLE
        if self.picks < self.setup.role_picks:
            self.phase = P_ROLE
            return
        for r in range(len(ROLE_NAMES)):
            if self.role_in_play[r] and not self.role_taken[r]:
                self.role_coins[r] += 1
                self.bank -= 1
        self.governor = (self.governor + 1) % self.seats
        self.round += 1
        if self.end_triggered:
            self.phase = P_OVER
        else:
            self._start_round()

    # ------------------------------------------------------------------ settler

    def _settler_continue(self) -> None:
        while self.turn < self.seats:
            options = self._settler_options(self.order[self.turn])
            if options:
                self._legal = options  # the seat to move and its legal actions
                return
            self.turn += 1
            self.hacienda_used = False
        for k in range(5):
            self.discard[k] += self.face_up[k]
            self.face_up[k] = 0
        if sum(self.stack) + sum(self.discard) > 0:
            self.phase = P_DRAW
        else:
            self._end_role()

    def _settler_next(self) -> None:
        self.turn += 1
        self.hacienda_used = False
        self._settler_continue()

    def _take_tile(self, seat: int, kind: int) -> None:
        p = self.players[seat]
        if kind != QUARRY:
            self.face_up[kind] -= 1
        p.tiles[kind] += 1
        if p.has(HOSPICE) and self._take_colonist():
            p.occ[kind] += 1
        self._settler_next()

    def _take_colonist(self) -> bool:
        """One colonist from the supply, else from the ship (hospice, university)."""
        if self.colonist_supply > 0:
            self.colonist_supply -= 1
            return True
        if self.colonist_ship > 0:
            self.colonist_ship -= 1
            return True
        return False

    # ------------------------------------------------------------------ mayor

    def _start_mayor(self, seat: int) -> None:
        mayor = self.players[seat]
        if self.colonist_supply > 0:
            self.colonist_supply -= 1
            mayor.pool += 1
        i = 0
        while self.colonist_ship > 0:
            self.players[self.order[i % self.seats]].pool += 1
            self.colonist_ship -= 1
            i += 1
        self.phase = P_MAYOR
        self._mayor_turn_start()

    def _mayor_turn_start(self) -> None:
        """Collect the current player's colonists and place them while no choice exists."""
        while self.turn < self.seats:
            p = self.players[self.order[self.turn]]
            p.pool += p.colonists() - p.pool
            p.occ = [0] * 6
            p.bld = [0 if c >= 0 else -1 for c in p.bld]
            p.san_juan = 0
            if self._auto_place(p):
                return
            self.turn += 1
        self._mayor_refill()

    def _auto_place(self, p: Player) -> bool:
        """Place colonists that have no choice; True if a decision remains."""
        if p.pool == 0:
            return False
        occ, tiles = p.occ, p.tiles
        spots: list[Any] = [A.PLACE_TILE_ACTIONS[k] for k in range(6) if occ[k] < tiles[k]]
        free = sum(tiles) - sum(occ)
        for c, circles, action in zip(p.bld, _CIRCLES, A.PLACE_BUILDING_ACTIONS, strict=True):
            if 0 <= c < circles:
                spots.append(action)
                free += circles - c
        if p.pool >= free:
            p.occ = tiles[:]
            bld = p.bld
            for b in range(N_BUILDINGS):
                if bld[b] >= 0:
                    bld[b] = _CIRCLES[b]
            p.san_juan += p.pool - free
            p.pool = 0
            return False
        if len(spots) == 1:
            while p.pool:
                self._put(p, spots[0].spot)
            return False
        # ``p`` is the seat to move and ``spots`` its legal actions: keep them, and the
        # free spots for the next placement (see :meth:`_place`).
        self._legal = spots
        self._mayor_spots = (spots, free)
        return True

    @staticmethod
    def _put(p: Player, spot: str) -> None:
        p.pool -= 1
        tile = A_TILE_INDEX.get(spot)
        if tile is not None:
            p.occ[tile] += 1
        else:
            p.bld[A_BUILDING_INDEX[spot]] += 1

    def _place(self, p: Player, action: A.Place, legal: list[Any]) -> None:
        """Put one colonist on ``action.spot``; ``legal`` the options it was chosen from.

        When those are the options this state's last auto-placement left (same list
        object), the next options are worked out from them: one free spot fewer, and the
        spot used dropped once full.  Otherwise, or when no choice remains, the board
        is gone through again (:meth:`_auto_place`)."""
        spot = action.spot
        self._put(p, spot)
        memo = self._mayor_spots
        if memo is not None and memo[0] is legal:
            free = memo[1] - 1
            if 0 < p.pool < free:
                tile = A_TILE_INDEX.get(spot)
                if tile is not None:
                    full = p.occ[tile] >= p.tiles[tile]
                else:
                    building = A_BUILDING_INDEX[spot]
                    full = p.bld[building] >= _CIRCLES[building]
                spots = [a for a in legal if a.spot != spot] if full else legal
                if len(spots) > 1:
                    self._legal = spots
                    self._mayor_spots = (spots, free)
                    return
        if not self._auto_place(p):
            self.turn += 1
            self._mayor_turn_start()

    def _mayor_refill(self) -> None:
        need = max(self.setup.ship_colonists, sum(p.empty_building_circles() for p in self.players))
        if need > self.colonist_supply:
            self.end_triggered = True
            if self.options.short_refill == "remainder":
                self.colonist_ship += self.colonist_supply
                self.colonist_supply = 0
        else:
            self.colonist_supply -= need
            self.colonist_ship += need
        self._end_role()

    # ------------------------------------------------------------------ builder

    def _builder_continue(self) -> None:
        while self.turn < self.seats:
            options = self._build_options(self.order[self.turn])
            if options:
                self._legal = options  # the seat to move and its legal actions
                return
            self.turn += 1
        self._end_role()

    def _build(self, seat: int, building: int) -> None:
        p = self.players[seat]
        cost = self.build_cost(seat, building)
        p.doubloons -= cost
        self.bank += cost
        self.building_supply[building] -= 1
        p.bld[building] = 0
        p.city += 2 if BUILDINGS[building].large else 1
        if p.has(UNIVERSITY) and self._take_colonist():
            p.bld[building] = 1
        if p.city >= CITY_SPACES:
            self.end_triggered = True
        self.turn += 1
        self._builder_continue()

    # ------------------------------------------------------------------ craftsman

    def _craftsman(self) -> None:
        """Production clockwise from the craftsman, then his privilege good."""
        for seat in self.order:
            p = self.players[seat]
            kinds = []
            for g in range(5):
                amount = min(p.production(g), self.goods_supply[g])
                if amount > 0:
                    p.goods[g] += amount
                    self.goods_supply[g] -= amount
                    kinds.append(g)
            if seat == self.chooser:
                self.produced = kinds
            if p.has(FACTORY):
                self._pay(p, FACTORY_BONUS[len(kinds)])
        if any(self.goods_supply[g] > 0 for g in self.produced):
            self.phase = P_CRAFTSMAN
        else:
            self._end_role()

    # ------------------------------------------------------------------ trader

    def _trader_continue(self) -> None:
        while self.turn < self.seats:
            options = self._sell_options(self.order[self.turn])
            if options:
                self._legal = options  # the seat to move and its legal actions
                return
            self.turn += 1
        if len(self.house) >= TRADING_HOUSE_SIZE:
            for g in self.house:
                self.goods_supply[g] += 1
            self.house = []
        self._end_role()

    def sale_price(self, seat: int, good: int) -> int:
        """Doubloons ``seat`` gets for one barrel of ``good``: the trading-house price plus
        1 for the trader (privilege), 1 for an occupied small market, 2 for a large one."""
        p = self.players[seat]
        return (
            TRADE_PRICE[good]
            + (1 if seat == self.chooser else 0)
            + (1 if p.has(SMALL_MARKET) else 0)
            + (2 if p.has(LARGE_MARKET) else 0)
        )

    def _sell(self, seat: int, good: int) -> None:
        p = self.players[seat]
        p.goods[good] -= 1
        self.house.append(good)
        self._pay(p, self.sale_price(seat, good))
        self.turn += 1
        self._trader_continue()

    # ------------------------------------------------------------------ captain

    def _score_shipment(self, seat: int, barrels: int, wharf: bool) -> None:
        p = self.players[seat]
        gained = barrels
        if p.has(HARBOR):
            gained += 1
        if (
            seat == self.chooser
            and not self.captain_bonus_used
            and (not wharf or self.options.wharf_captain_bonus)
        ):
            gained += 1
            self.captain_bonus_used = True
        p.vp += gained
        if self.vp_left <= 0:
            self.end_triggered = True
        self.idle = 0
        self.turn = (self.turn + 1) % self.seats

    def _load(self, seat: int, good: int, ship: int) -> None:
        p = self.players[seat]
        amount = min(p.goods[good], self.ship_cap[ship] - self.ship_load[ship])
        p.goods[good] -= amount
        self.ship_good[ship] = good
        self.ship_load[ship] += amount
        self._score_shipment(seat, amount, wharf=False)
        self._captain_continue()

    def _wharf(self, seat: int, good: int) -> None:
        p = self.players[seat]
        amount = p.goods[good]
        p.goods[good] = 0
        self.goods_supply[good] += amount
        self.wharf_used[seat] = True
        self._score_shipment(seat, amount, wharf=True)
        self._captain_continue()

    def _captain_continue(self) -> None:
        while self.idle < self.seats:
            options = self._captain_options(self.order[self.turn])
            if options:
                self._legal = options  # the seat to move and its legal actions
                return
            self.idle += 1
            self.turn = (self.turn + 1) % self.seats
        self.phase = P_STORAGE
        self.turn = 0
        self.kept = []
        self._storage_continue()

    # ------------------------------------------------------------------ storage

    def _storage_continue(self) -> None:
        """Resolve storage for players without a choice; stop at the first real choice."""
        while self.turn < self.seats:
            p = self.players[self.order[self.turn]]
            kinds = [g for g in range(5) if p.goods[g] and g not in self.kept]
            room = self.warehouse_kinds(p) - len(self.kept)
            if len(kinds) <= room:
                self._next_storage()
                continue
            if room > 0:
                return
            if len(kinds) == 1:
                self._store_finish(p, kinds[0], advance=False)
                self._next_storage()
                continue
            return
        for s in range(len(self.ship_cap)):
            if self.ship_load[s] >= self.ship_cap[s]:
                self.goods_supply[self.ship_good[s]] += self.ship_load[s]
                self.ship_load[s] = 0
                self.ship_good[s] = NO_GOOD
        self._end_role()

    def _next_storage(self) -> None:
        self.turn += 1
        self.kept = []

    def _store_finish(self, p: Player, barrel: int, advance: bool = True) -> None:
        """Keep one barrel of ``barrel`` plus the warehoused kinds; the rest goes back."""
        for g in range(5):
            if g in self.kept:
                continue
            keep = 1 if g == barrel else 0
            if p.goods[g] > keep:
                self.goods_supply[g] += p.goods[g] - keep
                p.goods[g] = keep
        if advance:
            self._next_storage()
            self._storage_continue()

    # ------------------------------------------------------------------ chance

    def sample_chance(self, rng: random.Random) -> Any:
        """Draw the pending chance outcome: the governor seat, a list of face-up tiles,
        or one hacienda tile.  Raises :class:`InvalidChance` at other nodes."""
        if self.phase == P_GOVERNOR:
            return rng.randrange(self.seats)
        if self.phase == P_DRAW:
            need = display_draw_size(self.setup.face_up, self.stack, self.discard)
            return sample_display(need, self.stack, self.discard, rng)
        if self.phase == P_HACIENDA_DRAW:
            return sample_one(self.stack, self.discard, rng)
        raise InvalidChance(f"no chance event is due ({PHASE_NAMES[self.phase]})")

    def apply_chance(self, outcome: Any) -> None:
        """Apply a chance outcome; :class:`InvalidChance` (state unchanged) if impossible."""
        if self.phase == P_GOVERNOR:
            if type(outcome) is not int or not 0 <= outcome < self.seats:
                raise InvalidChance(f"governor must be a seat 0..{self.seats - 1}: {outcome!r}")
            self._setup(outcome)
        elif self.phase == P_DRAW:
            self._apply_draw(outcome)
        elif self.phase == P_HACIENDA_DRAW:
            self._apply_hacienda(outcome)
        else:
            raise InvalidChance(f"no chance event is due ({PHASE_NAMES[self.phase]})")
        self._legal = None

    def _setup(self, governor: int) -> None:
        self.governor = governor
        for i, tile in enumerate(self.setup.starting_tiles):
            p = self.players[(governor + i) % self.seats]
            p.tiles[tile] += 1
            self.stack[tile] -= 1
        for p in self.players:
            self._pay(p, self.setup.doubloons)
        self.phase = P_DRAW

    def _apply_draw(self, outcome: Any) -> None:
        need = display_draw_size(self.setup.face_up, self.stack, self.discard)
        self.stack, self.discard = apply_display(outcome, need, self.stack, self.discard)
        for k in outcome:
            self.face_up[k] += 1
        self.phase = P_ROLE
        if self.role == NO_ROLE and self.round == 0 and self.picks == 0:
            self._start_round()
        else:
            self._end_role()

    def _apply_hacienda(self, outcome: Any) -> None:
        self.stack, self.discard = apply_one(outcome, self.stack, self.discard)
        p = self.players[self.order[self.turn]]
        p.tiles[outcome] += 1
        self.phase = P_SETTLER
        if not self._settler_options(self.order[self.turn]):
            self._settler_next()

    # ------------------------------------------------------------------ results

    def scores(self) -> list[float]:
        """Final VP by seat: chips (and paper VP) + building VP + large-building bonuses."""
        return [float(s) for s in final_scores(self.players)]

    def ranks(self) -> list[int]:
        """Ranks by VP, ties broken by doubloons + goods; further ties share the rank."""
        keys = [
            (s, t)
            for s, t in zip(final_scores(self.players), tie_breaks(self.players), strict=True)
        ]
        return ranks_from_keys(keys)

    def view(self, seat: int) -> PuertoRicoView:
        """The (fully public) observation for ``seat``; see :mod:`.view`."""
        return build_view(self, seat)

    def debug(self) -> Any:
        """The full state as JSON-able data (the stack as counts: it has no order)."""
        out = {k: getattr(self, k) for k in _FIELDS if k != "players" and not k.startswith("_")}
        out["options"] = {f: getattr(self.options, f) for f in self.options.__struct_fields__}
        out["setup"] = dataclasses.asdict(self.setup)
        out["phase"] = PHASE_NAMES[self.phase]
        out["players"] = [
            {k: getattr(p, k) for k in PLAYER_FIELDS if not k.startswith("_")} for p in self.players
        ]
        return out


A_BUILDING_INDEX: Final = {b.name: i for i, b in enumerate(BUILDINGS)}
A_TILE_INDEX: Final = {name: i for i, name in enumerate((*GOOD_NAMES, "quarry"))}
