#!/usr/bin/env python3
"""A heuristic Roads & Boats bot: a wood economy around the home, then wonder bricks.

Plan (rule-based, no search):

* home on a woods hex with woods, rock and pasture around it;
* a woodcutter on the home hex, then woodcutters (and a quarry) on neighbouring hexes,
  built by donkeys that carry a board or two out of the home;
* donkeys shuttle the trunks, stone and anything else lying around back home, and
  roads (1 stone) join the home to its producers so a donkey makes the round trip in
  one turn;
* a sawmill turns trunks into twice as many boards where one stands;
* every wonder phase it buys bricks while a brick costs at most ``MAX_PRICE`` goods,
  paying with the cheapest goods, always keeping one transporter at home.

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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
from referee.games.roads_and_boats.world import LAND, World

MAX_PRICE = 4
"""Highest price (goods) the bot pays for one brick in a turn."""
PAY_ORDER = (
    D.TRUNK, D.GOOSE, D.CLAY, D.PAPER, D.FUEL, D.IRON, D.BOARD, D.STONE, D.GOLD, D.COINS, D.STOCK,
)  # fmt: skip
RESERVE_BOARDS = 2
"""Boards kept at home (not paid for bricks) while the economy still grows."""
WANTED = (D.WOODCUTTER, D.QUARRY, D.SAWMILL)
TERRAIN_SCORE = {D.WOODS: 3.0, D.ROCK: 2.0, D.PASTURE: 1.0, D.MOUNTAIN: 0.5}


def land_distances(world: World, start: int) -> dict[int, int]:
    """Off-road step distance (in hexes) from land area ``start`` over the static map."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        for _edge, q in world.land_links[p]:
            if q not in dist:
                dist[q] = dist[p] + 1
                todo.append(q)
    return dist


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
            score = 6.0 if w.hexes[h].terrain == D.WOODS else 0.0
            for p in land_distances(w, action.place):
                j = w.place_hex[p]
                if j != h and w.adjacent(h, j):
                    score += TERRAIN_SCORE.get(w.hexes[j].terrain, 0.0)
            return score + 0.5 * len(w.area_sides[action.place])

        return max(legal, key=value)

    # ------------------------------------------------------------------ production

    def _production(self, state: RBState, legal: list[Any]) -> Any | None:
        for action in legal:
            if isinstance(action, A.Breed):
                return action  # more donkeys (offered only within the transporter limit)
        for action in legal:
            if isinstance(action, A.Produce):
                kind = state.buildings[action.hex][0]
                if D.BUILDINGS[kind].kind == D.SECONDARY:
                    return action
        return None

    # ------------------------------------------------------------------ movement

    def _movement(self, state: RBState, legal: list[Any]) -> Any | None:
        seat = self.seat
        home = state.homes[seat]
        w = state.world
        if state.active < 0:
            at_home = [t for t in state.trans.values() if t.owner == seat and t.place == home]
            for action in legal:
                if not isinstance(action, A.MoveTransporter):
                    continue
                t = state.trans[action.transporter]
                if t.water:
                    continue
                if t.place == home and len(at_home) <= 1:
                    continue  # keep one transporter home for the wonder
                if t.place == home and self._outing(state, t.place) is None:
                    need = self._board_need(state)
                    if not need or state.pool(home, [])[D.BOARD] < need:
                        continue
                return action
            return None
        t = state.trans[state.active]
        dist_home = land_distances(w, home)
        loads = [a for a in legal if isinstance(a, A.Load)]
        unloads = [a for a in legal if isinstance(a, A.Unload)]
        steps = [a for a in legal if isinstance(a, A.Step)]
        if t.place == home:
            if unloads and t.cargo and not self._carrying_for_building(state, t):
                return next(a for a in unloads if a.place == home)
            boards_only = all(g & D.GOOD_MASK == D.BOARD for g in t.cargo)
            need = self._board_need(state)
            board = A.Load("board", home)
            enough = state.pool(home, [])[D.BOARD] + len(t.cargo) >= need
            if steps and boards_only and len(t.cargo) < need and board in loads and enough:
                return board
            if steps and t.cargo:
                site = self._build_site(state)
                for a in steps:
                    if a.to == site:
                        return a
            target = self._outing(state, t.place)
            if target is not None and not t.cargo:
                for a in steps:
                    if a.to == target:
                        return a
            return None
        # away from home: pick up what lies here, then head home
        if loads:
            best = max(loads, key=lambda a: (a.good != "goose", PAY_ORDER.index(D.G[a.good])))
            return best
        if self._carrying_for_building(state, t) and self._is_site(state, t.place):
            return None
        if steps:
            here = dist_home.get(t.place, 99)
            better = [a for a in steps if dist_home.get(a.to, 99) < here]
            if better:
                return better[0]
        return None

    def _outing(self, state: RBState, place: int) -> int | None:
        """A neighbouring land area with goods (or a producer) worth fetching from."""
        w = state.world
        best, best_score = None, 0
        for _edge, q in w.land_links[place]:
            q = state.root[q]
            score = len(state.piles.get(q, ()))
            b = state.buildings.get(w.place_hex[q])
            if b is not None and b[1] == q and D.BUILDINGS[b[0]].kind == D.PRIMARY:
                score += 1
            busy = sum(1 for t in state.trans.values() if t.owner == self.seat and t.place == q)
            score -= 2 * busy
            if score > best_score:
                best, best_score = q, score
        return best

    def _is_site(self, state: RBState, place: int) -> bool:
        h = state.world.place_hex[place]
        return h not in state.buildings and state.world.place_kind[place] == LAND

    def _build_site(self, state: RBState) -> int | None:
        """The neighbouring land area where the next producer should go."""
        w = state.world
        home = state.homes[self.seat]
        best, best_score = None, 0.0
        for _edge, q in w.land_links[home]:
            q = state.root[q]
            h = w.place_hex[q]
            if h in state.buildings:
                continue
            terrain = w.hexes[h].terrain
            score = {D.WOODS: 3.0, D.ROCK: 2.0}.get(terrain, 0.0)
            if score > best_score:
                best, best_score = q, score
        return best

    def _board_need(self, state: RBState) -> int:
        site = self._build_site(state)
        if site is None:
            return 0
        terrain = state.world.hexes[state.world.place_hex[site]].terrain
        return 1 if terrain == D.WOODS else 2

    def _carrying_for_building(self, state: RBState, t: Any) -> bool:
        return (
            bool(t.cargo)
            and all(g & D.GOOD_MASK == D.BOARD for g in t.cargo)
            and (self._build_site(state) is not None)
        )

    # ------------------------------------------------------------------ building

    def _building(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        w = state.world
        builds = [a for a in legal if isinstance(a, A.Build)]
        for kind in WANTED:
            name = D.BUILDINGS[kind].name
            for a in builds:
                if a.building == name and (kind != D.SAWMILL or a.place == home):
                    return a
        if not any(b[1] == home for b in state.buildings.values()):
            for a in builds:
                if a.place == home and a.building in ("sawmill", "stone_factory"):
                    return a
        # roads from home to neighbouring producers
        for a in legal:
            if isinstance(a, A.Road) and a.place == home:
                j = w.nbr[w.place_hex[home]][a.side]
                b = state.buildings.get(j)
                if b is not None and D.BUILDINGS[b[0]].kind == D.PRIMARY:
                    return a
        return None

    # ------------------------------------------------------------------ wonder

    def _wonder(self, state: RBState, legal: list[Any]) -> Any | None:
        if state.paying:
            pays = {a.good: a for a in legal if isinstance(a, A.Pay)}
            for g in PAY_ORDER:
                if D.GOODS[g] in pays:
                    return pays[D.GOODS[g]]
            return legal[0]
        if A.BRICK not in legal or state.brick_price() > MAX_PRICE:
            return None
        home = state.homes[self.seat]
        own = state.presence(self.seat).get(home, [])
        counts = state.pool(home, own)
        reserve = RESERVE_BOARDS if self._build_site(state) is not None else 0
        spendable = sum(counts) - min(reserve, counts[D.BOARD])
        return A.BRICK if spendable >= state.brick_price() else None


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
    from referee.engine import CHANCE, TERMINAL

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
