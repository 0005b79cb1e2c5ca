#!/usr/bin/env python3
"""A bot for the pondering tests: ``ponder_bot.py MODE TAG [N]``.

* ``crowd``: after its first reply, starts ``N`` computing processes, each in a
  session of its own and each double-forked away from the bot (the attack on the
  seats on move: a crowd that slows them into timeouts), then answers every ``act``
  at once.  Each computes 1 ms in every 10 (enough to be seen running, light
  enough not to slow the other tests of a parallel run; the attack itself would
  compute all the time).
* ``children``: the same crowd, but as the bot's own children (no double fork).
* ``bomb``: on its first ``act``, forks ``N`` sleeping processes (a fork bomb)
  before it answers (so the bomb is whole when the next seat is on move, however
  slowly the machine forks), then answers every ``act`` at once.
* ``think``: sleeps 150 ms before every answer (a seat that is on move a while).
* ``early``: the crowd of ``crowd``, started as it answers ``start`` (the whole crowd
  is up when ``ready`` goes out, so the referee's stop, 10 ms later, cannot catch
  the bot half-way through starting it).
* ``slow_start``: sleeps 500 ms before answering ``start``, then answers at once.
* ``held_start``: answers ``start`` only once it has received ``SIGWINCH`` (whose
  default action is to ignore it, so a signal that comes too early is lost, not
  fatal: the test sends it again), or after 10 s; then answers at once.  The test
  holds every other seat in start-up this way for as long as it samples.

All play the first legal action.  ``TAG`` is only carried on the command line,
which every process of the bot inherits, so a test can find them all from outside.
"""

import json
import os
import signal
import sys
import time

MODE = sys.argv[1]
CROWD = int(sys.argv[3]) if len(sys.argv) > 3 else 4


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def crowd(double_fork: bool) -> None:
    for _ in range(CROWD):
        if os.fork() == 0:
            os.setsid()
            if not double_fork or os.fork() == 0:
                while True:
                    until = time.monotonic() + 0.001
                    while time.monotonic() < until:
                        pass
                    time.sleep(0.009)
            os._exit(0)
    if double_fork:
        for _ in range(CROWD):  # reap the intermediate children
            os.wait()


def held_start() -> None:
    """Wait for ``SIGWINCH`` (10 s at most)."""
    released: list[int] = []
    signal.signal(signal.SIGWINCH, lambda signum, frame: released.append(signum))
    until = time.monotonic() + 10.0
    while not released and time.monotonic() < until:
        time.sleep(0.01)


def main() -> None:
    started = False
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start":
            if MODE == "slow_start":
                time.sleep(0.5)
            if MODE == "held_start":
                held_start()
            if MODE == "early":
                started = True
                crowd(True)
            send({"type": "ready", "name": f"ponder-{MODE}"})
        elif msg["type"] == "act":
            if MODE == "think":
                time.sleep(0.15)
            if MODE == "bomb" and not started:
                started = True
                for _ in range(CROWD):
                    if os.fork() == 0:
                        time.sleep(600)
                        os._exit(0)
            send({"type": "action", "id": msg["id"], "index": 0})
            if MODE in ("crowd", "children") and not started:
                started = True
                crowd(MODE == "crowd")
        elif msg["type"] == "end":
            break


if __name__ == "__main__":
    main()
