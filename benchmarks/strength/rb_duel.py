#!/usr/bin/env python3
"""Measurement helper for the Roads & Boats heuristic bot (not a test module).

Plays the current ``bots/roads_and_boats_bot.py`` Planner in-process against a baseline
Planner loaded from a file (a frozen copy of an older bot, e.g.
``git show <rev>:bots/roads_and_boats_bot.py > /tmp/rb_bot_v1.py`` for a revision before
the planner moved to ``bots/roads_and_boats/``; a later one is a whole ``bots/`` tree and
cannot be loaded beside this one, since both are the package ``bots``), or plays it solo.

    python -m benchmarks.strength.rb_duel duel /tmp/rb_bot_v1.py --games 40 --seats 2
    python -m benchmarks.strength.rb_duel duel /tmp/rb_bot_v1.py --games 40 --seats 4
    python -m benchmarks.strength.rb_duel solo --games 20

In a duel the new bot takes one seat (rotating), the baseline all other seats; the map is
``--map`` (default auto: The Pacific for 2 seats, generated for 3-4), ``map_seed`` = game number.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from pathlib import Path
from typing import Any

from bots.roads_and_boats_bot import Planner
from referee.api.engine import CHANCE, TERMINAL
from referee.games.roads_and_boats import GAME

ROOT = Path(__file__).resolve().parents[2]


def load_planner(path: str) -> Any:
    """The ``Planner`` class of a bot file."""
    spec = importlib.util.spec_from_file_location("rb_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Planner


def play(planners: list[Any], options: dict[str, Any], seed: int) -> Any:
    """One in-process game; ``planners[seat]`` decides for each seat."""
    rng = random.Random(seed)
    state = GAME.new_game(len(planners), GAME.parse_options(options))
    while (seat := state.to_move()) != TERMINAL:
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[planners[seat].choose(state, legal)])
    return state


def duel(baseline: str, games: int, seats: int, first: int, board: str) -> None:
    old = load_planner(baseline)
    wins = 0
    new_total = old_total = 0.0
    start = time.time()
    for game in range(first, first + games):
        me = game % seats
        planners = [Planner(s) if s == me else old(s) for s in range(seats)]
        options: dict[str, Any] = {"map": board, "map_seed": game}
        state = play(planners, options, game)
        scores = state.scores()
        won = state.ranks()[me] == 1
        wins += won
        new_total += scores[me]
        old_total += sum(x for s, x in enumerate(scores) if s != me) / (seats - 1)
        print(f"game {game} seat {me} scores {scores} {'WIN' if won else ''}", flush=True)
    print(
        f"seats={seats} games={games} new_wins={wins} ({100 * wins / games:.1f}%, "
        f"fair share {100 / seats:.0f}%) new_mean={new_total / games:.1f} "
        f"baseline_mean={old_total / games:.1f} time={time.time() - start:.0f}s"
    )


def solo(games: int, baseline: str | None) -> None:
    planner_type = load_planner(baseline) if baseline else Planner
    total = 0.0
    start = time.time()
    for game in range(games):
        state = play([planner_type(0)], {}, game)
        total += state.scores()[0]
        print(f"game {game} score {state.scores()[0]}", flush=True)
    print(f"solo games={games} mean={total / games:.1f} time={time.time() - start:.0f}s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("duel", "solo"))
    parser.add_argument("baseline", nargs="?")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--map", default="auto", help="auto: The Pacific for 2, generated for 3-4")
    args = parser.parse_args()
    if args.mode == "duel":
        duel(args.baseline, args.games, args.seats, args.first, args.map)
    else:
        solo(args.games, args.baseline)


if __name__ == "__main__":
    main()
