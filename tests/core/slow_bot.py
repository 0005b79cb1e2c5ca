#!/usr/bin/env python3
"""A correct bot that thinks slowly: ``slow_bot.py SECONDS``.

Answers ``start`` at once and every ``act`` with the first legal action after
sleeping SECONDS, so tests can put a move over a warning line or the move time while
staying within the bank.  Standard library only.
"""

import json
import sys
import time


def main() -> None:
    delay = float(sys.argv[1])
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "start":
            reply: dict[str, object] = {"type": "ready", "name": "slow"}
        elif message.get("type") == "act":
            time.sleep(delay)
            reply = {"type": "action", "id": message["id"], "index": 0}
        elif message.get("type") == "end":
            return
        else:
            continue
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
