#!/usr/bin/env python3
"""Roads & Boats economy statistics of bot games (a measuring helper, not a test module).

Plays in-process games through ``benchmarks/strength/arena.py`` (same seeding as the arena: the
seed drives every chance outcome) and prints, per game and as medians, what issue 16
asks of the heuristic bot besides winning: the winner's points, the number of turns,
and whether research, boats and secondary industry beyond the sawmill were used.

    python -m benchmarks.strength.rb_selfplay bots/roads_and_boats_bot.py --seats 4 --seeds 50

Every seat plays the same bot spec unless ``--opponent`` is given (then the first
spec sits in seat ``seed % seats`` only).  Columns: winner points, turns, goods
points and wonder points of the winner, research projects taken (all seats), boats
(water transporters standing at the end), secondary buildings beyond the sawmill.
``--set NAME=VALUE`` (repeatable) sets a module constant of the first bot before
play, e.g. ``--set PACE=False`` to measure a switched-off feature on the same seeds
(for a bot whose module has ``settings``, as ``bots/roads_and_boats_bot.py`` has, in
that settings module: ``bots/roads_and_boats/settings.py``).
"""

from __future__ import annotations

import argparse
import ast
import statistics

from benchmarks.strength.arena import load_module, play
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats import state as S

SHAFTS = [0]
"""New shafts built so far (counted by a wrapper around the engine's shaft handler)."""


def _count_shafts() -> None:
    """Wrap the engine's handler of ``Shaft`` actions so that every new shaft is counted
    (measuring only: the handler itself runs unchanged)."""
    original = S._HANDLERS[A.Shaft]

    def counted(state: S.RBState, seat: int, action: A.Shaft) -> None:
        SHAFTS[0] += 1
        original(state, seat, action)

    S._HANDLERS[A.Shaft] = counted


INDUSTRY = frozenset(
    {
        D.COAL_BURNER,
        D.PAPERMILL,
        D.STONE_FACTORY,
        D.MINT,
        D.STOCK_EXCHANGE,
        D.WAGON_FACTORY,
        D.TRUCK_FACTORY,
        D.RAFT_FACTORY,
        D.ROWBOAT_FACTORY,
        D.STEAMER_FACTORY,
    }
)
"""Secondary producers and transporter factories other than the sawmill."""


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("--opponent", default=None)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=7000)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    module = load_module(args.bot.split()[0])
    _count_shafts()
    switches = getattr(module, "settings", module)
    for item in args.set:
        name, value = item.split("=", 1)
        if not hasattr(switches, name):
            parser.error(f"{args.bot} has no constant {name}")
        setattr(switches, name, ast.literal_eval(value))
    winners: list[float] = []
    lowest: list[float] = []
    per_seat = {
        name: 0
        for name in ("mine", "mint", "coal_burner", "papermill", "stock_exchange", "raft_factory")
    }
    boat_cargo = [0, 0]  # scoring goods / points on boats at the end
    made = {D.GOLD: 0, D.COINS: 0, D.STOCK: 0}
    carried = {D.GOLD: 0, D.COINS: 0, D.STOCK: 0}
    winner_goods: list[int] = []
    winner_wonder: list[int] = []
    seat_goods: list[int] = []
    turns: list[int] = []
    flags = {"research": 0, "boats": 0, "industry": 0, "all three": 0}
    coins_games = 0
    seconds = 0.0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        specs = [args.bot] * args.seats
        if args.opponent is not None:
            specs = [args.opponent] * args.seats
            specs[seed % args.seats] = args.bot
        state, spent = play("roads-and-boats", specs, seed)
        seconds += sum(spent)
        scores = state.scores()
        best = max(range(args.seats), key=lambda s: scores[s])
        winners.append(scores[best])
        lowest.append(min(scores))
        for b in state.buildings.values():
            name = D.BUILDINGS[b[0]].name
            if name in per_seat:
                per_seat[name] += 1
        for t in state.trans.values():
            for g in t.cargo:
                kind = g & D.GOOD_MASK
                if kind in carried:
                    carried[kind] += 1
                    made[kind] += 1
                    if t.water:
                        boat_cargo[0] += 1
                        boat_cargo[1] += D.SCORE_VALUE.get(kind, 0)
        for pile in state.piles.values():
            for g in pile:
                if g & D.GOOD_MASK in made:
                    made[g & D.GOOD_MASK] += 1
        turns.append(state.turn)
        research = sum(bin(r).count("1") for r in state.research)
        boats = sum(1 for t in state.trans.values() if t.water)
        kinds = sorted({D.BUILDINGS[b[0]].name for b in state.buildings.values()})
        industry = [k for k in kinds if D.B[k] in INDUSTRY]
        used = (research > 0, boats > 0, bool(industry))
        for name, flag in zip(("research", "boats", "industry"), used, strict=True):
            flags[name] += flag
        flags["all three"] += all(used)
        goods = state.goods_points()
        wonder = state.wonder_points()
        winner_goods.append(goods[best])
        winner_wonder.append(wonder[best])
        seat_goods.extend(goods)
        coins_games += any(
            g & D.GOOD_MASK in (D.COINS, D.STOCK) for t in state.trans.values() for g in t.cargo
        )
        if not args.quiet:
            print(
                f"seed {seed}: winner {scores[best]:g} (goods {goods[best]}, wonder "
                f"{wonder[best]}) turns {state.turn} research {research} boats {boats} "
                f"industry {','.join(industry) or '-'} scores {[int(x) for x in scores]}"
                f" goods {goods}",
                flush=True,
            )
    n = len(winners)
    print(
        f"{n} games at {args.seats} seats: median winner {statistics.median(winners):g} "
        f"(mean {statistics.mean(winners):.1f}, min {min(winners):g}), median lowest seat "
        f"{statistics.median(lowest):g} (mean {statistics.mean(lowest):.1f}), median turns "
        f"{statistics.median(turns):g}, winner's goods / wonder points (mean) "
        f"{statistics.mean(winner_goods):.1f} / {statistics.mean(winner_wonder):.1f}, "
        f"goods points per seat (mean) {statistics.mean(seat_goods):.1f}; "
        f"games with research {flags['research']}, boats "
        f"{flags['boats']}, industry beyond the sawmill {flags['industry']}, all three "
        f"{flags['all three']}, coins or stock carried at the end {coins_games}; "
        f"time in choose per game {seconds / n:.2f} s (wall)"
    )
    seats = n * args.seats
    print(
        "per seat (mean): "
        + ", ".join(f"{name} {count / seats:.2f}" for name, count in per_seat.items())
        + "; gold / coins / stock at the end, carried (anywhere) per seat: "
        + " / ".join(
            f"{carried[g] / seats:.2f} ({made[g] / seats:.2f})" for g in (D.GOLD, D.COINS, D.STOCK)
        )
        + f"; new shafts {SHAFTS[0] / seats:.2f}; on boats at the end {boat_cargo[0]} "
        f"scoring goods ({boat_cargo[1]} points in all)"
    )


if __name__ == "__main__":
    main()
