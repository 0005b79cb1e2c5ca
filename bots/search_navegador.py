"""Navegador decisions of the search bot (``bots/search_bot.py``): the rondel choice
by paired guide playouts.

At the START of its turn (the rondel choice, or the privilege card) the bot ranks the
legal choices by the guide's own plan value (:meth:`Planner.start_value`: its turn
and its next one, the others assumed to pass) and keeps the ``CANDIDATES`` best.
Each candidate is then played on from a determinization of the view with the guide
(``bots/navegador_bot.py``) in every seat, the others' real replies included, until
this seat is back at its START ``ROUNDS`` times (or the game ends), and the position
is scored as a margin over the best other seat (VP): the others by the guide's
:func:`evaluate`, this seat by the value of its best next turn as the guide plans it
(:meth:`Planner.start_value`).
All candidates of one sample share its chance stream (the tiles revealed by
explorations), so their differences are paired.  A candidate replaces the guide's
choice only if its mean margin beats the guide's by ``MIN_GAIN`` VP and by ``Z``
paired standard errors.  Many playouts draw no random number at all (no
exploration in the playout or in the guide's look-ahead: 83 of 156 one-round and
52 of 156 three-round playouts of seat 0's shortlists in a heuristic self-play game,
seed 7); such a candidate's margin is the same under every seed, so it is played
once and only the others are sampled again.  Every other decision (the steps inside
an action) is the guide's, answered at once: they cost the bot no thinking time.
Once the end may come before this seat's next turn (:func:`end_near`, or the end
triggered), the playouts run for ``END_ROUNDS`` of this seat's turns (the same as ``ROUNDS`` now; it
mattered when the normal playouts stopped at the next turn), and any playout that
reaches the end scores the final VP margin, plus ``WIN_BONUS`` for finishing first:
a cut at the next turn would judge money and plans by estimates just when the exact
final score is a round or two away (round 3: with that cut and no end-game rule the
bot hoarded money; with the guide deciding the end-game it won no more often than
the guide).

Only the view is used: the state is rebuilt with ``Game.determinize`` (Navegador
hides only the future: the unseen colony tiles).
"""

from __future__ import annotations

import random
import statistics
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from bots.navegador_bot import LOOKAHEAD, NavegadorBot, Planner, end_near, evaluate, future_share
from bots.paired import pick as paired_pick
from referee.api.engine import CHANCE, TERMINAL
from referee.games.navegador.state import START, NavegadorState

CANDIDATES = 3
"""Rondel choices played out: the guide's best by its own plan value."""
ROUNDS = 3
"""Own START decisions a playout runs to (3: until this seat is at its third rondel
choice from now).  The other seats are played by the same heuristic as the real
opponents, so a playout foresees their replies nearly exactly (only explorations are
drawn) and a deeper playout is worth its cost: a playout counts as its rounds of
one-round playouts against the budget, so the budget of 10 holds one sample of three
candidates.  On seeds 9000-9004 (20 games) one round with 4 candidates won 7 first
places, two rounds with 4 candidates 12, three rounds with 3 candidates 14."""
END_PLAYOUTS = True
"""Once the end may come before this seat's next turn (:func:`end_near`, or the end
triggered), play the candidates to the end of the game and score the final VP
margin (plus ``WIN_BONUS`` for finishing first); off: play the guide's choice."""
END_ROUNDS = 3
"""Own START decisions an end-game playout runs to at most: ``end_near`` can hold
several rounds before the end (Macau explored, ships near Nagasaki), and a playout of
the whole rest of the game would overrun the move clock (a 1,006 ms move at a 540 ms
budget was seen before this cap); one that has not ended by then is scored as a
normal one."""
WIN_BONUS = 5.0
"""VP added to a playout's final margin when this seat finishes first (ties broken
by the engine's ranks)."""
MIN_GAIN = 0.5
"""VP of mean margin a candidate must gain over the guide's choice."""
Z = 1.0
"""Paired standard errors the gain must also exceed (from the second sample on)."""
MAX_STEPS = 4000
"""Decisions after which a playout stops (a safety net; a round takes ~100)."""
ROLLOUTS_PER_ITERATION = 0.01
"""Playouts that cost as much CPU as one tree iteration of ``--iterations`` (1,000
iterations, the tree's 290 ms at the default clock, give 10 one-round playouts of
about 25-30 ms of CPU each, beside the guide's own choice and the shortlist; a
two-round playout counts as two)."""


