#!/usr/bin/env python3
"""A heuristic Navegador bot (JSON Lines protocol via ``referee.botkit``).

Strategy: every rondel choice (and the Navegador card) is judged by playing the rest of
its own turn greedily on a copy of the state (``GAME.determinize`` rebuilds it from the
view), then its best next turn as if the other seats passed (``LOOKAHEAD``), and scoring
the result with :func:`evaluate`; the next turn's gain counts half
(``NEXT_TURN_WEIGHT``).  Inside an action each atomic step is taken greedily by the
same evaluation, and the action ends once no step improves it.

:func:`evaluate` is the VP the seat would score now plus rough values for what earns
VP later: money (Cruzados), colonies and factories (market income), shipyards and
churches (ships and workers at 50), workers, ships near unexplored waters or beside
colony tiles still on offer.  As the game nears its end these future values fade out
and money counts for a quarter of its final rate (``LATE_MONEY_RATE``), so that the bot
turns it into points while it can; once the end is triggered it is the final score with
cash worth nothing (``FINAL_MONEY_RATE``), so the last turn spends it on whatever scores
and takes a last Market only when that gives it the lead.  When the end may come before
the bot plays again (:func:`end_near`) the look-ahead plans the next turn as the last
one.

The bot keeps to its clock: the look-ahead (the costly part, up to about half a
second of CPU for one decision) has a deadline of :data:`DEEP_SHARE` of the move
time from the moment the ``act`` arrived (plus :data:`BANK_SHARE` of the bank); past
it, the decision falls back to the one-turn judgement (tens of ms at most).

Usage: navegador_bot.py [--seed N] [--exact-end]

``--exact-end`` plays the round-2 setting (:func:`exact_end`): the last turn for the
exact final score, about a point more per game, but it ends on about 700 Cruzados per
player instead of about 160 (docs/bots/navegador.md).
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from referee.api.engine import CHANCE
from referee.botkit import Bot, run
from referee.games.navegador import GAME, data
from referee.games.navegador.actions import DONE, USE_CARD, Rondel
from referee.games.navegador.sailing import distances
from referee.games.navegador.state import MARKET, OVER, START, NavegadorState

MONEY_STEPS = ((300, 1 / 100), (700, 1 / 300), (10**9, 1 / 2500))
"""Worth of Cruzados in hand, in VP per Cruzado, for successive amounts: the first 300
are spent soon, more than 1,000 is a hoard worth little (it only scores 1 VP per 200
at the end), so the bot spends it on workers, ships, buildings and privileges while
they are on offer.  See docs/bots/navegador.md for the measurements."""
COLONY_VP = 3.5
"""Extra value of a colony beyond its printed VP (it sells every Market)."""
FACTORY_VP = 2.0
"""Extra value of a factory beyond its printed VP (it processes every Market)."""
SHIPYARD_VP = 1.0
"""Extra value of a shipyard beyond its printed VP (a ship at 50 per Ships action)."""
CHURCH_VP = 1.0
"""Extra value of a church beyond its printed VP (a worker at 50 per Workers action)."""
WORKER_VP = 0.8
"""Extra value of a worker (colonies, buildings and privileges need them)."""
SHIP_NEAR_UNEXPLORED = 1.5
"""Value of a ship that borders an unexplored region (halved per further border)."""
EXPEDITION_SHIPS = 3
"""Only the ships closest to unexplored waters count as explorers-to-be."""
SHIP_AT_TILES = 1.5
"""Value of a ship in a region with colony tiles still to found (one per tile)."""
FADE_BUILDINGS = 8
"""Buildings left on the display below which the future values fade out (to nothing
when only the last one is left)."""
MACAU_SHARE = 0.5
"""Largest share of the future values once Macau, the door to Nagasaki, is explored."""
END_LEAD_BONUS = 4.0
"""Bonus for a position after the end trigger in which the seat leads (its real final
score, money at 1 VP per full 200, beats every other seat's current score): the leader ends
the game rather than milking the market and virtual workers turn after turn (with the
others assumed to pass, more turns always look better to everyone)."""
ENDGAME_CHANGE = 1e-5
"""VP per Cruzado short of a full 200 once the end is triggered: a tie-break in favour
of keeping Cruzados, used only by the exact last turn (``FINAL_MONEY_RATE`` 0)."""
LATE_MONEY_RATE = 1 / 800
"""VP per Cruzado that the fading future values turn into as the game nears its end
(before the trigger).  Money still held then mostly stays unspent to the end, so it
counts for a quarter of its final rate (1 per 200): the bot turns it into workers and
ships even at 300 each (phase III), churches and the last colonies while it still can,
instead of ending on a hoard (issue 16).  Measured in docs/bots/navegador.md."""
FINAL_MONEY_RATE = -1e-6
"""VP per Cruzado on the last turn (after the end trigger, and on a next turn planned as
the last, see ``END_AWARE``) instead of 1 VP per full 200; 0 means the exact final
rate.  The default, a hair below nothing, treats cash that can no longer be spent as
worth nothing, ties going to the action that ends on less: the last turn buys whatever
scores (workers and ships at 300 too), and a seat with nothing left to buy does not
take a last Market only to add cash, unless that Market gives it the lead (the lead
bonus is judged on the real score).  This gives up about 3 VP when such a Market is
skipped; the cost is measured in docs/bots/navegador.md (issue 16)."""
END_AWARE = True
"""Plan the next turn as the last one when the end may come first (:func:`end_near`):
money taken in now then counts at ``FINAL_MONEY_RATE`` unless that last turn can spend
it, so the bot takes the Market before its last turn rather than on it."""
END_NEAR_BUILDINGS = 2
"""Buildings left on the display at or below which the end counts as near."""
NAGASAKI_SHIPS = 3
"""Ships within reach of Nagasaki (of one seat) that make the end count as near."""
EPSILON = 1e-6
LOOKAHEAD = 2
"""Own turns looked ahead at every rondel choice (the others are assumed to pass)."""
NEXT_TURN_WEIGHT = 0.5
"""Share of the next turn's gain credited to a rondel choice (the others may take the
buildings, colonies and privileges first)."""


def money_value(money: int, ending: bool) -> float:
    """VP credited for ``money`` Cruzados; once the end is triggered exactly 1/200 each."""
    if ending:
        return money / data.VP_MONEY_UNIT
    value, left = 0.0, money
    for amount, rate in MONEY_STEPS:
        part = min(left, amount)
        value += part * rate
        left -= part
    return value


def evaluate(
    state: NavegadorState, seat: int, future: float | None = None, exact: bool = False
) -> float:
    """Heuristic worth of ``state`` for ``seat`` in VP (higher is better).

    ``future`` is the share of the game still to come (:func:`future_share` of the
    position the planner started from; computed from ``state`` when omitted).  It is
    fixed during one decision, so buying a building does not look like shortening
    the game.  ``exact`` counts money at its final rate after the end trigger whatever
    ``FINAL_MONEY_RATE`` says (the steps of a last Market, see :meth:`Planner.greedy_step`)."""
    player = state.players[seat]
    if state.end_seat >= 0:
        # Every seat has at most one turn left: only the final score counts (money in
        # whole 200s; the remainder breaks ties in favour of keeping Cruzados).
        # Every seat has at most one turn left: the final score counts, with the money
        # at FINAL_MONEY_RATE (exact: whole 200s, the remainder a tie-break in favour of
        # keeping Cruzados).  The lead is judged on the real final score, money included,
        # so a last Market is still worth taking when it wins the game.
        score = player.score()
        if FINAL_MONEY_RATE and not exact:
            change = 0.0
            value = score - player.money // data.VP_MONEY_UNIT + player.money * FINAL_MONEY_RATE
        else:
            change = (player.money % data.VP_MONEY_UNIT) * ENDGAME_CHANGE
            value = score + change
        best_other = max(p.score() for s, p in enumerate(state.players) if s != seat)
        if score + change > best_other:
            value += END_LEAD_BONUS
        return value
    base = float(player.score() - player.money // data.VP_MONEY_UNIT)
    if future is None:
        future = future_share(state)
    value = money_value(player.money, False) * future
    value += player.money * LATE_MONEY_RATE * (1.0 - future)
    extra = sum(player.colonies) * COLONY_VP
    extra += sum(player.factories) * FACTORY_VP
    extra += player.workers * WORKER_VP
    extra += player.shipyards * SHIPYARD_VP + player.churches * CHURCH_VP
    table = distances(state.explored)
    unexplored = [r for r in range(len(data.REGIONS)) if not state.is_explored(r)]
    reach: list[int] = []
    for region, ships in enumerate(player.ships):
        if not ships:
            continue
        extra += min(ships, len(state.tiles[region])) * SHIP_AT_TILES
        if unexplored:
            d = min(table[region][u] for u in unexplored)
            reach.extend([d] * ships)
    for d in sorted(reach)[:EXPEDITION_SHIPS]:
        if d < 10:
            extra += SHIP_NEAR_UNEXPLORED * 0.5 ** (d - 1)
    if state.phase_pending:
        extra += 0.5
    return base + value + extra * future


def future_share(state: NavegadorState) -> float:
    """How much of the game is still to come, 1.0 down to 0.0, from the buildings left
    on the display (the last one ends the game) and from Macau (next to Nagasaki, whose
    exploration ends it).  The future values of :func:`evaluate` are scaled by it, so
    that they fade out before the end is triggered instead of vanishing at the trigger:
    a cliff there made every seat avoid ending the game (a self-play game ran 78 turns,
    pumping money with virtual workers, with one church left that nobody would buy)."""
    share = min(1.0, max(0.0, (sum(state.display) - 1) / FADE_BUILDINGS))
    if state.is_explored(data.MACAU):
        share = min(share, MACAU_SHARE)
    return share


def end_near(state: NavegadorState) -> bool:
    """Whether the end may be triggered before the seat to move plays again: at most
    ``END_NEAR_BUILDINGS`` buildings are left on the display, or Macau is explored and some
    seat has the three ships that exploring Nagasaki takes within this phase's sailing
    range."""
    if state.end_seat >= 0:
        return False
    if sum(state.display) <= END_NEAR_BUILDINGS:
        return True
    if not state.is_explored(data.MACAU) or state.is_explored(data.NAGASAKI):
        return False
    table = distances(state.explored)
    reach = data.SAILING_RANGE[state.phase]
    for player in state.players:
        near = sum(n for r, n in enumerate(player.ships) if table[r][data.NAGASAKI] <= reach)
        if near >= NAGASAKI_SHIPS:
            return True
    return False


DEEP_SHARE = 0.3
"""Share of the move time the look-ahead may use (the rest is the margin for the
one-turn fallback, up to about 40 ms of CPU, which a loaded machine can stretch
several times over).  On an idle machine only the rarest decisions need more."""
BANK_SHARE = 0.05
"""Share of the remaining time bank the look-ahead may use on top."""


class OutOfTime(Exception):
    """The look-ahead passed its deadline (:attr:`Planner.deadline`)."""


class Planner:
    """Greedy turn planner on copies of the engine state.

    ``deadline``: a :func:`time.perf_counter` reading (seconds) after which the
    look-ahead of a START decision gives up for the one-turn judgement (``None``:
    no deadline, the look-ahead always completes)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.future = 1.0
        self.last_next = False
        self.deadline: float | None = None
        self.timeouts = 0
        """START decisions whose look-ahead ran out of time (fell back)."""

    def settle(self, state: NavegadorState, seat: int) -> None:
        """Resolve chance nodes and finish a forced expedition (all choices equal)."""
        while True:
            who = state.to_move()
            if who == CHANCE:
                state.apply_chance(state.sample_chance(self.rng))
            elif who == seat and state.expedition >= 0:
                state.apply_action(state.legal_actions()[0])
            else:
                return

    def step_value(self, state: NavegadorState, action: Any, seat: int, exact: bool) -> float:
        """Value after ``action`` (and any forced follow-up)."""
        copy = state.clone()
        copy.apply_action(action)
        self.settle(copy, seat)
        return evaluate(copy, seat, self.future, exact)

    def greedy_step(self, state: NavegadorState, seat: int) -> Any:
        """Best single atomic step inside an action; DONE unless something improves.

        On a last Market (after the end trigger) the sales and processing are chosen
        with money at its exact rate: once the rondel choice has judged that Market worth
        taking (it gives the seat the lead), every sale that scores is made."""
        legal = state.legal_actions()
        exact = state.stage == MARKET and state.end_seat >= 0
        base = evaluate(state, seat, self.future, exact)
        best, best_value = (DONE if DONE in legal else legal[0]), base + EPSILON
        for action in legal:
            if action is DONE:
                continue
            value = self.step_value(state, action, seat, exact)
            if value > best_value:
                best, best_value = action, value
        return best

    def finish_turn(self, state: NavegadorState, seat: int, stop_at_start: bool) -> None:
        """Play ``seat``'s steps greedily until its turn ends (or it is back at START)."""
        for _ in range(200):
            self.settle(state, seat)
            if state.to_move() != seat:
                return
            if state.stage == START:
                if stop_at_start:
                    return
                state.apply_action(self.best_start(state, seat))
                continue
            state.apply_action(self.greedy_step(state, seat))

    def pass_others(self, state: NavegadorState, seat: int) -> bool:
        """Let every other seat pass until ``seat`` is back at its START decision, through
        legal actions only: each moves its stone one space (free) and declines the action
        (``done``).  Returns False when that is not possible (the game ended, or a seat
        would have to do more than pass), leaving ``state`` part-way."""
        for _ in range(4 * state.seats):
            self.settle(state, seat)
            who = state.to_move()
            if who == seat:
                return state.stage == START
            if who < 0:
                return False
            legal = state.legal_actions()
            if DONE in legal:
                state.apply_action(DONE)
                continue
            moves = [a for a in legal if type(a) is Rondel]
            if not moves:
                return False
            state.apply_action(moves[0])
        return False

    def start_value(self, state: NavegadorState, action: Any, seat: int, depth: int = 1) -> float:
        """Value of START decision ``action``: the turn is played out greedily, then (with
        ``depth`` 2 and the game not ending) the seat's best next turn as if the others
        passed, and the final position is evaluated."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        copy = state.clone()
        # After the end trigger every seat has exactly one turn left: this one.
        last_turn = state.end_seat >= 0
        copy.apply_action(action)
        if action is USE_CARD:
            self.finish_turn(copy, seat, stop_at_start=True)
            if copy.to_move() == seat and copy.stage == START:
                follow = self.best_start(copy, seat, depth)
                return self.start_value(copy, follow, seat, depth) + 0.3
            return evaluate(copy, seat, self.future)
        self.finish_turn(copy, seat, stop_at_start=True)
        if depth > 1 and not last_turn and copy.stage != OVER and self.pass_others(copy, seat):
            if self.last_next:
                # The next turn may be the last: plan it as one (final score, money at
                # FINAL_MONEY_RATE); the huge turn count keeps the copy from ending.
                copy.end_seat, copy.end_turns = seat, 10**6
            now = evaluate(copy, seat, self.future)
            nxt = self.best_start(copy, seat, depth - 1)
            later = self.start_value(copy, nxt, seat, depth - 1)
            return now + NEXT_TURN_WEIGHT * (later - now)
        return evaluate(copy, seat, self.future)

    def best_start(self, state: NavegadorState, seat: int, depth: int = 1) -> Any:
        """Best START decision: the card (if it pays) or a rondel space."""
        legal = state.legal_actions()
        best, best_value = legal[0], float("-inf")
        for action in legal:
            value = self.start_value(state, action, seat, depth)
            if value > best_value + EPSILON:
                best, best_value = action, value
        return best

    def choose(self, state: NavegadorState) -> Any:
        """The action this bot plays in ``state`` (a decision node)."""
        seat = state.to_move()
        legal = state.legal_actions()
        self.future = future_share(state)
        self.last_next = END_AWARE and end_near(state)
        if len(legal) == 1:
            return legal[0]
        if state.stage == START:
            if self.deadline is None or LOOKAHEAD <= 1:
                return self.best_start(state, seat, LOOKAHEAD)
            try:
                return self.best_start(state, seat, LOOKAHEAD)
            except OutOfTime:
                self.timeouts += 1
                deadline, self.deadline = self.deadline, None
                try:
                    return self.best_start(state, seat, 1)
                finally:
                    self.deadline = deadline
        return self.greedy_step(state, seat)


class NavegadorBot(Bot):
    """Protocol wrapper: rebuild the state from the view and ask the :class:`Planner`."""

    name = "navegador-heuristic"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.planner = Planner(self.rng)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        # ``received`` is left at 0.0 when choose is called outside the protocol loop
        # (tests, in-process games): then no deadline, as with no clock.
        budget_ms = DEEP_SHARE * self.clock.move_ms + BANK_SHARE * self.clock.bank_ms
        timed = self.received > 0.0
        self.planner.deadline = self.received + budget_ms / 1000.0 if timed else None
        state = GAME.determinize(view, self.rng)
        action = self.planner.choose(state)
        try:
            return legal.index(action)
        except ValueError:
            return 0


def evaluate_vs_random(games: int, seats: int, seed: int) -> dict[str, float]:
    """Play ``games`` in-process games, the bot in seat ``g % seats`` and uniform-random
    players elsewhere (chance from the same seeded RNG); return win rate and mean VP."""
    rng = random.Random(seed)
    planner = Planner(random.Random(seed + 1))
    wins = 0.0
    bot_vp = other_vp = 0.0
    for g in range(games):
        me = g % seats
        state = GAME.new_game(seats, GAME.parse_options({}))
        while (who := state.to_move()) >= 0 or who == CHANCE:
            if who == CHANCE:
                state.apply_chance(state.sample_chance(rng))
            elif who == me:
                state.apply_action(planner.choose(state))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        ranks = state.ranks()
        scores = state.scores()
        wins += ranks[me] == 1
        bot_vp += scores[me]
        other_vp += (sum(scores) - scores[me]) / (seats - 1)
    return {
        "games": games,
        "seats": seats,
        "bot_win_rate": wins / games,
        "bot_mean_vp": bot_vp / games,
        "random_mean_vp": other_vp / games,
    }


def exact_end() -> None:
    """Switch this process to the round-2 setting: money at 1 VP per 600 Cruzados late
    in the game, the last turn played for the exact final score, and no planning of
    the next turn as the last (docs/bots/navegador.md compares both settings)."""
    global LATE_MONEY_RATE, FINAL_MONEY_RATE, END_AWARE
    LATE_MONEY_RATE, FINAL_MONEY_RATE, END_AWARE = 1 / 600, 0.0, False


def main() -> None:
    """Run the bot on stdin/stdout, or ``--evaluate N [--seats S]`` against random."""
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else None
    if "--exact-end" in sys.argv:
        exact_end()
    if "--evaluate" in sys.argv:
        games = int(sys.argv[sys.argv.index("--evaluate") + 1])
        seats = int(sys.argv[sys.argv.index("--seats") + 1]) if "--seats" in sys.argv else 4
        print(evaluate_vs_random(games, seats, seed or 0))
        return
    run(NavegadorBot(seed))


if __name__ == "__main__":
    main()
