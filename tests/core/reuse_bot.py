#!/usr/bin/env python3
"""A bot for the reuse tests: ``reuse_bot.py MODE``.

Plays the first legal action and announces ``"reuse": true`` (except in mode
``no_reuse``).  At every ``start`` it writes ``pid <pid> match <id> n <k> cores
<c,...>`` to its stderr (``k``: matches this process has started; the cores it may
run on), so a test can tell which process played which match, and where.
Modes: ``ok``; ``no_reuse``; ``illegal`` (an out-of-range index
at its first decision of every match); ``exit_after_end`` (exits after its first
``end`` although it announced reuse, as a process that dies while idle);
``die_on_reuse`` (exits without answering any ``start`` after its first);
``ponder`` (at its first decision, starts a child that computes until it is killed,
as a bot that keeps thinking between matches).
"""

import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> None:
    started = 0
    pondering = False
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            started += 1
            if MODE == "die_on_reuse" and started > 1:
                return
            cores = ",".join(map(str, sorted(os.sched_getaffinity(0))))
            sys.stderr.write(f"pid {os.getpid()} match {msg['match']} n {started} cores {cores}\n")
            sys.stderr.flush()
            ready: dict[str, object] = {"type": "ready", "name": f"reuse-{MODE}"}
            if MODE != "no_reuse":
                ready["reuse"] = True
            send(ready)
        elif kind == "act":
            if MODE == "ponder" and not pondering and os.fork() == 0:
                sys.stdin.close()
                while True:
                    pass
            pondering = True
            index = len(msg["legal"]) + 5 if MODE == "illegal" else 0
            send({"type": "action", "id": msg["id"], "index": index})
        elif kind == "end" and MODE == "exit_after_end":
            return


if __name__ == "__main__":
    main()
