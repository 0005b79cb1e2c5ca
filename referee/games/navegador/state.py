"""The Navegador rules engine: one match position and its transitions.

Sections of the rulebook (both translations) are cited per method.  Board numbers come
from :mod:`referee.games.navegador.data`.  Face-down colony stacks are not fixed at setup:
a stack's tiles are drawn from the unseen tiles of its good when the region is explored
(a chance node).  Because every stack of a good is dealt from one shuffled pile, this
gives the same distribution as dealing at setup, and no seat can ever know a hidden
price.
"""

from __future__ import annotations

import bisect
import random
from typing import Any

import msgspec

from referee.api import native
from referee.api.engine import (
    CHANCE,
    TERMINAL,
    IllegalAction,
    InvalidChance,
    State,
    ranks_from_keys,
)
from referee.games.navegador import data
from referee.games.navegador.actions import (
    DONE,
    USE_CARD,
    Build,
    ClaimKing,
    Found,
    Hire,
    Launch,
    Process,
    Rondel,
    Sail,
    Scrap,
    Sell,
    TakePrivilege,
)
from referee.games.navegador.options import NavegadorOptions
from referee.games.navegador.phases import (
    BUILDINGS,
    COLONY,
    MARKET,
    OVER,
    PRIVILEGE,
    RONDEL_STAGE,
    SAILING,
    SCRAP,
    SHIPS,
    START,
    WORKERS,
)
from referee.games.navegador.phases import (
    STAGE_NAMES as STAGE_NAMES,
)
from referee.games.navegador.player import Player
from referee.games.navegador.sailing import distances
from referee.games.navegador.view import NavegadorView, RegionView
from referee.games.navegador.viewbuild import build_view

REGION_INDEX = {name: i for i, name in enumerate(data.REGIONS)}
GOOD_INDEX = {name: i for i, name in enumerate(data.GOODS)}
BUILDING_INDEX = {name: i for i, name in enumerate(data.BUILDINGS)}
COLUMN_INDEX = {name: i for i, name in enumerate(data.COLUMNS)}
N_REGIONS = len(data.REGIONS)

_RONDEL_ACTIONS = tuple(Rondel(space=s) for s in range(len(data.RONDEL)))
_SCRAP_ACTIONS = tuple(Scrap(region=name) for name in data.REGIONS)
_SAIL_ACTIONS = tuple(tuple(Sail(src=a, dst=b) for b in data.REGIONS) for a in data.REGIONS)
_FOUND_ACTIONS = tuple(Found(region=name) for name in data.REGIONS)
_BUILD_ACTIONS = tuple(Build(building=name) for name in data.BUILDINGS)
_PRIVILEGE_ACTIONS = tuple(TakePrivilege(column=name) for name in data.COLUMNS)
_KING_ACTIONS = tuple(ClaimKing(column=name) for name in data.COLUMNS)


_COUNTED: dict[tuple[type, str, int], tuple[Any, ...]] = {}

_STONE_MOVES: dict[tuple[int, int], tuple[Rondel, ...]] = {}
"""Rondel moves by (stone space, own ships on the map up to the rondel's size)."""


def _counted(kind: type, good: str, most: int) -> tuple[Any, ...]:
    """``kind(count=1) .. kind(count=most)`` (with ``good=good`` for Sell and Process),
    made once per kind, good and bound: actions are frozen, so the same instances serve
    every state."""
    key = (kind, good, most)
    actions = _COUNTED.get(key)
    if actions is None:
        if good:
            actions = tuple(kind(good=good, count=k) for k in range(1, most + 1))
        else:
            actions = tuple(kind(count=k) for k in range(1, most + 1))
        _COUNTED[key] = actions
    return actions


_FIELDS: tuple[str, ...] = (
    "_legal",
    "_movers_memo",
    "_regions_memo",
    "card_holder",
    "card_marker",
    "card_sailing",
    "current",
    "display",
    "display_taken",
    "double_loss",
    "end_seat",
    "end_turns",
    "expedition",
    "expedition_ships",
    "explored",
    "explored_now",
    "founded",
    "gallery",
    "gallery_box",
    "goods_used",
    "market",
    "movers",
    "options",
    "phase",
    "phase_pending",
    "players",
    "reveal",
    "seats",
    "ships_owed",
    "stage",
    "tiles",
    "unseen",
    "wild_used",
    "workers_used",
)
"""Every attribute of a :class:`NavegadorState` (what :meth:`NavegadorState.__reduce__`
takes apart)."""


