"""Residual channels between two sandboxed bots: measured bandwidth (docs/security.md).

Two bots under bubblewrap (seccomp filter, constant /proc counters, cgroup freezer
where the referee is root) try to pass random bits through what no sandbox on one
kernel can hide, in two settings:

* taking turns, as in a match without pondering: the referee thaws the sender, asks
  it to send a bit, freezes it, then thaws the receiver and asks it to read, one bit
  per pair of moves.  Channels: the host's task count (``sysinfo().procs``; the
  sender keeps 64 threads or none; frozen threads still count) and free memory
  (``sysinfo().freeram``; the sender holds 256 MiB or not);
* running at once (pondering, or two matches at ``--concurrency`` 2 on one core):
  CPU load; in each 20 ms slot the sender spins or sleeps and the receiver counts
  how far its own loop gets (both bound to one core).

Each line: bits sent, bit errors, the channel's capacity per use (``1 - H(error
rate)``) and bits per second at the rate the harness ran (turn pairs as fast as the
referee can drive them; slots of 20 ms).  Run as root for the freezer:
``python -m benchmarks.covert [--bits N]``.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import statistics
import sys
import time
from typing import Any

import click
from tabulate import tabulate

from benchmarks.figures import command_line, load_report
from referee.process.bot import BotProcess
from referee.process.isolation.sandbox import SandboxPolicy, bwrap_problem
from referee.process.protocol import PROTOCOL_VERSION, Act, MoveClock, Start, StartClock
from referee.process.spec import BotLimits, BotSpec

BOT = r"""
import ctypes, json, os, sys, threading, time
libc = ctypes.CDLL(None)
class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                ("totalram", ctypes.c_ulong), ("freeram", ctypes.c_ulong),
                ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong),
                ("procs", ctypes.c_ushort), ("pad", ctypes.c_ushort),
                ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("_f", ctypes.c_char * 8)]
def info():
    s = SysInfo()
    libc.sysinfo(ctypes.byref(s))
    return s
threads, stop, memory = [], [threading.Event()], [None]
def send(channel, bit):
    if channel == "tasks":
        if bit and not threads:
            stop[0] = threading.Event()
            for _ in range(64):
                t = threading.Thread(target=stop[0].wait)
                t.start()
                threads.append(t)
        elif not bit and threads:
            stop[0].set()
            for t in threads:
                t.join()
            threads.clear()
    elif channel == "memory":
        if bit and memory[0] is None:
            memory[0] = bytearray(256 << 20)
            for i in range(0, len(memory[0]), 4096):
                memory[0][i] = 1
        elif not bit:
            memory[0] = None
def read(channel):
    s = info()
    return s.procs if channel == "tasks" else s.freeram * s.mem_unit >> 20
def cpu(role, bits, t0, slot):
    counts = []
    for i, bit in enumerate(bits):
        start, end = t0 + i * slot, t0 + (i + 1) * slot
        while time.monotonic() < start:
            time.sleep(0.0005)
        n = 0
        while time.monotonic() < end:
            if role == "send":
                if not bit:
                    time.sleep(end - time.monotonic() if end > time.monotonic() else 0)
            else:
                n += 1
        counts.append(n)
    if role == "recv":
        kept[:] = counts
kept = []
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        do = msg["view"]
        value = 0
        if do["do"] == "send":
            send(do["channel"], do["bit"])
        elif do["do"] == "recv":
            value = read(do["channel"])
        elif do["do"] == "count":
            value = kept[do["i"]]
        else:
            cpu(do["role"], do["bits"], do["t0"], do["slot"])
        print(json.dumps({"type": "action", "id": msg["id"], "index": value}), flush=True)
    elif msg["type"] == "end":
        break
