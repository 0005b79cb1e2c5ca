#!/usr/bin/env python3
"""A random bot that first tries to reach 127.0.0.1:PORT (the human seat's page) and
tells what happened in its ``ready`` name: ``probe-connected`` or ``probe-unreachable``.

Usage: ``probe_bot.py PORT``.  Standard library only.
"""

import json
import random
import socket
import sys
import time


def reach(port: int) -> str:
    """Try for 3 s (the human seat may still be starting its server)."""
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            time.sleep(0.1)
            continue
        return "probe-connected"
    return "probe-unreachable"


def main() -> None:
    port = int(sys.argv[1])
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "start":
            reply: dict[str, object] = {"type": "ready", "name": reach(port)}
        elif message.get("type") == "act":
            reply = {
                "type": "action",
                "id": message["id"],
                "index": rng.randrange(len(message["legal"])),
            }
        elif message.get("type") == "end":
            return
        else:
            continue
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
