#!/usr/bin/env python3
"""A heuristic Puerto Rico bot: greedy evaluation with a short look-ahead for roles.

* Every small decision (tile, colonist, building, sale, load, storage) is chosen by
  applying each legal action to a copy of the exact state (Puerto Rico hides nothing a
  bot needs; :meth:`PuertoRicoGame.determinize` rebuilds it from the view) and scoring
  the result with :func:`position_value`.
* A role is chosen by playing the whole role phase out on a copy, every seat using the
  greedy policy above, and scoring the position when the next role choice is due.

:func:`position_value` is the bot's own VP-like estimate minus the best opponent's:
current VP, plus doubloons, goods, production capacity, quarries and occupied violet
buildings weighted by an estimate of the rounds left.

Usage: ``puerto_rico_bot.py [--seed N]`` (speaks protocol v1 through ``referee.botkit``).
``puerto_rico_bot.py --against-random GAMES [--seats N]`` instead plays GAMES in-process
games, this bot in one seat (rotating) against random players, and prints the results.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from referee.api.engine import CHANCE, TERMINAL
from referee.botkit import Bot, run
from referee.games.puerto_rico import GAME
from referee.games.puerto_rico.actions import ChooseRole
from referee.games.puerto_rico.board import Player
from referee.games.puerto_rico.data import (
    BUILDINGS,
    BUILDINGS_FOR_GOOD,
    CONSTRUCTION_HUT,
    FACTORY,
    HACIENDA,
    HARBOR,
    HOSPICE,
    LARGE_MARKET,
    LARGE_WAREHOUSE,
    OFFICE,
    QUARRY,
    SMALL_MARKET,
    SMALL_WAREHOUSE,
    TRADE_PRICE,
    UNIVERSITY,
    WHARF,
)
from referee.games.puerto_rico.scoring import player_score
from referee.games.puerto_rico.state import P_ROLE, PuertoRicoState

ABILITY_PER_ROUND = {
    SMALL_MARKET: 0.15,
    HACIENDA: 0.1,
    CONSTRUCTION_HUT: 0.08,
    SMALL_WAREHOUSE: 0.12,
    HOSPICE: 0.2,
    OFFICE: 0.15,
    LARGE_MARKET: 0.25,
    LARGE_WAREHOUSE: 0.18,
    FACTORY: 0.35,
    UNIVERSITY: 0.15,
    HARBOR: 0.45,
    WHARF: 0.55,
}
"""Rough VP per remaining round that an occupied violet building's ability is worth."""

GOOD_WORTH = tuple(0.55 + 0.12 * price for price in TRADE_PRICE)
"""VP-equivalent of one barrel in hand, by good."""
PRODUCTION_WORTH = tuple(0.35 + 0.12 * price for price in TRADE_PRICE)
"""VP-equivalent of one barrel of production capacity per remaining round, by good."""


def rounds_left(state: PuertoRicoState) -> float:
    """Estimated rounds left in the match (0 once the end is triggered)."""
    if state.end_triggered:
        return 0.0
    seats = state.seats
    by_vp = state.vp_left / (1.6 * seats)
    by_colonists = state.colonist_supply / (1.2 * seats) + 1
    by_city = (12 - max(p.city for p in state.players)) * 1.3
    return max(0.5, min(by_vp, by_colonists, by_city))


def _production_value(p: Player, rem: float) -> float:
    total = 0.0
    horizon = min(rem, 7.0) * 0.4
    for g in range(5):
        if not BUILDINGS_FOR_GOOD[g]:
            made, half = p.occ[g], 0.0
        else:
            occupied_circles = sum(max(p.bld[b], 0) for b in BUILDINGS_FOR_GOOD[g])
            circles = sum(BUILDINGS[b].circles for b in BUILDINGS_FOR_GOOD[g] if p.bld[b] >= 0)
            made = min(p.occ[g], occupied_circles)
            half = min(p.occ[g], circles) + min(p.tiles[g], occupied_circles) - 2 * made
        total += (made + 0.3 * half) * PRODUCTION_WORTH[g] * horizon
    return total


