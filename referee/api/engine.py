"""The rules-engine interface that every game implements.

The referee core never looks inside a game; it only talks to these two classes:

* :class:`Game` – stateless metadata and factory: name, seat counts, the msgspec
  types of actions, views and options, and :meth:`Game.new_game`.
* :class:`State` – one position of one match.  A state is at exactly one kind of
  node at a time:

  - a **decision node** – :meth:`State.to_move` returns a seat (``0 .. seats-1``);
    :meth:`State.legal_actions` lists the complete actions that seat may take and
    :meth:`State.apply_action` applies one of them;
  - a **chance node** – :meth:`State.to_move` returns :data:`CHANCE`; the outcome of
    the random event (a shuffle's order, a die, a draw) comes from outside:
    :meth:`State.sample_chance` draws one from a caller-supplied RNG in live play,
    and :meth:`State.apply_chance` applies it – whether it was sampled, read back
    from a game record, or written by hand in a test from a rulebook example;
  - a **terminal node** – :meth:`State.to_move` returns :data:`TERMINAL`;
    :meth:`State.scores` and :meth:`State.ranks` give the result.

Setup is itself chance: a fresh state from :meth:`Game.new_game` usually starts at a
chance node (deal, shuffle, random start player), so a game can be set up from
explicit outcomes.

Actions are frozen msgspec Structs, tagged on ``kind`` (subclass :class:`Action`);
views are msgspec Structs (subclass :class:`View`).  Chance outcomes are plain JSON
values (ints, strings, lists, dicts) so that records hold them verbatim.

The engine is also a library for bots that search: ``clone`` is cheap, and
:meth:`Game.determinize` builds a full state consistent with one seat's view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, cast

# msgspec through the lean import (referee.api.lean_msgspec): this module is the first
# of the referee that a bot imports, whatever order its imports are sorted in.
from referee.api.lean_msgspec import msgspec
from referee.errors import RefereeError

CHANCE: Final = -1
"""Value of :meth:`State.to_move` at a chance node."""

TERMINAL: Final = -2
"""Value of :meth:`State.to_move` once the game is over."""


class GameError(RefereeError):
    """Base class of every error a rules engine raises on purpose."""


class IllegalAction(GameError, ValueError):
    """An action that is not legal in the current state (or no decision is due)."""


class InvalidChance(GameError, ValueError):
    """A chance outcome that is not possible in the current state, or no chance node."""


class OptionError(GameError, ValueError):
    """An unknown game option, or a value of the wrong type or out of range."""


class Action(msgspec.Struct, frozen=True, tag_field="kind", forbid_unknown_fields=True):
    """Base class of every action: subclasses set ``tag="<kind>"``.

    Frozen (hashable, comparable by value) and strict: an action object with an
    unknown field does not decode.
    """


class View(msgspec.Struct, kw_only=True):
    """Base class of per-seat observations (what one seat may know)."""


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base class of a game's rule options; every field has a default."""


OptionsT = TypeVar("OptionsT", bound=Options)


def ranks_from_scores(scores: Sequence[float]) -> list[int]:
    """Competition ranks (1 = best) from scores where higher is better.

    Equal scores share a rank and the next rank skips: ``[10, 30, 30] -> [3, 1, 1]``.
    """
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def ranks_from_keys(keys: Sequence[Sequence[float]]) -> list[int]:
    """Competition ranks from per-seat sort keys compared lexicographically.

    Use this for tie-breakers: ``keys[seat] = (score, tie_break_1, ...)``, higher
    is better at every position; seats with equal keys share a rank.
    """
    tuples = [tuple(k) for k in keys]
    return [1 + sum(1 for other in tuples if other > k) for k in tuples]


class State(ABC):
    """One position of one match; mutable, cheap to :meth:`clone`.

    Subclasses must keep ``seats`` (the number of seats, an ``int``) as an attribute.
    """

    seats: int

    @abstractmethod
    def to_move(self) -> int:
        """The seat whose decision is due, or :data:`CHANCE`, or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.to_move() == TERMINAL

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """The complete legal actions of the seat to move, in a stable order.

        Never empty at a decision node (a forced move is a one-element list).
        Raises :class:`IllegalAction` when no seat is to move.
        """

    @abstractmethod
    def apply_action(self, action: Any) -> None:
        """Apply ``action`` for the seat to move.

        Raises :class:`IllegalAction` if it is not in :meth:`legal_actions`; the
        state is unchanged then.
        """

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Any:
        """Draw an outcome of the pending chance event from ``rng`` (JSON value).

        Does not change the state.  Raises :class:`InvalidChance` if not at a
        chance node.
        """

    @abstractmethod
    def apply_chance(self, outcome: Any) -> None:
        """Apply an explicit chance outcome (as produced by :meth:`sample_chance`).

        Raises :class:`InvalidChance` if the outcome is malformed or impossible;
        the state is unchanged then.
        """

    @abstractmethod
    def view(self, seat: int) -> Any:
        """The observation of ``seat``: public state plus that seat's own secrets."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Final scores by seat (game units, e.g. pesos).  Valid when terminal."""

    def ranks(self) -> list[int]:
        """Final ranks by seat, 1 = best, ties share a rank (with the game's tie-breaks)."""
        return ranks_from_scores(self.scores())

    @abstractmethod
    def clone(self) -> Self:
        """An independent deep copy."""

    def observe_action(self, seat: int, action: Any, viewer: int) -> Any | None:
        """What ``viewer`` learns when ``seat`` takes ``action`` (called before applying).

        Returns the action as ``viewer`` may see it, or ``None`` if ``viewer`` learns
        nothing.  Default: actions are public.
        """
        return action

    def observe_chance(self, outcome: Any, viewer: int) -> Any | None:
        """What ``viewer`` learns of a chance outcome (called before applying).

        Returns the (possibly redacted) outcome, or ``None``.  Default: public.
        """
        return outcome

    def debug(self) -> Any:
        """The full state as JSON-able data (all secrets included) for ``replay --at``."""
        return msgspec.to_builtins(self.__dict__ if hasattr(self, "__dict__") else repr(self))


