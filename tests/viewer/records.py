"""Records for the viewer tests, written in-process from random playouts.

A record has no seed (its chance outcomes are replayed unchecked), an optional fault
(the seat's later moves are marked as fallbacks) and a ply limit so every game ends
within ``max_plies``.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game
from referee.match.ranks import adjudicated_ranks, final_ranks
from referee.match.record import (
    FORMAT,
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordWriter,
    ResultLine,
    SeatInfo,
)
from referee.process.protocol import Verdict


def write_record(
    path: Path,
    game_name: str,
    seats: int,
    *,
    seed: int = 1,
    max_plies: int = 160,
    fault: tuple[int, int] | None = None,
) -> Path:
    """Play a random game of ``game_name`` and record it at ``path``.

    ``fault`` = ``(seat, ply)``: that seat times out at that ply (or at its next move).
    """
    game = get_game(game_name)
    options = game.parse_options({})
    state = game.new_game(seats, options)
    rng = random.Random(seed)
    header = Header(
        format=FORMAT,
        game=game_name,
        options=game.options_dict(options),
        seats=[SeatInfo(f"random#{s}", "python3 bots/random_bot.py") for s in range(seats)],
        referee="test",
        match=f"{game_name}-{seats}",
        max_plies=max_plies,
    )
    faults: list[int | None] = [None] * seats
    verdicts: list[Verdict] = ["ok"] * seats
    with RecordWriter(path, fsync=False) as writer:
        writer.write(header)
        ply = 0
        while ply < max_plies and state.to_move() != TERMINAL:
            mover = state.to_move()
            if mover == CHANCE:
                outcome = state.sample_chance(rng)
                writer.write(ChanceLine(ply, outcome))
                state.apply_chance(outcome)
            else:
                if (
                    fault is not None
                    and mover == fault[0]
                    and ply >= fault[1]
                    and not faults[mover]
                ):
                    faults[mover] = ply
                    verdicts[mover] = "timeout"
                    writer.write(FaultLine(ply, mover, "timeout", "no answer in 1000 ms"))
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                fallback = faults[mover] is not None
                writer.write(
                    MoveLine(
                        ply, mover, msgspec.to_builtins(action), 0.0 if fallback else 1.0, fallback
                    )
                )
                state.apply_action(action)
            ply += 1
        finished = state.to_move() == TERMINAL
        engine = state.ranks() if finished else adjudicated_ranks(state, "scores")
        result = ResultLine(
            scores=[float(x) for x in state.scores()],
            ranks=final_ranks(engine, faults),
            verdicts=verdicts,
            reason="finished" if finished else "ply_limit",
        )
        return writer.finish(result)
