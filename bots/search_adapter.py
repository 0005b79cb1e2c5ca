"""The per-game knobs of the search bot (:class:`Adapter`, the base of every game's
adapter) and the loading of a game's heuristic bot as the search's guide
(:func:`load_guide`).  Each game's adapter subclasses :class:`Adapter`: Manila's in
``bots/search_manila.py``, the others in ``bots/search_bot.py`` with their playouts in
``bots/search_navegador.py`` and ``bots/search_roads_and_boats.py``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.api.engine import State
from referee.botkit import Bot

if TYPE_CHECKING:
    from bots.search_bot import SearchBot


class Adapter:
    """Per-game knobs of the search.

    ``scale`` is the score margin (game units) worth a clear lead, ``rollout_depth``
    the decisions a rollout plays before it is cut and evaluated (0 = to the end).
    """

    scale: float = 10.0
    rollout_depth: int = 0
    guide: str | None = None
    guide_margin: float = 0.0
    cut_rank_weight: float = 0.5
    """Weight of the rank in the reward of a cut rollout (the rest: the margin)."""
    playouts: str | None = None
    """Module in ``bots/`` whose ``decide(adapter, view, legal, hint, done)`` is this
    game's :meth:`decide` and whose ``ROLLOUTS_PER_ITERATION`` its
    :attr:`rollouts_per_iteration` (loaded with the adapter), or ``None``."""
    rollouts_per_iteration: float = 1.0
    """Playouts of :meth:`decide` per ``--iterations`` unit (the same CPU time)."""
    clock_playout_cap: int | None = None
    """At the real clock, the most playouts of :meth:`decide` per decision (``None``:
    as many as the clock allows)."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.playout_module: Any = None
        if self.playouts is not None:
            import importlib

            self.playout_module = importlib.import_module(f"bots.{self.playouts}")
            self.rollouts_per_iteration = self.playout_module.ROLLOUTS_PER_ITERATION

    def observe(self, view: Any, events: list[Any]) -> None:
        """Called with every ``act``'s view and raw events, forced moves included,
        before any decision; default: nothing."""

    def determinize(self, view: Any, rng: random.Random) -> State:
        """A full state consistent with ``view`` (hidden information from ``rng``)."""
        state: State = self.bot.game.determinize(view, rng)
        return state

    def candidates(self, state: State, legal: list[Any]) -> list[Any]:
        """The actions the search considers (a subset of ``legal``, never empty)."""
        return legal

    def rollout_action(self, state: State, legal: list[Any], rng: random.Random) -> Any:
        """The rollout policy: uniform among the candidates."""
        cands = self.candidates(state, legal)
        return cands[rng.randrange(len(cands))]

    def evaluate(self, state: State) -> list[float]:
        """Estimated final scores of an unfinished position (game units)."""
        return state.scores()

    def shortlist(self, view: Any, actions: list[Any], hint: Any) -> list[Any]:
        """The root actions worth searching (``hint``, the guide's choice, among
        them); default: all of ``actions``."""
        return actions

    def trust_guide(self, view: Any) -> bool:
        """Whether the guide's choice is played unsearched at this decision (where
        the rollouts cannot judge it)."""
        return False

    def decide(
        self, view: Any, legal: list[Any], hint: Any, done: Callable[[int], bool]
    ) -> Any | None:
        """A decision-specific search that replaces the tree search here: the action
        to play, or ``None`` to go on as usual (the :attr:`playouts` module's, if
        any).  ``done(n)`` says whether the budget is spent after ``n`` rollouts."""
        if self.playout_module is None:
            return None
        return self.playout_module.decide(self, view, legal, hint, done)

    def model_action(self, state: State, seat: int) -> Any:
        """The action another ``seat`` is expected to play in ``state`` (its
        model), or ``None`` to search its choices like this seat's."""
        return None

    def cut_at_chance(self, state: State) -> bool:
        """Whether a rollout stops (and is evaluated) at this chance node."""
        return False

    def mark(self, state: State) -> Any:
        """What :meth:`cut` needs to know about the position a rollout starts from."""
        return None

    def cut(self, state: State, mark: Any, decisions: int) -> bool:
        """Whether the rollout stops here (after ``decisions`` decisions) and is
        evaluated; default: after ``rollout_depth`` decisions (0 = never)."""
        return bool(self.rollout_depth) and decisions >= self.rollout_depth


def load_guide(module_name: str, seed: int) -> Bot | None:
    """A fresh instance of the heuristic bot in ``bots/<module_name>.py`` (its first
    :class:`Bot` subclass, default arguments but ``seed`` where it takes one), or
    ``None`` if it cannot be loaded."""
    import importlib
    import inspect

    try:
        module = importlib.import_module(f"bots.{module_name}")
    except ImportError:
        return None
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Bot) and value is not Bot:
            cls: Any = value
            takes_seed = "seed" in inspect.signature(cls).parameters
            guide: Bot = cls(seed=seed) if takes_seed else cls()
            return guide
    return None
