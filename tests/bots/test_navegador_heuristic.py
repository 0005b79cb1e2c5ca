"""Behaviour tests of the Navegador heuristic bot (``bots/navegador_bot.py``).

Hand-built positions on a fresh 4-seat game; each test runs well under a second.
"""

from __future__ import annotations

import copy
import random
import time

import pytest

from bots.navegador_bot import (
    END_LEAD_BONUS,
    FINAL_MONEY_RATE,
    LATE_MONEY_RATE,
    NavegadorBot,
    Planner,
    end_near,
    evaluate,
    future_share,
    money_value,
)
from referee.api.engine import CHANCE, TERMINAL
from referee.botkit import Clock
from referee.games.navegador import GAME, data
from referee.games.navegador.actions import DONE, Hire, Launch, Rondel, Scrap
from referee.games.navegador.state import START, NavegadorState

SHIPS_SPACE = data.RONDEL.index("ships")


def late_game(money: int = 1000) -> NavegadorState:
    """Phase III, every stone on Sailing, seat 0 to move with ``money`` Cruzados."""
    state = GAME.new_game(4)
    for player in state.players:
        player.stone = 0
        player.turns = 20
    state.phase = 3
    state.players[0].money = money
    state._legal = None
    return state


def play_own_turn(bot: NavegadorBot, state: NavegadorState) -> list[object]:
    """Let ``bot`` play seat 0's whole turn; return the actions it took."""
    taken: list[object] = []
    while state.to_move() == 0:
        legal = state.legal_actions()
        action = legal[bot.choose(state.view(0), legal, [])]
        taken.append(action)
        state.apply_action(action)
    return taken


def test_constructible_and_choose_leaves_the_view_alone() -> None:
    state = GAME.new_game(4)
    view = state.view(0)
    before = copy.deepcopy(view)
    for bot in (NavegadorBot(), NavegadorBot(seed=7)):
        legal = state.legal_actions()
        index = bot.choose(view, legal, [])
        assert 0 <= index < len(legal)
    assert view == before


def test_hoarded_money_is_worth_less_per_cruzado() -> None:
    assert money_value(0, False) == 0
    first = money_value(200, False)
    hoard = money_value(2200, False) - money_value(2000, False)
    assert first > hoard > 0
    assert money_value(1000, True) == pytest.approx(1000 / data.VP_MONEY_UNIT)


def test_after_the_end_trigger_the_evaluation_is_the_final_score() -> None:
    """After the trigger the evaluation is the final score, except that money counts at
    FINAL_MONEY_RATE instead of 1 VP per full 200 (so that the last turn spends it)."""
    state = late_game(money=1130)
    state.players[0].workers = 6
    state.end_seat, state.end_turns = 1, 22
    state.players[1].money = 5000
    me = state.players[0]
    expected = me.score() - 1130 // data.VP_MONEY_UNIT + 1130 * FINAL_MONEY_RATE
    assert evaluate(state, 0) == pytest.approx(expected, abs=0.01)
    # Leading after the trigger earns a bonus, so the leader is keen to end the game.
    state.players[1].money = 0
    assert evaluate(state, 0) == pytest.approx(expected + END_LEAD_BONUS, abs=0.01)


def test_last_turn_spends_its_money_on_ships() -> None:
    """With Lisboa full (9 workers), four shipyards launch four ships at 50 each and,
    with cash on the last turn worth nothing (FINAL_MONEY_RATE), two more at 300 (phase
    III): the bot ends with 200 Cruzados instead of 800 and the score it started the
    turn with (+6 ships, -2 scrapped to reach the Ships space, -4 VP of money).  The
    exact last turn launches only the four cheap ships and scores one point more (800
    Cruzados = 4 VP): that point is the price of not ending on a hoard."""
    state = late_game(money=1000)
    me = state.players[0]
    me.shipyards, me.ships[data.PORTUGAL], me.workers = 4, 3, 9
    state.gallery = [0] * len(data.COLUMNS)
    state.end_seat, state.end_turns = 1, 22
    before = me.score()
    taken = play_own_turn(NavegadorBot(seed=1), state)
    assert taken[0] == Rondel(space=SHIPS_SPACE)
    assert all(isinstance(a, Scrap) for a in taken[1:3])
    assert taken[3] == Launch(count=6)
    assert me.money == 200
    assert me.score() == before


def test_last_turn_buys_what_scores_with_the_least_cash_left() -> None:
    """Four workers (one at the church price, three at 300) or six ships (two of them
    scrapped to reach the Ships space) both add 4 VP on the last turn; the bot takes the
    one that leaves less cash: the workers, 50 Cruzados left instead of 200."""
    state = late_game(money=1000)
    me = state.players[0]
    me.shipyards, me.ships[data.PORTUGAL], me.workers = 4, 3, 5
    state.gallery = [0] * len(data.COLUMNS)
    state.end_seat, state.end_turns = 1, 22
    taken = play_own_turn(NavegadorBot(seed=1), state)
    assert taken == [Rondel(space=data.RONDEL.index("workers")), Hire(count=4)]
    assert me.money == 50


