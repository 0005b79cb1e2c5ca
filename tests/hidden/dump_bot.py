#!/usr/bin/env python3
"""A random bot that keeps a copy of every line the referee sends it.

Each line read on stdin is appended, verbatim, to the file named by ``--out`` before
the bot answers it, so a test can later check exactly what this seat was shown.
Moves are uniformly random legal indices from an RNG seeded by ``--seed``, so a
match is reproducible.  Standard library only.

Usage: ``dump_bot.py --out FILE [--seed N]``
"""

from __future__ import annotations

import argparse
import json
import random
import sys


def main() -> None:
    """Answer ``start`` and ``act`` messages, dumping each received line first."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="file that receives every line read")
    parser.add_argument("--seed", type=int, default=0, help="seed of the move RNG")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.out, "a", encoding="utf-8") as dump:
        for line in sys.stdin:
            dump.write(line if line.endswith("\n") else line + "\n")
            dump.flush()
            message = json.loads(line)
            kind = message.get("type")
            reply: dict[str, object]
            if kind == "start":
                reply = {"type": "ready", "name": "dump", "version": "1"}
            elif kind == "act":
                index = rng.randrange(len(message["legal"]))
                reply = {"type": "action", "id": message["id"], "index": index}
            elif kind == "end":
                return
            else:
                continue
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
