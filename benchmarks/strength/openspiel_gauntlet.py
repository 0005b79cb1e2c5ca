#!/usr/bin/env python3
"""Our bots against OpenSpiel's ISMCTS under the real referee (a measurement, not a test).

For every game, each candidate (the search bot, and the game's heuristic bot) sits in
one seat of a 4-seat ``gauntlet`` tournament against ``bots/openspiel_bot.py
--algorithm ismcts`` in the other three seats, on every seat rotation of each seed
(duplicate games), in the sandbox, at ``--move-ms`` per move.  Prints each
candidate's share of first places (shared wins split) with a 95% Wilson interval and
its mean rank, read from the run directories' records.

The full figure (1,000 ms per move, 25 seeds = 100 games per game and candidate):

    .venv/bin/python -m benchmarks.strength.openspiel_gauntlet --move-ms 1000 --seeds 25

Needs the ``interop`` extra.  Run directories go under ``--out`` (default
``runs/openspiel-gauntlet``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.strength.arena import wilson
from referee.match.record import Header, ResultLine, read_record

ROOT = Path(__file__).resolve().parents[2]

HEURISTIC = {
    "manila": "bots/manila_bot.py",
    "navegador": "bots/navegador_bot.py",
    "puerto-rico": "bots/puerto_rico_bot.py",
    "roads-and-boats": "bots/roads_and_boats_bot.py",
}

CONFIG = """name = "{name}"
game = "{game}"
seats = 4
format = "gauntlet"
rounds = {seeds}
move_ms = {move_ms}
startup_ms = 20000
bank_ms = {bank_ms}
[options]
[[bots]]
name = "{candidate}"
command = "python3 {root}/{script}"
{opponents}"""

OPPONENT = """[[bots]]
name = "ismcts-{n}"
command = "python3 {root}/bots/openspiel_bot.py --algorithm ismcts --seed {n}"
"""


def firsts(run: Path, candidate: str) -> tuple[float, int, list[int], int]:
    """(first places, shared ones split; games; ranks) of ``candidate`` in ``run``, and
    the games in which some seat had a fault (not ``ok``)."""
    wins, games, ranks, faulty = 0.0, 0, [], 0
    for path in sorted(run.rglob("*.jsonl")):
        lines = read_record(path)
        header, result = lines[0], lines[-1]
        if not isinstance(header, Header) or not isinstance(result, ResultLine):
            continue
        seat = next(i for i, s in enumerate(header.seats) if s.name.startswith(candidate))
        games += 1
        faulty += any(v != "ok" for v in result.verdicts)
        ranks.append(result.ranks[seat])
        if result.ranks[seat] == 1:
            wins += 1 / result.ranks.count(1)
    return wins, games, ranks, faulty


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--move-ms", type=int, default=1000)
    parser.add_argument("--bank-ms", type=int, default=10000)
    parser.add_argument("--seeds", type=int, default=25, help="seeds per game (x4 rotations)")
    parser.add_argument("--games", nargs="*", default=list(HEURISTIC))
    parser.add_argument("--candidates", nargs="*", default=["search", "heuristic"])
    parser.add_argument("--seeds-for", nargs="*", default=[], metavar="GAME=N")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "openspiel-gauntlet")
    args = parser.parse_args(argv)
    per_game = {k: int(v) for k, v in (item.split("=", 1) for item in args.seeds_for)}
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games:
        for candidate in args.candidates:
            script = "bots/search_bot.py" if candidate == "search" else HEURISTIC[game]
            name = f"{game}-{candidate}-vs-ismcts-{args.move_ms}ms"
            config = args.out / f"{name}.toml"
            config.write_text(
                CONFIG.format(
                    name=name,
                    game=game,
                    seeds=per_game.get(game, args.seeds),
                    opponents="".join(OPPONENT.format(n=n, root=ROOT) for n in range(3)),
                    move_ms=args.move_ms,
                    bank_ms=args.bank_ms,
                    candidate=candidate,
                    root=ROOT,
                    script=script,
                )
            )
            run = args.out / name
            started = time.monotonic()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "referee.cli.main",
                    "tournament",
                    str(config),
                    "--out",
                    str(run),
                    "--concurrency",
                    str(args.concurrency),
                ],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            wins, games, ranks, faulty = firsts(run, candidate)
            low, high = wilson(wins, games)
            mean_rank = statistics.mean(ranks) if ranks else float("nan")
            print(
                f"{game}: {candidate} vs 3 x ismcts at {args.move_ms} ms: "
                f"{100 * wins / max(games, 1):.1f}% first [{100 * low:.1f}, {100 * high:.1f}] "
                f"over {games} games, mean rank {mean_rank:.2f}, "
                f"{faulty} games with a fault "
                f"({time.monotonic() - started:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