class NavegadorState(State):
    """A Navegador position for 2-5 seats; seat 0 is the start player.

    Decision stages: ``START`` (play the card or move the stone), ``SCRAP`` (pay ships
    for extra rondel spaces), then the action of the rondel space.  A chance node
    (``reveal`` >= 0) turns up the colony tiles of a region just explored.
    """

    seats: int

    def __init__(self, seats: int, options: NavegadorOptions, *, _blank: bool = False) -> None:
        # _blank: no attribute set (clone() sets them all); a compiled class cannot be
        # made with object.__new__ (referee.api.native)
        if _blank:
            return
        self.seats = seats
        self.options = options
        self.players = [Player() for _ in range(seats)]
        if options.king_at_goa:
            for player in self.players:
                player.has_king = False
        self.double_loss = data.double_loss_regions(seats)
        self.phase = 1
        self.phase_pending = 0
        self.market = [data.MARKET_START_ROW] * len(data.GOODS)
        self.explored = 1 << data.PORTUGAL
        self.tiles: list[list[int]] = [[] for _ in data.REGIONS]
        self.unseen = [list(prices) for prices in data.TILE_PRICES]
        refill = data.GALLERY_REFILL[seats][0]
        self.gallery = [refill] * len(data.COLUMNS)
        self.gallery_box = [data.GALLERY_SUPPLY - refill] * len(data.COLUMNS)
        self.display = list(data.building_row_sizes(seats))
        self.display_taken = [0] * len(data.BUILDINGS)
        self.card_holder = seats - 1
        self.card_marker = -1
        self.end_seat = -1
        self.end_turns = -1
        self.current = 0
        self.stage = START
        self.reveal = -1
        # per-action context
        self.card_sailing = False
        self.ships_owed = 0
        self.movers: list[list[int]] = [[] for _ in data.REGIONS]
        self.explored_now = False
        self.expedition = -1
        self.expedition_ships = 0
        self.founded = [0] * N_REGIONS
        self.goods_used = [False, False, False]
        self.wild_used = 0
        self.workers_used = 0
        self._legal: list[Any] | None = None
        self._regions_memo: tuple[int, list[list[int]], list[RegionView]] | None = None
        """Region records of the last view and their key (see :mod:`.snapshot`)."""
        self._movers_memo: tuple[list[list[int]], list[list[int]]] | None = None
        """Movers' pairs of the last view and their key (see :mod:`.snapshot`)."""

    # ------------------------------------------------------------------ copying

    def __reduce__(self) -> tuple[Any, ...]:
        """``pickle`` and ``copy`` support, the same compiled or not: the fields by name
        (a compiled class has no default for either)."""
        return native.reduce(self, (self.seats, self.options), _FIELDS)

    def clone(self) -> NavegadorState:
        """An independent copy (hand-written; lists copied, immutables shared)."""
        other = NavegadorState(self.seats, self.options, _blank=True)
        other.seats = self.seats
        other.options = self.options
        other.players = [p.copy() for p in self.players]
        other.double_loss = self.double_loss
        other.phase = self.phase
        other.phase_pending = self.phase_pending
        other.market = self.market[:]
        other.explored = self.explored
        other.tiles = [t[:] for t in self.tiles]
        other.unseen = [u[:] for u in self.unseen]
        other.gallery = self.gallery[:]
        other.gallery_box = self.gallery_box[:]
        other.display = self.display[:]
        other.display_taken = self.display_taken[:]
        other.card_holder = self.card_holder
        other.card_marker = self.card_marker
        other.end_seat = self.end_seat
        other.end_turns = self.end_turns
        other.current = self.current
        other.stage = self.stage
        other.reveal = self.reveal
        other.card_sailing = self.card_sailing
        other.ships_owed = self.ships_owed
        other.movers = [m[:] for m in self.movers]
        other.explored_now = self.explored_now
        other.expedition = self.expedition
        other.expedition_ships = self.expedition_ships
        other.founded = self.founded[:]
        other.goods_used = self.goods_used[:]
        other.wild_used = self.wild_used
        other.workers_used = self.workers_used
        other._legal = self._legal
        other._regions_memo = self._regions_memo
        other._movers_memo = self._movers_memo
        return other

    # ------------------------------------------------------------------ node kind

    def to_move(self) -> int:
        """The seat to move, ``CHANCE`` while tiles are being revealed, or ``TERMINAL``."""
        if self.stage == OVER:
            return TERMINAL
        if self.reveal >= 0:
            return CHANCE
        return self.current

    def is_explored(self, region: int) -> bool:
        """True once ``region`` has been explored (Portugal always is)."""
        return bool(self.explored >> region & 1)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Any]:
        """The atomic actions of the seat to move (stable order, never empty).

        Raises :class:`IllegalAction` at a chance or terminal node.
        """
        if self.stage == OVER or self.reveal >= 0:
            raise IllegalAction("no decision is due")
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Any]:
        stage = self.stage
        player = self.players[self.current]
        if stage == START:
            return self._legal_start(player)
        if stage == SCRAP:
            return [_SCRAP_ACTIONS[r] for r in range(N_REGIONS) if player.ships[r]]
        if stage == SAILING:
            return self._legal_sailing()
        if stage == COLONY:
            return self._legal_colony(player)
        if stage == MARKET:
            return self._legal_market(player)
        if stage == PRIVILEGE:
            return self._legal_privilege(player)
        if stage == WORKERS:
            limit = max(player.churches, data.MAX_WORKERS - player.workers)
            costs = self._purchase_costs(player.churches, limit)
            hires = _counted(Hire, "", limit)
            return [hires[k - 1] for k in range(1, limit + 1) if costs[k] <= player.money] + [DONE]
        if stage == SHIPS:
            limit = max(player.shipyards, data.MAX_SHIPS - player.ships_on_board())
            costs = self._purchase_costs(player.shipyards, limit)
            launches = _counted(Launch, "", limit)
            return [launches[k - 1] for k in range(1, limit + 1) if costs[k] <= player.money] + [
                DONE
            ]
        return self._legal_buildings(player)

    def _legal_start(self, player: Player) -> list[Any]:
        """Rulebook: Action selection, and Navegador card (not in the first round)."""
        out: list[Any] = []
        if self.card_holder == self.current and player.turns >= 1:
            out.append(USE_CARD)
        if player.stone < 0:
            out.extend(_RONDEL_ACTIONS)
            return out
        size = len(data.RONDEL)
        key = (player.stone, min(sum(player.ships), size))
        moves = _STONE_MOVES.get(key)
        if moves is None:
            stone, on_board = key
            moves = _STONE_MOVES[key] = tuple(
                _RONDEL_ACTIONS[(stone + steps) % size]
                for steps in range(1, size + 1)
                if steps - data.FREE_STEPS <= on_board
            )
        out.extend(moves)
        return out

    def _legal_sailing(self) -> list[Any]:
        """Rulebook: Sailing and Exploration; one exploration per Sailing action."""
        table = distances(self.explored)
        movers = self.movers
        out: list[Any] = []
        if self.expedition >= 0:
            target = self.expedition
            for src in range(N_REGIONS):
                if movers[src] and movers[src][-1] >= table[src][target]:
                    out.append(_SAIL_ACTIONS[src][target])
            return out
        explored = self.explored
        for src in range(N_REGIONS):
            ranges = movers[src]
            if not ranges:
                continue
            reach = ranges[-1]
            row = table[src]
            for dst in range(N_REGIONS):
                d = row[dst]
                if d > reach or dst == src:
                    continue
                if explored >> dst & 1 or (not self.explored_now and self._can_explore(dst)):
                    out.append(_SAIL_ACTIONS[src][dst])
        out.append(DONE)
        return out

    def _can_explore(self, region: int) -> bool:
        """Enough own ships can still reach ``region`` to explore it now."""
        need = 3 if region in self.double_loss else 2
        table = distances(self.explored)
        able = 0
        for src in range(N_REGIONS):
            d = table[src][region]
            for left in self.movers[src]:
                if left >= d:
                    able += 1
        return able >= need

    def _legal_colony(self, player: Player) -> list[Any]:
        """Rulebook: Colony, one ship and two workers per new colony, each used once."""
        if (sum(self.founded) + 1) * 2 > player.workers:
            return [DONE]
        out: list[Any] = []
        for r in range(1, N_REGIONS):
            tiles = self.tiles[r]
            if tiles and player.ships[r] > self.founded[r] and tiles[0] <= player.money:
                out.append(_FOUND_ACTIONS[r])
        out.append(DONE)
        return out

    def _legal_market(self, player: Player) -> list[Any]:
        """Rulebook: Market, per good either sell (colonies) or process (factories)."""
        out: list[Any] = []
        wild = player.wild - self.wild_used
        for g, good in enumerate(data.GOODS):
            if self.goods_used[g]:
                continue
            out.extend(_counted(Sell, good, player.colonies[g]))
            out.extend(_counted(Process, good, player.factories[g] + wild))
        out.append(DONE)
        return out

    def _legal_privilege(self, player: Player) -> list[Any]:
        """Rulebook: Privilege (one per action, costs a worker) and the Goa variant."""
        out: list[Any] = []
        if player.workers > data.MIN_WORKERS:
            for c in range(len(data.COLUMNS)):
                if self.gallery[c] and player.filled(c) < data.PRIVILEGE_SLOTS:
                    out.append(_PRIVILEGE_ACTIONS[c])
        if (
            self.options.king_at_goa
            and player.king_col < 0
            and not player.has_king
            and player.ships[data.GOA]
        ):
            for c in range(len(data.COLUMNS)):
                if player.filled(c) < data.PRIVILEGE_SLOTS:
                    out.append(_KING_ACTIONS[c])
        out.append(DONE)
        return out

    def _legal_buildings(self, player: Player) -> list[Any]:
        """Rulebook: Buildings, cheapest of a row first, workers summed over the action."""
        out: list[Any] = []
        for b in range(len(data.BUILDINGS)):
            if not self.display[b]:
                continue
            if self.workers_used + data.BUILDING_WORKERS[b] > player.workers:
                continue
            if data.BUILDING_COSTS[b][self.display_taken[b]] <= player.money:
                out.append(_BUILD_ACTIONS[b])
        out.append(DONE)
        return out

    def _purchase_costs(self, cheap: int, limit: int) -> list[int]:
        """Cost of buying 0..limit workers or ships: ``cheap`` at 50, then 100 x phase."""
        dear = data.PHASE_PRICE * self.phase
        return [
            min(k, cheap) * data.CHEAP_PRICE + max(0, k - cheap) * dear for k in range(limit + 1)
        ]

    # ------------------------------------------------------------------ applying

    def apply_action(self, action: Any) -> None:
        """Apply one legal action of the seat to move.

        Raises :class:`IllegalAction` (state unchanged) for anything not legal now.
        """
        legal = self._legal
        if legal is None:
            if self.stage == OVER or self.reveal >= 0:
                raise IllegalAction("no decision is due")
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(f"not legal now: {action!r}")
        self._legal = None
        player = self.players[self.current]
        kind = type(action)
        if kind is Sail:
            self._sail(player, REGION_INDEX[action.src], REGION_INDEX[action.dst])
        elif action is DONE or kind is type(DONE):
            self._finish_action()
        elif kind is Rondel:
            self._move_stone(player, action.space)
        elif kind is Scrap:
            player.ships[REGION_INDEX[action.region]] -= 1
            self.ships_owed -= 1
            if not self.ships_owed:
                self._begin_action(player)
        elif kind is type(USE_CARD):
            self.card_sailing = True
            self._begin_sailing(player)
        elif kind is Found:
            self._found(player, REGION_INDEX[action.region])
        elif kind is Sell:
            self._sell(player, GOOD_INDEX[action.good], action.count)
        elif kind is Process:
            self._process(player, GOOD_INDEX[action.good], action.count)
        elif kind is Build:
            self._build(player, BUILDING_INDEX[action.building])
        elif kind is Hire:
            self._hire(player, action.count)
        elif kind is Launch:
            self._launch(player, action.count)
        elif kind is TakePrivilege:
            self._take_privilege(player, COLUMN_INDEX[action.column])
        elif kind is ClaimKing:
            self._claim_king(player, COLUMN_INDEX[action.column])

    def _move_stone(self, player: Player, space: int) -> None:
        """Rulebook: Action selection; Navegador card expiry (the orange ship)."""
        size = len(data.RONDEL)
        cost = 0
        if player.stone >= 0:
            steps = (space - player.stone) % size or size
            cost = max(0, steps - data.FREE_STEPS)
            if self.card_holder == self.current and self.card_marker >= 0:
                passed = (self.card_marker - player.stone) % size or size
                if passed <= steps:
                    self._pass_card()
        player.stone = space
        if self.card_holder == self.current and self.card_marker < 0:
            self.card_marker = space
        self.ships_owed = cost
        if cost:
            self.stage = SCRAP
        else:
            self._begin_action(player)

    def _pass_card(self) -> None:
        """The card goes to the right neighbour; the orange ship to that player's stone."""
        self.card_holder = (self.card_holder - 1) % self.seats
        self.card_marker = self.players[self.card_holder].stone

    def _begin_action(self, player: Player) -> None:
        stage = RONDEL_STAGE[player.stone]
        self.stage = stage
        if stage == SAILING:
            self._begin_sailing(player)
        elif stage == COLONY:
            self.founded = [0] * N_REGIONS
        elif stage == MARKET:
            self.goods_used = [False, False, False]
            self.wild_used = 0
        elif stage == BUILDINGS:
            self.workers_used = 0

    def _begin_sailing(self, player: Player) -> None:
        self.stage = SAILING
        reach = data.SAILING_RANGE[self.phase]
        self.movers = [[reach] * n for n in player.ships]
        self.explored_now = False
        self.expedition = -1
        self.expedition_ships = 0

    def _sail(self, player: Player, src: int, dst: int) -> None:
        """Move the ship of ``src`` whose remaining range fits best; explore if due."""
        d = distances(self.explored)[src][dst]
        ranges = self.movers[src]
        pick = bisect.bisect_left(ranges, d)
        left = ranges.pop(pick) - d
        player.ships[src] -= 1
        if self.is_explored(dst):
            player.ships[dst] += 1
            if left:
                bisect.insort(self.movers[dst], left)
            return
        self.expedition = dst
        self.expedition_ships += 1
        need = 3 if dst in self.double_loss else 2
        if self.expedition_ships < need:
            return
        # Exploration: all but one entering ship are lost; the last stays.
        player.ships[dst] += 1
        player.explorers += 1
        self.explored |= 1 << dst
        self.explored_now = True
        self.expedition = -1
        self.expedition_ships = 0
        self.reveal = dst
        phase = data.PHASE_REGIONS.get(dst, 0)
        if phase > max(self.phase, self.phase_pending):
            self.phase_pending = phase
        if dst == data.NAGASAKI:
            self._trigger_end()

    def _found(self, player: Player, region: int) -> None:
        price = self.tiles[region].pop(0)
        player.money -= price
        player.colonies[data.REGION_GOOD[region]] += 1
        self.founded[region] += 1

    def _sell(self, player: Player, good: int, count: int) -> None:
        """Rulebook: Market, selling; cube moves down one row per unit, stops at the bottom."""
        row = self.market[good]
        player.money += data.MARKET_PRICE[good][row] * count
        self.market[good] = min(data.MARKET_ROWS - 1, row + count)
        self.goods_used[good] = True

    def _process(self, player: Player, good: int, count: int) -> None:
        """Rulebook: Market, processing; paid at the red column, cube moves up, stops at top."""
        row = self.market[good]
        player.money += data.MARKET_REVENUE[row] * count
        self.market[good] = max(0, row - count)
        self.goods_used[good] = True
        self.wild_used += max(0, count - player.factories[good])

    def _build(self, player: Player, row: int) -> None:
        player.money -= data.BUILDING_COSTS[row][self.display_taken[row]]
        self.display_taken[row] += 1
        self.display[row] -= 1
        self.workers_used += data.BUILDING_WORKERS[row]
        if row < len(data.GOODS):
            player.factories[row] += 1
        elif row == data.SHIPYARD:
            player.shipyards += 1
        else:
            player.churches += 1
        if self.options.building_end == "row":
            if not self.display[row]:
                self._trigger_end()
        elif not any(self.display):
            self._trigger_end()

    def _hire(self, player: Player, count: int) -> None:
        """Rulebook: Workers; above 9 the church workers are virtual (paid 50, sold 100)."""
        player.money -= self._purchase_costs(player.churches, count)[count]
        real = min(count, data.MAX_WORKERS - player.workers)
        player.workers += real
        player.money += (count - real) * data.VIRTUAL_RESALE
        self._end_turn()

    def _launch(self, player: Player, count: int) -> None:
        """Rulebook: Ships; new ships in Portugal, above 7 virtual (paid 50, sold 100)."""
        player.money -= self._purchase_costs(player.shipyards, count)[count]
        real = min(count, data.MAX_SHIPS - player.ships_on_board())
        player.ships[data.PORTUGAL] += real
        player.money += (count - real) * data.VIRTUAL_RESALE
        self._end_turn()

    def _take_privilege(self, player: Player, column: int) -> None:
        """Rulebook: Privilege; bonus = coins of the slot covered x items of the column."""
        slot = player.filled(column)
        player.workers -= 1
        self.gallery[column] -= 1
        player.privileges[column] += 1
        player.money += data.PRIVILEGE_COINS[column][slot] * player.items(column)
        self._end_turn()

    def _claim_king(self, player: Player, column: int) -> None:
        """Variant: own King's privilege from Goa, no worker, placed and paid like a tile."""
        slot = player.filled(column)
        player.king_col = column
        player.money += data.PRIVILEGE_COINS[column][slot] * player.items(column)
        self._end_turn()

    def _finish_action(self) -> None:
        if self.stage == SAILING:
            self._apply_pending_phase()
            if self.card_sailing:
                self.card_sailing = False
                self._pass_card()
                self.stage = START
                return
        self._end_turn()

    def _apply_pending_phase(self) -> None:
        """Rulebook: Game phases; the new phase starts after the exploring Sailing action,
        and the gallery is topped up to the table value for the player count."""
        if not self.phase_pending:
            return
        self.phase = self.phase_pending
        self.phase_pending = 0
        target = data.GALLERY_REFILL[self.seats][self.phase - 1]
        for c in range(len(data.COLUMNS)):
            add = min(max(0, target - self.gallery[c]), self.gallery_box[c])
            self.gallery[c] += add
            self.gallery_box[c] -= add

    def _trigger_end(self) -> None:
        """Rulebook: Game end; after the trigger every player, the trigger player
        included, takes exactly one more turn."""
        if self.end_seat >= 0:
            return
        self.end_seat = self.current
        self.end_turns = self.players[self.current].turns + 2

    def _end_turn(self) -> None:
        player = self.players[self.current]
        player.turns += 1
        if self.current == self.end_seat and player.turns >= self.end_turns:
            self.stage = OVER
            return
        limit = self.options.max_rounds
        if limit and self.current == self.seats - 1 and player.turns >= limit:
            self.stage = OVER
            return
        self.current = (self.current + 1) % self.seats
        self.stage = START

    # ------------------------------------------------------------------ chance

    def sample_chance(self, rng: random.Random) -> Any:
        """The revealed tiles of the region being explored: a sorted list of prices drawn
        from the unseen tiles of its good.  Raises :class:`InvalidChance` otherwise."""
        if self.reveal < 0:
            raise InvalidChance("no chance event is pending")
        good = data.REGION_GOOD[self.reveal]
        return sorted(rng.sample(self.unseen[good], data.REGION_TILES[self.reveal]))

    def apply_chance(self, outcome: Any) -> None:
        """Turn up the explored region's tiles and pay the explorer bonus (cheapest tile).

        ``outcome``: list of distinct unseen prices of the region's good, as many as the
        region holds.  Raises :class:`InvalidChance` (state unchanged) otherwise.
        """
        if self.reveal < 0:
            raise InvalidChance("no chance event is pending")
        region = self.reveal
        good = data.REGION_GOOD[region]
        if (
            not isinstance(outcome, list)
            or len(outcome) != data.REGION_TILES[region]
            or any(type(p) is not int for p in outcome)
            or len(set(outcome)) != len(outcome)
            or any(p not in self.unseen[good] for p in outcome)
        ):
            raise InvalidChance(
                f"{data.REGIONS[region]} needs {data.REGION_TILES[region]} distinct unseen "
                f"{data.GOODS[good]} prices, got {outcome!r}"
            )
        prices = sorted(outcome)
        for price in prices:
            self.unseen[good].remove(price)
        self.tiles[region] = prices
        self.players[self.current].money += prices[0]
        self.reveal = -1
        self._legal = None

    # ------------------------------------------------------------------ results

    def scores(self) -> list[float]:
        """Final VP by seat (rulebook: Scoring; King's privilege placed at its best)."""
        return [float(p.score()) for p in self.players]

    def ranks(self) -> list[int]:
        """Ranks by VP; ties go to the card holder, then to whoever would get it sooner."""
        keys = [
            (float(p.score()), -((self.card_holder - seat) % self.seats))
            for seat, p in enumerate(self.players)
        ]
        return ranks_from_keys(keys)

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> NavegadorView:
        """The view of ``seat``; everything but unrevealed tile prices is public."""
        return build_view(self, seat)

    def debug(self) -> Any:
        """Full state as JSON-able data (there are no secrets beyond unrevealed tiles)."""
        return msgspec.to_builtins(build_view(self, -1))


