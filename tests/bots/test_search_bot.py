"""The search bot: rewards, Manila candidate grouping, winning moves, full games.

Every search here runs a fixed number of iterations with a fixed seed, so the
tests are deterministic and do not depend on the machine's speed.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks.strength.arena import play
from bots.search_bot import ManilaAdapter, SearchBot, rewards
from referee.api.engine import TERMINAL
from referee.botkit import Clock
from referee.games import get_game
from referee.games.manila import actions as MA
from referee.games.manila.data import CARGO_PAYOUT, SEAT_COSTS
from tests.bots.positions import find_decisive, roads_and_boats_last_brick

ROOT = Path(__file__).resolve().parents[2]

GAMES = ["manila", "puerto-rico", "navegador", "roads-and-boats"]


def seated(
    name: str, seat: int, seats: int, iterations: int, seed: int = 0, guide: bool = True
) -> SearchBot:
    """A search bot set up in-process as ``start`` would set it up (``guide=False``:
    pure search, so the test checks the search and not the heuristic)."""
    game = get_game(name)
    bot = SearchBot(iterations=iterations, seed=seed, guide=guide)
    bot.game, bot.seat, bot.seats = game, seat, seats
    bot.options = game.parse_options({})
    bot.start = {"type": "start", "game": name, "seat": seat, "seats": seats}
    bot.on_start()
    return bot


def determinizer(name: str) -> Any:
    """``determinize(view, rng)`` for ``name`` (Manila also takes its options)."""
    game: Any = get_game(name)
    if name == "manila":
        options = game.parse_options({})
        return lambda view, rng: game.determinize(view, rng, options)
    return game.determinize


def test_rewards_order_seats_by_rank_and_margin() -> None:
    r = rewards([50.0, 30.0, 30.0, 10.0], [1, 2, 2, 4], scale=10.0)
    assert r[0] > r[1] == r[2] > r[3]
    assert all(0.0 <= x <= 1.0 for x in r)
    close = rewards([31.0, 30.0], [1, 2], scale=10.0)
    wide = rewards([60.0, 30.0], [1, 2], scale=10.0)
    assert wide[0] > close[0] > 0.5 > close[1] > wide[1]


def test_manila_bids_are_grouped_and_voluntary_finance_left_out() -> None:
    bot = seated("manila", 0, 4, iterations=1)
    adapter = bot.adapter
    assert isinstance(adapter, ManilaAdapter)
    legal: list[Any] = [MA.Pass()] + [MA.Bid(a) for a in range(4, 40)] + [MA.Mortgage("jade")]
    cands = adapter.candidates(bot.game.new_game(4), legal)
    assert cands[0] == MA.Pass()
    assert [a.amount for a in cands[1:]] == [4, 5, 6, 8, 11, 15]
    forced: list[Any] = [MA.Mortgage("jade"), MA.Mortgage("silk")]
    assert adapter.candidates(bot.game.new_game(4), forced) == forced


def manila_position(phase: str, seed: int = 3) -> tuple[Any, int]:
    """The first decision in ``phase`` of a seeded Manila game between heuristic bots
    (4 seats): the true state and the seat to move."""
    from bots.manila_bot import ManilaBot

    game = get_game("manila")
    rng = random.Random(seed)
    state: Any = game.new_game(4)
    guide = ManilaBot()
    while True:
        who = state.to_move()
        assert who != TERMINAL, f"no {phase} decision in game {seed}"
        if who < 0:
            state.apply_chance(state.sample_chance(rng))
            continue
        view = state.view(who)
        legal = list(state.legal_actions())
        if view.phase == phase and len(legal) > 1:
            return state, who
        state.apply_action(legal[guide.choose(view, legal, [])])


def test_manila_placements_search_the_guides_best_spaces_only() -> None:
    state, who = manila_position("place")
    bot = seated("manila", who, 4, iterations=40)
    adapter = bot.adapter
    assert isinstance(adapter, ManilaAdapter) and bot.guide is not None
    view, legal = state.view(who), list(state.legal_actions())
    cands = adapter.candidates(state, legal)
    hint = legal[bot.guide.choose(view, legal, [])]
    short = adapter.shortlist(view, cands, hint)
    places = [a for a in short if isinstance(a, MA.Place)]
    assert hint in short and MA.Pass() in short
    assert 1 <= len(places) <= adapter.top + 1 < len([a for a in cands if isinstance(a, MA.Place)])
    # the search then picks one of them
    assert legal[bot.choose(view, legal, [])] in short


def test_manila_limit_bid_is_the_guides_rule_at_the_guides_limit() -> None:
    """At the guide's own limit, ``limit_bid`` bids what the guide bids."""
    for seed in (3, 4, 5, 6):
        state, who = manila_position("auction", seed)
        bot = seated("manila", who, 4, iterations=1)
        adapter, guide = bot.adapter, bot.guide
        assert isinstance(adapter, ManilaAdapter) and guide is not None
        view, legal = state.view(who), list(state.legal_actions())
        limit = guide.hm_value(view)  # type: ignore[attr-defined]
        mine = adapter.limit_bid(legal, limit, view.cash[who])
        assert mine == legal[guide.choose(view, legal, [])]
        assert adapter.limit_bid(legal, -1.0, view.cash[who]) == MA.Pass()


