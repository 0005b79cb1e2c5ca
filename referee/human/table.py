"""What a human seat knows, shared by the protocol side and the page (or terminal).

:class:`Table` holds exactly what the referee sent this seat (``start``, each ``act``,
``end``) plus the words the game's renderer gives it; the page is served from
:meth:`Table.snapshot` and nothing else, so the page can only ever show this seat's
view.  The protocol thread :meth:`offer`\\ s a request and waits in
:meth:`wait_choice`; the person's :meth:`choose` (page or terminal) answers it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from types import SimpleNamespace
from typing import Any

from referee.api.render import SEAT_COLORS, GameRenderer, generic_action


class _ViewOnly:
    """Stands in for a state where a renderer reads public drawing data (``static``)
    from a view: every seat's view is the one view this seat received."""

    def __init__(self, view: dict[str, Any], seats: int) -> None:
        self._view = view
        self.seats = seats

    def view(self, seat: int) -> Any:
        return SimpleNamespace(**self._view)


class Table:
    """The seat's knowledge and the person's pending choice (thread-safe).

    ``version`` grows at every change, so a page can wait for the next one
    (:meth:`wait_change`).
    """

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self.version = 0
        self.start: dict[str, Any] | None = None
        self.renderer: GameRenderer | None = None
        self.title = ""
        self.static: dict[str, Any] | None = None
        self.request: dict[str, Any] | None = None
        self._asked_at = 0.0
        self.view: Any = None
        self.ply = 0
        self.log: list[dict[str, Any]] = []
        self.since_move = 0
        self.result: dict[str, Any] | None = None
        self.closed = False
        self._choice: tuple[int, int] | None = None
        self.moves = 0
        self.result_served = threading.Event()
        """Set once a snapshot holding the result has been handed to the page."""
        self._mine: set[int] = set()  # plies of this seat's own moves, logged when chosen

    # -- the protocol side -----------------------------------------------------------

    def begin(self, start: dict[str, Any]) -> None:
        """A ``start`` message: the game, this seat, the players and the clock."""
        from referee.api.render import renderer_for
        from referee.games import get_game

        with self._lock:
            self.start = start
            try:
                game = get_game(str(start.get("game")))
                self.title = game.title
                self.renderer = renderer_for(game)
            except (KeyError, LookupError, ValueError):
                self.title, self.renderer = str(start.get("game")), None
            self._changed()

    def offer(self, act: dict[str, Any]) -> None:
        """An ``act`` message: a decision is due."""
        with self._lock:
            self._log_events(act.get("events") or [])
            self.view = act.get("view")
            self.ply = int(act.get("ply", 0))
            if self.static is None and self.renderer is not None and isinstance(self.view, dict):
                seats = int((self.start or {}).get("seats", 1))
                try:
                    self.static = self.renderer.static(_ViewOnly(self.view, seats))  # type: ignore[arg-type]
                except Exception:  # drawing data is a nicety: the controls still work
                    self.static = {}
            self.request = act
            self._asked_at = time.monotonic()
            self._choice = None
            self._changed()

    def wait_choice(self) -> tuple[int, int]:
        """Block until the person chose; ``(act id, legal index)``."""
        with self._lock:
            while self._choice is None:
                self._lock.wait()
            choice, self._choice = self._choice, None
            return choice

    def finish(self, end: dict[str, Any]) -> None:
        """An ``end`` message: the result."""
        with self._lock:
            self._log_events(end.get("events") or [])
            self.request = None
            self.result = {
                "result": end.get("result"),
                "verdicts": end.get("verdicts"),
                "reason": end.get("reason"),
            }
            self._changed()

    def close(self) -> None:
        """The referee closed the seat's input."""
        with self._lock:
            self.closed = True
            self.request = None
            self._changed()

    # -- the person's side -----------------------------------------------------------

    def choose(self, act_id: Any, index: Any) -> tuple[bool, str]:
        """The person picks legal action ``index`` of request ``act_id``.  ``(True,
        text)`` when accepted; ``(False, why)`` when refused: no request is open, the
        request is an old one (a stale page), or the index is not one of its actions."""
        with self._lock:
            request = self.request
            if request is None:
                return False, "no move of yours is due now: wait for your turn"
            if not isinstance(act_id, int) or act_id != request.get("id"):
                return False, (
                    f"that choice answers request {act_id}, which is no longer open "
                    f"(the open request is {request.get('id')}): the page was out of date "
                    "and has been refreshed; choose again"
                )
            legal = request.get("legal") or []
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
                return False, f"action {index!r} is not one of the {len(legal)} legal actions"
            self._choice = (act_id, index)
            self.request = None
            self.moves += 1
            self._mine.add(self.ply)
            self.log.append(self._entry(self.ply, self.seat, legal[index]))
            self.since_move = len(self.log)
            self._changed()
            return True, self.describe(legal[index])

    def wait_change(self, since: int, timeout_s: float) -> int:
        """Wait until :attr:`version` exceeds ``since`` (at most ``timeout_s``)."""
        with self._lock:
            self._lock.wait_for(lambda: self.version > since, timeout=timeout_s)
            return self.version

    # -- what is shown ---------------------------------------------------------------

    @property
    def seat(self) -> int:
        """This seat's number (-1 before ``start``)."""
        return int((self.start or {}).get("seat", -1))

    def describe(self, action: Any) -> str:
        """An action in the game's words."""
        if self.renderer is not None:
            try:
                return self.renderer.describe_action(action)
            except Exception:
                pass
        return generic_action(action)

    def _entry(self, ply: int, seat: int, action: Any) -> dict[str, Any]:
        return {"ply": ply, "seat": seat, "text": self.describe(action)}

    def _log_events(self, events: list[Any]) -> None:
        for event in events:
            if not isinstance(event, dict):
                continue
            ply = int(event.get("ply", 0))
            if "action" in event:
                seat = int(event.get("seat", -1))
                if seat == self.seat and ply in self._mine:
                    continue  # this seat's own move, logged when chosen
                self.log.append(self._entry(ply, seat, event["action"]))
            elif "chance" in event:
                text = str(event["chance"])
                if self.renderer is not None:
                    with contextlib.suppress(Exception):
                        text = self.renderer.describe_chance(event["chance"], None)
                self.log.append({"ply": ply, "seat": -1, "text": text})

    def _changed(self) -> None:
        self.version += 1
        self._lock.notify_all()

    def legal_controls(self, legal: list[Any]) -> list[dict[str, Any]]:
        """Every legal action as a control: ``index``, ``kind``, ``fields`` (the
        action's other fields) and ``label`` (the game's words)."""
        out = []
        for i, action in enumerate(legal):
            kind = action.get("kind", "move") if isinstance(action, dict) else "move"
            fields = (
                {k: v for k, v in action.items() if k != "kind"} if isinstance(action, dict) else {}
            )
            out.append({"index": i, "kind": kind, "fields": fields, "label": self.describe(action)})
        return out

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, as JSON builtins: only what this seat was sent."""
        with self._lock:
            start = self.start or {}
            seats = start.get("players") or []
            request = None
            if self.request is not None:
                clock = self.request.get("clock") or {}
                request = {
                    "id": self.request.get("id"),
                    "ply": self.request.get("ply"),
                    "legal": self.legal_controls(self.request.get("legal") or []),
                    "clock": clock,
                    "elapsed_ms": int((time.monotonic() - self._asked_at) * 1000),
                }
            if self.result is not None:
                status = "game over"
            elif self.closed:
                status = "the referee ended this seat"
            elif request is not None:
                status = "your move"
            elif self.start is None:
                status = "waiting for the game to start"
            else:
                status = "waiting for the other seats"
            if self.result is not None:
                self.result_served.set()
            return {
                "version": self.version,
                "game": start.get("game"),
                "title": self.title,
                "match": start.get("match"),
                "options": start.get("options"),
                "seat": self.seat,
                "seats": seats,
                "colors": list(SEAT_COLORS[: len(seats)]),
                "start_clock": start.get("clock"),
                "static": self.static or {},
                "ply": self.ply,
                "view": self.view,
                "request": request,
                "log": self.log,
                "since_move": self.since_move,
                "result": self.result,
                "status": status,
            }
