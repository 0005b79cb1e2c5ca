#!/usr/bin/env python3
"""In-process bot matches for measuring bots (a helper, not a test module).

Loads ``botkit`` bots from their files (so a frozen copy and the current version of
the same bot can meet), seats a *candidate* in one seat and an *opponent* in every
other seat, rotates the candidate through all seats on the same seed (duplicate
games), and prints the candidate's win rate with a 95% Wilson interval, its mean
rank, the median winner score and the median score of each side.

    python -m benchmarks.strength.arena manila "bots/search_bot.py --iterations 200" \
        bots/manila_bot.py --seats 4 --seeds 10

A bot spec is a file path followed by the flags its ``main`` would parse
(``--iterations N``, ``--seed S``, ``--cautious``...).  Clocks are not simulated: a
search bot must be given ``--iterations``.  Chance outcomes come from the seed.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import math
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from referee.api.engine import CHANCE, TERMINAL
from referee.botkit import Bot
from referee.games import get_game

ROOT = Path(__file__).resolve().parents[2]

_LOADED: dict[str, Any] = {}


def load_module(path: str) -> Any:
    """The module of a bot file, loaded once under a name unique to its path."""
    full = str((ROOT / path).resolve()) if not Path(path).is_absolute() else path
    if full not in _LOADED:
        name = "arena_" + "".join(c if c.isalnum() else "_" for c in full)
        spec = importlib.util.spec_from_file_location(name, full)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        _LOADED[full] = module
    return _LOADED[full]


class RandomBot(Bot):
    """Uniformly random legal actions (the in-process twin of ``bots/random_bot.py``)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        return self.rng.randrange(len(legal))


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A fresh bot from ``"path [flags]"`` (search or heuristic bots) or ``"random"``.

    ``seed`` seeds a bot that breaks ties at random (a ``seed`` parameter of its
    class) and the random player, unless the spec gives ``--seed``: an unseeded bot
    would draw from the operating system and make the arena unrepeatable."""
    path, *flags = shlex.split(spec)
    if path == "random":
        return RandomBot(seed)
    module = load_module(path)
    if hasattr(module, "SearchBot"):
        parser = argparse.ArgumentParser()
        parser.add_argument("--iterations", type=int, default=100)
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--fraction", type=float, default=0.35)
        parser.add_argument("--max-ms", type=float, default=None)
        parser.add_argument("--no-guide", action="store_true")
        parser.add_argument("--guide-margin", type=float, default=None)
        parser.add_argument("--no-belief", action="store_true")
        a = parser.parse_args(flags)
        bot: Bot = module.SearchBot(
            a.iterations,
            seed if a.seed is None else a.seed,
            a.fraction,
            a.max_ms,
            not a.no_guide,
            a.guide_margin,
            belief=not a.no_belief,
        )
        return bot
    classes = [
        v
        for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, Bot) and v is not Bot
    ]
    assert classes, f"no Bot subclass in {path}"
    cls: Any = classes[0]
    kwargs: dict[str, Any] = {"cautious": True} if "--cautious" in flags else {}
    if "seed" in inspect.signature(cls).parameters:
        kwargs["seed"] = int(flags[flags.index("--seed") + 1]) if "--seed" in flags else seed
    made: Bot = cls(**kwargs)
    return made


@dataclass
class Tally:
    """Results of the candidate over many games."""

    wins: float = 0.0
    games: int = 0
    ranks: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    winners: list[float] = field(default_factory=list)
    seconds: float = 0.0
    money: list[float] = field(default_factory=list)
    money_others: list[float] = field(default_factory=list)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(
    game_name: str,
    specs: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    max_plies: int = 100_000,
    keep: list[Any] | None = None,
) -> tuple[Any, list[float]]:
    """One game with ``specs[seat]`` in each seat (a bot in seat ``s`` seeded with
    ``seed * 16 + s``), each decision given the events since the seat's last one as
    the referee sends them (``observe_action``/``observe_chance``, as plain JSON
    objects); returns the final state and the seconds each seat spent choosing
    (and appends the bots, seat order, to ``keep`` if given).
    Raises ``RuntimeError`` on an illegal index or when ``max_plies`` is exceeded."""
    game = get_game(game_name)
    seats = len(specs)
    opts = game.parse_options(options or {})
    bots = [make_bot(spec, seed * 16 + seat) for seat, spec in enumerate(specs)]
    if keep is not None:
        keep.extend(bots)
    for seat, bot in enumerate(bots):
        bot.game, bot.seat, bot.seats, bot.options = game, seat, seats, opts
        bot.start = {"type": "start", "game": game_name, "seat": seat, "seats": seats}
        bot.on_start()
    rng = random.Random(seed)
    state = game.new_game(seats, opts)
    spent = [0.0] * seats
    events: list[list[Any]] = [[] for _ in range(seats)]
    for ply in range(max_plies):
        who = state.to_move()
        if who == TERMINAL:
            return state, spent
        if who == CHANCE:
            outcome = state.sample_chance(rng)
            for viewer in range(seats):
                seen = state.observe_chance(outcome, viewer)
                if seen is not None:
                    events[viewer].append({"ply": ply, "chance": msgspec.to_builtins(seen)})
            state.apply_chance(outcome)
            continue
        legal = list(state.legal_actions())
        t0 = time.perf_counter()
        index = bots[who].choose(state.view(who), legal, events[who])
        spent[who] += time.perf_counter() - t0
        events[who] = []
        if not 0 <= index < len(legal):
            raise RuntimeError(f"seat {who} chose index {index} of {len(legal)}")
        action = legal[index]
        for viewer in range(seats):
            seen = state.observe_action(who, action, viewer)
            if seen is not None:
                events[viewer].append(
                    {"ply": ply, "seat": who, "action": msgspec.to_builtins(seen)}
                )
        state.apply_action(action)
    raise RuntimeError(f"no end after {max_plies} plies")


def duel(
    game_name: str,
    candidate: str,
    opponent: str,
    seats: int,
    seeds: list[int],
    options: dict[str, Any] | None = None,
    verbose: bool = False,
) -> Tally:
    """The candidate in each seat in turn, the opponent elsewhere, on every seed."""
    tally = Tally()
    for seed in seeds:
        for me in range(seats):
            specs = [candidate if s == me else opponent for s in range(seats)]
            state, spent = play(game_name, specs, seed, options)
            scores, ranks = state.scores(), state.ranks()
            tally.games += 1
            firsts = sum(1 for r in ranks if r == 1)
            tally.wins += (1.0 / firsts) if ranks[me] == 1 else 0.0
            tally.ranks.append(ranks[me])
            tally.scores.append(scores[me])
            tally.others.extend(scores[s] for s in range(seats) if s != me)
            tally.winners.append(max(scores))
            tally.seconds += spent[me]
            players = getattr(state, "players", None)
            if players and hasattr(players[0], "money"):
                tally.money.append(players[me].money)
                tally.money_others.extend(p.money for s, p in enumerate(players) if s != me)
            if verbose:
                print(f"seed {seed} seat {me}: rank {ranks[me]} scores {scores}", flush=True)
    return tally


def report(tally: Tally, seats: int) -> str:
    """One paragraph summarising ``tally``."""
    lo, hi = wilson(tally.wins, tally.games)
    n = max(tally.games, 1)
    return (
        f"games {tally.games}, candidate first {tally.wins:g} = {tally.wins / n:.1%} "
        f"[95% {lo:.1%}, {hi:.1%}] (fair {1 / seats:.0%}), mean rank "
        f"{statistics.mean(tally.ranks or [0]):.2f}, median score candidate "
        f"{statistics.median(tally.scores or [0]):g} / others "
        f"{statistics.median(tally.others or [0]):g}, median winner "
        f"{statistics.median(tally.winners or [0]):g}, candidate s/game "
        f"{tally.seconds / n:.2f}"
        + (
            f", mean Cruzados left: candidate {statistics.mean(tally.money):.0f} / "
            f"others {statistics.mean(tally.money_others):.0f}"
            if tally.money
            else ""
        )
    )


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("candidate")
    parser.add_argument("opponent")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    options = dict(kv.split("=", 1) for kv in args.option)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    tally = duel(args.game, args.candidate, args.opponent, args.seats, seeds, options, args.verbose)
    print(f"{args.game} {args.seats} seats: {args.candidate!r} vs {args.opponent!r}")
    print(report(tally, args.seats))


if __name__ == "__main__":
    main()
