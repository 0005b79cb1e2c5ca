#!/usr/bin/env python3
"""A hostile bot for sandbox tests: ``hostile_bot.py MODE TAG [TARGET]``.

Plays correctly (first legal action) and, at its second decision, attacks the
referee, the run or the other bots as MODE says.  Everything it finds goes to
stderr as one line ``FOUND <what>`` per finding (the test reads the bot's log), so a
test asserts on what an attacker could reach.  TAG is a unique word placed in the
command line of every process the bot starts, so a test can find them in the host's
/proc; TARGET is a path an attacker is assumed to know (the run directory).

Modes: ``sibling_killer`` (SIGSTOP and SIGKILL the other bots), ``stdin_thief``
(read the other bots' stdin), ``stdout_injector`` (write a reply into the other
bots' stdout), ``proc_spy`` (read every visible command line and environment),
``db_forger`` (read the manifest and live records of TARGET and rewrite its results
database), ``parent_killer`` (SIGKILL its parent and process 1), ``scrubbed_chain``
(a new session, an empty environment, a chain of forks 6 deep), ``network``
(connect to the TCP port TARGET on 127.0.0.1 and read a byte).
"""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

MODE, TAG = sys.argv[1], sys.argv[2]
# "target=PATH" (not a bare path, which would make the referee show it to the bot).
TARGET = sys.argv[3].partition("=")[2] if len(sys.argv) > 3 else ""


def found(what: str) -> None:
    sys.stderr.write(f"FOUND {what}\n")
    sys.stderr.flush()


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def others() -> list[int]:
    """Every other visible process but those of this bot's own sandbox (its first
    process, which carries this bot's own environment, marker included: readable
    where the sandbox runs as the referee's user, and no secret)."""
    me = os.getpid()
    own = f"REFEREE_BOT={os.environ.get('REFEREE_BOT', '')}\0".encode()
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == me:
            continue
        try:
            if own in Path(f"/proc/{p}/environ").read_bytes():
                continue
        except OSError:
            pass
        out.append(int(p))
    return out


def victims() -> list[int]:
    """The other bots of this match: visible processes whose command line holds
    ``victim-TAG`` (the test marks them so), so that an attack run without a sandbox
    harms nothing else on the machine."""
    mark = f"victim-{TAG}".encode()
    out = []
    for pid in others():
        try:
            if mark in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(pid)
        except OSError:
            pass
    return out


def attack() -> None:
    """Every attack MODE names (several may be joined with ``+``)."""
    for mode in MODE.split("+"):
        attack_one(mode)


def attack_one(mode: str) -> None:
    if mode == "sibling_killer":
        for pid in victims():
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                    found(f"signalled {pid}")
                except OSError:
                    pass
    elif mode == "stdin_thief":
        for pid in victims():
            try:
                fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
                data = os.read(fd, 65536)
                os.close(fd)
                if data:
                    found(f"stdin of {pid}: {data[:40]!r}")
            except OSError:
                pass
    elif mode == "stdout_injector":
        for pid in victims():
            try:
                with open(f"/proc/{pid}/fd/1", "w") as out:
                    out.write('{"type":"action","id":999999,"index":0}\n')
                found(f"wrote into stdout of {pid}")
            except OSError:
                pass
    elif mode == "proc_spy":
        for pid in others():
            for part in ("cmdline", "environ"):
                try:
                    data = Path(f"/proc/{pid}/{part}").read_bytes()
                except OSError:
                    continue
                if b"--seed" in data or b"referee" in data:
                    found(f"{part} of {pid}: {data[:80]!r}")
    elif mode == "db_forger":
        run = Path(TARGET)
        for name in ("manifest.json", "results.sqlite"):
            try:
                (run / name).read_bytes()
                found(f"read {name}")
            except OSError:
                pass
        for path in run.glob("records/*"):
            try:
                path.read_bytes()
                found(f"read {path.name}")
            except OSError:
                pass
        try:
            db = sqlite3.connect(run / "results.sqlite", timeout=0.2)
            db.execute("UPDATE matches SET ranks = '[1,1,1]'")
            db.commit()
            found("rewrote results.sqlite")
        except sqlite3.Error:
            pass
    elif mode == "parent_killer":
        for pid in {os.getppid(), 1}:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                continue
            # A namespace's first process ignores SIGKILL sent from inside it: only a
            # process that is gone was killed.
            time.sleep(0.2)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                found(f"killed {pid}")
            except OSError:
                pass
    elif mode == "scrubbed_chain":
        if os.fork() == 0:
            os.setsid()
            code = (
                "import os, sys, time\n"
                "for _ in range(6):\n"
                "    if os.fork():\n"
                "        break\n"
                "time.sleep(600)\n"
            )
            os.execve(sys.executable, [sys.executable, "-c", code, TAG], {})
    elif mode == "network":
        try:
            with socket.create_connection(("127.0.0.1", int(TARGET)), timeout=0.5) as conn:
                found(f"connected, read {conn.recv(1)!r}")
        except OSError:
            pass


def main() -> None:
    decisions = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start":
            send({"type": "ready", "name": f"hostile-{MODE}"})
        elif msg["type"] == "act":
            decisions += 1
            if decisions == 2:
                attack()
                time.sleep(0.05)
            send({"type": "action", "id": msg["id"], "index": 0})
        elif msg["type"] == "end":
            break
    if "scrubbed_chain" in MODE:
        subprocess.run([sys.executable, "-c", "import time; time.sleep(600)", TAG], check=False)


if __name__ == "__main__":
    main()
