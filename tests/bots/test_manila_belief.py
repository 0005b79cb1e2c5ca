"""The search bot's Manila share belief (``bots/manila_belief.py``).

The belief replays the public events on a shadow state and weighs every way the
other seats' dealt shares can be split by how the heuristic would have played
with them. These tests check the deal's combinatorics against an exhaustive
shuffle, the replay against the referee's own events, that the true split wins
against the heuristic, and that anything unexpected switches the belief off.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest

from benchmarks.strength.arena import RandomBot, play
from bots.manila_belief import ShareBelief, deal_weight, splits
from bots.manila_bot import ManilaBot
from referee.api.engine import CHANCE, TERMINAL
from referee.games import get_game
from referee.games.manila import actions as MA
from referee.games.manila import data as D

ROOT = Path(__file__).resolve().parents[2]

GAME: Any = get_game("manila")


def counts(hand: list[str]) -> tuple[int, ...]:
    """Share counts per good (board order) of a list of goods."""
    return tuple(hand.count(g) for g in D.GOODS)


def test_splits_and_weights_match_every_shuffle_of_the_pool() -> None:
    """Dealing a shuffled pool of 6 shares two by two to three seats: every split
    the belief lists occurs, no other does, and each with the chance
    ``deal_weight`` gives it (all 720 orders of the cards counted)."""
    pool = ["nutmeg", "nutmeg", "silk", "silk", "ginseng", "jade"]
    seen: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for order in itertools.permutations(range(6)):
        cards = [pool[i] for i in order]
        seen[tuple(counts(cards[2 * k : 2 * k + 2]) for k in range(3))] += 1
    listed = splits(list(counts(pool)), 3)
    assert set(listed) == set(seen)
    assert len(listed) == len(set(listed))
    total_w = sum(deal_weight(s) for s in listed)
    total_n = sum(seen.values())
    for split in listed:
        assert deal_weight(split) / total_w == pytest.approx(seen[split] / total_n)


def heuristic_game(
    seed: int, seats: int = 4, me: int = 0, randoms: tuple[int, ...] = ()
) -> tuple[ShareBelief, Any, list[Any]]:
    """A heuristic self-play game (uniformly random players in the seats
    ``randoms``) whose events seat ``me`` feeds to a belief (as JSON, the way the
    referee sends them); returns the belief, the dealt hands and the posterior of
    the true split at the first decision of each voyage."""
    rng = random.Random(seed)
    state = GAME.new_game(seats)
    bots: list[Any] = [RandomBot(seed) if s in randoms else ManilaBot() for s in range(seats)]
    belief = ShareBelief(GAME, state.opts, me, seats, ManilaBot())
    pending: list[Any] = []
    deal: Any = None
    progress: list[Any] = []
    while state.to_move() != TERMINAL:
        who = state.to_move()
        if who == CHANCE:
            outcome = state.sample_chance(rng)
            deal = deal if deal is not None else outcome
            seen = state.observe_chance(outcome, me)
            pending.append(msgspec.json.decode(msgspec.json.encode({"ply": 0, "chance": seen})))
            state.apply_chance(outcome)
            continue
        view, legal = state.view(who), state.legal_actions()
        if who == me:
            wire = msgspec.json.decode(msgspec.json.encode(view), type=type(view))
            belief.observe(wire, pending)
            pending = []
            truth = tuple(counts(deal[s]) for s in range(seats) if s != me)
            weights = belief.weights()
            progress.append((view.voyage, weights[belief.splits.index(truth)] / sum(weights)))
        action = legal[bots[who].choose(view, legal, [])]
        seen = state.observe_action(who, action, me)
        pending.append(
            msgspec.json.decode(msgspec.json.encode({"ply": 0, "seat": who, "action": seen}))
        )
        state.apply_action(action)
    return belief, deal, progress


@pytest.mark.parametrize("seed", [0, 3])
def test_the_true_deal_wins_against_the_heuristic(seed: int) -> None:
    belief, deal, progress = heuristic_game(seed)
    assert belief.active, belief.failure
    assert belief.updates > 40
    truth = tuple(counts(deal[s]) for s in (1, 2, 3))
    weights = belief.weights()
    assert weights[belief.splits.index(truth)] / sum(weights) > 0.99
    # at the first decision nothing but the prior is known
    assert progress[0][1] < 0.2
    # samples carry the public purchases on top of the dealt pair
    sample = belief.sample(random.Random(1))
    assert sample is not None and sample[0] == [0, 0, 0, 0]
    for seat in (1, 2, 3):
        bought = belief.bought[seat]
        assert sum(sample[seat]) == 2 + sum(bought)
        assert all(sample[seat][g] >= bought[g] for g in range(4))
    assert sum(sum(row) for row in belief.bought) > 0
    assert all(belief.explained(s) for s in (1, 2, 3))


@pytest.mark.parametrize("seats", [3, 5])
def test_the_true_deal_wins_at_other_seat_counts(seats: int) -> None:
    me = seats - 1
    belief, deal, _progress = heuristic_game(1, seats=seats, me=me)
    assert belief.active, belief.failure
    truth = tuple(counts(deal[s]) for s in range(seats) if s != me)
    weights = belief.weights()
    assert weights[belief.splits.index(truth)] / sum(weights) > 0.95


def test_a_seat_the_model_does_not_explain_is_dealt_at_random() -> None:
    """Random players in seats 1 and 2 agree with the heuristic too rarely for
    their play to count: how the pool left by seat 3 splits between them keeps the
    deal's own odds, while the heuristic in seat 3 is still read."""
    belief, deal, _progress = heuristic_game(5, randoms=(1, 2))
    assert belief.active, belief.failure
    assert belief.explained(3) and not belief.explained(1) and not belief.explained(2)
    weights = belief.weights()
    third = tuple(counts(deal[3]))
    rest = [
        (w, p)
        for split, w, p in zip(belief.splits, weights, belief.prior, strict=True)
        if split[2] == third
    ]
    assert len(rest) > 1
    assert len({round(w / p, 9) for w, p in rest}) == 1
    assert sum(w for w, _p in rest) / sum(weights) > 0.99


