"""One game played through a binding: the engine state, what each seat has seen, and
the plies so far as record lines.

Both bindings keep an :class:`Episode`.  Every ply goes through :meth:`Episode.chance`
or :meth:`Episode.move`, which queue each seat's protocol events exactly as the
referee does in a match (``observe_chance`` / ``observe_action`` before the ply is
applied, ``{"ply", "chance"}`` and ``{"ply", "seat", "action"}`` objects, plies
counting chance outcomes and moves alike), so a seat's information state here is
what a bot of that seat is told, no more.  :meth:`Episode.write_record` writes the
plies as a game record (``referee-record/1``) that ``referee replay`` checks and
``referee view`` draws.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import msgspec

from referee import __version__
from referee.api.engine import Game, State
from referee.api.rng import KEYED, LEGACY
from referee.match.record import (
    FORMAT,
    ChanceLine,
    Header,
    MoveLine,
    RecordWriter,
    ResultLine,
    SeatInfo,
)


class Episode:
    """A game in progress: ``state`` (engine), ``ply``, ``events`` (per seat, the
    protocol events seen so far) and ``lines`` (chance and move record lines)."""

    def __init__(self, game: Game, seats: int, options: Any, state: State | None = None) -> None:
        self.game = game
        self.seats = seats
        self.options = options
        self.state: State = state if state is not None else game.new_game(seats, options)
        self.ply = 0
        self.events: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self.encoded: list[list[bytes]] = [[] for _ in range(seats)]
        """``events`` as JSON, one encoding per event (for information state strings)."""
        self.lines: list[ChanceLine | MoveLine] = []

    def chance(self, outcome: Any) -> None:
        """Apply a chance outcome (engine JSON value); raises ``InvalidChance``."""
        state = self.state
        seen = [state.observe_chance(outcome, v) for v in range(self.seats)]
        state.apply_chance(outcome)
        for viewer, obs in enumerate(seen):
            if obs is not None:
                self._tell(viewer, {"ply": self.ply, "chance": _plain(obs)})
        self.lines.append(ChanceLine(ply=self.ply, outcome=_plain(outcome)))
        self.ply += 1

    def move(self, action: Any) -> None:
        """Apply the seat to move's ``action``; raises ``IllegalAction``."""
        state = self.state
        seat = state.to_move()
        seen = [state.observe_action(seat, action, v) for v in range(self.seats)]
        state.apply_action(action)
        for viewer, obs in enumerate(seen):
            if obs is not None:
                self._tell(viewer, {"ply": self.ply, "seat": seat, "action": _plain(obs)})
        self.lines.append(MoveLine(ply=self.ply, seat=seat, action=action, ms=0.0))
        self.ply += 1

    def _tell(self, viewer: int, event: dict[str, Any]) -> None:
        self.events[viewer].append(event)
        self.encoded[viewer].append(msgspec.json.encode(event))

    def information(self, seat: int) -> str:
        """``seat``'s information state as JSON: ``[seat, events, view]``."""
        view = msgspec.json.encode(self.state.view(seat))
        events = b",".join(self.encoded[seat])
        return (b"[%d,[%b],%b]" % (seat, events, view)).decode()

    def clone(self) -> Episode:
        """An independent copy (the engine state through its own ``clone``)."""
        other = copy.copy(self)
        other.state = self.state.clone()
        other.events = [list(e) for e in self.events]
        other.encoded = [list(e) for e in self.encoded]
        other.lines = list(self.lines)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        return self.clone()

    def header(self, seed: int | None, names: list[str] | None = None) -> Header:
        """The record header: keyed chance when ``seed`` is given (the generator of
        :func:`referee.api.rng.match_rng`), else the outcomes stand as recorded."""
        who = names or [f"player_{s}" for s in range(self.seats)]
        return Header(
            format=FORMAT,
            game=self.game.name,
            options=self.game.options_dict(self.options),
            seats=[SeatInfo(n, "interop") for n in who],
            referee=__version__,
            match="interop",
            chance=KEYED if seed is not None else LEGACY,
        )

    def write_record(
        self, path: str | os.PathLike[str], seed: int | None = None, names: list[str] | None = None
    ) -> Path:
        """Write the plies so far as a record at ``path``; a finished game gets its
        result line (and ``path`` is returned), an unfinished one stays at
        ``path + ".part"`` (returned).  ``seed`` goes into the result line, so that
        ``referee replay`` re-draws the chance outcomes from it; without it, replay
        needs ``--unchecked-chance``."""
        writer = RecordWriter(path, fsync=False)
        try:
            writer.write(self.header(seed, names))
            for line in self.lines:
                writer.write(line)
            if self.state.is_terminal():
                scores = [float(x) for x in self.state.scores()]
                return writer.finish(
                    ResultLine(
                        scores=scores,
                        ranks=self.state.ranks(),
                        verdicts=["ok"] * self.seats,
                        seed=seed,
                    )
                )
        finally:
            writer.close()
        return writer.partial


def _plain(value: Any) -> Any:
    """JSON builtins of an outcome or redacted action (Structs to dicts)."""
    return msgspec.to_builtins(value)
