#!/usr/bin/env python3
"""A heuristic Roads & Boats bot: a sawmill economy around the home, a mine, then bricks.

Plan (rule-based, no search):

* home on a hex (preferably not desert) with woods around it, plus rock and a mountain;
* a target list of producers next to the home, in order: a first woodcutter, a sawmill
  on the home hex (the only source of new boards: it doubles every trunk brought home;
  a woodcutter instead when the home is woods with too few woods around), the other
  woodcutters, a mine (3/3 bag; gold scores 10 when carried at the end), a quarry;
  targets whose cost goods we neither hold nor produce are skipped;
* donkeys at home carry the goods a target still lacks to its site ("errands"); the
  others shuttle everything lying next to the home back home (gold first); one
  transporter always ends the movement at home for the wonder; donkey births are taken;
* trunks at home are kept for the sawmill (loose trunks are sawn at the end of
  production), the cost of the next target is kept back, and every other good buys
  bricks as long as it lasts (cheapest goods first, never gold, coins or stock);
* when the game may end this turn (every player's goods counted as bricks, plus slack),
  gold and coins go onto transporters at home and stay there, and the wonder phase
  spends everything.

Usage: ``roads_and_boats_bot.py`` (speaks protocol v1 through referee.botkit), or
``roads_and_boats_bot.py --evaluate GAMES [--seats N]`` to measure it in-process against
uniform random players.
"""

from __future__ import annotations

import random
import sys
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from referee.botkit import Bot, run
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import (
    BUILDING,
    MOVEMENT,
    PRODUCTION,
    RBState,
)

MAX_PRICE = 6
"""Highest price (goods) the bot pays for one brick in a turn, except in the last turn."""
PAY_ORDER = (
    D.GOOSE, D.CLAY, D.PAPER, D.FUEL, D.IRON, D.STONE, D.BOARD, D.TRUNK, D.GOLD, D.COINS, D.STOCK,
)  # fmt: skip
"""Cheapest first: trunks come late (a home sawmill doubles them next turn), scoring goods last."""
KEEP = frozenset({D.GOLD, D.COINS, D.STOCK})
"""Goods that score when carried at the end: never paid for bricks."""
LOAD_ORDER = (
    D.COINS, D.GOLD, D.STOCK, D.BOARD, D.STONE, D.IRON, D.TRUNK, D.CLAY, D.FUEL, D.PAPER, D.GOOSE,
)  # fmt: skip
TERRAIN_SCORE = {D.WOODS: 3.0, D.ROCK: 2.0, D.MOUNTAIN: 1.5, D.PASTURE: 0.5}
LATE_TURNS = 2
"""No new producers when the game is expected to end within this many turns."""
END_MARGIN = 4
"""Bricks of slack when guessing whether the game may end this turn."""


def brick_cost(k: int, wonder: int) -> int:
    """Goods for ``k`` bricks bought in one turn with ``wonder`` bricks standing."""
    total = 0
    for i in range(k):
        total += i + 1 + (1 if wonder + i >= D.PRICE_STEP_AT else 0)
    return total


def links(state: RBState, place: int) -> list[tuple[int, int]]:
    """(edge, neighbouring land area) pairs of a (possibly bridged) land area."""
    w = state.world
    out: list[tuple[int, int]] = []
    for a in w.areas[w.place_hex[place]]:
        if state.root[a] == place:
            out.extend((edge, state.root[q]) for edge, q in w.land_links[a])
    return out


def neighbours(state: RBState, place: int) -> list[int]:
    """Distinct land areas one off-road step from ``place``."""
    out: list[int] = []
    for _edge, q in links(state, place):
        if q not in out:
            out.append(q)
    return out


MINES = 1
"""Mines planned at a time."""
MINE_AT = 2
"""Where the mine goes in the target list (0: after the first woodcutter, 1: after the
home building, 2: after all woodcutters, 3: after the quarry)."""
ROADS = True
"""Build roads from home to own producers with spare stone."""
RESERVE_TARGETS = 1
"""Targets whose cost is kept back from the wonder."""


