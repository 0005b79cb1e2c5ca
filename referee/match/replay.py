"""Re-apply a game record through the rules engine and check every line.

:func:`replay` walks a record (:mod:`referee.match.walk`, the walker the viewer and
the match share), applying each chance outcome and move to a fresh state, and raises
:class:`ReplayError` naming the line and ply at the first divergence: a move by the
wrong seat, an action that is not legal, an impossible chance outcome, a missing or
extra line, or a result that does not follow from the game and the faults.  It can
also yield, for one seat, exactly what that seat was shown (view, legal actions,
events), or the full state at a ply.

Seed check: the referee draws every chance outcome and every fallback move from
RNGs derived from the match seed (see :mod:`referee.match.match`), and the result line
carries that seed.  Replay re-draws both streams exactly as the match did and
rejects any chance outcome or fallback move that differs, a fallback move for a
seat that has not faulted (an erased fault line), and an own move by a seat that
has faulted.  What it cannot see alone: a seed changed together with every chance
outcome and fallback it drives (only the run directory's secret binds a tournament
seed, see ``referee results --check``), the names and commands in the header, and
which verdict a fault really had.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from referee.api.engine import Game, GameError, State
from referee.api.rng import match_rng
from referee.games import get_game
from referee.match.ranks import adjudicated_ranks, final_ranks
from referee.match.record import (
    FORMAT,
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordError,
    ResultLine,
    iter_record,
)
from referee.match.walk import Step, WalkError, event, start, walk

ReplayError = WalkError
"""The record diverges from the rules: the message names line, ply, expected, found
(the walker's error: :class:`referee.match.walk.WalkError`)."""


@dataclass
class SeatShown:
    """One decision as a seat saw it: ply, view, legal actions and pending events."""

    ply: int
    view: Any
    legal: list[Any]
    events: list[Any]


@dataclass
class ReplayResult:
    """A verified replay: header, final state, result line, plies, and what was asked."""

    header: Header
    state: State
    result: ResultLine
    plies: int
    shown: list[SeatShown] = field(default_factory=list)
    state_at: Any = None
    chance_checked: bool = True


def _enc(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()


def _as_json(obj: Any) -> Any:
    """``obj`` as it reads back from a record line (lists, dicts, numbers, strings)."""
    return msgspec.json.decode(msgspec.json.encode(obj))


def replay(
    path: str | os.PathLike[str],
    *,
    seat: int | None = None,
    at_ply: int | None = None,
    lookup: Callable[[str], Game] = get_game,
    unchecked_chance: bool = False,
) -> ReplayResult:
    """Verify the record at ``path``; optionally collect what ``seat`` was shown.

    ``at_ply`` captures ``state.debug()`` before the line of that ply is applied
    (``at_ply`` = number of plies gives the final state).  Chance outcomes and
    fallback moves are checked against the seed in the result line; a record
    without a seed is an error unless ``unchecked_chance`` (then they are taken as
    written and :attr:`ReplayResult.chance_checked` is false; a seed that is there is
    always checked).  Raises :class:`RecordError`/:class:`ReplayError` with the line
    number.
    """
    numbered = list(iter_record(path))
    if not numbered:
        raise RecordError(f"{path}: empty record")
    found = next(((n, x) for n, x in numbered if isinstance(x, ResultLine)), None)
    if found is None:
        raise RecordError(f"{path}: no result line (the match did not finish)")
    checker = Checker(path, numbered, found, seat, at_ply, lookup, unchecked_chance)
    return checker.run(numbered[1:])


class Checker:
    """One verification of a record: the walk's own checks (:func:`walk`), then one
    method per line kind for what only verification checks (the seed's draws, the
    fault lines, the fallbacks, the result)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        numbered: list[tuple[int, Any]],
        found: tuple[int, ResultLine],
        seat: int | None,
        at_ply: int | None,
        lookup: Callable[[str], Game],
        unchecked_chance: bool,
    ) -> None:
        self.path = path
        self.seat = seat
        self.at_ply = at_ply
        result_number, result_line = found
        self.seed = result_line.seed
        if self.seed is None and not unchecked_chance:
            raise ReplayError(
                f"{path}: line {result_number} (result): no seed, so chance outcomes and "
                "fallback moves cannot be checked (replay with --unchecked-chance to accept that)"
            )
        # A draw that does not follow names both places an edit could be: its own line
        # and the line holding the seed (an edited seed breaks the first draw, not itself).
        self.seed_of = f"seed {self.seed} (line {result_number}, the result)"
        number, first = numbered[0]
        if not isinstance(first, Header):
            raise ReplayError(f"{path}: line {number}: expected a header line first")
        if first.format != FORMAT:
            raise ReplayError(f"{path}: line {number}: unknown format {first.format!r}")
        self.header, self.game, self.state = start(path, first, lookup)
        # The header names the generator (referee.api.rng): keyed for new records, legacy before.
        seed = self.seed
        self.chance_rng = match_rng(seed, "chance", first.chance) if seed is not None else None
        self.fallback_rng = match_rng(seed, "fallback", first.chance) if seed is not None else None
        seats = len(first.seats)
        self.faults: list[int | None] = [None] * seats
        self.verdicts: list[str] = ["ok"] * seats
        self.events: list[list[Any]] = [[] for _ in range(seats)]
        self.shown: list[SeatShown] = []
        self.state_at: Any = None
        self.result: ResultLine | None = None
        self.result_number = 0

    def fail(self, step: Step, what: str) -> ReplayError:
        return ReplayError(f"{self.path}: line {step.number} (ply {step.ply}): {what}")

    def run(self, lines: list[tuple[int, Any]]) -> ReplayResult:
        """Walk ``lines`` (those after the header) and check the result."""
        plies = 0
        for step in walk(self.path, self.header, self.game, self.state, lines):
            if self.result is not None:
                raise self.fail(step, "line after the result")
            if self.at_ply is not None and step.ply == self.at_ply and self.state_at is None:
                self.state_at = _as_json(self.state.debug())
            if isinstance(step.line, FaultLine):
                self.fault(step, step.line)
            elif isinstance(step.line, ResultLine):
                self.result, self.result_number = step.line, step.number
                plies = step.ply
            elif isinstance(step.line, ChanceLine):
                self.chance(step, step.line)
            elif isinstance(step.line, MoveLine):
                self.move(step, step.line)
        if self.result is None:
            raise RecordError(f"{self.path}: no result line (the match did not finish)")
        return self.finish(self.result, plies)

    def fault(self, step: Step, line: FaultLine) -> None:
        seats = len(self.faults)
        if not 0 <= line.seat < seats:
            raise self.fail(step, f"fault for seat {line.seat} of {seats}")
        if self.faults[line.seat] is not None:
            raise self.fail(step, f"second fault for seat {line.seat}")
        if line.ply != step.ply:
            raise self.fail(step, f"expected ply {step.ply}, found {line.ply}")
        self.faults[line.seat] = step.ply
        self.verdicts[line.seat] = line.verdict

    def chance(self, step: Step, line: ChanceLine) -> None:
        expected: Any = None
        if self.chance_rng is not None:
            try:
                expected = _as_json(self.state.sample_chance(self.chance_rng))
            except GameError as exc:
                raise self.fail(step, f"cannot draw a chance outcome: {exc}") from None
        self.queue(step)
        if self.chance_rng is None or expected == line.outcome:
            return

        def differs() -> None:  # once the engine has accepted the outcome
            raise self.fail(
                step,
                f"chance outcome {_enc(line.outcome)} does not follow from {self.seed_of}: "
                f"expected {_enc(expected)}; this line or the seed was changed",
            )

        step.then = differs

    def move(self, step: Step, line: MoveLine) -> None:
        legal = step.legal or []
        if self.seat is not None and line.seat == self.seat:
            self.shown.append(
                SeatShown(step.ply, self.state.view(self.seat), legal, self.events[self.seat])
            )
            self.events[self.seat] = []
        faulted = self.faults[line.seat]
        if line.fallback:
            if faulted is None:
                raise self.fail(
                    step,
                    f"a fallback move for seat {line.seat}, which has no fault "
                    "(a fault line is missing)",
                )
            if line.ms != 0:
                raise self.fail(step, f"a fallback move with {line.ms} ms (expected 0)")
            if self.fallback_rng is not None:
                drawn = legal[self.fallback_rng.randrange(len(legal))]
                if drawn != step.action:
                    raise self.fail(
                        step,
                        f"fallback move {_enc(line.action)} does not follow from "
                        f"{self.seed_of}: expected {_enc(drawn)}; this line or the seed was "
                        "changed",
                    )
        elif faulted is not None:
            raise self.fail(
                step,
                f"a move by seat {line.seat} not marked fallback, but that seat "
                f"faulted at ply {faulted}",
            )
        self.queue(step)

    def queue(self, step: Step) -> None:
        """Add what each seat learns of this line to its pending events."""
        seat = step.line.seat if isinstance(step.line, MoveLine) else None
        for viewer, seen in enumerate(step.seen or ()):
            if seen is not None:
                self.events[viewer].append(event(step.ply, seen, seat))

    def finish(self, result: ResultLine, ply: int) -> ReplayResult:
        """Check the result line against the game's end (or its ply limit) and faults."""
        state, first = self.state, self.header
        where = f"{self.path}: line {self.result_number} (result)"
        if state.is_terminal():
            if result.reason != "finished":
                raise ReplayError(f"{where}: the game is over, found reason {result.reason!r}")
            engine_ranks = state.ranks()
        else:
            if result.reason != "ply_limit" or not first.max_plies or ply != first.max_plies:
                raise ReplayError(f"{where}: the result comes before the game is over (ply {ply})")
            engine_ranks = adjudicated_ranks(state, first.adjudication)
        if self.at_ply is not None and self.state_at is None and self.at_ply == ply:
            self.state_at = _as_json(state.debug())
        scores = [float(x) for x in state.scores()]
        ranks = final_ranks(engine_ranks, self.faults)
        if result.scores != scores:
            raise ReplayError(f"{where}: expected scores {scores}, found {result.scores}")
        if result.ranks != ranks:
            raise ReplayError(f"{where}: expected ranks {ranks}, found {result.ranks}")
        if list(result.verdicts) != self.verdicts:
            raise ReplayError(
                f"{where}: expected verdicts {self.verdicts}, found {result.verdicts}"
            )
        return ReplayResult(
            first, state, result, ply, self.shown, self.state_at, self.seed is not None
        )