def decide(
    adapter: Any, view: Any, legal: list[Any], hint: Any, done: Callable[[int], bool]
) -> Any | None:
    """The action to play (``hint``, the guide's, except at a START decision where a
    candidate wins the paired playouts).  ``adapter.bot`` supplies the guide, the
    random generator and the seat; ``done(n)`` says whether the budget is spent after
    ``n`` one-round playouts (a playout of ``ROUNDS`` rounds counts as ``ROUNDS``)."""
    bot = adapter.bot
    guide = bot.guide
    if not isinstance(guide, NavegadorBot):
        return None
    if view.stage != "start" or view.to_move != bot.seat:
        return hint
    state: NavegadorState = adapter.determinize(view, bot.rng)
    rounds = ROUNDS
    if state.end_seat >= 0 or end_near(state):
        if not END_PLAYOUTS:
            return hint  # the guide's end-game rules: spend what scores, exact money
        rounds = END_ROUNDS  # the end is near: play to it and count the final score
    if not fits(done, 2 * rounds):
        return hint  # not even one playout of two candidates fits in what is left
    candidates = shortlist(state, bot.seat, legal, hint)
    if len(candidates) < 2:
        return hint
    margins = paired(state, bot.seat, candidates, bot.rng, done, rounds)
    if not margins[0]:
        return hint  # not one sample fits in the budget
    return candidates[pick(margins)]


_ROUND_S: deque[float] = deque(maxlen=5)
"""Seconds one round of a playout took, in this process's latest playouts (the
median is the estimate, so one playout slowed by the machine does not stop the
next ones)."""


def fits(done: Callable[[int], bool], rounds: int) -> bool:
    """Whether ``rounds`` rounds of playouts end before the move's hard deadline (a
    ``done`` with ``remaining_s``, :class:`bots.search_bot.Deadline`), at the median
    cost per round of the latest playouts: a playout is a long unit of work (a
    three-round playout takes hundreds of ms), and one started just before the soft
    deadline at a short move clock would run the move past its clock into the bank.
    True for an iteration budget, and before any playout has been timed."""
    remaining = getattr(done, "remaining_s", None)
    if remaining is None or not _ROUND_S:
        return True
    return bool(remaining() >= rounds * statistics.median(_ROUND_S))


def shortlist(state: NavegadorState, seat: int, legal: list[Any], hint: Any) -> list[Any]:
    """``hint`` first, then the other legal START choices with the best plan values
    (:meth:`Planner.start_value` at the guide's look-ahead), ``CANDIDATES`` in all."""
    planner = Planner(random.Random(0))
    planner.future = future_share(state)
    ranked = sorted(
        (a for a in legal if a != hint),
        key=lambda a: -planner.start_value(state, a, seat, LOOKAHEAD),
    )
    return [hint, *ranked[: CANDIDATES - 1]]


