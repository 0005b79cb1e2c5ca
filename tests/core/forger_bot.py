#!/usr/bin/env python3
"""A bot whose every string tries to forge what a person reads: ``forger_bot.py ROLE``.

Whatever its ROLE, it gives a hostile ``ready`` name (:data:`NAMES`), writes
:data:`BATTERY` to stderr and hostile stray lines to stdout (text lines, which the
stray-output rules ignore), and plays the first legal action, except at its first
decision, where ROLE says how it faults:

- ``type``: sends a message whose unknown ``type`` is :data:`HUGE_TYPE` (900 KB):
  a ``protocol`` fault whose detail would quote it whole.
- ``timeout``: prints :data:`STRAY` and never answers: a ``timeout`` fault whose
  detail quotes its last ignored line.
- ``crash``: writes :data:`BATTERY` to stderr again and exits: a ``crash`` fault
  whose detail ends with the tail of its stderr.
- ``plain``: no fault.

The tests import :data:`NAMES`, :data:`BATTERY`, :data:`STRAY` and
:data:`HUGE_TYPE` from this module to assert on what the referee shows and records.
"""

import json
import sys
import time

PWNED = "window.__pwned=1"
"""Script a page would run if bot text could end or open a ``<script>``."""

BATTERY = [
    "\x1b[2Jcleared the screen",
    "\x1b]0;owned window title\x07",
    "\x1b]52;c;ZWNobyBvd25lZA==\x07",
    "bell\x07\x07",
    "real text\roverwritten",
    '=HYPERLINK("http://x","y")',
    "+1",
    "-1",
    "@SUM(A1:A9)",
    "|a|b|",
    "two\nlines\r\nand more",
    f"</script><!--<script>{PWNED}</script>",
    "<img src=x onerror=" + PWNED + ">",
    "line\u2028paragraph\u2029end",
    "\x9b31mC1 CSI\x9b0m",
    "\u202eevil bidi\u202c",
]
"""Hostile strings: terminal control (clear screen, OSC 0 title, OSC 52 clipboard,
BEL, ``\\r``), spreadsheet formulas, table structure, HTML and script breakers,
JavaScript line separators, a C1 control sequence and a bidirectional override."""

NAMES = {
    "type": '=HYPERLINK("http://x","y")',
    "timeout": "+1\x1b[2J\x1b]0;owned\x07|a|b|",
    "crash": "-1\nforged row\r\x1b]52;c;ZXZpbA==\x07\u2028",
    "plain": "@SUM(1)</script><!--<script>" + PWNED + "\x9b" + "x" * 100,
}
"""The ``ready`` name per ROLE (``plain``'s is longer than the referee keeps)."""

STRAY = f"</script><!--<script>{PWNED}//\x1b[2J\x07"
"""A stray stdout line (not JSON: ignored), quoted in ``timeout`` details."""

HUGE_TYPE = "\x1b]0;huge\x07</script><!--<script>" + PWNED + "\n" + "A" * 900_000
"""The unknown message type of ROLE ``type``."""


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def stray(text: str) -> None:
    sys.stdout.write(text.replace("\n", " ").replace("\r", " ") + "\n")
    sys.stdout.flush()


def shout() -> None:
    sys.stderr.write("\n".join(BATTERY) + "\n")
    sys.stderr.flush()


def main() -> None:
    role = sys.argv[1]
    shout()
    decisions = 0
    while line := sys.stdin.readline():
        msg = json.loads(line)
        if msg["type"] == "start":
            stray(STRAY)
            send({"type": "ready", "name": NAMES[role], "version": BATTERY[0]})
        elif msg["type"] == "act":
            decisions += 1
            if decisions == 1 and role == "type":
                send({"type": HUGE_TYPE, "id": msg["id"]})
            elif decisions == 1 and role == "timeout":
                stray(STRAY)
                time.sleep(60)
            elif decisions == 1 and role == "crash":
                shout()
                sys.exit(3)
            else:
                send({"type": "action", "id": msg["id"], "index": 0})
                stray(BATTERY[decisions % len(BATTERY)])
        elif msg["type"] == "end":
            return


if __name__ == "__main__":
    main()