def test_manila_auction_compares_bid_limits_on_paired_playouts() -> None:
    state, who = manila_position("auction")
    bot = seated("manila", who, 4, iterations=60)
    adapter = bot.adapter
    assert isinstance(adapter, ManilaAdapter)
    view, legal = state.view(who), list(state.legal_actions())
    action = legal[bot.choose(view, legal, [])]
    assert bot.last is None  # no tree search
    firsts, margins, best = adapter.last_flat
    # passing and every limit, each with the same number of paired samples
    assert len(firsts) == len(margins) == len(adapter.LIMIT_OFFSETS) + 1
    assert firsts[0] == MA.Pass()
    assert len({len(m) for m in margins}) == 1 and len(margins[0]) >= 2
    assert action == firsts[best]


def test_manila_at_the_clock_stops_at_the_playout_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """However long the clock, a Manila decision runs at most the capped number of
    paired playouts, in whole samples (one playout of every candidate each).

    The move arrived an hour from now, so the clock can never end the search however
    slow the machine: only the cap can.  A guard counting far past the cap stands in
    for the clock should the cap fail, and is then seen to have fired."""
    state, who = manila_position("auction")
    bot = seated("manila", who, 4, iterations=60)
    bot.iterations = None  # the clock decides
    bot.clock = Clock(move_ms=4000, bank_ms=0)
    bot.received = time.perf_counter() + 3600.0
    cap = ManilaAdapter.clock_playout_cap
    assert cap is not None
    clocked = bot.budget
    guard_fired: list[int] = []

    def guarded(rollouts: bool) -> Callable[[int], bool]:
        done = clocked(rollouts)

        def check(count: int) -> bool:
            if count >= 10 * cap:
                guard_fired.append(count)
                return True
            return done(count)

        return check

    monkeypatch.setattr(bot, "budget", guarded)
    view, legal = state.view(who), list(state.legal_actions())
    bot.choose(view, legal, [])
    assert guard_fired == []
    adapter = bot.adapter
    assert isinstance(adapter, ManilaAdapter)
    _firsts, margins, _best = adapter.last_flat
    playouts = sum(len(m) for m in margins)
    assert cap - len(margins) < playouts <= cap


def test_manila_flat_pick_needs_a_clear_paired_gain() -> None:
    bot = seated("manila", 0, 4, iterations=1)
    adapter = bot.adapter
    assert isinstance(adapter, ManilaAdapter)
    guide = [0.0, 10.0, -5.0, 3.0]
    steady = [g + 2.0 for g in guide]  # 2 pesos better in every sample
    noisy = [g + d for g, d in zip(guide, [30.0, -25.0, 20.0, -21.0], strict=True)]
    assert adapter.pick([guide, steady], 0) == 1
    assert adapter.pick([guide, noisy], 0) == 0  # mean +1, but within the noise
    assert adapter.pick([[g - 1.0 for g in guide], guide], 1) == 1


def test_manila_harbour_master_launch_is_simulated_among_the_guides_best() -> None:
    state, who = manila_position("launch")
    bot = seated("manila", who, 4, iterations=40)
    adapter, guide = bot.adapter, bot.guide
    assert isinstance(adapter, ManilaAdapter) and guide is not None
    view, legal = state.view(who), list(state.legal_actions())
    hint = legal[guide.choose(view, legal, [])]
    cands = adapter.flat_candidates(view, legal, hint)
    assert hint in cands and 2 <= len(cands) <= adapter.launch_top + 1 < len(legal)
    assert legal[bot.choose(view, legal, [])] in cands


