"""Helpers of the sandbox and pondering tests: finding a bot's processes from outside,
by a tag on their command line (which every process of the bot inherits), and
starting a one-file bot that reports what it found in its ``ready`` name."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from referee.process.bot import BotProcess
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.protocol import PROTOCOL_VERSION, Start, StartClock
from referee.process.spec import BotLimits, BotSpec

T = TypeVar("T")


def require(problem: str | None, what: str) -> None:
    """Skip the test when ``problem`` (why ``what`` cannot run here) is not ``None``;
    in CI (``CI`` set), which must run ``what`` for real, fail it instead."""
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the {what} tests for real: {problem}")
        pytest.skip(problem)


def spawned(monkeypatch: pytest.MonkeyPatch) -> list[BotProcess]:
    """Every bot process started from now on (the list fills as they start)."""
    found: list[BotProcess] = []
    spawn = BotProcess.spawn

    async def spy(*args: object, **kwargs: object) -> BotProcess:
        proc = await spawn(*args, **kwargs)  # type: ignore[arg-type]
        found.append(proc)
        return proc

    monkeypatch.setattr(BotProcess, "spawn", spy)
    return found


def frozen_by_cgroup(pid: int) -> bool:
    """True if ``pid`` is in a cgroup v2 group its freezer holds frozen
    (``cgroup.events``; the referee uses no v1 freezer, see
    :mod:`referee.process.isolation.cgroups`):
    the kernel shows such a process as ``D`` or ``S``."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        _, controllers, where = line.split(":", 2)
        if controllers == "":
            for top in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"):
                events = Path(top, where.lstrip("/"), "cgroup.events")
                if events.exists() and "frozen 1" in events.read_text():
                    return True
    return False


def scheduler_state(pid: int) -> bytes | None:
    """The scheduler state letter of ``pid`` (``R``, ``S``, ``T``...), ``T`` (stopped)
    also for a process its cgroup holds frozen; ``None`` once it is gone."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    if state not in (b"T", b"t", b"Z") and frozen_by_cgroup(pid):
        return b"T"
    return state


def tagged_states(tag: str) -> dict[int, bytes]:
    """Scheduler state (``R``, ``S``, ``T``...; see :func:`scheduler_state`) of every
    live (non-zombie) host process other than this one whose command line holds
    ``tag``, by pid."""
    found: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if tag.encode() in cmdline:
            state = scheduler_state(int(entry))
            if state is not None and state != b"Z":
                found[int(entry)] = state
    return found


def ready_name(
    script: str, policy: SandboxPolicy, limits: BotLimits | None = None
) -> tuple[str, list[str]]:
    """Start ``python -c script`` under ``policy`` and ``limits``, send ``start``, and
    return the name its ``ready`` gives (the script's report) and what its working
    directory holds on the host at that moment."""
    return while_ready(
        [sys.executable, "-c", script], policy, lambda bot: os.listdir(bot.workdir), limits
    )


def while_ready(
    argv: list[str],
    policy: SandboxPolicy,
    look: Callable[[BotProcess], T],
    limits: BotLimits | None = None,
) -> tuple[str, T]:
    """Start the bot ``argv`` under ``policy`` and ``limits``, send ``start``, and once
    it has answered (so the bot itself runs) return its ``ready`` name and what
    ``look`` finds of the live process; the bot is then closed."""

    async def run() -> tuple[str, T]:
        bot = await BotProcess.spawn(BotSpec("probe", argv), limits=limits, sandbox=policy)
        try:
            start = Start(PROTOCOL_VERSION, "m", "toy", {}, 0, 1, ["a"], StartClock(1, 1, 0))
            ready = await bot.handshake(start, 15_000)
            return str(ready.name), look(bot)
        finally:
            await bot.close(graceful=False)

    return asyncio.run(run())
