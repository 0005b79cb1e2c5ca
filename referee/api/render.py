"""The one small interface between the game-agnostic viewer and each game's drawing.

Every game package may hold a ``render`` module exposing ``RENDERER``, an instance of a
:class:`GameRenderer` subclass, and a script file (``render.js`` by default) that
registers the game's drawing function with the page::

    RefereeViewer.register("<game name>", {draw(frame, ctx) { return "<svg>...</svg>"; }})

Python side: :meth:`GameRenderer.frame` turns a state into the named JSON fields the
script draws (``seat=None`` is the omniscient frame, with every secret; a seat's frame
holds exactly that seat's view), :meth:`GameRenderer.progress` gives the score chart's
values, :meth:`GameRenderer.describe_action` / :meth:`describe_chance` put moves in
words.  ``ctx`` in the script carries ``static`` (from :meth:`GameRenderer.static`),
``seats`` (names), ``colors`` and ``seat`` (the perspective, ``null`` = omniscient).
"""

from __future__ import annotations

import importlib
from importlib import resources
from typing import Any

import msgspec

from referee.api.engine import Game, State

SEAT_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#e6a700", "#9467bd", "#8c564b")
"""Seat colours used by the core page and every game's drawing (seat 0 first)."""


def words(kind: str) -> str:
    """``"buy_share"`` -> ``"buy share"``."""
    return kind.replace("_", " ")


def generic_action(action: Any) -> str:
    """An action object in words: its kind then its fields (``bid amount 14``)."""
    if not isinstance(action, dict):
        return msgspec.json.encode(action).decode()
    parts = [words(str(action.get("kind", "move")))]
    for key, value in action.items():
        if key == "kind":
            continue
        if isinstance(value, (dict, list)):
            value = msgspec.json.encode(value).decode()
        parts.append(f"{words(key)} {value}")
    return " ".join(parts)


class Tracker:
    """Remembers facts a view does not hold but the moves showed (who took which role,
    who founded which colony).  The timeline calls :meth:`observe` with each action as
    the page's first perspective saw it (so a seat's page learns nothing more), and
    stores :meth:`notes` after every ply; the page passes them to the drawing as
    ``ctx.notes``."""

    def observe(self, state: State, seat: int, action: Any) -> None:
        """``seat`` takes ``action`` (JSON builtins) in ``state`` (before it applies)."""

    def notes(self) -> dict[str, Any]:
        """The facts so far, as JSON builtins."""
        return {}


class GameRenderer:
    """Default behaviour; games subclass and override what they draw differently.

    ``script`` names the JS file in the game's package; ``progress_label`` names the
    chart's unit (e.g. ``"VP"``).
    """

    script = "render.js"
    progress_label = "score"

    def frame(self, state: State, seat: int | None) -> dict[str, Any]:
        """Named view fields: ``state.view(seat)`` as JSON builtins; ``None`` gives the
        omniscient frame (default: seat 0's view with ``seat`` set to -1, for games
        whose views hold no private information)."""
        data: dict[str, Any] = msgspec.to_builtins(state.view(0 if seat is None else seat))
        if seat is None:
            data["seat"] = -1
        return data

    def tracker(self) -> Tracker | None:
        """A fresh :class:`Tracker` for one record, or ``None`` (the default)."""
        return None

    def static(self, state: State) -> dict[str, Any]:
        """Constant public drawing data (tables, geometry), computed once per record
        from its final state."""
        return {}

    def progress(self, state: State, seat: int | None) -> list[float]:
        """One value per seat for the chart, using only what ``seat`` may know
        (default: the position's scores, public in games without private holdings)."""
        return [float(x) for x in state.scores()]

    def describe_action(self, action: Any) -> str:
        """The action (JSON builtins, possibly redacted for a seat) in words."""
        return generic_action(action)

    def describe_chance(self, outcome: Any, state: State | None = None) -> str:
        """A chance outcome (JSON, possibly redacted) in words; ``state`` is the position
        the outcome applies to (read-only; ``None`` when unknown).  The page already
        labels the line ``chance``, so the text does not repeat it."""
        return msgspec.json.encode(outcome).decode()

    def script_text(self) -> str:
        """The source of this game's drawing script (package data; empty if none)."""
        package = type(self).__module__.rpartition(".")[0]
        source = resources.files(package).joinpath(self.script)
        return source.read_text(encoding="utf-8") if source.is_file() else ""


def renderer_for(game: Game) -> GameRenderer:
    """The renderer of ``game`` (its package's ``render.RENDERER``).

    Raises :class:`LookupError` when the game has no drawing module.
    """
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.render")
    except ModuleNotFoundError as exc:
        raise LookupError(f"{game.name}: no viewer drawing ({exc})") from None
    renderer = getattr(module, "RENDERER", None)
    if not isinstance(renderer, GameRenderer):
        raise LookupError(f"{game.name}: render module has no RENDERER")
    return renderer
