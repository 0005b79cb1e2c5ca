"""Assemble one self-contained viewer page (inline CSS, scripts and data; no network).

The embedded data (``<script type="application/json" id="referee-data">``) holds, per
perspective, a *stream* of frames as :mod:`referee.viewer.delta` operations: the first
perspective's frames are diffs against the previous ply; other perspectives' frames are
diffs against the first perspective's frame at the same ply (a seat view differs from
the omniscient one only where secrets are hidden), written as ``0`` when they repeat the
previous ply's operations, so a 5-seat game costs little more
than one stream.  A ``--seat K`` page embeds only seat K's stream, moves and chart.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from referee.api.render import SEAT_COLORS, GameRenderer
from referee.display import html_text, script_json
from referee.viewer import delta
from referee.viewer.timeline import Timeline, key


def _asset(name: str) -> str:
    return resources.files("referee.viewer").joinpath("assets", name).read_text("utf-8")


def encode_streams(timeline: Timeline) -> dict[str, Any]:
    """The frames of every perspective as delta streams (see the module docstring)."""
    keys = [key(p) for p in timeline.perspectives]
    first = keys[0]
    base_frames = timeline.frames[first]
    ops: list[list[delta.Op]] = []
    previous: Any = None
    for frame in base_frames:
        ops.append([[[], frame]] if previous is None else delta.diff(previous, frame))
        previous = frame
    streams: dict[str, Any] = {first: {"base": None, "ops": ops}}
    for k in keys[1:]:
        relative: list[Any] = []
        last: list[delta.Op] | None = None
        for b, f in zip(base_frames, timeline.frames[k], strict=True):
            now = delta.diff(b, f)
            relative.append(0 if now == last else now)
            last = now
        streams[k] = {"base": first, "ops": relative}
    return streams


def payload(timeline: Timeline, renderer: GameRenderer) -> dict[str, Any]:
    """The JSON object a page embeds (everything the page script reads); ``result`` is
    ``null`` for an unfinished game, and ``live`` asks the page to reload itself."""
    keys = [key(p) for p in timeline.perspectives]
    first = keys[0]
    header, result = timeline.header, timeline.result
    moves = [[e.ply, e.kind, e.seat, e.text[first], int(e.fallback)] for e in timeline.entries]
    overrides = {
        k: {str(i): e.text[k] for i, e in enumerate(timeline.entries) if e.text[k] != e.text[first]}
        for k in keys[1:]
    }
    progress: dict[str, Any] = {first: timeline.progress[first]}
    for k in keys[1:]:
        same = timeline.progress[k] == timeline.progress[first]
        progress[k] = None if same else timeline.progress[k]
    only_seat = timeline.perspectives[0] if len(keys) == 1 else None
    return {
        "game": header.game,
        "title": renderer_title(header.game),
        "match": header.match,
        "options": header.options,
        "seats": [s.name for s in header.seats],
        "colors": list(SEAT_COLORS[: len(header.seats)]),
        "plies": timeline.plies,
        "perspectives": keys,
        "only_seat": only_seat,
        "streams": encode_streams(timeline),
        "moves": moves,
        "overrides": overrides,
        "progress": progress,
        "progress_label": renderer.progress_label,
        "static": timeline.static,
        "notes": [[position, notes] for position, notes in timeline.notes],
        "result": (
            {
                "scores": result.scores,
                "ranks": result.ranks,
                "verdicts": list(result.verdicts),
                "reason": result.reason,
            }
            if timeline.finished
            else None
        ),
        "finished": timeline.finished,
        "live": timeline.live and not timeline.finished,
    }


def renderer_title(game: str) -> str:
    """The human title of ``game``."""
    from referee.games import get_game

    return get_game(game).title


_SLOT = re.compile(r"\{\{(title|css|core|game|data)\}\}")


def render_page(timeline: Timeline, renderer: GameRenderer) -> str:
    """The complete HTML text of a viewer page.

    The data goes in through :func:`referee.display.script_json`, so nothing in it
    (a bot's name, a fault detail quoting its output) can end the script or open a
    comment; the template's slots are filled in one pass, so no filled-in text is
    read as a slot.
    """
    seat_note = ""
    if len(timeline.perspectives) == 1 and timeline.perspectives[0] is not None:
        seat_note = f" (seat {timeline.perspectives[0]}'s view)"
    slots = {
        "title": html_text(
            f"{renderer_title(timeline.header.game)} {timeline.header.match}{seat_note}"
        ),
        "css": _asset("viewer.css"),
        "core": _asset("viewer.js"),
        "game": renderer.script_text().replace("</script", "<\\/script"),
        "data": script_json(payload(timeline, renderer)),
    }
    return _SLOT.sub(lambda m: slots[m.group(1)], _asset("viewer.html"))
