#!/usr/bin/env python3
"""A referee bot that plays with OpenSpiel's own algorithms (any of the four games).

Usage: openspiel_bot.py [--algorithm ismcts|mcts|random] [--simulations N] [--seed N]

It speaks the protocol through :mod:`referee.botkit` (so it offers reuse, every match
starting afresh).  At each decision it rebuilds an OpenSpiel state of
:mod:`referee.interop.openspiel` from what it was told: the engine's ``determinize``
of its view, with the events it received as its information state, and asks the
algorithm for an action id, which it maps back to an index of ``legal``:

* ``ismcts``: OpenSpiel's ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``,
  information-set MCTS; it resamples the hidden information itself through
  ``resample_from_infostate``) with its defaults (unlimited world samples, the most
  visited action) and ``uct_c`` 2;
* ``mcts``: OpenSpiel's ``MCTSBot`` (``open_spiel.python.algorithms.mcts``) on one
  determinization, ``uct_c`` 2;
* ``random``: ``pyspiel.make_uniform_random_bot``.

Both searches use one random rollout per leaf (OpenSpiel's ``RandomRolloutEvaluator``)
and at most ``--simulations`` simulations (default 1000), fewer when the clock says
so.  ISMCTS starts no simulation after ``ISMCTS_SHARE`` of the move's time (checked
in OpenSpiel's resampling hook, between simulations), and a simulation still running
at ``HARD_SHARE`` is interrupted (SIGALRM); the final policy then comes from the tree
of the finished simulations (a uniform legal move if none finished).  MCTS plans its
count from the slowest seconds per simulation seen so far in the match
(``MCTS_SHARE``, never below 2: it expands its root in the first), its first
search running ``PROBE`` simulations; a search still running at ``HARD_SHARE`` is
interrupted and a uniform legal move played instead.  (OpenSpiel's C++
``pyspiel.ISMCTSBot`` crashes on games written in Python when it resamples, so the
Python implementation is used.)

It needs the ``interop`` extra (``pip install -e '.[interop]'``); without it, it says
so on stderr and exits with status 2 before answering ``start``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from referee.botkit import Bot, run

MISSING = (
    "openspiel_bot: OpenSpiel is not installed (module {name!r} not found); "
    "install the extra: pip install -e '.[interop]'"
)

UCT_C = 2.0
"""OpenSpiel's usual exploration constant for its MCTS bots."""

ISMCTS_SHARE = 0.3
"""Share of the move's time after which ISMCTS starts no further simulation."""

MCTS_SHARE = 0.3
"""Share of the move's time that MCTS plans its simulations for (at the slowest
speed per simulation measured so far in the match)."""


HARD_SHARE = 0.5
"""Share of the move's time at which a running ISMCTS simulation is interrupted."""


class _Deadline(Exception):
    """The move's time for searching is spent."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raise :class:`_Deadline` in this (main) thread after ``seconds`` (SIGALRM)."""

    def ring(signum: int, frame: Any) -> None:
        raise _Deadline

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


PROBE = 2
"""Simulations of the first search, which measures their speed."""


