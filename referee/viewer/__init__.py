"""Replay viewer: one self-contained HTML page per game record (``referee view``).

:mod:`timeline` walks a record through its engine, :mod:`delta` compresses the frames,
:mod:`page` assembles the page; each game draws itself through :mod:`render`;
:mod:`follow` rewrites the page of a record still being written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from referee.api.render import GameRenderer
from referee.viewer.page import render_page
from referee.viewer.timeline import Timeline, build_timeline, live_path


def default_output(record: Path, seat: int | None = None) -> Path:
    """``game.jsonl`` (or ``game.jsonl.part``) -> ``game.html`` (``game.seat2.html`` for
    a seat's page)."""
    name = record.name.removesuffix(".part")
    stem = name.removesuffix(".jsonl") if name.endswith(".jsonl") else Path(name).stem
    suffix = ".html" if seat is None else f".seat{seat}.html"
    return record.with_name(stem + suffix)


def write_viewer(
    record: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    seat: int | None = None,
    *,
    live: bool = False,
    on_ply: Callable[[int, int], None] | None = None,
) -> Path:
    """Write the viewer page of ``record`` (all perspectives, or only ``seat``'s) and
    return its path.

    An unfinished record (``game.jsonl.part``, or ``game.jsonl`` while only its
    ``.part`` exists) gives a page of its plies so far, marked unfinished; with
    ``live`` that page reloads itself every second or two until a page of the finished
    game replaces it.  The file is replaced whole (written beside it, then renamed), so
    a browser never reads half a page.  ``on_ply(done, total)`` reports progress.
    Errors as :func:`timeline.build_timeline`, and :class:`OSError` for the output.
    """
    path = live_path(record)
    timeline, renderer = build_timeline(path, None if seat is None else [seat], on_ply=on_ply)
    timeline.live = live
    target = Path(out) if out is not None else default_output(path, seat)
    write_page(timeline, renderer, target)
    return target


def write_page(timeline: Timeline, renderer: GameRenderer, target: Path) -> None:
    """Write the page of ``timeline`` at ``target``, replacing any file there whole
    (written beside it, then renamed).  Raises :class:`OSError`."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(render_page(timeline, renderer), encoding="utf-8")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
