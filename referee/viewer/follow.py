"""``referee view --follow``: keep the viewer page of a growing record up to date.

The page is written again whenever the record changes (its ``.part`` grows, or the
writer renames it to the finished record); while the game is unfinished the page
reloads itself every second or two, keeping the reader's ply, view and scroll (see
``viewer.js``).  Following ends when the record is finished.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from referee.api.render import GameRenderer
from referee.match.record import RecordError
from referee.viewer import default_output, write_page
from referee.viewer.timeline import EmptyRecord, Timeline, build_timeline, live_path

POLL_S = 0.5
"""Seconds between two looks at the record."""


def _signature(path: Path) -> tuple[str, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (path.name, st.st_size, st.st_mtime_ns)


def follow(
    record: Path,
    out: Path | None = None,
    seat: int | None = None,
    *,
    poll_s: float = POLL_S,
    on_write: Callable[[Path, Timeline], None] | None = None,
) -> Path:
    """Write the page of ``record`` (``game.jsonl`` or ``game.jsonl.part``) again every
    time it changes, until the record is finished; return the page's path.

    ``on_write(page, timeline)`` is called after every write.  A record that has no
    whole line yet is waited for.  On :class:`KeyboardInterrupt` the last page is
    written once more without its reloading (so a browser stops reloading it) and the
    interrupt is raised again.  Raises :class:`RecordError` if neither the record nor
    its ``.part`` exists, or as :func:`timeline.build_timeline` for a broken record.
    """
    if not live_path(record).exists():
        raise RecordError(f"{record}: no such record (nor {record.name}.part)")
    target = out if out is not None else default_output(live_path(record), seat)
    perspectives = None if seat is None else [seat]
    last: tuple[str, int, int] | None = None
    shown: tuple[Timeline, GameRenderer] | None = None
    try:
        while True:
            path = live_path(record)
            now = _signature(path)
            if now is not None and now != last:
                try:
                    timeline, renderer = build_timeline(path, perspectives)
                except EmptyRecord:
                    timeline = None  # nothing written yet
                except RecordError:
                    if path.exists():
                        raise
                    timeline = None  # renamed by its writer meanwhile: read again
                if timeline is not None:
                    last = now
                    timeline.live = True
                    write_page(timeline, renderer, target)
                    shown = (timeline, renderer)
                    if on_write is not None:
                        on_write(target, timeline)
                    if timeline.finished:
                        return target
            time.sleep(poll_s)
    except KeyboardInterrupt:
        if shown is not None:
            shown[0].live = False
            write_page(shown[0], shown[1], target)
        raise
