"""Re-apply a game record through the rules engine and check every line.

:func:`replay` walks a record, applying each chance outcome and move to a fresh
state, and raises :class:`ReplayError` naming the line and ply at the first
divergence: a move by the wrong seat, an action that is not legal, an impossible
chance outcome, a missing or extra line, or a result that does not follow from
the game and the faults.  It can also yield, for one seat, exactly what that seat
was shown (view, legal actions, events), or the full state at a ply.

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

from referee.api.engine import CHANCE, TERMINAL, Game, GameError, State
from referee.api.rng import match_rng
from referee.games import UnknownGame, get_game
from referee.match.match import adjudicated_ranks, final_ranks
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


class ReplayError(RecordError):
    """The record diverges from the rules: the message names line, ply, expected, found."""


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
    result_number, result_line = found
    seed = result_line.seed
    if seed is None and not unchecked_chance:
        raise ReplayError(
            f"{path}: line {result_number} (result): no seed, so chance outcomes and fallback "
            "moves cannot be checked (replay with --unchecked-chance to accept that)"
        )
    # A draw that does not follow names both places an edit could be: its own line
    # and the line holding the seed (an edited seed breaks the first draw, not itself).
    seed_of = f"seed {seed} (line {result_number}, the result)"
    lines = iter(numbered)
    number, first = next(lines)
    if not isinstance(first, Header):
        raise ReplayError(f"{path}: line {number}: expected a header line first")
    # The header names the generator (referee.api.rng): keyed for new records, legacy before.
    chance_rng = match_rng(seed, "chance", first.chance) if seed is not None else None
    fallback_rng = match_rng(seed, "fallback", first.chance) if seed is not None else None
    if first.format != FORMAT:
        raise ReplayError(f"{path}: line {number}: unknown format {first.format!r}")
    try:
        game = lookup(first.game)
        options = game.parse_options(first.options)
        state = game.new_game(len(first.seats), options)
    except (UnknownGame, GameError) as exc:
        raise ReplayError(f"{path}: line {number}: {exc}") from None

    seats = len(first.seats)
    faults: list[int | None] = [None] * seats
    verdicts: list[str] = ["ok"] * seats
    events: list[list[Any]] = [[] for _ in range(seats)]
    shown: list[SeatShown] = []
    ply = 0
    state_at: Any = None
    result: ResultLine | None = None
    result_number = 0

    def fail(n: int, what: str) -> ReplayError:
        return ReplayError(f"{path}: line {n} (ply {ply}): {what}")

    for number, line in lines:
        if result is not None:
            raise fail(number, "line after the result")
        if at_ply is not None and ply == at_ply and state_at is None:
            state_at = msgspec.json.decode(msgspec.json.encode(state.debug()))
        if isinstance(line, FaultLine):
            if not 0 <= line.seat < seats:
                raise fail(number, f"fault for seat {line.seat} of {seats}")
            if faults[line.seat] is not None:
                raise fail(number, f"second fault for seat {line.seat}")
            if line.ply != ply:
                raise fail(number, f"expected ply {ply}, found {line.ply}")
            faults[line.seat] = ply
            verdicts[line.seat] = line.verdict
            continue
        if isinstance(line, ResultLine):
            result, result_number = line, number
            continue
        if isinstance(line, Header):
            raise fail(number, "a second header")
        if line.ply != ply:
            raise fail(number, f"expected ply {ply}, found {line.ply}")
        if first.max_plies and ply >= first.max_plies:
            raise fail(number, f"a ply beyond the limit of {first.max_plies}")
        to_move = state.to_move()
        if isinstance(line, ChanceLine):
            if to_move != CHANCE:
                raise fail(number, f"expected a move by seat {to_move}, found a chance outcome")
            outcome = line.outcome
            expected: Any = None
            if chance_rng is not None:
                try:
                    expected = _as_json(state.sample_chance(chance_rng))
                except GameError as exc:
                    raise fail(number, f"cannot draw a chance outcome: {exc}") from None
            for viewer in range(seats):
                seen = state.observe_chance(outcome, viewer)
                if seen is not None:
                    events[viewer].append({"ply": ply, "chance": seen})
            try:
                state.apply_chance(outcome)
            except GameError as exc:
                raise fail(number, f"impossible chance outcome {_enc(outcome)}: {exc}") from None
            if chance_rng is not None and expected != outcome:
                raise fail(
                    number,
                    f"chance outcome {_enc(outcome)} does not follow from {seed_of}: "
                    f"expected {_enc(expected)}; this line or the seed was changed",
                )
        elif isinstance(line, MoveLine):
            if to_move == CHANCE:
                raise fail(number, f"expected a chance outcome, found a move by seat {line.seat}")
            if to_move == TERMINAL:
                raise fail(number, "the game is already over")
            if line.seat != to_move:
                raise fail(number, f"expected a move by seat {to_move}, found seat {line.seat}")
            legal = state.legal_actions()
            if seat is not None and line.seat == seat:
                shown.append(SeatShown(ply, state.view(seat), legal, events[seat]))
                events[seat] = []
            try:
                action = game.decode_action(line.action)
            except GameError as exc:
                raise fail(number, str(exc)) from None
            if action not in legal:
                raise fail(number, f"action {_enc(line.action)} is not legal here")
            faulted = faults[line.seat]
            if line.fallback:
                if faulted is None:
                    raise fail(
                        number,
                        f"a fallback move for seat {line.seat}, which has no fault "
                        "(a fault line is missing)",
                    )
                if line.ms != 0:
                    raise fail(number, f"a fallback move with {line.ms} ms (expected 0)")
                if fallback_rng is not None:
                    drawn = legal[fallback_rng.randrange(len(legal))]
                    if drawn != action:
                        raise fail(
                            number,
                            f"fallback move {_enc(line.action)} does not follow from "
                            f"{seed_of}: expected {_enc(drawn)}; this line or the seed was "
                            "changed",
                        )
            elif faulted is not None:
                raise fail(
                    number,
                    f"a move by seat {line.seat} not marked fallback, but that seat "
                    f"faulted at ply {faulted}",
                )
            for viewer in range(seats):
                seen = state.observe_action(line.seat, action, viewer)
                if seen is not None:
                    events[viewer].append({"ply": ply, "seat": line.seat, "action": seen})
            state.apply_action(action)
        ply += 1

    if result is None:
        raise RecordError(f"{path}: no result line (the match did not finish)")
    where = f"{path}: line {result_number} (result)"
    if state.is_terminal():
        if result.reason != "finished":
            raise ReplayError(f"{where}: the game is over, found reason {result.reason!r}")
        engine_ranks = state.ranks()
    else:
        if result.reason != "ply_limit" or not first.max_plies or ply != first.max_plies:
            raise ReplayError(f"{where}: the result comes before the game is over (ply {ply})")
        engine_ranks = adjudicated_ranks(state, first.adjudication)
    if at_ply is not None and state_at is None and at_ply == ply:
        state_at = msgspec.json.decode(msgspec.json.encode(state.debug()))
    scores = [float(x) for x in state.scores()]
    ranks = final_ranks(engine_ranks, faults)
    if result.scores != scores:
        raise ReplayError(f"{where}: expected scores {scores}, found {result.scores}")
    if result.ranks != ranks:
        raise ReplayError(f"{where}: expected ranks {ranks}, found {result.ranks}")
    if list(result.verdicts) != verdicts:
        raise ReplayError(f"{where}: expected verdicts {verdicts}, found {result.verdicts}")
    return ReplayResult(first, state, result, ply, shown, state_at, seed is not None)
