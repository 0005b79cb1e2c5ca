#!/usr/bin/env python3
"""A heuristic Navegador bot (JSON Lines protocol via ``referee.botkit``).

Strategy: every rondel choice (and the Navegador card) is judged by playing the rest of
its own turn greedily on a copy of the state (``GAME.determinize`` rebuilds it from the
view) and scoring the result with :func:`evaluate`; inside an action each atomic step is
taken greedily by the same evaluation, and the action ends once no step improves it.

:func:`evaluate` is the VP the seat would score now plus rough values for what earns
VP later: money (Cruzados), colonies and factories (market income), workers, ships
near unexplored waters or beside colony tiles still on offer.

Usage: navegador_bot.py [--seed N]
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from referee.api.engine import CHANCE
from referee.botkit import Bot, run
from referee.games.navegador import GAME, data
from referee.games.navegador.actions import DONE, USE_CARD
from referee.games.navegador.sailing import distances
from referee.games.navegador.state import START, NavegadorState

MONEY_STEPS = ((800, 1 / 100), (2200, 1 / 300), (10**9, 1 / 2000))
"""Worth of Cruzados in hand, in VP per Cruzado, for successive amounts: the first 800
are spent soon, a hoard is worth little (it only scores 1 VP per 200 at the end)."""
COLONY_VP = 2.5
"""Extra value of a colony beyond its printed VP (it sells every Market)."""
FACTORY_VP = 1.5
"""Extra value of a factory beyond its printed VP (it processes every Market)."""
WORKER_VP = 0.8
"""Extra value of a worker (colonies, buildings and privileges need them)."""
SHIP_NEAR_UNEXPLORED = 1.5
"""Value of a ship that borders an unexplored region (halved per further border)."""
EXPEDITION_SHIPS = 3
"""Only the ships closest to unexplored waters count as explorers-to-be."""
SHIP_AT_TILES = 1.5
"""Value of a ship in a region with colony tiles still to found (one per tile)."""
EPSILON = 1e-6


def money_value(money: int, ending: bool) -> float:
    """VP credited for ``money`` Cruzados; once the end is triggered exactly 1/200 each."""
    if ending:
        return money / data.VP_MONEY_UNIT
    value, left = 0.0, money
    for amount, rate in MONEY_STEPS:
        part = min(left, amount)
        value += part * rate
        left -= part
    return value


def evaluate(state: NavegadorState, seat: int) -> float:
    """Heuristic worth of ``state`` for ``seat`` in VP (higher is better)."""
    player = state.players[seat]
    value = float(player.score() - player.money // data.VP_MONEY_UNIT)
    value += money_value(player.money, state.end_seat >= 0)
    value += sum(player.colonies) * COLONY_VP
    value += sum(player.factories) * FACTORY_VP
    value += player.workers * WORKER_VP
    table = distances(state.explored)
    unexplored = [r for r in range(len(data.REGIONS)) if not state.is_explored(r)]
    reach: list[int] = []
    for region, ships in enumerate(player.ships):
        if not ships:
            continue
        value += min(ships, len(state.tiles[region])) * SHIP_AT_TILES
        if unexplored:
            d = min(table[region][u] for u in unexplored)
            reach.extend([d] * ships)
    for d in sorted(reach)[:EXPEDITION_SHIPS]:
        if d < 10:
            value += SHIP_NEAR_UNEXPLORED * 0.5 ** (d - 1)
    if state.phase_pending:
        value += 0.5
    return value


class Planner:
    """Greedy turn planner on copies of the engine state."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def settle(self, state: NavegadorState, seat: int) -> None:
        """Resolve chance nodes and finish a forced expedition (all choices equal)."""
        while True:
            who = state.to_move()
            if who == CHANCE:
                state.apply_chance(state.sample_chance(self.rng))
            elif who == seat and state.expedition >= 0:
                state.apply_action(state.legal_actions()[0])
            else:
                return

    def step_value(self, state: NavegadorState, action: Any, seat: int) -> float:
        """Value after ``action`` (and any forced follow-up)."""
        copy = state.clone()
        copy.apply_action(action)
        self.settle(copy, seat)
        return evaluate(copy, seat)

    def greedy_step(self, state: NavegadorState, seat: int) -> Any:
        """Best single atomic step inside an action; DONE unless something improves."""
        legal = state.legal_actions()
        base = evaluate(state, seat)
        best, best_value = (DONE if DONE in legal else legal[0]), base + EPSILON
        for action in legal:
            if action is DONE:
                continue
            value = self.step_value(state, action, seat)
            if value > best_value:
                best, best_value = action, value
        return best

    def finish_turn(self, state: NavegadorState, seat: int, stop_at_start: bool) -> None:
        """Play ``seat``'s steps greedily until its turn ends (or it is back at START)."""
        for _ in range(200):
            self.settle(state, seat)
            if state.to_move() != seat:
                return
            if state.stage == START:
                if stop_at_start:
                    return
                state.apply_action(self.best_start(state, seat))
                continue
            state.apply_action(self.greedy_step(state, seat))

    def start_value(self, state: NavegadorState, action: Any, seat: int) -> float:
        copy = state.clone()
        copy.apply_action(action)
        if action is USE_CARD:
            self.finish_turn(copy, seat, stop_at_start=True)
            if copy.to_move() == seat and copy.stage == START:
                return self.start_value(copy, self.best_start(copy, seat), seat) + 0.3
            return evaluate(copy, seat)
        self.finish_turn(copy, seat, stop_at_start=True)
        return evaluate(copy, seat)

    def best_start(self, state: NavegadorState, seat: int) -> Any:
        """Best START decision: the card (if it pays) or a rondel space."""
        legal = state.legal_actions()
        best, best_value = legal[0], float("-inf")
        for action in legal:
            value = self.start_value(state, action, seat)
            if value > best_value + EPSILON:
                best, best_value = action, value
        return best

    def choose(self, state: NavegadorState) -> Any:
        """The action this bot plays in ``state`` (a decision node)."""
        seat = state.to_move()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.stage == START:
            return self.best_start(state, seat)
        return self.greedy_step(state, seat)


