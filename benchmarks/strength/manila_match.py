"""In-process matches of the heuristic Manila bot against random seats.

Run: ``python -m benchmarks.strength.manila_match [--games N] [--seats 3 4] [--cautious]``.
Prints, per seat count, the bot's win rate (shared wins count as wins), its mean rank
and mean score against the random seats.  The bot sits in every seat in turn.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from bots.manila_bot import ManilaBot
from referee.api.engine import CHANCE, TERMINAL
from referee.games.manila import GAME
from referee.games.manila.actions import Mortgage, Redeem


def play(
    seats: int, bot_seat: int, seed: int, bot: Any, no_finance: bool = False
) -> tuple[list[float], list[int]]:
    """One game: ``bot`` in ``bot_seat``, uniformly random choices elsewhere (only
    among the non-loan actions when ``no_finance`` and there are any)."""
    rng = random.Random(seed)
    state = GAME.new_game(seats)
    bot.seat, bot.seats = bot_seat, seats
    while (who := state.to_move()) != TERMINAL:
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if who == bot_seat:
            index = bot.choose(state.view(who), legal, [])
        else:
            index = rng.randrange(len(legal))
            if no_finance:
                plain = [i for i, a in enumerate(legal) if not isinstance(a, Mortgage | Redeem)]
                index = plain[rng.randrange(len(plain))] if plain else index
        state.apply_action(legal[index])
    return state.scores(), state.ranks()


def main() -> None:
    """Print the bot's results against random seats."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--cautious", action="store_true")
    parser.add_argument(
        "--no-finance", action="store_true", help="random seats never mortgage or redeem"
    )
    args = parser.parse_args()
    bot = ManilaBot(cautious=args.cautious)
    for seats in args.seats:
        wins = 0
        rank_sum = 0
        score_sum = 0.0
        other_sum = 0.0
        for game in range(args.games):
            seat = game % seats
            scores, ranks = play(seats, seat, 1000 + game, bot, args.no_finance)
            wins += ranks[seat] == 1
            rank_sum += ranks[seat]
            score_sum += scores[seat]
            other_sum += (sum(scores) - scores[seat]) / (seats - 1)
        n = args.games
        print(
            f"{seats} seats, {n} games ({bot.name} vs {seats - 1} random"
            f"{' without loans' if args.no_finance else ''}): "
            f"win rate {wins / n:.1%} (chance level {1 / seats:.1%}), "
            f"mean rank {rank_sum / n:.2f}, mean score {score_sum / n:.1f} "
            f"vs random {other_sum / n:.1f} pesos"
        )


if __name__ == "__main__":
    main()