class Game(ABC, Generic[OptionsT]):
    """A game: metadata, types, and the factory of initial states.

    Class attributes every game sets:

    * ``name`` – the command-line and protocol name, e.g. ``"my-game"``
      (``-`` in it is ``_`` in the package name: ``referee.games.my_game``);
    * ``title`` – the human name, e.g. ``"My Game"``;
    * ``min_seats`` / ``max_seats`` – inclusive seat counts;
    * ``action_type`` – the tagged union of :class:`Action` subclasses;
    * ``view_type`` – the :class:`View` subclass returned by :meth:`State.view`;
    * ``options_type`` – the :class:`Options` subclass of rule options.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    action_type: ClassVar[Any]
    view_type: ClassVar[Any]
    options_type: ClassVar[type[Options]]

    @abstractmethod
    def new_game(self, seats: int, options: OptionsT | None = None) -> State:
        """A new match for ``seats`` players (usually at its setup chance node).

        Raises :class:`OptionError` for a seat count out of range.
        """

    def parse_options(self, raw: Mapping[str, Any]) -> OptionsT:
        """Options from a mapping; string values (from ``--option k=v``) are coerced.

        Raises :class:`OptionError` naming the bad key or value.
        """
        try:
            return cast(OptionsT, msgspec.convert(dict(raw), self.options_type, strict=False))
        except msgspec.ValidationError as exc:
            raise OptionError(f"{self.name}: bad option: {exc}") from None

    def options_dict(self, options: OptionsT) -> dict[str, Any]:
        """The options as a JSON object (for ``start`` messages and records)."""
        data: dict[str, Any] = msgspec.to_builtins(options)
        return data

    def check_seats(self, seats: int) -> None:
        """Raise :class:`OptionError` unless ``min_seats <= seats <= max_seats``."""
        if not self.min_seats <= seats <= self.max_seats:
            raise OptionError(
                f"{self.name} is played by {self.min_seats}-{self.max_seats} seats, not {seats}"
            )

    def decode_action(self, obj: Any) -> Any:
        """Convert a JSON object to an action Struct.

        Raises :class:`IllegalAction` if it is not a well-formed action of this game.
        """
        try:
            return msgspec.convert(obj, self.action_type)
        except msgspec.ValidationError as exc:
            raise IllegalAction(f"not a {self.name} action: {exc}") from None

    def determinize(self, view: Any, rng: random.Random) -> State:
        """A full state consistent with ``view``, hidden information sampled from ``rng``.

        For bots that search.  Raises :class:`NotImplementedError` where a game
        does not support it.
        """
        raise NotImplementedError(f"{self.name} does not support determinize")

    def chance_schema(self) -> dict[str, Any] | None:
        """JSON Schema of this game's chance outcomes as a seat may see them: the values
        :meth:`State.sample_chance` draws and their redacted forms from
        :meth:`State.observe_chance` (chance outcomes are plain JSON, not typed).

        ``referee schema`` shows it (:func:`referee.process.wire_schema.wire_schema`), which
        raises ``NotImplementedError`` for a game that returns ``None``, the default.
        """
        return None

    def redacted_action_schemas(self) -> list[dict[str, Any]]:
        """JSON Schemas of the forms an action takes when another seat sees it
        (:meth:`State.observe_action`), one per form; empty (the default) when every
        action is public."""
        return []

    def field_docs(self) -> dict[type[Any], dict[str, str]]:
        """The meaning of fields of this game's view and action structs, one line each
        (struct -> field name -> text), shown as each field's ``description`` in
        ``referee schema``; empty by default."""
        return {}

    def schema(self) -> dict[str, Any]:
        """JSON Schema of this game's actions, views and options."""
        (actions, view, options), components = msgspec.json.schema_components(
            [self.action_type, self.view_type, self.options_type],
            ref_template="#/$defs/{name}",
        )
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"{self.title} actions, views and options",
            "properties": {"action": actions, "view": view, "options": options},
            "$defs": components,
        }