def last_market(rival_money: int) -> NavegadorState:
    """The last turn of a seat with nothing left to buy (9 workers, 7 ships, an empty
    display and gallery, no money) and colonies that a Market would sell: 32 VP, against
    a rival with 15 VP plus ``rival_money`` Cruzados."""
    state = late_game(money=0)
    me = state.players[0]
    me.workers, me.ships[data.PORTUGAL], me.colonies = 9, 7, [2, 2, 0]
    state.gallery = [0] * len(data.COLUMNS)
    state.display = [0] * len(data.BUILDINGS)
    state.end_seat, state.end_turns = 1, 22
    state.players[1].money = rival_money
    state._legal = None
    assert me.score() == 32
    return state


def test_last_turn_skips_a_market_that_only_adds_cash() -> None:
    """Behind by more than the Market would bring (a rival at 34 VP), the last turn does
    not take a Market only to end on more Cruzados (issue 16)."""
    state = last_market(rival_money=3800)
    taken = play_own_turn(NavegadorBot(seed=1), state)
    assert not any(type(a) is Rondel and data.RONDEL[a.space] == "market" for a in taken)
    assert state.players[0].money == 0


def test_last_turn_takes_the_market_that_wins() -> None:
    """Level with the rival (32 VP each), the last Market's sales (250 Cruzados, +1 VP)
    give the seat the lead, so it takes it and sells everything that scores."""
    state = last_market(rival_money=3400)
    assert state.players[1].score() == 32
    taken = play_own_turn(NavegadorBot(seed=1), state)
    first = taken[0]
    assert isinstance(first, Rondel) and data.RONDEL[first.space] == "market"
    assert state.players[0].score() == 33


def test_last_turn_does_not_hire_virtual_workers_at_the_phase_price() -> None:
    """Above 9 workers a hire is virtual: at 300 (phase III, no church) it buys nothing
    and sells back for 100, so the last turn must not pay for one."""
    state = late_game(money=1000)
    me = state.players[0]
    me.workers = 9
    state.gallery = [0] * len(data.COLUMNS)
    state.end_seat, state.end_turns = 1, 22
    taken = play_own_turn(NavegadorBot(seed=1), state)
    assert not any(isinstance(a, Hire) and a.count > 0 for a in taken)


def test_exact_end_keeps_the_point_that_spending_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--exact-end`` (the round-2 setting) plays the same last turn for the exact
    final score: it launches only the four ships at 50 and keeps 800 Cruzados, one
    point more than the default's six ships."""
    from bots import navegador_bot

    for name in ("LATE_MONEY_RATE", "FINAL_MONEY_RATE", "END_AWARE"):
        monkeypatch.setattr(navegador_bot, name, getattr(navegador_bot, name))
    navegador_bot.exact_end()
    assert (navegador_bot.FINAL_MONEY_RATE, navegador_bot.END_AWARE) == (0.0, False)
    state = late_game(money=1000)
    me = state.players[0]
    me.shipyards, me.ships[data.PORTUGAL], me.workers = 4, 3, 5
    state.gallery = [0] * len(data.COLUMNS)
    state.end_seat, state.end_turns = 1, 22
    before = me.score()
    taken = play_own_turn(NavegadorBot(seed=1), state)
    assert taken[0] == Rondel(space=SHIPS_SPACE)
    assert taken[3] == Launch(count=4)
    assert me.money == 800
    assert me.score() == before + 1


def test_end_near() -> None:
    """The end counts as near with two buildings or fewer on the display, or once a seat
    has three ships within a Sailing action of Nagasaki behind an explored Macau; the
    planner then plans its next turn as the last one."""
    state = late_game()
    assert not end_near(state)
    state.display = [0, 0, 0, 1, 1]
    assert end_near(state)
    planner = Planner(random.Random(0))
    planner.choose(state)
    assert planner.last_next
    state.end_seat, state.end_turns = 1, 22
    assert not end_near(state)
    # Nagasaki: three ships of one seat within a Sailing action, Macau explored.
    state = late_game()
    state.players[1].ships[data.MACAU] = 2
    state.players[1].ships[data.MACAU - 1] = 1
    assert not end_near(state)
    state.explored |= 1 << data.MACAU
    assert end_near(state)
    state.players[1].ships[data.MACAU - 1] = 0
    assert not end_near(state)


