"""The turn guard's freeze (issue 32, 3.3; issue 38): where a bot has a cgroup, one
write to its freezer stops all its processes, without reading /proc, and a tracer
of its own (a grandchild that continues its busy parent after every signal) cannot
keep it computing; under the sandbox, ptrace is refused anyway (test_collusion).
The spinner's CPU time is read from outside."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from referee.process.bot import BotFault, BotProcess
from referee.process.isolation.cgroups import freezer_problem
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.protocol import PROTOCOL_VERSION, Start, StartClock
from referee.process.spec import BotLimits, BotSpec
from tests.zoo.procs import frozen_by_cgroup

TRACED_SPINNER = """
import ctypes, json, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
PTRACE_CONT, PTRACE_SEIZE = 7, 0x4206
ready_r, ready_w = os.pipe()
spinner = os.fork()
if spinner == 0:  # the spinner: computes forever, with a tracer child of its own
    if os.fork() == 0:  # the tracer: swallows every signal the spinner is sent
        parent = os.getppid()
        seized = libc.ptrace(PTRACE_SEIZE, parent, None, None) == 0
        os.write(ready_w, b"seized" if seized else os.strerror(ctypes.get_errno()).encode())
        while seized:
            pid, status = os.waitpid(parent, 0x40000000)  # __WALL
            if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                break
            libc.ptrace(PTRACE_CONT, parent, None, None)  # signal 0: swallowed
        os._exit(0)
    while True:
        pass
how = os.read(ready_r, 100).decode()
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": f"{spinner} {how}"}), flush=True)
"""


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def spinner_ticks_while_frozen(limits: BotLimits) -> tuple[str, int, bool]:
    """Start the traced spinner (no sandbox), freeze the bot, and count the spinner's
    CPU ticks over the next 0.5 s; the tracer's report, the ticks, and whether its
    cgroup held it frozen."""

    async def run() -> tuple[str, int, bool]:
        spec = BotSpec("traced", [sys.executable, "-c", TRACED_SPINNER])
        bot = await BotProcess.spawn(spec, limits=limits, sandbox=SandboxPolicy("none"))
        try:
            start = Start(PROTOCOL_VERSION, "m", "toy", {}, 0, 1, ["a"], StartClock(1, 1, 0))
            ready = await bot.handshake(start, 15_000)
            spinner, how = str(ready.name).split(" ", 1)
            await bot.freeze()
            await asyncio.sleep(0.2)  # the tracer has had time to continue it
            before = cpu_ticks(int(spinner))
            await asyncio.sleep(0.5)
            ticks = cpu_ticks(int(spinner)) - before
            by_cgroup = frozen_by_cgroup(int(spinner))
            bot.thaw()
            return how, ticks, by_cgroup
        finally:
            await bot.close(graceful=False)

    return asyncio.run(run())


def test_a_tracer_cannot_keep_a_frozen_bot_computing(monkeypatch: pytest.MonkeyPatch) -> None:
    if (why := freezer_problem()) is not None:
        pytest.skip(f"no cgroup freezer for bots here: {why}")

    async def no_walk(*args: object, **kwargs: object) -> list[int]:
        raise AssertionError("a cgroup freeze reads no process tree")

    monkeypatch.setattr(BotProcess, "_walk", no_walk)
    monkeypatch.setattr(BotProcess, "tree", no_walk)
    limits = BotLimits(exit_grace_s=0.2, term_grace_s=0.2)
    how, ticks, by_cgroup = spinner_ticks_while_frozen(limits)
    assert how == "seized"
    assert by_cgroup
    assert ticks == 0


def test_a_fork_bomb_in_a_frozen_cgroup_is_counted_and_killed() -> None:
    """More processes than max_processes in a frozen group is a crash, and close()
    kills them all although frozen."""
    if (why := freezer_problem()) is not None:
        pytest.skip(f"no cgroup freezer for bots here: {why}")
    script = (
        "import json, os, sys, time\n"
        "for _ in range(40):\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(60)\n"
        "        os._exit(0)\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'type': 'ready'}), flush=True)\n"
    )

    async def run() -> tuple[str, list[int]]:
        spec = BotSpec("bomb", [sys.executable, "-c", script])
        limits = BotLimits(exit_grace_s=0.2, term_grace_s=0.2, max_processes=16)
        bot = await BotProcess.spawn(spec, limits=limits, sandbox=SandboxPolicy("none"))
        start = Start(PROTOCOL_VERSION, "m", "toy", {}, 0, 1, ["a"], StartClock(1, 1, 0))
        await bot.handshake(start, 15_000)
        assert bot._group is not None
        group = bot._group
        try:
            await bot.freeze()
        except BotFault as fault:
            detail = fault.detail
        else:
            detail = ""
        await bot.close(graceful=False)
        return detail, group.pids()

    detail, left = asyncio.run(run())
    assert detail == "ran more than 16 processes at once"
    assert left == []
