"""One memory cap over all of a bot's processes (docs/protocol.md, "Your process").

A bot that spreads its memory over many processes must meet its own cap, not make the
kernel's out-of-memory killer take another bot.  These tests need memory cgroups
(the referee as root); they skip elsewhere, except in CI, which runs as root.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Literal

import pytest

from referee.match.match import Clock, MatchOutcome, run_match
from referee.process.bot import BotProcess
from referee.process.isolation import cgroups as cgroup_module
from referee.process.isolation.cgroups import memory_group, memory_problem
from referee.process.isolation.sandbox import SandboxPolicy, bwrap_problem
from referee.process.spec import BotLimits, BotSpec
from tests.core.toygame import GAME
from tests.zoo.procs import ready_name, require, while_ready

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = [sys.executable, str(ROOT / "bots" / "random_bot.py")]


@pytest.fixture(autouse=True)
def cgroups() -> None:
    """Skips where memory cgroups cannot be made (fails in CI)."""
    require(memory_problem(), "memory")


def play(
    bots: list[BotSpec], max_memory_mb: int, mode: Literal["bwrap", "none"] = "none"
) -> MatchOutcome:
    """One toy-game match of ``bots`` under a memory cap of ``max_memory_mb`` MiB."""
    return asyncio.run(
        run_match(
            GAME,
            bots,
            seed=1,
            clock=Clock(startup_ms=15_000, move_ms=5000),
            limits=BotLimits(max_memory_mb=max_memory_mb),
            sandbox=SandboxPolicy(mode),
            fsync=False,
        )
    )


SPREADER = """
import json, os, sys
children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = b"x" * (40 << 20)  # 40 MiB, every page written
        os._exit(0)
    children.append(pid)
killed = sum(os.waitpid(pid, 0)[1] & 0x7F == 9 for pid in children)
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": str(killed)}), flush=True)
"""


@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_memory_spread_over_processes_meets_one_cap(mode: str) -> None:
    """Four children of 40 MiB each are more than a 64 MiB cap together, though each
    alone is under it: the kernel kills some of them, inside the bot; with a cap of
    1 GiB all four finish."""
    if mode == "bwrap" and bwrap_problem() is not None:
        pytest.skip(str(bwrap_problem()))
    policy = SandboxPolicy(mode)  # type: ignore[arg-type]
    assert int(ready_name(SPREADER, policy, BotLimits(max_memory_mb=64))[0]) >= 1
    assert ready_name(SPREADER, policy, BotLimits(max_memory_mb=1024))[0] == "0"


GROWER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready", "name": "grower"}), flush=True)
    elif message["type"] == "act":
        hoard = b"x" * (200 << 20)
        print(json.dumps({"type": "action", "id": message["id"], "index": 0}), flush=True)
"""


def test_a_bot_over_its_cap_crashes_and_the_verdict_says_why(tmp_path: Path) -> None:
    """The bot is killed on its first move; its seat gets ``crash`` naming the cap, and
    the other seats finish ``ok``."""
    script = tmp_path / "grower.py"
    script.write_text(GROWER)
    tmp_path.chmod(0o755)  # as root, bots run as their own uid: their folder must be readable
    grower = BotSpec("grower", [sys.executable, str(script)])
    mode: Literal["bwrap", "none"] = "bwrap" if bwrap_problem() is None else "none"
    outcome = play([BotSpec("a", RANDOM_BOT), grower, BotSpec("b", RANDOM_BOT)], 64, mode)
    assert outcome.verdicts == ["ok", "crash", "ok"], [s.detail for s in outcome.seats]
    assert "max_memory_mb (64 MiB)" in outcome.seats[1].detail


def test_a_reused_group_reports_only_its_own_bots_kills(tmp_path: Path) -> None:
    """Groups are reused by later bots with the same cap: a bot that crashes in a group
    where an earlier bot had processes killed is not said to have gone over the cap."""
    limits = BotLimits(max_memory_mb=64)
    policy = SandboxPolicy("none")
    assert int(ready_name(SPREADER, policy, limits)[0]) >= 1  # kills in its group
    crasher = BotSpec(
        "crash", [sys.executable, str(ROOT / "tests" / "zoo" / "zoo_bot.py"), "crash"]
    )
    outcome = play([crasher, BotSpec("a", RANDOM_BOT)], 64)  # seat 0 takes the group first
    assert outcome.verdicts == ["crash", "ok"], [s.detail for s in outcome.seats]
    assert "max_memory_mb" not in outcome.seats[0].detail