def player_value(state: PuertoRicoState, seat: int, rem: float) -> float:
    """VP-like worth of ``seat``'s position with about ``rem`` rounds left."""
    p = state.players[seat]
    value = float(player_score(p))
    if rem <= 0:
        return value + 0.01 * (p.doubloons + sum(p.goods))
    money = min(0.45, 0.06 + 0.05 * rem)
    value += money * p.doubloons
    value += sum(GOOD_WORTH[g] * p.goods[g] for g in range(5)) * min(1.0, 0.4 + 0.2 * rem)
    value += _production_value(p, rem)
    value += p.occ[QUARRY] * min(1.0, 0.12 * rem) + p.tiles[QUARRY] * 0.1 * min(rem, 3)
    horizon = min(rem, 8.0)
    for b, worth in ABILITY_PER_ROUND.items():
        if p.bld[b] > 0:
            value += worth * horizon
        elif p.bld[b] == 0:
            value += 0.5 * worth * horizon
    filled = sum(min(c, BUILDINGS[b].circles) for b, c in enumerate(p.bld) if c > 0)
    value += 0.05 * (filled + sum(p.occ)) + 0.08 * min(rem, 4) * (sum(p.tiles) + p.san_juan) / 4
    return value


def position_value(state: PuertoRicoState, seat: int) -> float:
    """``seat``'s worth minus the best opponent's (higher is better for ``seat``)."""
    rem = rounds_left(state)
    values = [player_value(state, s, rem) for s in range(state.seats)]
    mine = values.pop(seat)
    return mine - max(values) if values else mine


def greedy_index(state: PuertoRicoState, legal: list[Any], rng: random.Random) -> int:
    """Index of the action whose immediate result scores best for the seat to move."""
    seat = state.to_move()
    if len(legal) == 1:
        return 0
    best, best_value = 0, float("-inf")
    for i, action in enumerate(legal):
        child = state.clone()
        child.apply_action(action)
        while child.to_move() == CHANCE:
            child.apply_chance(child.sample_chance(rng))
        value = position_value(child, seat) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = i, value
    return best


def finish_phase(state: PuertoRicoState, rng: random.Random) -> None:
    """Play greedily (every seat) until the next role choice or the end."""
    while True:
        seat = state.to_move()
        if seat == TERMINAL or state.phase == P_ROLE:
            return
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[greedy_index(state, legal, rng)])


def role_index(state: PuertoRicoState, legal: list[Any], rng: random.Random) -> int:
    """Index of the role whose played-out phase leaves ``state``'s mover best placed."""
    seat = state.to_move()
    best, best_value = 0, float("-inf")
    for i, action in enumerate(legal):
        child = state.clone()
        child.apply_action(action)
        finish_phase(child, rng)
        value = position_value(child, seat) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = i, value
    return best


def choose_action(state: PuertoRicoState, legal: list[Any], rng: random.Random) -> int:
    """The bot's policy on a full state: look-ahead for roles, greedy otherwise."""
    if isinstance(legal[0], ChooseRole):
        return role_index(state, legal, rng)
    return greedy_index(state, legal, rng)


class PuertoRicoBot(Bot):
    """Protocol adapter: rebuilds the exact state from the view and applies the policy."""

    name = "puerto-rico-heuristic"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        """Index into ``legal`` chosen by :func:`choose_action`."""
        state = GAME.determinize(view, self.rng)
        return choose_action(state, legal, self.rng)


def against_random(games: int, seats: int) -> dict[str, float]:
    """Play ``games`` in-process games, this bot in seat ``game % seats``, the other seats
    random; return its win rate (shared wins split) and mean VP.  Seeds ``0 .. games-1``."""
    wins = 0.0
    mine: list[float] = []
    others: list[float] = []
    for game_no in range(games):
        rng = random.Random(game_no)
        hero = game_no % seats
        state = GAME.new_game(seats)
        while (seat := state.to_move()) != TERMINAL:
            if seat == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            pick = choose_action(state, legal, rng) if seat == hero else rng.randrange(len(legal))
            state.apply_action(legal[pick])
        ranks, scores = state.ranks(), state.scores()
        if ranks[hero] == 1:
            wins += 1 / ranks.count(1)
        mine.append(scores[hero])
        others.extend(scores[s] for s in range(seats) if s != hero)
    return {
        "games": games,
        "seats": seats,
        "win_rate": wins / games,
        "bot_mean_vp": sum(mine) / len(mine),
        "random_mean_vp": sum(others) / len(others),
    }


def _arg(name: str, default: int | None) -> int | None:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


if __name__ == "__main__":
    if "--against-random" in sys.argv:
        print(against_random(_arg("--against-random", 200) or 200, _arg("--seats", 4) or 4))
    else:
        run(PuertoRicoBot(_arg("--seed", None)))
