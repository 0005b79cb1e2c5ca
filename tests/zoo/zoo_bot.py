#!/usr/bin/env python3
"""A misbehaving bot for tests: ``zoo_bot.py MODE [MARKER_FILE]``.

Plays correctly (first legal action) except for the misbehaviour named by MODE,
which starts at its second decision unless the mode is about start-up.  MARKER_FILE,
when given, receives the pids of every process the bot starts, one per line, so a
test can check that none outlives the match.
"""

import json
import os
import signal
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
MARKER = sys.argv[2] if len(sys.argv) > 2 else None


def mark(pid: int) -> None:
    if MARKER:
        with open(MARKER, "a") as f:
            f.write(f"{pid}\n")


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def raw(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def spawn_orphan(new_session: bool) -> None:
    """Double fork a sleeper that tries to outlive the bot."""
    pid = os.fork()
    if pid == 0:
        if new_session:
            os.setsid()
        pid2 = os.fork()
        if pid2 == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            mark(os.getpid())
            time.sleep(600)
        os._exit(0)
    os.waitpid(pid, 0)


def main() -> None:
    mark(os.getpid())
    if MODE == "exit_at_once":
        return
    if MODE == "ignore_term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "slow_start":
        time.sleep(0.8)
    if MODE in ("orphan", "orphan_setsid"):
        spawn_orphan(MODE == "orphan_setsid")
    decisions = 0
    while True:
        line = sys.stdin.readline()
        if not line:
            if MODE == "linger_after_end":
                time.sleep(600)
            return
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            if MODE == "never_ready":
                time.sleep(600)
            if MODE == "late_ready":
                time.sleep(1.5)
            if MODE == "nested_ready":
                deep = b"{" + b'"a":{' * 5000 + b"}" * 5001
                raw(b'{"type":"ready","name":"deep","version":' + deep + b"}\n")
                continue
            send({"type": "ready", "name": f"zoo-{MODE}"})
            continue
        if kind == "end":
            if MODE in ("linger_after_end", "ignore_term"):
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                time.sleep(600)
            return
        if kind != "act":
            continue
        decisions += 1
        reply = {"type": "action", "id": msg["id"], "index": 0}
        if decisions < 2 or MODE in (
            "ok",
            "slow_start",
            "orphan",
            "orphan_setsid",
            "linger_after_end",
            "ignore_term",
        ):
            send(reply)
            continue
        if MODE == "stray_lines":
            # After each reply: a debug line, a duplicate reply and a burst of text.
            send(reply)
            raw(b"debug: thinking about the next move\n")
            send(reply)
            raw(b"".join(b"log line %d\n" % i for i in range(50)))
            continue
        if MODE == "crash":
            sys.exit(3)
        elif MODE == "close_stdout":
            os.close(1)
            time.sleep(600)
        elif MODE == "hang":
            time.sleep(600)
        elif MODE == "late":
            time.sleep(0.6)
            send(reply)
        elif MODE == "very_late":
            time.sleep(2.5)  # beyond the zoo tests' 1.5 s move time
            send(reply)
        elif MODE == "garbage":
            raw(b"this is not json\n")
        elif MODE == "json_array":
            raw(b"[1, 2, 3]\n")
        elif MODE == "nested_array":
            raw(b"[" * 1000 + b"]" * 1000 + b"\n")
        elif MODE == "nested_reply":
            nested = b"[" * 5000 + b"]" * 5000
            raw(
                b'{"type":"action","id":'
                + str(msg["id"]).encode()
                + b',"action":'
                + nested
                + b"}\n"
            )
        elif MODE == "nested_action":
            nested = b'{"kind":"add","amount":' * 600 + b"1" + b"}" * 600
            raw(
                b'{"type":"action","id":'
                + str(msg["id"]).encode()
                + b',"action":'
                + nested
                + b"}\n"
            )
        elif MODE == "wrong_type":
            send({"type": "ready"})
        elif MODE == "wrong_id":
            send({**reply, "id": msg["id"] + 1000})
        elif MODE == "index_out_of_range":
            send({**reply, "index": len(msg["legal"])})
        elif MODE == "not_legal":
            send({"type": "action", "id": msg["id"], "action": {"kind": "add", "amount": 7}})
        elif MODE == "extra_field":
            action = dict(msg["legal"][0], surprise=1)
            send({"type": "action", "id": msg["id"], "action": action})
        elif MODE == "missing_field":
            send({"type": "action", "id": msg["id"], "action": {"kind": msg["legal"][0]["kind"]}})
        elif MODE == "both":
            send({**reply, "action": msg["legal"][0]})
        elif MODE == "huge_line":
            chunk = b"x" * (1 << 20)
            for _ in range(100):
                raw(chunk)
            time.sleep(600)
        elif MODE == "flood_stderr":
            chunk = b"e" * (1 << 16)
            for _ in range(200):
                sys.stderr.buffer.write(chunk)
            sys.stderr.flush()
            send(reply)
        elif MODE == "unsolicited":
            send(reply)
            for i in range(1000):
                send({"type": "chatter", "n": i})
        elif MODE == "non_utf8":
            raw(
                b'{"type":"action","id":'
                + str(msg["id"]).encode()
                + b',"index":0,"x":"\xff\xfe"}\n'
            )
        elif MODE == "memory":
            hog = []
            while True:
                hog.append(bytearray(64 << 20))
        else:
            send(reply)


if __name__ == "__main__":
    main()
