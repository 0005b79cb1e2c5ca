"""``referee watch RECORD|RUN_DIR``: serve the replay viewer of games as they are played.

The viewer page (:mod:`referee.viewer.page`) of a record is built afresh whenever the
record has grown (its ``.part`` file while the game runs, the finished record once
its writer renamed it), and the page of an unfinished game reloads itself once a
second, keeping the reader's place, so it shows new plies as they are written.  For a
run directory the index lists its running and finished matches (``records/``),
refreshed every two seconds, each linking to its viewer.

It serves on 127.0.0.1 only, behind the token, Host and origin rule of
:mod:`referee.human.web`.  A record is looked up by its path relative to the run
directory and must resolve to a ``.jsonl`` or ``.jsonl.part`` file inside it (no
``..``, no symbolic link out of it); anything else is 404.  ``seat`` restricts every
page to that seat's view (the default is the omniscient view, every seat's besides).
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from referee.human.web import GuardedHandler, LoopbackServer
from referee.match.record import RecordError
from referee.viewer.page import render_page
from referee.viewer.timeline import EmptyRecord, build_timeline, live_path

RELOAD_MS = 1000
"""How often the page of an unfinished game reloads itself (ms)."""

START = "<script>RefereeViewer.start();</script>"


@dataclass
class Watched:
    """What a watch server shows: one record (``root`` is its path) or a run directory
    (``run`` true, ``root`` the directory), and the one seat to show (``None``: all)."""

    root: Path
    run: bool
    seat: int | None = None

    def __post_init__(self) -> None:
        self._cache: dict[Path, tuple[tuple[str, int, int], str]] = {}
        self._lock = threading.Lock()

    def record_path(self, name: str | None) -> Path | None:
        """The record to show for ``name`` (relative to the run directory), or the one
        record; ``None`` when ``name`` does not name a record inside the run directory."""
        if not self.run:
            return self.root
        if not name:
            return None
        base = self.root.resolve()
        try:
            target = (base / name).resolve()
            target.relative_to(base)
        except (ValueError, OSError):
            return None
        if not (target.name.endswith(".jsonl") or target.name.endswith(".jsonl.part")):
            return None
        path = live_path(target)
        try:
            path.resolve().relative_to(base)
        except (ValueError, OSError):
            return None
        return path if path.is_file() else None

    def page(self, record: Path) -> str:
        """The viewer page of ``record`` now (cached while the file is unchanged).
        Raises :class:`RecordError` for a broken record, :class:`EmptyRecord` while it
        has no whole line."""
        path = live_path(record)
        st = path.stat()
        signature = (path.name, st.st_size, st.st_mtime_ns)
        with self._lock:
            cached = self._cache.get(record)
        if cached is not None and cached[0] == signature:
            return cached[1]
        timeline, renderer = build_timeline(path, None if self.seat is None else [self.seat])
        timeline.live = not timeline.finished
        text = render_page(timeline, renderer).replace(
            START, f"<script>RefereeViewer.start({{reloadMs: {RELOAD_MS}}});</script>"
        )
        with self._lock:
            self._cache[record] = (signature, text)
        return text

    def matches(self) -> list[tuple[str, str, Path]]:
        """The run's records: ``(state, match id, path)``, running ones first."""
        records = self.root / "records"
        found: dict[str, tuple[str, Path]] = {}
        for p in sorted(records.glob("*.jsonl.part")):
            found[p.name.removesuffix(".jsonl.part")] = ("running", p)
        for p in sorted(records.glob("*.jsonl")):
            found[p.name.removesuffix(".jsonl")] = ("finished", p)
        rows = [(state, match, path) for match, (state, path) in found.items()]
        return sorted(rows, key=lambda r: (r[0] != "running", r[1]))


def _waiting(text: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="refresh" content="1"><title>referee watch</title></head>'
        f"<body><p>{html.escape(text)}</p></body></html>"
    )


def index_page(watched: Watched, token: str) -> str:
    """The run directory's list of matches (refreshes itself every 2 s)."""
    rows = []
    for state, match, path in watched.matches():
        rel = quote(str(path.relative_to(watched.root)))
        link = f"/view?token={quote(token)}&amp;record={rel}"
        rows.append(
            f'<tr class="{state}"><td>{html.escape(state)}</td>'
            f'<td><a href="{link}">{html.escape(match)}</a></td></tr>'
        )
    body = "".join(rows) or '<tr><td colspan="2">no match has started yet</td></tr>'
    seat = "" if watched.seat is None else f" (seat {watched.seat}'s view)"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="refresh" content="2">'
        f"<title>referee watch {html.escape(watched.root.name)}</title>"
        "<style>body{font:14px system-ui,sans-serif;margin:16px}td{padding:2px 10px}"
        "tr.running td:first-child{color:#b26a00;font-weight:600}</style></head><body>"
        f"<h1>{html.escape(watched.root.name)}{html.escape(seat)}</h1>"
        f'<table id="matches"><tr><th>state</th><th>match</th></tr>{body}</table>'
        "</body></html>"
    )


class WatchHandler(GuardedHandler):
    """``GET /``: the record's viewer, or the run's index; ``GET /view?record=REL``:
    a record of the run."""

    def route(self, method: str) -> None:
        """Dispatch an allowed request."""
        watched: Watched = self.server.app
        path = self.route_path
        if method != "GET" or path not in ("/", "/view"):
            self.send_text(404, "not found\n")
            return
        if path == "/" and watched.run:
            self.send_html(index_page(watched, self.server.token))
            return
        record = watched.record_path(self.query.get("record") if watched.run else None)
        if record is None:
            self.send_text(404, "no such record in this run directory\n")
            return
        try:
            self.send_html(watched.page(record))
        except (EmptyRecord, FileNotFoundError):
            self.send_html(_waiting(f"{record.name}: no whole line written yet; waiting"))
        except RecordError as exc:
            self.send_text(500, f"cannot show {record.name}: {exc}\n")


def serve(target: Path, seat: int | None = None, port: int = 0) -> LoopbackServer:
    """Start serving ``target`` (a record, its ``.part``, or a run directory) in a
    thread.  Raises :class:`RecordError` when ``target`` is neither, :class:`OSError`
    when the port cannot be bound."""
    if target.is_dir():
        if not (target / "records").is_dir():
            raise RecordError(f"{target}: not a run directory (no records/ folder)")
        watched = Watched(target, True, seat)
    else:
        if not live_path(target).exists():
            raise RecordError(f"{target}: no such record (nor {target.name}.part)")
        watched = Watched(target, False, seat)
    server = LoopbackServer(WatchHandler, watched, port)
    server.start()
    return server
