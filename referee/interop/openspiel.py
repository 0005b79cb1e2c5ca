"""OpenSpiel games for the referee's engines: ``import referee.interop.openspiel``.

Importing this module registers ``referee_<game>`` (the game's name with ``-`` read
as ``_``) for every game that has an ``interop`` module, with
``pyspiel.register_game`` (``pip install -e '.[interop]'``).  Load one with
``pyspiel.load_game("referee_<game>", {"players": 4})``.

* **Parameters:** ``players`` (the game's seat range, default 4 where allowed),
  ``max_plies`` (0, the default: play to the end; else the game is cut after that
  many plies, chance events and moves alike, and scored as the referee's
  ``--max-plies`` does, by the engine's scores and ranks of the unfinished position)
  and every game option under its own name and type; an option whose default is
  ``None`` (a map seed) takes ``-1`` for ``None``.
* **Chance:** explicit chance nodes carrying the engine's outcomes, each event dealt a
  piece at a time with the engine's probabilities (:mod:`referee.interop.chance`).
* **Actions:** :mod:`referee.interop.encoding` (an id table, or a legal index for
  a game whose actions name places of a generated map); ``action_to_string`` shows
  the engine action as JSON.
* **Information:** ``observation_string(p)`` is the JSON of seat ``p``'s protocol view,
  ``observation_tensor(p)`` its hashed encoding
  (:func:`referee.interop.encoding.view_tensor`), ``information_state_string(p)`` the
  JSON of ``[p, events, view]`` where ``events`` are the protocol events seat ``p``
  has been told (redacted as the referee redacts them).  Nothing else enters them.
* ``resample_from_infostate(p, sampler)`` builds a state from the engine's
  ``determinize`` of ``p``'s view, seeded from ``sampler``; ``p``'s events carry over,
  the other seats' are unknown and start empty.
* ``returns()``: at the end, ``score + 0.001 * (seats - rank)`` per seat (the engine's
  scores, nudged so that a game tie-break the scores do not show still orders the
  returns as the referee's ranks do); 0 before the end.
"""

from __future__ import annotations

import functools
import inspect
import random
from typing import Any, Final

import msgspec
import numpy as np
import pyspiel

from referee.api.engine import CHANCE, TERMINAL, Game, Options, State
from referee.games import all_games
from referee.interop.chance import ChanceModel, chance_model
from referee.interop.encoding import (
    ActionCodec,
    action_codec,
    action_label,
    tensor_size,
    view_tensor,
    view_text,
)
from referee.interop.episode import Episode

MAX_GAME_LENGTH: Final = 1_000_000
"""Bound given to OpenSpiel of the nodes of one game (moves and chance pieces)."""

MIN_UTILITY: Final = -10_000.0
MAX_UTILITY: Final = 10_000.0
"""Bounds given to OpenSpiel of ``returns()`` (game units)."""

TIE_NUDGE: Final = 0.001
"""Per rank step added to the scores in ``returns()`` (see the module docstring)."""

BINDING_PARAMS: Final = ("players", "max_plies")
"""Parameters of the binding, not of the game's options."""

NONE_PARAM: Final = -1
"""The parameter value that stands for an option's ``None``."""


def short_name(game: Game) -> str:
    """The OpenSpiel name of ``game``: ``referee_`` + its name with ``_`` for ``-``."""
    return "referee_" + game.name.replace("-", "_")


def _option_defaults(game: Game) -> dict[str, Any]:
    """Each option's default as an OpenSpiel parameter (``None`` -> :data:`NONE_PARAM`)."""
    defaults = msgspec.to_builtins(game.options_type())
    return {k: NONE_PARAM if v is None else v for k, v in defaults.items()}


