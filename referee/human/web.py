"""The loopback HTTP server both person-facing servers share (the human seat's page and
``referee watch``): the standard library's :mod:`http.server` in a thread, with one
access rule.

Every request must carry the server's random token (``?token=...`` or the header
``X-Referee-Token``), name this server as its ``Host`` (``127.0.0.1:PORT`` or
``localhost:PORT``: a page of another site that rebinds its DNS name to 127.0.0.1 is
refused) and, when the browser says where it comes from (``Origin``,
``Sec-Fetch-Site``), come from this server's own origin.  Anything else gets 403, and
no response carries CORS headers, so a page of another origin can neither read a
response nor send a JSON body (that needs a preflight, which gets 403).  The server
binds only 127.0.0.1.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

LOOPBACK = "127.0.0.1"
"""The only address the servers bind."""

TOKEN_HEADER = "X-Referee-Token"
"""Request header that may carry the token instead of the query."""

MAX_BODY = 64 * 1024
"""Largest request body read (bytes); a longer one gets 413."""

SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
}
"""Headers of every response: nothing cached, framed, sniffed or sent elsewhere."""


def new_token() -> str:
    """A fresh random URL-safe token (32 bytes of randomness)."""
    return secrets.token_urlsafe(32)


class GuardedHandler(BaseHTTPRequestHandler):
    """A request handler that refuses every request failing the module's access rule
    (403, plain text) before :meth:`route` sees it.  Subclasses implement
    :meth:`route` and answer with :meth:`send_json`, :meth:`send_text` or
    :meth:`send_html`."""

    server: LoopbackServer
    protocol_version = "HTTP/1.1"

    # -- the access rule --------------------------------------------------------------

    def refusal(self) -> str | None:
        """Why this request is refused, or ``None`` when it may proceed."""
        port = self.server.server_address[1]
        host = self.headers.get("Host", "")
        if host not in (f"{LOOPBACK}:{port}", f"localhost:{port}"):
            return "wrong Host"
        origin = self.headers.get("Origin")
        if origin is not None and origin not in (
            f"http://{LOOPBACK}:{port}",
            f"http://localhost:{port}",
        ):
            return "cross-origin request"
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return "cross-site request"
        given = self.headers.get(TOKEN_HEADER) or self.query.get("token", "")
        if not hmac.compare_digest(given.encode(), self.server.token.encode()):
            return "missing or wrong token"
        return None

    @property
    def query(self) -> dict[str, str]:
        """The query string's parameters (the last value of each)."""
        return {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}

    @property
    def route_path(self) -> str:
        """The request path without its query."""
        return urlsplit(self.path).path

    def _guarded(self, method: str) -> None:
        why = self.refusal()
        if why is not None:
            self.send_text(403, f"forbidden: {why}\n")
            return
        self.route(method)

    def do_GET(self) -> None:
        """GET: checked, then :meth:`route`."""
        self._guarded("GET")

    def do_POST(self) -> None:
        """POST: checked, then :meth:`route`."""
        self._guarded("POST")

    def do_OPTIONS(self) -> None:
        """No CORS preflight is ever granted."""
        self.send_text(403, "forbidden: cross-origin requests are not accepted\n")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS

    def route(self, method: str) -> None:
        """Answer an allowed request (subclasses); default 404."""
        self.send_text(404, "not found\n")

    # -- answers ----------------------------------------------------------------------

    def read_json(self) -> Any:
        """The request's JSON body; ``None`` when missing, too long, not JSON or not
        sent as ``application/json``."""
        if self.headers.get_content_type() != "application/json":
            return None
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            return None
        if not 0 < length <= MAX_BODY:
            return None
        try:
            return json.loads(self.rfile.read(length))
        except (ValueError, UnicodeDecodeError):
            return None

    def send_body(self, status: int, body: bytes, content_type: str) -> None:
        """Send ``body`` with the security headers."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.server.responses += 1

    def send_json(self, status: int, value: Any) -> None:
        """Send ``value`` as JSON (``<``, ``>`` and ``&`` escaped, so no HTML parser
        reads markup in it)."""
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        self.send_body(status, text.encode(), "application/json; charset=utf-8")

    def send_text(self, status: int, text: str) -> None:
        """Send plain text."""
        self.send_body(status, text.encode(), "text/plain; charset=utf-8")

    def send_html(self, text: str) -> None:
        """Send an HTML page (200)."""
        self.send_body(200, text.encode(), "text/html; charset=utf-8")

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: no access log on stderr."""


class LoopbackServer(ThreadingHTTPServer):
    """A threading HTTP server on 127.0.0.1 (``port`` 0: a free one) holding its token
    and the application object its handler reads (``app``).  Raises :class:`OSError`
    when the port cannot be bound."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, handler: type[GuardedHandler], app: Any, port: int = 0) -> None:
        super().__init__((LOOPBACK, port), handler)
        self.token = new_token()
        self.app = app
        self.responses = 0

    @property
    def port(self) -> int:
        """The bound port."""
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        """The page's address, token included."""
        return f"http://{LOOPBACK}:{self.port}/?token={self.token}"

    def start(self) -> threading.Thread:
        """Serve in a daemon thread; returns it."""
        thread = threading.Thread(target=self.serve_forever, name="referee-http", daemon=True)
        thread.start()
        return thread


def announce(
    url: str, *, terminal: str | None, url_file: str | None, say: Callable[[str], None]
) -> None:
    """Tell the person where the page is: ``say`` (stderr), the terminal at path
    ``terminal`` if any, and ``url_file`` (written whole, then renamed) if any."""
    import os

    say(url)
    if terminal:
        try:
            with open(terminal, "w", encoding="utf-8") as tty:
                tty.write(f"referee: human seat: open {url}\n")
        except OSError:
            pass
    if url_file:
        temporary = f"{url_file}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(url + "\n")
        os.replace(temporary, url_file)


def open_browser(url: str, display: str | None) -> bool:
    """Open ``url`` in the person's browser where there is a display, in a process of
    its own session (so it outlives the seat); ``False`` when there is no display."""
    import os
    import subprocess
    import sys

    if not display:
        return False
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_BOT"}
    env["WAYLAND_DISPLAY" if display.startswith("wayland") else "DISPLAY"] = display
    subprocess.Popen(
        [sys.executable, "-c", "import sys, webbrowser; webbrowser.open(sys.argv[1])", url],
        env=env,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return True