def state_from_view(view: NavegadorView) -> NavegadorState:
    """A state equal in every public fact to ``view``.

    A view taken at a reveal (chance) node gives a state at that chance node.
    """
    state = NavegadorState(view.seats, view.options)
    for player, pv in zip(state.players, view.players, strict=True):
        player.money = pv.money
        player.workers = pv.workers
        player.ships = pv.ships[:]
        player.colonies = pv.colonies[:]
        player.factories = pv.factories[:]
        player.wild = pv.wild
        player.shipyards = pv.shipyards
        player.churches = pv.churches
        player.explorers = pv.explorers
        player.privileges = pv.privileges[:]
        player.king_col = pv.king_col
        player.has_king = pv.has_king
        player.stone = pv.stone
        player.turns = pv.turns
    state.phase = view.phase
    state.phase_pending = view.phase_pending
    state.market = view.market[:]
    state.explored = sum(1 << r for r, rv in enumerate(view.regions) if rv.explored)
    state.tiles = [rv.tiles[:] for rv in view.regions]
    state.unseen = [u[:] for u in view.unseen]
    state.gallery = view.gallery[:]
    state.gallery_box = view.gallery_box[:]
    state.display = view.display[:]
    state.display_taken = view.display_taken[:]
    state.card_holder = view.card_holder
    state.card_marker = view.card_marker
    state.end_seat = view.end_seat
    state.end_turns = view.end_turns
    state.card_sailing = view.card_sailing
    state.ships_owed = view.ships_owed
    state.movers = [[] for _ in data.REGIONS]
    for region, left in view.movers:
        state.movers[region].append(left)
    for ranges in state.movers:
        ranges.sort()
    state.explored_now = view.explored_now
    state.expedition = view.expedition
    state.expedition_ships = view.expedition_ships
    state.founded = view.founded[:]
    state.goods_used = view.goods_used[:]
    state.wild_used = view.wild_used
    state.workers_used = view.workers_used
    state.current = view.current
    state.reveal = view.reveal
    state.stage = STAGE_NAMES.index("sailing" if view.stage == "reveal" else view.stage)
    return state