"""

START = Start(PROTOCOL_VERSION, "covert", "toy", {}, 0, 2, ["a", "b"], StartClock(1, 1, 0))


def capacity(errors: int, bits: int) -> float:
    """Capacity per use of a binary symmetric channel with this error rate."""
    p = min(errors / bits, 1 - errors / bits) if bits else 0.5
    return 1.0 if p == 0 else 1 + p * math.log2(p) + (1 - p) * math.log2(1 - p)


class Pair:
    """The sender and the receiver, with a running act counter."""

    def __init__(self, sender: BotProcess, receiver: BotProcess) -> None:
        self.sender, self.receiver, self.ids = sender, receiver, 0

    async def act(self, bot: BotProcess, view: dict[str, Any]) -> int:
        self.ids += 1
        act = Act(self.ids, self.ids, view, [0, 1], [], MoveClock(60_000, 0))
        reply, _ = await bot.act(act, 60.0)
        return int(reply.index or 0)


async def turns(pair: Pair, channel: str, bits: list[int]) -> tuple[int, int, float]:
    """Send ``bits`` one per pair of moves, each bot frozen while the other moves;
    returns (bits, errors, seconds).  The first 16 bits (0101...) calibrate."""
    readings = []
    t0 = time.perf_counter()
    for bit in bits:
        pair.sender.thaw()
        await pair.act(pair.sender, {"do": "send", "channel": channel, "bit": bit})
        await pair.sender.freeze()
        pair.receiver.thaw()
        readings.append(await pair.act(pair.receiver, {"do": "recv", "channel": channel}))
        await pair.receiver.freeze()
    elapsed = time.perf_counter() - t0
    pair.sender.thaw()
    await pair.act(pair.sender, {"do": "send", "channel": channel, "bit": 0})
    ones = [r for r, b in zip(readings[:16], bits[:16], strict=True) if b]
    zeros = [r for r, b in zip(readings[:16], bits[:16], strict=True) if not b]
    middle = (sum(ones) / len(ones) + sum(zeros) / len(zeros)) / 2
    high = sum(ones) > sum(zeros)
    decoded = [int((r > middle) == high) for r in readings]
    errors = sum(d != b for d, b in zip(decoded[16:], bits[16:], strict=True))
    return len(bits) - 16, errors, elapsed


async def at_once(pair: Pair, bits: list[int], slot: float) -> tuple[int, int, float]:
    """Send ``bits`` by CPU load, both bots running, one per ``slot`` seconds."""
    pair.sender.thaw()
    pair.receiver.thaw()
    t0 = time.monotonic() + 0.5
    view = {"bits": bits, "t0": t0, "slot": slot}
    await asyncio.gather(
        pair.act(pair.sender, {"do": "cpu", "role": "send", **view}),
        pair.act(pair.receiver, {"do": "cpu", "role": "recv", **view}),
    )
    counts = [await pair.act(pair.receiver, {"do": "count", "i": i}) for i in range(len(bits))]
    calib = 16
    ones = [c for c, b in zip(counts[:calib], bits[:calib], strict=True) if b]
    zeros = [c for c, b in zip(counts[:calib], bits[:calib], strict=True) if not b]
    middle = (sum(ones) / len(ones) + sum(zeros) / len(zeros)) / 2
    decoded = [int(c < middle) for c in counts]  # a spinning sender slows the receiver
    errors = sum(d != b for d, b in zip(decoded[calib:], bits[calib:], strict=True))
    return len(bits) - calib, errors, len(bits) * slot


async def measure(bits: int) -> list[dict[str, Any]]:
    policy = SandboxPolicy("bwrap")
    limits = BotLimits(exit_grace_s=0.2, term_grace_s=0.2)
    spec = BotSpec("covert", [sys.executable, "-c", BOT])
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # both bots on one core
    sender = await BotProcess.spawn(spec, limits=limits, sandbox=policy)
    receiver = await BotProcess.spawn(spec, limits=limits, sandbox=policy)
    rows = []
    try:
        for bot in (sender, receiver):
            await bot.handshake(START, 20_000)
        pair = Pair(sender, receiver)
        rng = random.Random(1)
        calibration = [1, 0] * 8
        for channel in ("tasks", "memory"):
            message = calibration + [rng.randrange(2) for _ in range(bits)]
            sent, errors, seconds = await turns(pair, channel, message)
            rows.append(row(f"{channel}, taking turns", sent, errors, seconds))
        message = calibration + [rng.randrange(2) for _ in range(bits)]
        sent, errors, seconds = await at_once(pair, message, 0.02)
        rows.append(row("CPU load, running at once", sent, errors, seconds))
    finally:
        await sender.close(graceful=False)
        await receiver.close(graceful=False)
    return rows


def row(name: str, sent: int, errors: int, seconds: float) -> dict[str, Any]:
    per_use = capacity(errors, sent)
    return {
        "channel": name,
        "bits": sent,
        "errors": errors,
        "capacity per use": round(per_use, 3),
        "bits/s": round(per_use * (sent + 16) / seconds, 1),  # calibration uses too
    }


@click.command()
@click.option("--bits", type=click.IntRange(min=16), default=200, show_default=True)
@click.option("--repeats", type=click.IntRange(min=1), default=1, show_default=True)
def main(bits: int, repeats: int) -> None:
    """Print the measured bandwidth of the residual channels between two bots, for each
    of ``--repeats`` runs and, with several, the median and minimum per channel."""
    if bwrap_problem() is not None:
        raise SystemExit(f"no sandbox here: {bwrap_problem()}")
    print(f"command: {command_line('benchmarks.covert', sys.argv[1:])}")
    with load_report("covert"):
        runs = [asyncio.run(measure(bits)) for _ in range(repeats)]
        for rows in runs:
            print(tabulate(rows, headers="keys"))
        if repeats > 1:
            summary = []
            for i, first in enumerate(runs[0]):
                rates = [rows[i]["bits/s"] for rows in runs]
                summary.append(
                    {
                        "channel": first["channel"],
                        "runs": repeats,
                        "median bits/s": statistics.median(rates),
                        "min bits/s": min(rates),
                    }
                )
            print(tabulate(summary, headers="keys"))


if __name__ == "__main__":
    main()
