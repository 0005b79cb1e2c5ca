"""Walk a verified record through its engine and collect, ply by ply, what the viewer
shows: a frame per perspective, the moves in words, the chart's values.

A perspective is ``None`` (omniscient: every secret, for the operator) or a seat
number (exactly what that seat was shown: its view, and the moves and chance outcomes
as :meth:`State.observe_action` / :meth:`State.observe_chance` let it see them).
Frame ``p`` is the position before ply ``p``; frame ``plies`` is the final position.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from referee.api.engine import State
from referee.api.render import GameRenderer, renderer_for
from referee.errors import BadInput
from referee.games import get_game
from referee.match.record import (
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordError,
    RecordLine,
    ResultLine,
    iter_record,
)
from referee.match.replay import replay
from referee.match.walk import Step, start, walk

_decoder = msgspec.json.Decoder(RecordLine)


class EmptyRecord(RecordError):
    """A record file without a whole line yet (a game whose first lines are still
    in its writer's buffer)."""


def read_lines(path: str | os.PathLike[str]) -> tuple[list[tuple[int, RecordLine]], bool]:
    """Every whole line of a record, finished or not, and whether it is finished (holds
    a result line).  A record still being written (``game.jsonl.part``) may end in
    half a line: that part is left for the next read.

    Raises :class:`RecordError` for an unreadable file or a line that is not a record
    line, :class:`EmptyRecord` for a file without a whole line.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror}") from None
    whole = data[: data.rfind(b"\n") + 1]
    if not whole:
        raise EmptyRecord(f"{path}: empty record (no whole line yet)")
    out: list[tuple[int, RecordLine]] = []
    for number, raw in enumerate(whole.split(b"\n")[:-1], start=1):
        try:
            out.append((number, _decoder.decode(raw)))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise RecordError(f"{path}: line {number}: not a record line: {exc}") from None
    return out, any(isinstance(line, ResultLine) for _, line in out)


def live_path(path: str | os.PathLike[str]) -> Path:
    """The file to read for the record ``path``: ``path`` itself if it exists, else its
    ``.part`` while the game is being written; for ``game.jsonl.part``, the finished
    ``game.jsonl`` once the writer has renamed it."""
    p = Path(path)
    if p.exists():
        return p
    if p.name.endswith(".part"):
        done = p.with_name(p.name.removesuffix(".part"))
        return done if done.exists() else p
    part = p.with_name(p.name + ".part")
    return part if part.exists() else p


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
    finished: bool = True
    """False for a record without its result line (a game still running or
    interrupted): ``result`` is then empty and the frames stop at the last ply."""
    live: bool = False
    """True when the page should reload itself while unfinished (``view --follow``)."""


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


def build_timeline(
    path: str | os.PathLike[str],
    perspectives: Sequence[Perspective] | None = None,
    *,
    verify: bool = True,
    on_ply: Callable[[int, int], None] | None = None,
) -> tuple[Timeline, GameRenderer]:
    """Replay the record at ``path`` and collect its frames for ``perspectives``
    (default: omniscient and every seat).

    A finished record is first verified with :func:`referee.match.replay.replay` (raises its
    :class:`RecordError`/:class:`ReplayError`).  An unfinished one (no result line:
    a ``.part`` file of a running or interrupted game) gives its plies so far, each
    checked as it is walked (the record walker's checks, :func:`referee.match.walk.walk`:
    ply order, who is to move, legality, possible chance outcomes; :class:`ReplayError`
    naming the line), with ``finished`` false.  A game without a drawing module gets
    the generic one (frames shown as text); :class:`ValueError` for a seat out of range.
    ``on_ply(done, total)`` is called as the plies are walked (for a progress bar).
    """
    numbered, finished = read_lines(path)
    if verify and finished:
        replay(path, unchecked_chance=True)
    header, game, state = start(path, numbered[0][1], get_game)
    total = sum(1 for _, line in numbered if isinstance(line, (ChanceLine, MoveLine)))
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
            raise BadInput(f"seat {p} out of range: the record has {seats} seats")
    timeline = Timeline(header, ResultLine([], [], []), 0, wanted, {}, finished=finished)
    frames = _Frames(timeline, renderer, wanted)
    frames.snapshot(state)
    steps = walk(path, header, game, state, numbered[1:], check=verify and not finished)
    for step in steps:
        line = step.line
        if isinstance(line, ResultLine):
            timeline.result = line
            break
        if isinstance(line, FaultLine):
            text = f"fault: {line.verdict} ({line.detail})" if line.detail else "fault"
            timeline.entries.append(
                Entry(line.ply, "fault", line.seat, {key(p): text for p in wanted})
            )
            continue
        frames.describe(step)
        step.then = functools.partial(frames.snapshot, state)
        timeline.plies = step.ply + 1
        if on_ply is not None:
            on_ply(step.ply + 1, total)
    timeline.static = renderer.static(state)
    return timeline, renderer


class _Frames:
    """The timeline's frames, chart values, move texts and tracker notes, added step
    by step for every wanted perspective."""

    def __init__(self, timeline: Timeline, renderer: GameRenderer, wanted: list[Perspective]):
        self.timeline, self.renderer, self.wanted = timeline, renderer, wanted
        for p in wanted:
            timeline.frames[key(p)] = []
            timeline.progress[key(p)] = []
        self.tracker = renderer.tracker()
        self.first = wanted[0] if wanted else None

    def snapshot(self, state: State) -> None:
        """Add the frames of ``state`` (the position after the last step)."""
        timeline, renderer = self.timeline, self.renderer
        for p in self.wanted:
            timeline.frames[key(p)].append(renderer.frame(state, p))
            timeline.progress[key(p)].append(renderer.progress(state, p))
        if self.tracker is not None:
            notes = self.tracker.notes()
            if not timeline.notes or timeline.notes[-1][1] != notes:
                timeline.notes.append((len(timeline.frames[key(self.first)]) - 1, notes))

    def describe(self, step: Step) -> None:
        """Add the move list's entry of a chance or move step: each perspective's
        words for what it saw (the walker's observations; omniscient: everything)."""
        line, state, seen = step.line, step.state, step.seen or []
        texts: dict[str, str | None] = {}
        if isinstance(line, ChanceLine):
            for p in self.wanted:
                saw = line.outcome if p is None else seen[p]
                texts[key(p)] = None if saw is None else self.renderer.describe_chance(saw, state)
            self.timeline.entries.append(Entry(line.ply, "chance", -1, texts))
            return
        assert isinstance(line, MoveLine)
        for p in self.wanted:
            saw = step.action if p is None else seen[p]
            texts[key(p)] = None if saw is None else self.renderer.describe_action(_builtins(saw))
        self.timeline.entries.append(
            Entry(line.ply, "move", line.seat, texts, line.fallback, line.ms)
        )
        if self.tracker is not None:
            saw = step.action if self.first is None else seen[self.first]
            if saw is not None:
                self.tracker.observe(state, line.seat, _builtins(saw))


def frame_at(path: str | os.PathLike[str], ply: int, seat: int | None = None) -> dict[str, Any]:
    """The named frame (as the viewer draws it) before ply ``ply`` of the record at
    ``path`` (``ply`` = number of plies: the final position); omniscient if ``seat`` is
    ``None``; a game without a drawing module gives ``state.debug()``).  Raises
    :class:`ValueError` beyond the end of the game."""
    lines = iter(iter_record(path))
    header, game, state = start(path, next(lines)[1], get_game)
    try:
        renderer: GameRenderer | None = renderer_for(game)
    except LookupError:
        renderer = None
    done = 0
    if ply > 0:
        steps = walk(path, header, game, state, lines, check=False)
        for step in steps:
            if isinstance(step.line, ResultLine):
                break
            if isinstance(step.line, (ChanceLine, MoveLine)):
                done = step.ply + 1
                if done == ply:
                    next(steps, None)  # apply this line, then stop
                    break
    if done != ply:
        raise BadInput(f"ply {ply} is beyond the end of the game ({done} plies)")
    if renderer is None:  # a game without drawing: its view, or its full debug state
        data: dict[str, Any] = msgspec.json.decode(
            msgspec.json.encode(state.debug() if seat is None else state.view(seat))
        )
        return data
    return renderer.frame(state, seat)