class OpenSpielBot(Bot):
    """Plays by running an OpenSpiel algorithm on a state rebuilt from its view."""

    name = "openspiel"
    version = "1"

    def __init__(self, algorithm: str = "ismcts", simulations: int = 1000, seed: int = 0) -> None:
        self.algorithm = algorithm
        self.simulations = simulations
        self.seed = seed
        self.name = f"openspiel-{algorithm}"
        self.events: list[dict[str, Any]] = []
        self.decisions = 0
        self.sim_seconds = 0.0
        """Measured seconds per MCTS simulation (0 until measured)."""

    def on_start(self) -> None:
        # Everything the decisions need is imported here, at start-up (not on the clock).
        import numpy
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from referee.interop import episode
        from referee.interop import openspiel as binding

        self.np, self.ismcts, self.mcts, self.episode_module = numpy, ismcts, mcts, episode

        self.pyspiel = pyspiel
        self.binding = binding
        params: dict[str, Any] = {"players": self.seats}
        for key, value in self.game.options_dict(self.options).items():
            params[key] = binding.NONE_PARAM if value is None else value
        self.spiel_game = pyspiel.load_game(binding.short_name(self.game), params)

    def _state(self, view: Any) -> Any:
        """An OpenSpiel state consistent with ``view``, with this seat's events."""
        import random

        engine = self.game
        rng = random.Random(self.seed * 1_000_003 + self.decisions)
        full = self.binding.determinize(engine, view, rng, self.options)
        episode = self.episode_module.Episode(engine, self.seats, self.options, state=full)
        for event in self.events:
            episode._tell(self.seat, event)
        episode.ply = self.events[-1]["ply"] + 1 if self.events else 0
        return self.binding.RefereeState(self.spiel_game, episode)

    def _search(self, state: Any) -> int:
        pyspiel = self.pyspiel
        seed = (self.seed * 7_919 + self.decisions) % (2**31)
        budget_s = self.clock.move_ms / 1000.0
        if self.algorithm == "random":
            action: int = pyspiel.make_uniform_random_bot(self.seat, seed).step(state)
            return action
        import random

        np, ismcts, mcts = self.np, self.ismcts, self.mcts
        started = time.perf_counter()
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        if self.algorithm == "ismcts":
            soft = self.received + ISMCTS_SHARE * budget_s
            hard = self.received + HARD_SHARE * budget_s
            bot = ismcts.ISMCTSBot(
                self.spiel_game,
                evaluator,
                UCT_C,
                self.simulations,
                random_state=np.random.RandomState(seed),
            )
            sampler = random.Random(seed).random

            def resample(root: Any, player: int) -> Any:
                # OpenSpiel's hook for drawing each simulation's world: past the soft
                # deadline the search ends here, between simulations, once one has run.
                node = getattr(bot, "_root_node", None)  # set by run_search
                if time.perf_counter() > soft and node is not None and node.total_visits > 0:
                    raise _Deadline
                return root.resample_from_infostate(player, sampler)

            bot.set_resampler(resample)
            try:
                with _alarm(hard - time.perf_counter()):
                    policy = bot.run_search(state)
            except _Deadline:
                node = getattr(bot, "_root_node", None)  # None: interrupted before the root
                if node is None or node.total_visits <= 0:
                    # Not one simulation fitted in the clock: a uniform legal move.
                    legal = state.legal_actions()
                    return int(legal[random.Random(seed).randrange(len(legal))])
                policy = bot.get_final_policy(state, node)
            actions, probs = zip(*policy, strict=True)
            return int(bot._random_state.choice(actions, p=probs))
        sims = min(self.simulations, PROBE)
        if self.sim_seconds > 0:
            sims = max(2, min(self.simulations, int(MCTS_SHARE * budget_s / self.sim_seconds)))
        mcts_bot = mcts.MCTSBot(
            self.spiel_game, UCT_C, sims, evaluator, random_state=np.random.RandomState(seed)
        )
        try:
            with _alarm(self.received + HARD_SHARE * budget_s - time.perf_counter()):
                action = mcts_bot.step(state)
        except _Deadline:
            # The search did not fit in the clock: a uniform legal move, and fewer
            # simulations next time.
            self.sim_seconds = max(self.sim_seconds, budget_s)
            legal = state.legal_actions()
            return int(legal[random.Random(seed).randrange(len(legal))])
        spent = (time.perf_counter() - started) / sims
        self.sim_seconds = max(self.sim_seconds, spent)
        return int(action)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        self.events.extend(events)
        self.decisions += 1
        if len(legal) == 1:
            return 0
        state = self._state(view)
        action_id = self._search(state)
        action = self.spiel_game.codec.decode(state.episode.state, action_id)
        if action not in legal:  # the rebuilt state disagrees with the referee: say so
            print(f"openspiel_bot: {action!r} is not in legal", file=sys.stderr, flush=True)
            return 0
        return legal.index(action)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="OpenSpiel's algorithms as a referee bot")
    parser.add_argument("--algorithm", choices=("ismcts", "mcts", "random"), default="ismcts")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print(MISSING.format(name="pyspiel"), file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    run(OpenSpielBot(args.algorithm, args.simulations, args.seed))


if __name__ == "__main__":
    main()