def options_from_params(game: Game, params: dict[str, Any]) -> Options:
    """The engine options of OpenSpiel ``params`` (``players`` ignored); raises
    :class:`referee.api.engine.OptionError` for a bad value."""
    none_default = {k for k, v in msgspec.to_builtins(game.options_type()).items() if v is None}
    raw = {
        k: (None if k in none_default and v == NONE_PARAM else v)
        for k, v in params.items()
        if k not in BINDING_PARAMS
    }
    options: Options = game.parse_options(raw)
    return options


def determinize(game: Game, view: Any, rng: random.Random, options: Options) -> State:
    """``game.determinize(view, rng)``, given ``options`` where the game takes them
    (a game whose determinization takes them would otherwise assume the defaults)."""
    if "options" in inspect.signature(game.determinize).parameters:
        state: State = game.determinize(view, rng, options=options)  # type: ignore[call-arg]
        return state
    return game.determinize(view, rng)


def _game_type(game: Game) -> Any:
    spec: dict[str, Any] = {
        "players": min(max(4, game.min_seats), game.max_seats),
        "max_plies": 0,
    }
    spec.update(_option_defaults(game))
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"referee {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_seats,
        min_num_players=game.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class RefereeGame(pyspiel.Game):
    """One referee game at one seat count and option set, as an OpenSpiel game."""

    engine: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.engine
        merged = dict(_game_type(game).parameter_specification)
        merged.update(params or {})
        seats = int(merged["players"])
        game.check_seats(seats)
        options_from_params(game, merged)  # raises OptionError before OpenSpiel sees it
        info = pyspiel.GameInfo(
            num_distinct_actions=action_codec(game).num_actions,
            max_chance_outcomes=chance_model(game).max_outcomes,
            num_players=seats,
            min_utility=MIN_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(game), info, params or {})

    # Derived from the parameters on first use (a game unpickled by OpenSpiel is rebuilt
    # without running ``__init__``).

    @functools.cached_property
    def seats(self) -> int:
        """The seat count (parameter ``players``)."""
        return int(self.get_parameters()["players"])

    @functools.cached_property
    def max_plies(self) -> int:
        """Parameter ``max_plies``: plies after which the game is cut (0: never)."""
        return int(self.get_parameters()["max_plies"])

    @functools.cached_property
    def options(self) -> Options:
        """The engine options of the parameters."""
        return options_from_params(self.engine, dict(self.get_parameters()))

    @functools.cached_property
    def codec(self) -> ActionCodec:
        """The game's action ids."""
        return action_codec(self.engine)

    @functools.cached_property
    def chance(self) -> ChanceModel:
        """The game's chance decomposition."""
        return chance_model(self.engine)

    @functools.cached_property
    def tensor_size(self) -> int:
        """Entries of the observation tensor."""
        return tensor_size(self.engine)

    def new_initial_state(self) -> RefereeState:
        """The start of a game (usually at its setup chance node)."""
        return RefereeState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RefereeObserver:
        """An observer: perfect recall gives the information state, else the view."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RefereeObserver(self, recall)


class _Shared:
    """What the copies of a state share (not deep-copied when OpenSpiel clones)."""

    def __init__(self, game: RefereeGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class RefereeState(pyspiel.State):
    """An OpenSpiel state around an :class:`~referee.interop.episode.Episode`."""

    def __init__(self, game: RefereeGame, episode: Episode | None = None) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self.episode = episode or Episode(game.engine, game.seats, game.options)
        self.partial: list[int] = []
        self._settle()

    # -- helpers ---------------------------------------------------------------------

    @property
    def _game(self) -> RefereeGame:
        return self._shared.game

    def _cut(self) -> bool:
        """True when ``max_plies`` cuts the game here (never inside a chance event)."""
        limit = self._game.max_plies
        return bool(limit) and self.episode.ply >= limit and not self.partial

    def _settle(self) -> None:
        """Apply chance events that have nothing left to draw (complete or empty)."""
        ep = self.episode
        while (
            not self._cut()
            and ep.state.to_move() == CHANCE
            and not self._game.chance.outcomes(ep.state, self.partial)
        ):
            outcome = self._game.chance.assemble(ep.state, self.partial)
            self.partial = []
            ep.chance(outcome)

    # -- the OpenSpiel API -----------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, ``PlayerId.CHANCE`` or ``PlayerId.TERMINAL``."""
        who = self.episode.state.to_move()
        if who == TERMINAL or self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        if who == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(who)

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.codec.legal_ids(self.episode.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance piece's ``(id, probability)`` pairs."""
        return self._game.chance.outcomes(self.episode.state, self.partial)

    def _apply_action(self, action: int) -> None:
        ep = self.episode
        if ep.state.to_move() == CHANCE:
            if action not in dict(self.chance_outcomes()):
                raise ValueError(f"chance outcome {action} is not possible here")
            self.partial.append(int(action))
        else:
            ep.move(self._game.codec.decode(ep.state, int(action)))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.episode.state
        if player == pyspiel.PlayerId.CHANCE or state.to_move() == CHANCE:
            return self._game.chance.label(state, self.partial, int(action))
        try:
            return action_label(self._game.codec.decode(state, int(action)))
        except ValueError:
            return f"action:{action}"

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.episode.state.is_terminal() or self._cut()

    def returns(self) -> list[float]:
        """``score + 0.001 * (seats - rank)`` per seat at the end, else zeros."""
        state = self.episode.state
        n = self._game.seats
        if not self.is_terminal():
            return [0.0] * n
        ranks = state.ranks()
        return [float(s) + TIE_NUDGE * (n - r) for s, r in zip(state.scores(), ranks, strict=True)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RefereeState:
        """A state with ``player_id``'s view and events, the rest from the engine's
        ``determinize`` seeded by three draws of ``probability_sampler``."""
        seed = 0
        for _ in range(3):
            seed = (seed << 21) ^ int(float(probability_sampler()) * (1 << 21))
        engine = self._game.engine
        view = self.episode.state.view(player_id)
        full = determinize(engine, view, random.Random(seed), self._game.options)
        episode = Episode(engine, self._game.seats, self._game.options, state=full)
        episode.ply = self.episode.ply
        episode.events[player_id] = list(self.episode.events[player_id])
        episode.encoded[player_id] = list(self.episode.encoded[player_id])
        return RefereeState(self._game, episode)

    def __str__(self) -> str:
        state = self.episode.state
        return msgspec.json.encode(
            {"ply": self.episode.ply, "to_move": state.to_move(), "partial": self.partial}
        ).decode()


class RefereeObserver:
    """OpenSpiel's observer of one game: the view (tensor and string) or, with perfect
    recall, the information state string (its tensor is empty)."""

    def __init__(self, game: RefereeGame, perfect_recall: bool) -> None:
        self.game = game
        self.recall = perfect_recall
        size = 0 if perfect_recall else game.tensor_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: RefereeState, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s view of ``state``."""
        if not self.recall:
            view_tensor(state.episode.state.view(player), self.game.tensor_size, out=self.tensor)

    def string_from(self, state: RefereeState, player: int) -> str:
        """``player``'s view as JSON, or ``[player, events, view]`` with perfect recall."""
        if not self.recall:
            return view_text(state.episode.state.view(player))
        return state.episode.information(player)


def _register() -> dict[str, type[RefereeGame]]:
    classes: dict[str, type[RefereeGame]] = {}
    registered = set(pyspiel.registered_names())
    for game in all_games().values():
        name = short_name(game)
        cls_name = "".join(part.title() for part in name.split("_")) + "Game"
        cls = type(cls_name, (RefereeGame,), {"engine": game, "__module__": __name__})
        globals()[cls_name] = cls  # module-level, so that pickle finds it
        classes[name] = cls
        if name not in registered:
            pyspiel.register_game(_game_type(game), cls)
    return classes


GAMES: Final = _register()
"""The registered game classes by OpenSpiel name."""
