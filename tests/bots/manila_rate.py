#!/usr/bin/env python3
"""CPU cost of the Manila search bot's two kinds of thinking (a diagnostic, not a test).

Plays one heuristic self-play game at 4 seats (``--seed``) and, at seat 0's
decisions, times with ``time.process_time``: the tree search (placements) per
iteration, and the auction's paired playouts per playout.  The ratio is the
``rollouts_per_iteration`` that keeps ``--iterations N`` at the same CPU for both.

    python tests/bots/manila_rate.py --seed 7 --iterations 210
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bots"))

from manila_bot import ManilaBot  # noqa: E402
from search_bot import Search, SearchBot  # noqa: E402

from referee.engine import CHANCE, TERMINAL  # noqa: E402
from referee.games import get_game  # noqa: E402


def main() -> None:
    """Time both kinds of search over one game and print the rates."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=210)
    parser.add_argument("--playouts", type=int, default=60)
    args = parser.parse_args()
    game = get_game("manila")
    seats = 4
    opts = game.parse_options({})
    bots = [ManilaBot() for _ in range(seats)]
    probe = SearchBot(iterations=args.iterations, seed=1)
    probe.game, probe.seat, probe.seats, probe.options = game, 0, seats, opts
    probe.start = {"type": "start", "game": "manila", "seat": 0, "seats": seats}
    probe.on_start()
    adapter = probe.adapter
    rng = random.Random(args.seed)
    state = game.new_game(seats, opts)
    tree_cpu = tree_n = flat_cpu = flat_n = 0.0
    while state.to_move() != TERMINAL:
        who = state.to_move()
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = list(state.legal_actions())
        view = state.view(who)
        if who == 0 and len(legal) > 1 and view.phase == "place":
            t0 = time.process_time()
            search = Search(adapter, 0, probe.rng)
            roots = adapter.candidates(state, legal)
            search.run(view, roots, lambda n: n >= args.iterations)
            tree_cpu += time.process_time() - t0
            tree_n += args.iterations
        if who == 0 and len(legal) > 1 and view.phase == "auction":
            t0 = time.process_time()
            got = adapter.paired(view, [0.0, 10.0], lambda n: n >= args.playouts)  # type: ignore[attr-defined]
            flat_cpu += time.process_time() - t0
            flat_n += sum(len(m) for m in got or [])
        state.apply_action(legal[bots[who].choose(view, legal, [])])
    per_iter = tree_cpu / max(1.0, tree_n)
    per_playout = flat_cpu / max(1.0, flat_n)
    print(f"tree: {tree_n:.0f} iterations, {1000 * per_iter:.3f} ms CPU each")
    print(f"auction playouts: {flat_n:.0f}, {1000 * per_playout:.3f} ms CPU each")
    print(f"rollouts_per_iteration = {per_iter / per_playout:.3f}")


if __name__ == "__main__":
    main()
