#!/usr/bin/env python3
"""The smallest complete bot: plays any game by picking a random entry of `legal`.

Standard library only; copy it to start your own bot.  Protocol (JSON Lines on
stdin/stdout): answer `start` with `ready`, answer every `act` with an `action`
message echoing its `id`, and exit when the input ends.  Its `ready` says
`"reuse": true`, so after `end` the referee may send the next match's `start` to
the same process: everything is reset at each `start`.  See docs/protocol.md.

Usage: random_bot.py [--seed N]
"""

import json
import random
import sys


def main() -> None:
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else None
    rng = random.Random(seed)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        reply: dict[str, object]
        if kind == "start":
            rng = random.Random(seed)  # every match starts afresh, reused process or not
            reply = {"type": "ready", "name": "random", "version": "1", "reuse": True}
        elif kind == "act":
            reply = {
                "type": "action",
                "id": message["id"],
                "index": rng.randrange(len(message["legal"])),
            }
        else:
            continue  # `end`, and unknown message types (ignored, as the protocol requires)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