def test_manila_evaluation_counts_the_voyage_in_progress() -> None:
    """A crew on a punt sure to arrive is worth its share of the cargo payout at
    once (the exact dice odds), before any die is rolled."""
    state, who = manila_position("place")
    bot = seated("manila", who, 4, iterations=1)
    adapter = bot.adapter
    assert isinstance(adapter, ManilaAdapter)
    b = 0
    state.pos[b] = 13  # past 13 after any roll: it arrives
    state.crew[b] = []
    empty = adapter.evaluate(state)
    state.crew[b] = [who] * len(SEAT_COSTS[state.cargo[b]])  # a full crew: ours alone
    full = adapter.evaluate(state)
    assert full[who] - empty[who] == pytest.approx(CARGO_PAYOUT[state.cargo[b]])
    assert all(full[s] == pytest.approx(empty[s]) for s in range(4) if s != who)


def not_finance(legal: list[Any]) -> list[Any]:
    """Manila actions without voluntary mortgages and redemptions (never searched)."""
    return [a for a in legal if not isinstance(a, MA.Mortgage | MA.Redeem)]


@pytest.mark.parametrize(
    ("name", "seats", "number"),
    [
        ("manila", 3, 44),
        ("manila", 3, 84),
        ("puerto-rico", 3, 72),
        ("puerto-rico", 4, 87),
        ("puerto-rico", 4, 101),
        ("navegador", 2, 12),
        ("navegador", 2, 207),
        ("navegador", 2, 507),
    ],
)
@pytest.mark.parametrize("guide", [True, False], ids=["guided", "pure"])
def test_search_finds_the_move_that_wins_at_once(
    name: str, seats: int, number: int, guide: bool
) -> None:
    """Decisive last decisions of seeded random games (``positions.py``; the game
    numbers were found by scanning): the search must pick a winning action, both as
    shipped (guided by the heuristic) and as pure search."""
    game = get_game(name)
    consider = not_finance if name == "manila" else None
    found = find_decisive(game, seats, [number], determinizer(name), consider=consider)
    assert found is not None, "the engine changed: rescan with positions.find_decisive"
    _number, position = found
    bot = seated(name, position.seat, seats, iterations=150, guide=guide)
    index = bot.choose(position.view, list(position.legal), [])
    assert index in position.winning, (position.legal[index], position.winning)


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("guide", [True, False], ids=["guided", "pure"])
def test_search_buys_the_last_wonder_brick_that_wins(seats: int, guide: bool) -> None:
    """Roads & Boats, hand-built (``positions.roads_and_boats_last_brick``): one brick
    short of the wonder's end mark, buying it wins and passing loses whatever anyone
    does next.  The search must buy it."""
    position = roads_and_boats_last_brick(seats)
    assert position is not None, "the engine changed: no such position in 40 games"
    assert [type(a).__name__ for a in position.legal] == ["Brick", "Done"]
    bot = seated("roads-and-boats", position.seat, seats, iterations=100, guide=guide)
    index = bot.choose(position.view, list(position.legal), [])
    assert index in position.winning, position.legal[index]


def test_search_is_deterministic_with_fixed_iterations() -> None:
    game = get_game("puerto-rico")
    rng = random.Random(5)
    state = game.new_game(4)
    picks: list[int] = []
    while len(picks) < 6:
        who = state.to_move()
        if who < 0:
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            a = seated("puerto-rico", who, 4, iterations=30, seed=9)
            b = seated("puerto-rico", who, 4, iterations=30, seed=9)
            first = a.choose(state.view(who), list(legal), [])
            assert first == b.choose(state.view(who), list(legal), [])
            picks.append(first)
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "seats"), [(g, 2 if g != "manila" else 3) for g in GAMES])
def test_search_plays_full_games_against_random(name: str, seats: int) -> None:
    """A few iterations per move: the game ends with every choice legal, and even
    that little search beats uniformly random play (seat 0 finishes first)."""
    game = get_game(name)
    if seats < game.min_seats:
        seats = game.min_seats
    specs = ["bots/search_bot.py --iterations 3 --seed 1"] + ["random"] * (seats - 1)
    state, _spent = play(name, specs, seed=3)
    assert state.to_move() == TERMINAL
    assert state.ranks()[0] == 1, state.scores()


def test_search_bot_over_the_protocol_with_a_clock() -> None:
    """A real match through the referee: the bot reads the clock and answers in time
    (20 ms of thinking per move against a 5 s move clock)."""
    referee = Path(sys.executable).parent / "referee"
    bot = f"{sys.executable} {ROOT / 'bots' / 'search_bot.py'} --max-ms 20"
    rnd = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
    command = [str(referee), "play", "manila", "--bot", bot, "--bot", rnd, "--bot", rnd]
    command.extend(["--seed", "4", "--move-ms", "5000"])
    out = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if "search_bot" in line]
    assert rows and rows[0][-2] == "ok", out.stdout
