"""The human seat's protocol side: ``python -m referee.human [options]``.

A bot like any other (docs/protocol.md): it answers ``start`` with ``ready`` at once,
and each ``act`` with the index the person chose, on the page it serves
(:mod:`referee.human.server`) or, with ``--tty``, in the terminal
(:mod:`referee.human.tty`).  The referee judges it as it judges every bot: its clock,
its verdict.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from referee.human.table import Table


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The seat's options (see docs/human.md)."""
    parser = argparse.ArgumentParser(prog="human", description="A person plays this seat.")
    parser.add_argument("--tty", action="store_true", help="play in the terminal, not a browser")
    parser.add_argument("--port", type=int, default=0, help="port of the page (default: random)")
    parser.add_argument("--no-browser", action="store_true", help="print the URL, open nothing")
    parser.add_argument("--url-file", default=None, help="also write the page's URL to this file")
    parser.add_argument("--terminal", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--display", default=None, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def send(out: TextIO, message: dict[str, Any]) -> None:
    """Write one protocol line and flush it."""
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def serve_protocol(table: Table, stdin: Any, stdout: TextIO) -> None:
    """Read the referee's messages until the input ends; answer ``start`` and ``act``
    (the latter with the person's choice, waited for in :meth:`Table.wait_choice`)."""
    for raw in stdin:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "start":
            table.begin(message)
            send(stdout, {"type": "ready", "name": "human"})
        elif kind == "act":
            table.offer(message)
            act_id, index = table.wait_choice()
            send(stdout, {"type": "action", "id": act_id, "index": index})
        elif kind == "end":
            table.finish(message)
    table.close()


def main(argv: list[str] | None = None) -> None:
    """Run the seat: a page server (or the terminal) and the protocol loop."""
    args = parse_args(argv)
    table = Table()
    conversation = None
    if args.tty:
        from referee.human.tty import play_in_terminal

        conversation = play_in_terminal(table, args.terminal)
    else:
        from referee.human.server import start_server
        from referee.human.web import announce, open_browser

        try:
            server = start_server(table, args.port)
        except OSError as exc:
            print(f"human: cannot serve on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
            raise SystemExit(1) from None
        announce(
            server.url,
            terminal=args.terminal,
            url_file=args.url_file,
            say=lambda url: print(f"human seat: {url}", file=sys.stderr, flush=True),
        )
        if not args.no_browser:
            open_browser(server.url, args.display)
    serve_protocol(table, sys.stdin.buffer, sys.stdout)
    if conversation is not None:
        conversation.join(RESULT_GRACE_S)  # the result, printed on the terminal
    elif table.result is not None:
        # let a waiting page fetch the result before the seat goes (the referee allows
        # a second after closing the input)
        table.result_served.wait(RESULT_GRACE_S)
        time.sleep(0.05)


RESULT_GRACE_S = 0.8
"""Longest wait, after the match ended, for the page to fetch the result (seconds)."""
