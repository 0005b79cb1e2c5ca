"""Walk a verified record through its engine and collect, ply by ply, what the viewer
shows: a frame per perspective, the moves in words, the chart's values.

A perspective is ``None`` (omniscient: every secret, for the operator) or a seat
number (exactly what that seat was shown: its view, and the moves and chance outcomes
as :meth:`State.observe_action` / :meth:`State.observe_chance` let it see them).
Frame ``p`` is the position before ply ``p``; frame ``plies`` is the final position.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from referee.engine import Game, State
from referee.games import get_game
from referee.record import (
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordLine,
    ResultLine,
    iter_record,
)
from referee.replay import ReplayError, replay
from referee.viewer.render import GameRenderer, renderer_for


def _open(path: str | os.PathLike[str]) -> tuple[Iterator[tuple[int, RecordLine]], Header, Game]:
    """The record's lines after its header, the header and its game.  Raises
    :class:`ReplayError` when the first line is not a header."""
    lines = iter(iter_record(path))
    _, header = next(lines)
    if not isinstance(header, Header):
        raise ReplayError(f"{path}: expected a header line first")
    return lines, header, get_game(header.game)


Perspective = int | None


def key(perspective: Perspective) -> str:
    """The JSON key of a perspective: ``"omni"`` or the seat number as text."""
    return "omni" if perspective is None else str(perspective)


@dataclass
class Entry:
    """One line of the move list: ``kind`` move/chance/fault, ``seat`` (-1 for chance),
    ``text`` per perspective key (``None`` when that perspective saw nothing)."""

    ply: int
    kind: str
    seat: int
    text: dict[str, str | None]
    fallback: bool = False
    ms: float = 0.0


@dataclass
class Timeline:
    """Everything a viewer page embeds, before encoding (see the module docstring)."""

    header: Header
    result: ResultLine
    plies: int
    perspectives: list[Perspective]
    static: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)
    frames: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    progress: dict[str, list[list[float]]] = field(default_factory=dict)
    notes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """``(position, notes)`` wherever the renderer's tracker notes change."""


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


def build_timeline(
    path: str | os.PathLike[str],
    perspectives: Sequence[Perspective] | None = None,
    *,
    verify: bool = True,
) -> tuple[Timeline, GameRenderer]:
    """Replay the record at ``path`` and collect its frames for ``perspectives``
    (default: omniscient and every seat).

    The record is first verified with :func:`referee.replay.replay` (raises its
    :class:`RecordError`/:class:`ReplayError`); a game without a drawing module gets
    the generic one (frames shown as text);
    :class:`ValueError` for a seat out of range.
    """
    if verify:
        replay(path, unchecked_chance=True)
    lines, header, game = _open(path)
    try:
        renderer = renderer_for(game)
    except LookupError:  # no drawing: the page shows each frame's fields as text
        renderer = GameRenderer()
    seats = len(header.seats)
    wanted: list[Perspective] = (
        [None, *range(seats)] if perspectives is None else list(perspectives)
    )
    for p in wanted:
        if p is not None and not 0 <= p < seats:
            raise ValueError(f"seat {p} out of range: the record has {seats} seats")
    state = game.new_game(seats, game.parse_options(header.options))
    timeline = Timeline(header, ResultLine([], [], []), 0, wanted, {})
    for p in wanted:
        timeline.frames[key(p)] = []
        timeline.progress[key(p)] = []

    tracker = renderer.tracker()
    first = wanted[0] if wanted else None

    def snapshot(s: State) -> None:
        for p in wanted:
            timeline.frames[key(p)].append(renderer.frame(s, p))
            timeline.progress[key(p)].append(renderer.progress(s, p))
        if tracker is not None:
            notes = tracker.notes()
            if not timeline.notes or timeline.notes[-1][1] != notes:
                timeline.notes.append((len(timeline.frames[key(first)]) - 1, notes))

    ply = 0
    snapshot(state)
    for _, line in lines:
        if isinstance(line, ResultLine):
            timeline.result = line
            break
        if isinstance(line, FaultLine):
            text = f"fault: {line.verdict} ({line.detail})" if line.detail else "fault"
            timeline.entries.append(
                Entry(line.ply, "fault", line.seat, {key(p): text for p in wanted})
            )
            continue
        if isinstance(line, ChanceLine):
            texts: dict[str, str | None] = {}
            for p in wanted:
                seen = line.outcome if p is None else state.observe_chance(line.outcome, p)
                texts[key(p)] = None if seen is None else renderer.describe_chance(seen)
            timeline.entries.append(Entry(line.ply, "chance", -1, texts))
            state.apply_chance(line.outcome)
        elif isinstance(line, MoveLine):
            action = game.decode_action(line.action)
            texts = {}
            for p in wanted:
                seen = action if p is None else state.observe_action(line.seat, action, p)
                texts[key(p)] = None if seen is None else renderer.describe_action(_builtins(seen))
            timeline.entries.append(
                Entry(line.ply, "move", line.seat, texts, line.fallback, line.ms)
            )
            if tracker is not None:
                seen = action if first is None else state.observe_action(line.seat, action, first)
                if seen is not None:
                    tracker.observe(state, line.seat, _builtins(seen))
            state.apply_action(action)
        else:
            continue
        ply += 1
        snapshot(state)
    timeline.plies = ply
    timeline.static = renderer.static(state)
    return timeline, renderer


def frame_at(path: str | os.PathLike[str], ply: int, seat: int | None = None) -> dict[str, Any]:
    """The named frame (as the viewer draws it) before ply ``ply`` of the record at
    ``path`` (``ply`` = number of plies: the final position); omniscient if ``seat`` is
    ``None``; a game without a drawing module gives ``state.debug()``).  Raises
    :class:`ValueError` beyond the end of the game."""
    lines, header, game = _open(path)
    try:
        renderer: GameRenderer | None = renderer_for(game)
    except LookupError:
        renderer = None
    state = game.new_game(len(header.seats), game.parse_options(header.options))
    done = 0
    for _, line in lines:
        if done == ply:
            break
        if isinstance(line, ChanceLine):
            state.apply_chance(line.outcome)
        elif isinstance(line, MoveLine):
            state.apply_action(game.decode_action(line.action))
        else:
            continue
        done += 1
    if done != ply:
        raise ValueError(f"ply {ply} is beyond the end of the game ({done} plies)")
    if renderer is None:  # a game without drawing: its view, or its full debug state
        data: dict[str, Any] = msgspec.json.decode(
            msgspec.json.encode(state.debug() if seat is None else state.view(seat))
        )
        return data
    return renderer.frame(state, seat)
