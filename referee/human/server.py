"""The human seat's page server: one page, its state and the person's choice.

Routes (every one behind :class:`referee.human.web.GuardedHandler`'s token, Host and
origin rule):

* ``GET /`` the page (HTML with its script, its style and the game's drawing script
  inline);
* ``GET /state?since=N`` the seat's :meth:`Table.snapshot`, as JSON, once its version
  exceeds ``N`` (waits at most :data:`LONG_POLL_S`);
* ``POST /action`` ``{"id": act id, "index": legal index}``: the person's choice;
  200 ``{"ok": true, "text": ...}``, or 409 ``{"ok": false, "error": why}`` for a
  choice the seat cannot send (no move due, a stale request id, an index out of range).
"""

from __future__ import annotations

import re
from importlib import resources

from referee.display import html_text
from referee.human.table import Table
from referee.human.web import GuardedHandler, LoopbackServer

LONG_POLL_S = 15.0
"""Longest wait of one ``/state`` request for a change (seconds)."""


def _asset(name: str) -> str:
    return resources.files("referee.human").joinpath(name).read_text("utf-8")


def _viewer_asset(name: str) -> str:
    return resources.files("referee.viewer").joinpath("assets", name).read_text("utf-8")


_SLOT = re.compile(r"\{\{(title|css|viewer_css|core|game)\}\}")


def render_page(table: Table) -> str:
    """The page's HTML: it carries no game data (the script fetches ``/state``), only
    the game's drawing script once the game is known."""
    game = ""
    if table.renderer is not None:
        game = table.renderer.script_text().replace("</script", "<\\/script")
    title = f"{table.title or 'referee'}: your seat" if table.start else "referee: human seat"
    slots = {
        "title": html_text(title),
        "css": _asset("page.css"),
        "viewer_css": _viewer_asset("viewer.css"),
        "core": _asset("page.js").replace("</script", "<\\/script"),
        "game": game,
    }
    return _SLOT.sub(lambda m: slots[m.group(1)], _asset("page.html"))


class HumanHandler(GuardedHandler):
    """The human seat's routes (see the module docstring)."""

    def route(self, method: str) -> None:
        """Dispatch an allowed request."""
        table: Table = self.server.app
        path = self.route_path
        if method == "GET" and path == "/":
            self.send_html(render_page(table))
        elif method == "GET" and path == "/state":
            try:
                since = int(self.query.get("since", "-1"))
            except ValueError:
                since = -1
            table.wait_change(since, LONG_POLL_S)
            self.send_json(200, table.snapshot())
        elif method == "POST" and path == "/action":
            body = self.read_json()
            if not isinstance(body, dict):
                self.send_json(400, {"ok": False, "error": 'send {"id": ..., "index": ...}'})
                return
            ok, text = table.choose(body.get("id"), body.get("index"))
            if ok:
                self.send_json(200, {"ok": True, "text": text})
            else:
                self.send_json(409, {"ok": False, "error": text})
        else:
            self.send_text(404, "not found\n")


def start_server(table: Table, port: int = 0) -> LoopbackServer:
    """Serve ``table``'s page on 127.0.0.1:``port`` (0: a free port) in a thread.
    Raises :class:`OSError` when the port cannot be bound."""
    server = LoopbackServer(HumanHandler, table, port)
    server.start()
    return server