class NavegadorBot(Bot):
    """Protocol wrapper: rebuild the state from the view and ask the :class:`Planner`."""

    name = "navegador-heuristic"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.planner = Planner(self.rng)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        state = GAME.determinize(view, self.rng)
        action = self.planner.choose(state)
        try:
            return legal.index(action)
        except ValueError:
            return 0


def evaluate_vs_random(games: int, seats: int, seed: int) -> dict[str, float]:
    """Play ``games`` in-process games, the bot in seat ``g % seats`` and uniform-random
    players elsewhere (chance from the same seeded RNG); return win rate and mean VP."""
    rng = random.Random(seed)
    planner = Planner(random.Random(seed + 1))
    wins = 0.0
    bot_vp = other_vp = 0.0
    for g in range(games):
        me = g % seats
        state = GAME.new_game(seats, GAME.parse_options({}))
        while (who := state.to_move()) >= 0 or who == CHANCE:
            if who == CHANCE:
                state.apply_chance(state.sample_chance(rng))
            elif who == me:
                state.apply_action(planner.choose(state))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        ranks = state.ranks()
        scores = state.scores()
        wins += ranks[me] == 1
        bot_vp += scores[me]
        other_vp += (sum(scores) - scores[me]) / (seats - 1)
    return {
        "games": games,
        "seats": seats,
        "bot_win_rate": wins / games,
        "bot_mean_vp": bot_vp / games,
        "random_mean_vp": other_vp / games,
    }


def main() -> None:
    """Run the bot on stdin/stdout, or ``--evaluate N [--seats S]`` against random."""
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else None
    if "--evaluate" in sys.argv:
        games = int(sys.argv[sys.argv.index("--evaluate") + 1])
        seats = int(sys.argv[sys.argv.index("--seats") + 1]) if "--seats" in sys.argv else 4
        print(evaluate_vs_random(games, seats, seed or 0))
        return
    run(NavegadorBot(seed))


if __name__ == "__main__":
    main()
