"""The search bot's Navegador decisions (``bots/search_navegador.py``): paired guide
playouts at the rondel choice, the guide everywhere else."""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from bots import search_navegador as nav
from bots.navegador_bot import NavegadorBot, Planner, end_near
from bots.search_bot import Deadline
from referee.api.engine import CHANCE, TERMINAL
from referee.games.navegador import GAME
from referee.games.navegador.state import START, NavegadorState


def adapter(seat: int, seed: int = 0) -> Any:
    """What ``decide`` reads of the search bot's adapter."""
    bot = SimpleNamespace(guide=NavegadorBot(seed=seed), rng=random.Random(seed), seat=seat)
    return SimpleNamespace(bot=bot, determinize=GAME.determinize)


def heuristic_game(seed: int, stop: Any) -> NavegadorState:
    """A 4-seat game played by the guide in every seat until ``stop(state)``."""
    rng = random.Random(seed)
    state = GAME.new_game(4)
    planner = Planner(random.Random(seed))
    while True:
        who = state.to_move()
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        if stop(state):
            return state
        state.apply_action(planner.choose(state))


def mid_game_start(state: NavegadorState) -> bool:
    return state.stage == START and sum(p.turns for p in state.players) >= 12


def counted_playouts(
    monkeypatch: pytest.MonkeyPatch, margin: Callable[[int], float], fixed: bool
) -> list[Any]:
    """Replace ``playout``: the n-th playout (from 1) gives ``margin(n)`` and ``fixed``;
    returns the list of the actions played out, in order."""
    played: list[Any] = []

    def counting(
        copy: NavegadorState, s: int, action: Any, seed: int, rounds: Any
    ) -> tuple[float, bool]:
        played.append(action)
        return margin(len(played)), fixed

    monkeypatch.setattr(nav, "playout", counting)
    return played


def test_pick_needs_the_minimum_gain_and_the_paired_error() -> None:
    assert nav.pick([[10.0], [10.0 + nav.MIN_GAIN / 2], [9.0]]) == 0
    assert nav.pick([[10.0], [10.0 + 2 * nav.MIN_GAIN], [11.0 + 2 * nav.MIN_GAIN]]) == 2
    # a mean gain of 2 VP whose paired differences swing by 10 is noise
    assert nav.pick([[0.0, 0.0, 0.0], [12.0, -8.0, 2.0]]) == 0
    assert nav.pick([[0.0, 0.0, 0.0], [2.0, 2.5, 1.5]]) == 1


def test_steps_inside_an_action_are_the_guides_without_thinking() -> None:
    state = heuristic_game(3, lambda s: s.stage != START and len(s.legal_actions()) > 1)
    seat = state.to_move()
    legal = state.legal_actions()

    def no_determinize(view: Any, rng: random.Random) -> Any:
        raise AssertionError("a step inside an action needs no playout")

    a = adapter(seat)
    a.determinize = no_determinize
    hint = legal[-1]
    assert nav.decide(a, state.view(seat), legal, hint, lambda n: True) is hint