def test_a_forked_child_makes_groups_of_its_own() -> None:
    """A forked worker (a tournament's process pool) never hands out its parent's
    groups: its groups live in a folder of its own."""
    mine = memory_group(64)
    assert mine is not None
    mine.release()  # a free group the child must not take
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        group = memory_group(64)
        os.write(write, str(group.path if group else "").encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as pipe:
        theirs = Path(pipe.read())
    assert theirs.parent != mine.path.parent
    theirs.rmdir()
    theirs.parent.rmdir()


HOARDER = """
import json, sys
hoard = b"x" * (48 << 20)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready", "name": "hoarder"}), flush=True)
    elif message["type"] == "act":
        print(json.dumps({"type": "action", "id": message["id"], "index": 0}), flush=True)
"""


def test_each_seat_reports_the_peak_of_its_own_processes(tmp_path: Path) -> None:
    """Bots holding 48 MiB report a peak of at least that; small bots that get their
    groups next report their own peaks only (a reused group's old peak is reset)."""
    script = tmp_path / "hoarder.py"
    script.write_text(HOARDER)
    tmp_path.chmod(0o755)

    def peaks(bots: list[BotSpec]) -> list[float]:
        outcome = play(bots, 1024)
        assert outcome.verdicts == ["ok", "ok"], [s.detail for s in outcome.seats]
        assert all(s.peak_mb is not None for s in outcome.seats)
        return [s.peak_mb or 0.0 for s in outcome.seats]

    hoarders = [BotSpec(f"h{k}", [sys.executable, str(script)]) for k in range(2)]
    assert all(48 <= peak < 1024 for peak in peaks(hoarders))
    small = [BotSpec(f"r{k}", RANDOM_BOT) for k in range(2)]
    assert all(peak < 40 for peak in peaks(small))  # in the hoarders' groups


LOOKER = """
import json, os, sys
targets = []
for fd in sorted(os.listdir("/proc/self/fd")):
    try:
        targets.append(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:  # the listing's own descriptor, closed since
        pass
try:
    init = [os.readlink(f"/proc/1/fd/{fd}") for fd in os.listdir("/proc/1/fd")]
except PermissionError:
    init = None
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": json.dumps([targets, init])}), flush=True)
"""


@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_every_process_of_the_bot_is_in_its_group_and_holds_no_descriptor_of_it(
    mode: str,
) -> None:
    """Whether the bot joins its group first (``none``) or from inside its sandbox
    (``bwrap`` on cgroup v1, with the kernel's wait started at spawn by
    ``warm_up``), the bot's own process is in its group when it runs, and the
    descriptor through which it joined is closed before the bot's program starts
    (the bot's only open files are its three pipes); in the sandbox, the open files
    of its first process (bubblewrap's, which keeps that descriptor) cannot be read."""
    if mode == "bwrap" and bwrap_problem() is not None:
        pytest.skip(str(bwrap_problem()))

    def members(bot: BotProcess) -> tuple[list[int], list[int]]:
        group = bot._group
        assert group is not None
        return group.pids(), bot.tree()

    policy = SandboxPolicy(mode)  # type: ignore[arg-type]
    name, (inside, tree) = while_ready([sys.executable, "-c", LOOKER], policy, members, BotLimits())
    targets, init = json.loads(name)
    assert len(targets) == 3 and all(t.startswith("pipe:") for t in targets), targets
    if mode == "bwrap":  # the sandbox's first process still holds it: out of reach
        assert init is None, init
    assert tree[-1] in inside  # the bot's program itself, the deepest process
    if mode == "none":
        assert sorted(inside) == sorted(tree)


def test_a_warm_up_moves_nothing_and_is_not_started_twice() -> None:
    """``warm_up`` moves this process into the cgroup it is already in (so nothing
    moves), in a thread of its own, and does not queue a second one while one is
    under way."""
    before = Path("/proc/self/cgroup").read_text()
    cgroup_module.warm_up()
    first = cgroup_module._warming
    cgroup_module.warm_up()
    assert first is not None and (cgroup_module._warming is first or first.done())
    first.result(timeout=30)
    assert Path("/proc/self/cgroup").read_text() == before


def test_a_forked_child_warms_up_with_a_thread_of_its_own() -> None:
    """A forked worker does not inherit its parent's warm-up thread (it does not run
    there): its warm-ups run in a thread of its own and finish."""
    cgroup_module.warm_up()
    assert cgroup_module._warming is not None
    cgroup_module._warming.result(timeout=30)  # the parent's thread has started
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            cgroup_module.warm_up()
            assert cgroup_module._warming is not None
            cgroup_module._warming.result(timeout=30)
            os.write(write, b"done")
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as pipe:
        assert pipe.read() == "done"