def test_no_cliff_at_the_end_trigger() -> None:
    """With only the last building left, the evaluation is already the score with the
    future values faded out (Cruzados at LATE_MONEY_RATE), so buying it and ending the
    game is not seen as a loss of colonies', factories' and workers' future value
    (self-play games used to stall)."""
    state = late_game(money=1130)
    state.display = [0, 0, 0, 0, 1]
    me = state.players[0]
    me.colonies, me.factories, me.workers = [3, 2, 2], [1, 1, 0], 9
    assert future_share(state) == 0.0
    held = 1130 * LATE_MONEY_RATE - 1130 // data.VP_MONEY_UNIT
    assert evaluate(state, 0) == pytest.approx(me.score() + held)
    state.display = list(data.building_row_sizes(4))
    assert future_share(state) == 1.0
    assert evaluate(state, 0) > me.score() + 5


def test_lookahead_lets_the_others_pass_through_legal_actions() -> None:
    """The two-turn lookahead brings the turn back to the bot's seat by having every
    other seat move its stone one free space and decline the action: legal moves only,
    no one else's holdings change (it used to overwrite the engine's turn pointer)."""
    state = late_game(money=500)
    state.apply_action(Rondel(space=data.RONDEL.index("workers")))
    state.apply_action(DONE)
    assert state.to_move() == 1
    others = [(p.money, p.workers, list(p.ships), p.stone) for p in state.players[1:]]
    assert Planner(random.Random(0)).pass_others(state, 0)
    assert state.to_move() == 0 and state.stage == START
    for (money, workers, ships, stone), p in zip(others, state.players[1:], strict=True):
        assert (p.money, p.workers, p.ships) == (money, workers, ships)
        assert p.stone == (stone + 1) % len(data.RONDEL)
    assert state.players[0].turns == 21


def test_near_the_end_money_becomes_workers() -> None:
    """With one building left on the display (the game is about to end) and 1,000
    Cruzados that nothing else will absorb, the bot fills Lisboa to 9 workers: one at
    the church price, three at 300 (phase III).  Held to the end the money would score
    5 VP; spent, it scores 4 workers + 0 VP, which the bot accepts so as not to end the
    game on a hoard (see LATE_MONEY_RATE)."""
    state = late_game(money=1000)
    state.display = [0, 0, 0, 0, 1]
    me = state.players[0]
    me.workers = 5
    state.apply_action(Rondel(space=data.RONDEL.index("workers")))
    legal = state.legal_actions()
    action = legal[NavegadorBot(seed=1).choose(state.view(0), legal, [])]
    assert action == Hire(count=4)


def heavy_start() -> NavegadorState:
    """A START decision of seat 0 whose look-ahead is costly (a mid-game position
    reached by the bot against itself), found by counting look-ahead calls."""
    state = GAME.new_game(4)
    rng = random.Random(3)
    planner = Planner(random.Random(4))
    while True:
        who = state.to_move()
        assert who != TERMINAL
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        if who == 0 and state.stage == START and sum(p.turns for p in state.players) >= 24:
            return state
        state.apply_action(planner.choose(state))


def counted_lookahead(monkeypatch: pytest.MonkeyPatch, planner: Planner) -> list[int]:
    """Depths of every ``start_value`` call of ``planner`` from now on."""
    depths: list[int] = []
    real = planner.start_value

    def start_value(state: NavegadorState, action: object, seat: int, depth: int = 1) -> float:
        depths.append(depth)
        return real(state, action, seat, depth)

    monkeypatch.setattr(planner, "start_value", start_value)
    return depths


def test_the_bot_keeps_to_its_clock_past_the_deadline_it_judges_one_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 33, item 6: under the protocol (``received`` set) the look-ahead has a
    deadline inside ``choose``; an ``act`` whose time is already spent gets the
    one-turn judgement (no look-ahead call completes), the same choice as
    ``best_start`` at depth 1; with time to spare, the full look-ahead runs."""
    state = heavy_start()
    legal = state.legal_actions()
    assert len(legal) > 1
    late = NavegadorBot(seed=1)
    depths = counted_lookahead(monkeypatch, late.planner)
    late.received = time.perf_counter() - 10.0  # the act arrived 10 s ago
    picked = legal[late.choose(state.view(0), legal, [])]
    assert late.planner.timeouts == 1
    shallow = Planner(random.Random(0))
    shallow.future, shallow.last_next = late.planner.future, late.planner.last_next
    assert picked == shallow.best_start(GAME.determinize(state.view(0), random.Random(0)), 0, 1)
    deep_calls = [d for d in depths if d > 1]
    assert len(deep_calls) == 1  # the first look-ahead call found the deadline passed

    calm = NavegadorBot(seed=1)
    depths = counted_lookahead(monkeypatch, calm.planner)
    calm.clock = Clock(move_ms=600_000)  # ten minutes: the look-ahead always completes
    calm.received = time.perf_counter()
    calm.choose(state.view(0), legal, [])
    assert calm.planner.timeouts == 0 and sum(1 for d in depths if d > 1) == len(legal)
