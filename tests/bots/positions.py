"""Last-decision positions for testing search bots (a helper, not a test module).

A *decisive position* is a decision where some legal actions end the game at once
(only chance may follow) with the seat to move first, whatever the hidden
information (checked on several determinizations of the mover's view) and whatever
the chance outcomes (several samples each), while no other action ever led to the
mover finishing first (it ends the game with the mover behind, or the game goes on
and random play from there never put the mover first in those samples).  A bot that
searches must find a winning action there; a random one often does not.

Positions are found by seeded random play, so they follow the engines as the rules
change instead of hard-coding one engine's internal fields.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from referee.api.engine import CHANCE, TERMINAL, Game, State

SAMPLES = 6
"""Determinizations (and chance samples) each action is checked on."""


@dataclass
class Decisive:
    """A decisive position: the true ``state``, its mover ``seat``, the mover's
    ``view``, the ``legal`` actions and the indices of the ``winning`` ones."""

    state: State
    seat: int
    view: Any
    legal: list[Any]
    winning: list[int]


def _outcome(state: State, action: Any, seat: int, rng: random.Random) -> tuple[bool, bool]:
    """``(ended at once, seat first)`` after ``action``: when a decision follows, the
    game is played on at random to its end (at most 5,000 plies) to see whether the
    mover could still come first."""
    child = state.clone()
    child.apply_action(action)
    at_once = True
    for _ in range(5_000):
        who = child.to_move()
        if who == TERMINAL:
            return at_once, child.ranks()[seat] == 1
        if who == CHANCE:
            child.apply_chance(child.sample_chance(rng))
            continue
        at_once = False
        legal = child.legal_actions()
        child.apply_action(legal[rng.randrange(len(legal))])
    return False, True  # unfinished: treat as possibly winning (never "obvious")


def _wins_at_once(state: State, action: Any, seat: int, rng: random.Random) -> bool:
    """Whether ``action`` ends the game at once with ``seat`` first (one chance sample)."""
    child = state.clone()
    child.apply_action(action)
    while (who := child.to_move()) == CHANCE:
        child.apply_chance(child.sample_chance(rng))
    return who == TERMINAL and child.ranks()[seat] == 1


def classify(
    game: Game,
    state: State,
    determinize: Any,
    rng: random.Random,
    consider: Any = None,
) -> Decisive | None:
    """The decisive position at ``state`` if it is one (see the module docstring).

    ``determinize(view, rng)`` rebuilds a state from the mover's view; ``consider``
    (optional) maps the legal list to the actions that count (the others are left
    out of the test: ``legal`` then holds only the considered ones)."""
    seat = state.to_move()
    legal = list(state.legal_actions())
    if consider is not None:
        legal = list(consider(legal))
    if len(legal) < 2:
        return None
    if not any(_wins_at_once(state, a, seat, rng) for a in legal):
        return None
    view = state.view(seat)
    verdicts: list[set[tuple[bool, bool]]] = [set() for _ in legal]
    for sample in range(SAMPLES):
        world = state if sample == 0 else determinize(view, rng)
        try:
            world_legal = world.legal_actions()
        except Exception:
            return None
        for i, action in enumerate(legal):
            if action not in world_legal:
                return None
            verdicts[i].add(_outcome(world, action, seat, rng))
    winning = [i for i, v in enumerate(verdicts) if v == {(True, True)}]
    never = [i for i, v in enumerate(verdicts) if not any(first for _, first in v)]
    if not winning or not never or len(winning) + len(never) != len(legal):
        return None
    return Decisive(state.clone(), seat, view, legal, winning)


def find_decisive(
    game: Game,
    seats: int,
    games: range | list[int],
    determinize: Any,
    options: Any = None,
    consider: Any = None,
    policy: Any = None,
) -> tuple[int, Decisive] | None:
    """The first decisive position met in seeded games (game ``n`` is played from
    ``random.Random(n)``), with the number of its game; ``None`` if none.  Only the
    last 60 decisions of each game are examined.  The games are played at random, or
    by ``policy(state, rng) -> action`` when given (e.g. a heuristic bot, for games
    where random play never builds up anything worth winning)."""
    for number in games:
        rng = random.Random(number)
        state = game.new_game(seats, options)
        trail: list[State] = []
        while (who := state.to_move()) != TERMINAL:
            if who == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            trail.append(state.clone())
            if len(trail) > 60:
                trail.pop(0)
            legal = state.legal_actions()
            if policy is not None:
                state.apply_action(policy(state, rng))
            else:
                state.apply_action(legal[rng.randrange(len(legal))])
        for candidate in reversed(trail):
            found = classify(game, candidate, determinize, rng, consider)
            if found is not None:
                return number, found
    return None


def _every_ending(state: State, seat: int, limit: int = 20_000) -> set[bool] | None:
    """Whether ``seat`` finishes first, over *every* sequence of decisions (all seats)
    from ``state`` to the end; ``None`` if chance intervenes or the tree has more than
    ``limit`` nodes."""
    seen: set[bool] = set()
    stack = [state]
    nodes = 0
    while stack:
        node = stack.pop()
        who = node.to_move()
        if who == TERMINAL:
            seen.add(node.ranks()[seat] == 1)
            continue
        nodes += 1
        if who == CHANCE or nodes > limit:
            return None
        for action in node.legal_actions():
            child = node.clone()
            child.apply_action(action)
            stack.append(child)
    return seen


def roads_and_boats_last_brick(
    seats: int = 2, games: range | list[int] = range(40)
) -> Decisive | None:
    """A hand-built Roads & Boats decisive position: the wonder stage of the last
    turn, the mover choosing between ``Brick`` and ``Done``.

    Seeded random play (game ``n`` from ``random.Random(n)``) gives a position where a
    seat may buy a brick; its wonder is then replaced by one brick short of the end
    mark (rules p19: the game ends after the wonder phase in which the wonder reaches
    the mark, and every row of 10 points is split by the player bricks in it), with
    brick owners chosen so that the seat trails by less than one brick's worth.  The
    position is kept only if *every* continuation (all seats' decisions, checked
    exhaustively) puts the mover first after ``Brick`` and never after ``Done``."""
    from referee.games import get_game
    from referee.games.roads_and_boats import data as D
    from referee.games.roads_and_boats.state import WONDER

    game = get_game("roads-and-boats")
    for number in games:
        rng = random.Random(number)
        state: Any = game.new_game(seats)
        while (who := state.to_move()) != TERMINAL:
            if who == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            names = [type(a).__name__ for a in legal]
            if state.stage == WONDER and names == ["Brick", "Done"] and state.turn >= 3:
                found = _last_brick(state, who, D.END_MARK[seats])
                if found is not None:
                    return found
            state.apply_action(legal[rng.randrange(len(legal))])
    return None


def _last_brick(state: Any, seat: int, mark: int) -> Decisive | None:
    """``state`` with its wonder rebuilt one brick short of ``mark`` so that ``Brick``
    wins and ``Done`` loses for ``seat``, or ``None`` if no owner pattern tried does."""
    seats = state.seats
    base = [(i % (seats + 1)) - 1 for i in range(mark - 1)]  # -1 = neutral brick
    for flip in range(len(base)):
        for owner in range(-1, seats):
            wonder = base[:]
            wonder[flip] = owner
            trial = state.clone()
            trial.wonder = wonder
            legal = trial.legal_actions()
            outcomes = []
            for action in legal:
                child = trial.clone()
                child.apply_action(action)
                outcomes.append(_every_ending(child, seat))
            if outcomes == [{True}, {False}]:
                return Decisive(trial, seat, trial.view(seat), legal, [0])
    return None
