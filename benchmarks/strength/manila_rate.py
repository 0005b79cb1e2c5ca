#!/usr/bin/env python3
"""CPU cost of the Manila search bot's thinking (a diagnostic, not a test).

Plays one heuristic self-play game at 4 seats (``--seed``) and, at seat 0's
decisions, times with ``time.process_time`` the search bot's ``choose`` (guide
included) at ``--iterations N`` and counts the paired playouts it ran, per kind of
decision, how many of its choices differ from the guide's (the game itself is
played by the guide) and which auction policies it chose; ``--tree`` also times
the tree search at the placements per iteration.  The playouts per CPU second give
the count equal to 290 ms of CPU.

    python -m benchmarks.strength.manila_rate --seed 7 --iterations 210
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

from bots.manila_bot import ManilaBot
from bots.search_bot import Search, SearchBot
from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    """Time both kinds of search over one game and print the rates."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=210)
    parser.add_argument("--tree", action="store_true", help="also time the tree search")
    args = parser.parse_args()
    game = get_game("manila")
    seats = 4
    opts = game.parse_options({})
    bots = [ManilaBot() for _ in range(seats)]
    probe = SearchBot(iterations=args.iterations, seed=1)
    probe.game, probe.seat, probe.seats, probe.options = game, 0, seats, opts
    probe.start = {"type": "start", "game": "manila", "seat": 0, "seats": seats}
    probe.on_start()
    adapter: Any = probe.adapter
    rng = random.Random(args.seed)
    state = game.new_game(seats, opts)
    tree_cpu = tree_n = flat_cpu = flat_n = 0.0
    kinds: dict[str, list[float]] = {}
    limits: dict[int, int] = {}
    while state.to_move() != TERMINAL:
        who = state.to_move()
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = list(state.legal_actions())
        view = state.view(who)
        if who == 0 and len(legal) > 1 and view.phase == "place" and args.tree:
            t0 = time.process_time()
            search = Search(adapter, 0, probe.rng)
            roots = adapter.candidates(state, legal)
            search.run(view, roots, lambda n: n >= args.iterations)
            tree_cpu += time.process_time() - t0
            tree_n += args.iterations
        if who == 0 and len(legal) > 1:
            adapter.last_flat = None
            t0 = time.process_time()
            picked = probe.choose(view, legal, [])
            spent = time.process_time() - t0
            flat = adapter.last_flat
            if flat is not None:
                n = float(sum(len(m) for m in flat[1]))
                flat_cpu += spent
                flat_n += n
                kind = kinds.setdefault(view.phase, [0.0, 0.0, 0.0, 0.0])
                kind[0] += spent
                kind[1] += n
                kind[2] += 1
                kind[3] += picked != bots[0].choose(view, legal, [])
                if view.phase == "auction":
                    limits[flat[2]] = limits.get(flat[2], 0) + 1
        state.apply_action(legal[bots[who].choose(view, legal, [])])
    if tree_n:
        per_iter = tree_cpu / tree_n
        print(f"tree: {tree_n:.0f} iterations, {1000 * per_iter:.3f} ms CPU each")
    per_playout = flat_cpu / max(1.0, flat_n)
    for phase, (cpu, n, decisions, overrides) in sorted(kinds.items()):
        print(
            f"  {phase}: {n:.0f} playouts, {1000 * cpu / max(1.0, n):.3f} ms CPU each;"
            f" {overrides:.0f} of {decisions:.0f} decisions differ from the guide's"
        )
    names = ["pass"] + [f"{d:+g}" for d in adapter.LIMIT_OFFSETS]
    print("  auction policies chosen:", {names[k]: v for k, v in sorted(limits.items())})
    print(f"flat playouts: {flat_n:.0f}, {1000 * per_playout:.3f} ms CPU each (guide included)")
    print(f"playouts per CPU second {1 / per_playout:.0f}; in 290 ms: {0.29 / per_playout:.0f}")


if __name__ == "__main__":
    main()