def test_the_rondel_choice_plays_the_candidate_that_wins_its_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With playouts that favour the third candidate by 3 VP in every sample, that
    candidate is played; with playouts that favour none, the guide's choice is."""
    state = heuristic_game(5, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()
    hint = legal[0]
    shortlist = nav.shortlist(state, seat, legal, hint)
    assert shortlist[0] is hint and len(shortlist) == nav.CANDIDATES

    def favour_third(
        copy: NavegadorState, s: int, action: Any, seed: int, rounds: Any
    ) -> tuple[float, bool]:
        return float(seed % 7) + (3.0 if action == shortlist[2] else 0.0), False

    monkeypatch.setattr(nav, "playout", favour_third)
    budget = lambda n: n > 2 * nav.ROUNDS * nav.CANDIDATES  # noqa: E731
    assert nav.decide(adapter(seat), state.view(seat), legal, hint, budget) == shortlist[2]
    monkeypatch.setattr(nav, "playout", lambda copy, s, action, seed, rounds: (seed % 7, False))
    assert nav.decide(adapter(seat), state.view(seat), legal, hint, budget) is hint


def test_paired_playouts_are_deterministic_and_leave_the_state_alone() -> None:
    state = heuristic_game(8, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()
    before = state.view(seat)
    picks = [
        nav.decide(adapter(seat, seed=4), state.view(seat), legal, legal[0], lambda n: n >= 10)
        for _ in range(2)
    ]
    assert picks[0] == picks[1] and picks[0] in legal
    assert state.view(seat) == before


def test_a_playout_stops_when_the_seat_is_back_at_its_rondel_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After the candidate the guide plays every seat (this one's steps included) and
    the playout ends when this seat is to make its next rondel choice."""
    state = heuristic_game(11, mid_game_start)
    seat = state.to_move()
    asked: list[tuple[int, int, int]] = []

    class Recording(Planner):
        def choose(self, state: NavegadorState) -> Any:
            who = state.to_move()
            asked.append((who, state.stage, state.players[who].turns))
            return super().choose(state)

    monkeypatch.setattr(nav, "Planner", Recording)
    margin, _ = nav.playout(state, seat, state.legal_actions()[0], 1, rounds=1)
    assert isinstance(margin, float)
    others = {who for who, _, _ in asked if who != seat}
    assert others == set(range(4)) - {seat}  # every other seat had its turn
    own = [(stage, turns) for who, stage, turns in asked if who == seat]
    assert own and all(stage != START for stage, _ in own)  # stopped before its next choice
    assert len({turns for _, turns in own}) == 1  # its steps of this turn only


def test_a_budget_smaller_than_one_sample_plays_the_guides_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = heuristic_game(5, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()

    def no_playout(
        copy: NavegadorState, s: int, action: Any, seed: int, rounds: Any
    ) -> tuple[float, bool]:
        raise AssertionError("no sample fits in the budget")

    monkeypatch.setattr(nav, "playout", no_playout)
    budget = lambda n: n >= nav.CANDIDATES - 1  # noqa: E731
    assert nav.decide(adapter(seat), state.view(seat), legal, legal[-1], budget) is legal[-1]


def test_a_clock_running_out_inside_a_sample_stops_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A time budget that runs out after the first sample's third playout: the three
    candidates reached are compared, the fourth is never played."""
    monkeypatch.setattr(nav, "CANDIDATES", 4)
    state = heuristic_game(5, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()
    played = counted_playouts(monkeypatch, lambda n: 5.0 if n == 3 else 0.0, False)
    margins = nav.paired(
        state,
        seat,
        nav.shortlist(state, seat, legal, legal[0]),
        random.Random(1),
        lambda n: len(played) >= 3,
        1,
    )
    assert len(played) == 3 and [len(m) for m in margins] == [1, 1, 1]
    assert nav.pick(margins) == 2


def near_the_end(state: NavegadorState) -> bool:
    return state.stage == START and state.end_seat < 0 and end_near(state)


def test_near_the_end_the_candidates_are_played_to_the_final_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the end may come before the seat's next turn, the playouts run to the end
    of the game (``END_ROUNDS`` turns at most) instead of stopping at the next turn."""
    state = heuristic_game(5, near_the_end)
    seat = state.to_move()
    legal = state.legal_actions()
    asked: list[int | None] = []

    def recording(
        copy: NavegadorState, s: int, action: Any, seed: int, rounds: Any
    ) -> tuple[float, bool]:
        asked.append(rounds)
        return 0.0, False

    monkeypatch.setattr(nav, "playout", recording)
    hint = legal[0]
    budget = lambda n: n >= 10  # noqa: E731
    assert nav.decide(adapter(seat), state.view(seat), legal, hint, budget) is hint
    assert asked and set(asked) == {nav.END_ROUNDS}
    monkeypatch.setattr(nav, "END_PLAYOUTS", False)
    asked.clear()
    assert nav.decide(adapter(seat), state.view(seat), legal, hint, budget) is hint
    assert asked == []  # the guide's end-game rules decide


def test_a_playout_to_the_end_scores_the_final_margin_and_the_win() -> None:
    state = heuristic_game(5, near_the_end)
    seat = state.to_move()
    action = state.legal_actions()[0]
    finished = state.clone()
    finished.apply_action(action)
    planner = Planner(random.Random(3))
    rng = random.Random(3)
    while finished.to_move() != TERMINAL:
        if finished.to_move() == CHANCE:
            finished.apply_chance(finished.sample_chance(rng))
        else:
            finished.apply_action(planner.choose(finished))
    scores = finished.scores()
    margin = scores[seat] - max(v for s, v in enumerate(scores) if s != seat)
    bonus = nav.WIN_BONUS if finished.ranks()[seat] == 1 else 0.0
    # rounds beyond any game's length: the playout runs to the end
    assert nav.playout(state, seat, action, 3, 10**6)[0] == margin + bonus


def test_a_playout_that_draws_no_random_number_is_played_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A candidate whose playout drew no random number has its margin repeated in the
    later samples without being played again; the others are played in each sample,
    and the sampling stops as soon as every candidate is exact."""
    state = heuristic_game(5, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()
    candidates = nav.shortlist(state, seat, legal, legal[0])[:3]
    played: list[Any] = []

    def second_is_random(
        copy: NavegadorState, s: int, action: Any, seed: int, rounds: Any
    ) -> tuple[float, bool]:
        played.append(action)
        if action == candidates[1]:
            return float(seed % 5), False
        return 1.0, True

    monkeypatch.setattr(nav, "playout", second_is_random)
    margins = nav.paired(state, seat, candidates, random.Random(2), lambda n: n >= 7, 1)
    # 3 playouts in the first sample, then 1 a sample (the random one) while the
    # sample stays below the budget of 7: samples after 3, 4 and 5 playouts
    assert played.count(candidates[0]) == 1 and played.count(candidates[2]) == 1
    assert played.count(candidates[1]) == 4
    assert [len(m) for m in margins] == [4, 4, 4]
    assert margins[0] == [1.0] * 4 and margins[2] == [1.0] * 4
    monkeypatch.setattr(nav, "playout", lambda copy, s, action, seed, rounds: (2.0, True))
    assert nav.paired(state, seat, candidates, random.Random(2), lambda n: n >= 7, 1) == [[2.0]] * 3


def test_a_playout_counts_its_rounds_against_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The budget is in one-round playouts: 10 of them hold one sample of four
    two-round playouts (8), not a second one; at the default ``ROUNDS`` one sample of
    the ``CANDIDATES`` fits the default budget of 10."""
    state = heuristic_game(5, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()
    default = nav.CANDIDATES
    monkeypatch.setattr(nav, "CANDIDATES", 4)
    candidates = nav.shortlist(state, seat, legal, legal[0])
    monkeypatch.setattr(nav, "CANDIDATES", default)
    played: list[Any] = []

    def random_margin(
        copy: NavegadorState, s: int, action: Any, seed: int, rounds: Any
    ) -> tuple[float, bool]:
        played.append(rounds)
        return float(seed % 3), False

    monkeypatch.setattr(nav, "playout", random_margin)
    margins = nav.paired(state, seat, candidates, random.Random(2), lambda n: n >= 10, 2)
    assert len(played) == 4 and [len(m) for m in margins] == [1] * 4
    played.clear()
    nav.decide(adapter(seat), state.view(seat), legal, legal[0], lambda n: n >= 10)
    assert played == [nav.ROUNDS] * nav.CANDIDATES and nav.ROUNDS * nav.CANDIDATES <= 10


def test_a_playout_says_whether_its_margin_depends_on_the_seed() -> None:
    """Mid-game (seed 7, 12 turns played) a one-round playout explores and says so;
    later in that game (90 turns) none does, and each margin is the same under every
    seed."""
    state = heuristic_game(7, mid_game_start)
    assert not nav.playout(state, state.to_move(), state.legal_actions()[0], 1, rounds=1)[1]
    late = heuristic_game(7, lambda s: s.stage == START and sum(p.turns for p in s.players) >= 90)
    seat = late.to_move()
    for action in late.legal_actions():
        margins = {nav.playout(late, seat, action, seed, rounds=1) for seed in (1, 2, 3)}
        assert len(margins) == 1 and margins.pop()[1]


def test_a_playout_that_would_run_past_the_moves_clock_is_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With playouts measured at 100 s a round, a move with 60 s left on its clock
    plays the guide's choice without a playout (a three-round playout would end past
    the clock, into the bank), though its budget has not run out; with hours left the
    candidates are played out."""
    state = heuristic_game(5, mid_game_start)
    seat = state.to_move()
    legal = state.legal_actions()
    played = counted_playouts(monkeypatch, lambda n: 0.0, True)
    monkeypatch.setattr(nav, "_ROUND_S", deque([100.0]))
    now = time.perf_counter()
    tight = Deadline(now + 60.0)
    assert not tight(0) and 0 < tight.remaining_s() <= 60.0
    hint = legal[-1]
    assert nav.decide(adapter(seat), state.view(seat), legal, hint, tight) is hint
    assert played == []
    roomy = Deadline(now + 60.0, None, now + 10_000.0)
    nav.decide(adapter(seat), state.view(seat), legal, hint, roomy)
    assert len(played) >= 2


def test_a_deadline_is_soft_for_the_search_and_hard_for_long_units() -> None:
    """``Deadline`` answers ``done`` from its soft deadline and its cap, and gives the
    time left before its hard deadline, which is never before the soft one."""
    now = time.perf_counter()
    assert Deadline(now - 1.0)(0)
    assert Deadline(now + 100.0, cap=5)(5) and not Deadline(now + 100.0, cap=5)(4)
    assert Deadline(now - 1.0, None, now + 100.0).remaining_s() > 99.0
    assert Deadline(now + 100.0, None, now).remaining_s() > 99.0  # hard lifted to soft
    assert nav.fits(lambda n: False, 1000)  # an iteration budget: no clock to fit
