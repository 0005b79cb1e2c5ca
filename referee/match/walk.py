"""The one record walker: a record's lines through its engine, and what each seat saw.

Three readers go through a record ply by ply: :func:`referee.match.replay.replay` (the
verification), the viewer's timeline (:mod:`referee.viewer.timeline`) and, while the
record is being written, the match itself (its event queue of what each seat may
learn).  Hidden information is safe only if all three agree on what a seat saw, so
they share this module: :func:`observe` is the one definition of a seat's observation
of a ply, and :func:`walk` is the one loop over a record's lines.

:func:`walk` yields a :class:`Step` for every line after the header, holding the state
*before* that line, and applies the line's chance outcome or move when the caller asks
for the next step.  With ``check`` it first checks what every reader needs: the ply
numbers follow on, the right seat (or chance) is on move, the move is a legal action
of this game, the chance outcome is possible, and no line comes past the ply limit;
the first divergence raises :class:`referee.match.record.RecordError` subclass
:class:`WalkError` naming the file, line and ply.  What only verification checks (the
seed's draws, the fault lines, the result) is :mod:`referee.match.replay`'s.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from referee.api.engine import CHANCE, TERMINAL, Game, GameError, State
from referee.games import UnknownGame
from referee.match.record import (
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordError,
    RecordLine,
    ResultLine,
)


class WalkError(RecordError):
    """A record line diverges from the rules: the message names file, line and ply."""


def observe(
    state: State,
    seats: int,
    *,
    seat: int | None = None,
    action: Any = None,
    chance: Any = None,
) -> list[Any | None]:
    """What each of ``seats`` seats learns of one ply, played from ``state`` (the
    state before it): ``chance`` (the outcome, with ``seat`` ``None``) or ``action``
    by ``seat``.  Entry ``k`` is seat ``k``'s observation (``None``: it learns
    nothing), as :meth:`State.observe_chance` / :meth:`State.observe_action` give it;
    the protocol's ``events`` and the viewer's seat pages are built from these."""
    if seat is None:
        return [state.observe_chance(chance, viewer) for viewer in range(seats)]
    return [state.observe_action(seat, action, viewer) for viewer in range(seats)]


def event(ply: int, seen: Any, seat: int | None = None) -> dict[str, Any]:
    """One entry of the protocol's ``events``: ``{"ply", "chance"}`` for a chance
    outcome, ``{"ply", "seat", "action"}`` for a move."""
    if seat is None:
        return {"ply": ply, "chance": seen}
    return {"ply": ply, "seat": seat, "action": seen}


@dataclass
class Step:
    """One record line after the header, met with the state before it.

    ``number`` is the line's number in the file (the header is line 1); ``ply`` the
    plies played before it; ``state`` the live state *before* the line (it is changed
    in place once the walk goes on: copy what must outlive the step); ``action`` the
    decoded action of a move line; ``seen[k]`` what seat ``k`` learns of a chance or
    move line (empty for fault and result lines).  ``then``, if the caller sets it,
    is called once the line has been applied (for a check that must wait for the
    engine's own verdict on the line)."""

    number: int
    line: RecordLine
    ply: int
    state: State
    action: Any = None
    seen: list[Any | None] | None = None
    legal: list[Any] | None = None
    """The legal actions of a checked move line (``None`` unchecked or not a move)."""
    then: Callable[[], None] | None = None


def _enc(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()


def start(
    path: str | os.PathLike[str], header: RecordLine, lookup: Callable[[str], Game]
) -> tuple[Header, Game, State]:
    """The header, game and fresh state of a record whose first line is ``header``.
    Raises :class:`WalkError` (line 1) for a first line that is not a header, an
    unknown game, or options or a seat count the game refuses."""
    if not isinstance(header, Header):
        raise WalkError(f"{path}: line 1: expected a header line first")
    try:
        game = lookup(header.game)
        state = game.new_game(len(header.seats), game.parse_options(header.options))
    except (UnknownGame, GameError) as exc:
        raise WalkError(f"{path}: line 1: {exc}") from None
    return header, game, state


def walk(
    path: str | os.PathLike[str],
    header: Header,
    game: Game,
    state: State,
    lines: Iterable[tuple[int, RecordLine]],
    *,
    check: bool = True,
) -> Iterator[Step]:
    """Walk ``lines`` (numbered record lines after ``header``) from ``state``, which
    is changed in place; see the module docstring for what ``check`` checks.

    Lines after the result line are yielded as they are (not checked, not applied),
    for the caller to refuse.  Raises :class:`WalkError` at the first line that
    diverges (with ``check``), and always for a chance outcome the engine refuses.
    """
    seats = len(header.seats)
    ply = 0
    over = False
    for number, line in lines:
        if over:
            yield Step(number, line, ply, state)
            continue

        def fail(what: str, number: int = number, ply: int = ply) -> WalkError:
            return WalkError(f"{path}: line {number} (ply {ply}): {what}")

        if isinstance(line, Header):
            if check:
                raise fail("a second header")
            continue
        if isinstance(line, (FaultLine, ResultLine)):
            over = isinstance(line, ResultLine)
            yield Step(number, line, ply, state)
            continue
        legal: list[Any] | None = None
        if check:
            action, legal = _check(fail, game, state, header, line, ply)
        else:
            action = None if isinstance(line, ChanceLine) else game.decode_action(line.action)
        if isinstance(line, ChanceLine):
            seen = observe(state, seats, chance=line.outcome)
        else:
            seen = observe(state, seats, seat=line.seat, action=action)
        step = Step(number, line, ply, state, action, seen, legal)
        yield step
        if isinstance(line, ChanceLine):
            try:
                state.apply_chance(line.outcome)
            except GameError as exc:
                raise fail(f"impossible chance outcome {_enc(line.outcome)}: {exc}") from None
        else:
            state.apply_action(step.action)
        if step.then is not None:
            step.then()
        ply += 1


def _check(
    fail: Callable[[str], WalkError],
    game: Game,
    state: State,
    header: Header,
    line: ChanceLine | MoveLine,
    ply: int,
) -> tuple[Any, list[Any] | None]:
    """The decoded action and the legal actions of a move line (``None, None`` for a
    chance line) that passes the walk's checks (see :func:`walk`); raises the
    :class:`WalkError` of the first that fails."""
    if line.ply != ply:
        raise fail(f"expected ply {ply}, found {line.ply}")
    if header.max_plies and ply >= header.max_plies:
        raise fail(f"a ply beyond the limit of {header.max_plies}")
    to_move = state.to_move()
    if isinstance(line, ChanceLine):
        if to_move != CHANCE:
            raise fail(f"expected a move by seat {to_move}, found a chance outcome")
        return None, None
    if to_move == CHANCE:
        raise fail(f"expected a chance outcome, found a move by seat {line.seat}")
    if to_move == TERMINAL:
        raise fail("the game is already over")
    if line.seat != to_move:
        raise fail(f"expected a move by seat {to_move}, found seat {line.seat}")
    legal = state.legal_actions()
    try:
        action = game.decode_action(line.action)
    except GameError as exc:
        raise fail(str(exc)) from None
    if action not in legal:
        raise fail(f"action {_enc(line.action)} is not legal here")
    return action, legal
