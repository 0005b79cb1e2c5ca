"""Replay viewer: one self-contained HTML page per game record (``referee view``).

:mod:`timeline` walks a record through its engine, :mod:`delta` compresses the frames,
:mod:`page` assembles the page; each game draws itself through :mod:`render`.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.viewer.page import render_page
from referee.viewer.timeline import build_timeline


def default_output(record: Path, seat: int | None = None) -> Path:
    """``game.jsonl`` -> ``game.html`` (``game.seat2.html`` for a seat's page)."""
    stem = record.name.removesuffix(".jsonl") if record.name.endswith(".jsonl") else record.stem
    suffix = ".html" if seat is None else f".seat{seat}.html"
    return record.with_name(stem + suffix)


def write_viewer(
    record: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    seat: int | None = None,
) -> Path:
    """Write the viewer page of ``record`` (all perspectives, or only ``seat``'s) and
    return its path.  Errors as :func:`timeline.build_timeline`."""
    path = Path(record)
    timeline, renderer = build_timeline(path, None if seat is None else [seat])
    target = Path(out) if out is not None else default_output(path, seat)
    target.write_text(render_page(timeline, renderer), encoding="utf-8")
    return target