def paired(
    state: NavegadorState,
    seat: int,
    candidates: list[Any],
    rng: random.Random,
    done: Callable[[int], bool],
    rounds: int = ROUNDS,
) -> list[list[float]]:
    """Margins (VP over the best other seat) of the candidates, one list per
    candidate, sample by sample; each sample plays every candidate with one chance
    seed.  A candidate whose playout drew no random number (no exploration, in the
    playout or in the guide's look-ahead) has the same margin under every seed: it
    is played once and its margin repeated in the later samples, which then only
    cost the playouts of the others (none at all once every candidate is exact).
    ``done(n)`` is asked with ``n`` the playouts actually run, each counted as its
    ``rounds`` (the budget is in one-round playouts); a sample is started
    only while it says the sample fits (none at all when the budget is smaller than
    one).  When the clock runs out inside a sample it is dropped, except the first,
    whose candidates reached (two or more) are kept: the lists are then shorter than
    ``candidates``, the first ones only."""
    margins: list[list[float]] = [[] for _ in candidates]
    exact: list[float | None] = [None] * len(candidates)
    count = 0
    while True:
        todo = sum(1 for value in exact if value is None)
        if (margins[0] and not todo) or done(count + todo * rounds):
            break
        seed = rng.randrange(2**31)
        row: list[float] = []
        run = 0
        for k, action in enumerate(candidates):
            known = exact[k]
            if known is not None:
                row.append(known)
                continue
            if (row and done(count + run * rounds)) or not fits(done, rounds):
                break  # the clock ran out inside the sample, or the playout would overrun it
            began = time.perf_counter()
            margin, fixed = playout(state, seat, action, seed, rounds)
            _ROUND_S.append((time.perf_counter() - began) / rounds)
            run += 1
            row.append(margin)
            if fixed:
                exact[k] = margin
        if len(row) < len(candidates):
            if not margins[0] and len(row) >= 2:
                del margins[len(row) :]
                for k, value in enumerate(row):
                    margins[k].append(value)
            break
        for k, value in enumerate(row):
            margins[k].append(value)
        count += run * rounds
    return margins


def playout(
    state: NavegadorState, seat: int, action: Any, seed: int, rounds: int = ROUNDS
) -> tuple[float, bool]:
    """Play ``action`` in a copy of ``state``, then the guide in every seat until
    ``seat`` is back at START ``rounds`` times or the game is over.  Returns the
    margin (VP) of ``seat`` (the value of its best next turn) over the best other
    seat (by :func:`evaluate`), or of the final scores (plus ``WIN_BONUS`` if
    ``seat`` ranks first) once the game is over; and whether no random number was
    drawn (no tiles revealed, in the playout or in the guide's look-ahead), so that
    every seed gives the same margin."""
    copy = state.clone()
    copy.apply_action(action)
    rng = random.Random(seed)
    fresh = rng.getstate()
    margin = _play(copy, seat, rng, rounds)
    return margin, rng.getstate() == fresh


def _play(copy: NavegadorState, seat: int, rng: random.Random, rounds: int) -> float:
    """The margin of :func:`playout` from ``copy`` (played on in place)."""
    planner = Planner(rng)
    starts = 0
    for _ in range(MAX_STEPS):
        who = copy.to_move()
        if who == TERMINAL:
            scores = copy.scores()
            margin = float(scores[seat] - max(s for i, s in enumerate(scores) if i != seat))
            return margin + (WIN_BONUS if copy.ranks()[seat] == 1 else 0.0)
        if who == CHANCE:
            copy.apply_chance(copy.sample_chance(rng))
            continue
        if who == seat and copy.stage == START:
            starts += 1
            if starts >= rounds:
                break
        copy.apply_action(planner.choose(copy))
    future = future_share(copy)
    values = [evaluate(copy, s, future) for s in range(copy.seats)]
    if starts >= rounds:
        # Back at START: credit the seat's best next turn as the guide plans it (where
        # its stone now stands on the rondel is much of what the choice was about).
        planner.future = future
        values[seat] = max(planner.start_value(copy, a, seat) for a in copy.legal_actions())
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def pick(margins: list[list[float]]) -> int:
    """The candidate to play: the best mean margin if it beats candidate 0 (the
    guide's choice) by ``MIN_GAIN`` VP and, with two samples or more, by ``Z``
    standard errors of the paired differences; else 0."""
    return paired_pick(margins, 0, Z, MIN_GAIN)