class Planner:
    """Chooses among legal actions for one seat given the full state."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    # ------------------------------------------------------------------ entry

    def choose(self, state: RBState, legal: list[Any]) -> int:
        """Index into ``legal`` of the action to take."""
        action = self._pick(state, legal)
        return legal.index(action) if action is not None else len(legal) - 1

    def _pick(self, state: RBState, legal: list[Any]) -> Any | None:
        first = legal[0]
        if isinstance(first, A.Home):
            return self._home(state, legal)
        if isinstance(first, A.NoRequest | A.Pray):
            return first
        if isinstance(first, A.Position):
            return first
        if isinstance(first, A.Agree):  # accept gifts; keep our goods and transporters
            return first if isinstance(state.offer, A.Give) else A.REFUSE
        if state.stage == PRODUCTION:
            return self._production(state, legal)
        if state.stage == MOVEMENT:
            return self._movement(state, legal)
        if state.stage == BUILDING:
            return self._building(state, legal)
        return self._wonder(state, legal)

    # ------------------------------------------------------------------ setup

    def _home(self, state: RBState, legal: list[Any]) -> Any:
        w = state.world

        def value(action: A.Home) -> float:
            h = w.place_hex[action.place]
            terrain = w.hexes[h].terrain
            score = {D.WOODS: 3.0, D.DESERT: -4.0}.get(terrain, 1.0)
            seen = set()
            for q in neighbours(state, action.place):
                j = w.place_hex[q]
                if j == h or j in seen:
                    continue
                seen.add(j)
                t = w.hexes[j].terrain
                if t == D.WOODS:
                    score += 3.0
                elif t in TERRAIN_SCORE and t not in {w.hexes[k].terrain for k in seen - {j}}:
                    score += TERRAIN_SCORE[t]
            return score + 0.1 * len(w.area_sides[action.place])

        return max(legal, key=value)

    # ------------------------------------------------------------------ plan

    def _targets(self, state: RBState) -> list[tuple[int, int]]:
        """Producers still to build, best first: (land area, building kind)."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        own = [b[0] for b in state.buildings.values() if b[2] == self.seat]
        sites: dict[str, list[int]] = {D.WOODS: [], D.ROCK: [], D.MOUNTAIN: []}
        for q in neighbours(state, home):
            j = w.place_hex[q]
            terrain = w.hexes[j].terrain
            if j != hh and j not in state.buildings and terrain in sites:
                sites[terrain].append(q)
        woods = sites[D.WOODS]
        mines = [(q, D.MINE) for q in sites[D.MOUNTAIN][:MINES]] if D.MINE not in own else []
        out: list[tuple[int, int]] = []
        if D.WOODCUTTER not in own and woods:
            out.append((woods.pop(0), D.WOODCUTTER))
        if MINE_AT == 0:
            out.extend(mines)
        if hh not in state.buildings:
            home_woods = w.hexes[hh].terrain == D.WOODS
            if home_woods and len(woods) + own.count(D.WOODCUTTER) < 2:
                out.append((home, D.WOODCUTTER))
            elif w.hexes[hh].terrain != D.DESERT or state.irrigated:
                out.append((home, D.SAWMILL))
        if MINE_AT == 1:
            out.extend(mines)
        out.extend((q, D.WOODCUTTER) for q in woods)
        if MINE_AT == 2:
            out.extend(mines)
        if D.QUARRY not in own and sites[D.ROCK]:
            out.append((sites[D.ROCK][0], D.QUARRY))
        out.extend(mines if MINE_AT == 3 else [])
        made = {D.BUILDINGS[k].output for k in own}
        counts = state.pool(home, state.presence(self.seat).get(home, []))
        return [
            (site, kind)
            for site, kind in out
            if all(counts[g] >= n or g in made for g, n in D.BUILDINGS[kind].cost)
        ]

    def _turns_left(self, state: RBState) -> float:
        """A rough guess of the turns still to play."""
        if state.seats == 1:
            return state.options.solo_turns - state.turn
        left = D.END_MARK[state.seats] - len(state.wonder)
        pace = max(len(state.wonder) / max(state.turn, 1), 1.0 + state.seats)
        return min(state.neutral_left, left / pace)

    def _last_turn(self, state: RBState, margin: int = 0) -> bool:
        """True when the game may end in this turn's wonder phase (``margin`` bricks of
        slack on top of what every player could buy with the goods it holds)."""
        if state.seats == 1:
            return state.turn >= state.options.solo_turns
        if state.neutral_left <= 1:
            return True
        bricks = len(state.wonder) + 1 + margin
        for seat in range(state.seats):
            goods = 0
            for t in state.trans.values():
                if t.owner == seat:
                    goods += len(t.cargo)
            goods += sum(state.pool(state.homes[seat], [])) if state.homes[seat] >= 0 else 0
            k = 0
            while brick_cost(k + 1, len(state.wonder)) <= goods:
                k += 1
            bricks += k
        return bricks >= D.END_MARK[state.seats]

    def _reserve(self, state: RBState) -> list[int]:
        """Goods at home kept back from the wonder for the next producers."""
        need = [0] * 11
        if self._turns_left(state) <= LATE_TURNS:
            return need
        for _place, kind in self._targets(state)[:RESERVE_TARGETS]:
            for g, n in D.BUILDINGS[kind].cost:
                need[g] += n
        return need

    # ------------------------------------------------------------------ production

    def _production(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        last = self._last_turn(state, END_MARGIN)
        for action in legal:
            if isinstance(action, A.Breed):
                return action  # more donkeys (offered only within the transporter limit)
            if (
                isinstance(action, A.Take)
                and last
                and action.place == home
                and D.G[action.good] in KEEP
            ):
                return action
        for action in legal:
            if isinstance(action, A.Produce):
                kind = state.buildings[action.hex][0]
                if kind == D.MINT:
                    return action
        return None

    # ------------------------------------------------------------------ movement

    def _movement(self, state: RBState, legal: list[Any]) -> Any | None:
        seat = self.seat
        home = state.homes[seat]
        if state.active < 0:
            moves = [a for a in legal if isinstance(a, A.MoveTransporter)]
            land = [a for a in moves if not state.trans[a.transporter].water]
            for a in land:  # first the ones away from home come back
                if state.trans[a.transporter].place != home:
                    return a
            for a in land:
                t = state.trans[a.transporter]
                others = sum(
                    1
                    for u in state.trans.values()
                    if u.owner == seat and u.place == home and u is not t
                )
                if others == 0:
                    continue  # keep one transporter home for the wonder
                if self._errand(state, t) is not None or self._outing(state, home) is not None:
                    return a
            return None
        t = state.trans[state.active]
        if t.place == home:
            return self._at_home(state, t, legal)
        return self._away(state, t, legal)

    def _at_home(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        last = self._last_turn(state, END_MARGIN)
        steps = {a.to: a for a in legal if isinstance(a, A.Step)}
        loads = {D.G[a.good]: a for a in legal if isinstance(a, A.Load) and a.place == home}
        capacity = D.TRANSPORTERS[t.kind].capacity
        if last:  # scoring goods onto transporters, then stay
            for g in KEEP:
                if g in loads and len(t.cargo) < capacity:
                    return loads[g]
        errand = self._errand(state, t)
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        if errand is not None and errand[0] in steps:
            site, need = errand
            for g in set(cargo):
                if need[g] < cargo.count(g) and not (last and g in KEEP):
                    return A.Unload(D.GOODS[g], home)
            if len(cargo) < capacity:
                for g in range(11):
                    if need[g] > cargo.count(g) and g in loads:
                        return loads[g]
            if site in steps and any(need[g] and g in cargo for g in range(11)):
                return steps[site]
        for g in set(cargo):
            if not (last and g in KEEP):
                return A.Unload(D.GOODS[g], home)
        if last and any(g in KEEP for g in cargo):
            return None
        target = self._outing(state, home)
        if target is not None and target in steps and not cargo:
            return steps[target]
        return None

    def _away(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        loads = [a for a in legal if isinstance(a, A.Load)]
        steps = [a for a in legal if isinstance(a, A.Step)]
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        waiting = any(
            site == t.place and any(cargo.count(g) and n for g, n in D.BUILDINGS[kind].cost)
            for site, kind in self._targets(state)
        )
        if waiting:
            return None  # building here this turn
        if loads:
            return min(loads, key=lambda a: LOAD_ORDER.index(D.G[a.good]))
        dist = self._distances(state, home)
        here = dist.get(t.place, 99)
        for a in steps:
            if dist.get(a.to, 99) < here:
                return a
        return None

    def _distances(self, state: RBState, start: int) -> dict[int, int]:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            p = todo.popleft()
            for q in neighbours(state, p):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        return dist

    def _errand(self, state: RBState, t: Any) -> tuple[int, list[int]] | None:
        """(site, goods still needed there) of the first planned producer that this
        transporter at home can help pay for, or None."""
        if self._turns_left(state) <= LATE_TURNS:
            return None
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        bit = 1 << (self.seat + D.GOOD_BITS)
        loadable = [0] * 11
        for g in state.piles.get(home, ()):
            if not g & bit:
                loadable[g & D.GOOD_MASK] += 1
        for g in t.cargo:
            loadable[g & D.GOOD_MASK] += 1
        for site, kind in self._targets(state):
            cost = D.BUILDINGS[kind].cost
            if site == home:
                for g, n in cost:
                    avail[g] -= min(n, avail[g])
                continue
            have = state.pool(site, here.get(site, []))
            need = [0] * 11
            for g, n in cost:
                need[g] = max(0, n - have[g])
            if not any(need):
                continue
            if all(avail[g] >= need[g] and loadable[g] >= min(need[g], 1) for g in range(11)):
                return site, need
            return None  # save up for this one first
        return None

    def _outing(self, state: RBState, place: int) -> int | None:
        """A neighbouring land area with goods (or a producer) worth fetching from."""
        w = state.world
        best, best_score = None, 0
        for q in neighbours(state, place):
            score = len(state.piles.get(q, ()))
            b = state.buildings.get(w.place_hex[q])
            if b is not None and b[1] == q and D.BUILDINGS[b[0]].kind == D.PRIMARY:
                score += 1
            busy = sum(1 for t in state.trans.values() if t.owner == self.seat and t.place == q)
            score -= 2 * busy
            if score > best_score:
                best, best_score = q, score
        return best

    # ------------------------------------------------------------------ building

    def _building(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        w = state.world
        builds = {(a.place, D.B[a.building]): a for a in legal if isinstance(a, A.Build)}
        if self._turns_left(state) > LATE_TURNS:
            for site, kind in self._targets(state):
                action = builds.get((site, kind))
                if action is not None and (kind != D.MINE or action.mix == "3/3"):
                    return action
        # roads from home to neighbouring producers, with stone to spare
        spare = state.pool(home, state.presence(self.seat).get(home, []))[D.STONE]
        spare -= self._reserve(state)[D.STONE]
        if spare > 0 and ROADS:
            for a in legal:
                if isinstance(a, A.Road) and a.place == home:
                    j = w.nbr[w.place_hex[home]][a.side]
                    b = state.buildings.get(j)
                    if b is not None and b[2] == self.seat and D.BUILDINGS[b[0]].kind == D.PRIMARY:
                        return a
        return None

    # ------------------------------------------------------------------ wonder

    def _wonder(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        own = state.presence(self.seat).get(home, [])
        counts = state.pool(home, own)
        last = self._last_turn(state)
        reserve = [0] * 11 if last else self._reserve(state)
        b = state.buildings.get(state.world.place_hex[home])
        if not last and b is not None and b[0] == D.SAWMILL and b[1] == home:
            reserve[D.TRUNK] = max(reserve[D.TRUNK], 3)  # boards (twice as many) next turn
        if state.paying:
            pays = {D.G[a.good]: a for a in legal if isinstance(a, A.Pay)}
            for spare in (True, False):
                for g in PAY_ORDER:
                    if g in pays and (counts[g] > reserve[g] or not spare):
                        return pays[g]
            return legal[0]
        if A.BRICK not in legal:
            return None
        price = state.brick_price()
        if price > MAX_PRICE and not last:
            return None
        spendable = sum(max(0, counts[g] - reserve[g]) for g in range(11) if g not in KEEP)
        return A.BRICK if spendable >= price else None


class RoadsAndBoatsBot(Bot):
    """Protocol wrapper around :class:`Planner`."""

    name = "roads-and-boats-heuristic"
    version = "1"

    def on_start(self) -> None:
        """Set up the planner for this seat."""
        self.planner = Planner(self.seat)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        """Rebuild the state from the (complete) view and ask the planner."""
        state = GAME.determinize(view, random.Random(0))
        return self.planner.choose(state, legal)


def evaluate(games: int, seats: int) -> str:
    """Play ``games`` in-process games of this bot against uniform random players
    (the bot's seat rotates) and summarise wins and mean scores."""
    from referee.api.engine import CHANCE, TERMINAL

    wins = 0
    mine = best_other = 0.0
    for game in range(games):
        rng = random.Random(game)
        bot_seat = game % seats
        planner = Planner(bot_seat)
        state = GAME.new_game(seats, GAME.parse_options({}))
        while (seat := state.to_move()) != TERMINAL:
            if seat == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            pick = planner.choose(state, legal) if seat == bot_seat else rng.randrange(len(legal))
            state.apply_action(legal[pick])
        scores = state.scores()
        wins += state.ranks()[bot_seat] == 1
        mine += scores[bot_seat]
        best_other += max([x for s, x in enumerate(scores) if s != bot_seat] or [0.0])
    return (
        f"seats={seats} games={games} bot_wins={wins} ({100 * wins / games:.1f}%) "
        f"bot_mean={mine / games:.1f} best_random_mean={best_other / games:.1f}"
    )


if __name__ == "__main__":
    if "--evaluate" in sys.argv:
        count = int(sys.argv[sys.argv.index("--evaluate") + 1])
        n = int(sys.argv[sys.argv.index("--seats") + 1]) if "--seats" in sys.argv else 2
        print(evaluate(count, n))
    else:
        run(RoadsAndBoatsBot())