def test_missing_events_switch_the_belief_off() -> None:
    """A view the replay cannot reach (here: the two bids before seat 2's first
    decision were lost) turns the belief off; sampling then says so with ``None``."""
    rng = random.Random(2)
    state = GAME.new_game(4)
    belief = ShareBelief(GAME, state.opts, 2, 4, ManilaBot())
    outcome = state.sample_chance(rng)
    state.apply_chance(outcome)
    events = msgspec.json.decode(
        msgspec.json.encode([{"ply": 0, "chance": state.observe_chance(outcome, 2)}])
    )
    while state.to_move() != 2:
        state.apply_action(next(a for a in state.legal_actions() if isinstance(a, MA.Bid)))
    belief.observe(state.view(2), events)
    assert not belief.active
    assert belief.failure == ""  # no error: the replayed view simply differs
    assert belief.sample(rng) is None


def test_the_search_bot_keeps_its_belief_through_a_match() -> None:
    """In the arena (events as the referee sends them) the search bot's belief
    stays on to the end of a game and learns the other seats' purchases."""
    bots: list[Any] = []
    state, _spent = play(
        "manila",
        ["bots/search_bot.py --iterations 8", "bots/manila_bot.py", "bots/manila_bot.py"],
        seed=4,
        keep=bots,
    )
    assert state.is_terminal()
    belief = bots[0].adapter.belief
    assert belief is not None and belief.active, belief.failure
    assert belief.updates > 20
    assert [sum(row) for row in belief.bought[1:]] == [
        sum(state.held[s]) + sum(state.mort[s]) - 2 for s in (1, 2)
    ]


def test_determinize_respects_given_holdings() -> None:
    rng = random.Random(7)
    state = GAME.new_game(4)
    state.apply_chance(
        [["nutmeg", "silk"], ["silk", "silk"], ["jade", "ginseng"], ["nutmeg", "jade"]]
    )
    view = state.view(0)
    holdings = [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 1], [1, 0, 0, 1]]
    for _ in range(5):
        guess = GAME.determinize(view, rng, holdings=holdings)
        assert guess.view(0) == view
        for seat in (1, 2, 3):
            held = [h + m for h, m in zip(guess.held[seat], guess.mort[seat], strict=True)]
            assert held == holdings[seat]
    wrong = [[0, 0, 0, 0], [2, 0, 0, 0], [0, 0, 1, 1], [1, 0, 0, 1]]  # silk, not nutmeg
    with pytest.raises(ValueError):
        GAME.determinize(view, rng, holdings=wrong)
