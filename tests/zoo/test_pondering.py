"""Only the seat on move computes: a bot's busy processes are stopped while another
seat thinks (referee.process.turns), unless the match allows pondering; and the kernel's
out-of-memory killer takes bots before the referee.

The attacker seat starts a crowd of computing processes after its first move, each
in a session of its own (so the scheduler's per-session fairness cannot contain them);
two seats then take 150 ms per move.  The test samples, from outside, the state of
every process of the attacker (found by a tag on their command line) while the
match runs: stopped while the others think, running throughout when pondering is
allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.match.match import Clock, MatchOutcome, run_match
from referee.match.replay import replay
from referee.process.bot import BotProcess
from referee.process.isolation.sandbox import OOM_SCORE_ADJ, SandboxPolicy, bwrap_problem
from referee.process.spec import BotLimits, BotSpec
from tests.core.toygame import GAME
from tests.zoo.procs import tagged_states, while_ready

BOT = Path(__file__).with_name("ponder_bot.py")


def states(tag: str) -> list[bytes]:
    """Scheduler states of the attacker's live processes (see :mod:`tests.zoo.procs`)."""
    return list(tagged_states(tag).values())


def play_in_thread(
    bots: list[BotSpec], tmp_path: Path, policy: SandboxPolicy, ponder: bool, startup_ms: int
) -> tuple[threading.Thread, list[MatchOutcome]]:
    """A toy-game match of ``bots`` started in a thread of its own (the test samples the
    bots' processes meanwhile); the thread, and the list its outcome is appended to."""
    result: list[MatchOutcome] = []

    def play() -> None:
        result.append(
            asyncio.run(
                run_match(
                    GAME,
                    bots,
                    seed=5,
                    clock=Clock(startup_ms=startup_ms, move_ms=5000, ponder=ponder),
                    options=GAME.parse_options({"target": 18}),
                    record_path=tmp_path / "m.jsonl",
                    limits=BotLimits(exit_grace_s=0.3, term_grace_s=0.3),
                    sandbox=policy,
                    fsync=False,
                )
            )
        )

    thread = threading.Thread(target=play)
    thread.start()
    return thread, result


def watched_match(
    mode: str,
    policy: SandboxPolicy,
    ponder: bool,
    tmp_path: Path,
    crowd: int = 6,
    others: str = "think",
) -> tuple[MatchOutcome, list[list[bytes]], str]:
    """Play the attacker (seat 0, ``mode``, ``crowd`` processes) against two seats
    of mode ``others`` (by default thinking 150 ms a move), sampling the attacker's
    process states every 10 ms meanwhile."""
    tag = f"tag{secrets.token_hex(6)}"
    bots = [
        BotSpec("attacker", [sys.executable, str(BOT), mode, tag, str(crowd)]),
        BotSpec("other1", [sys.executable, str(BOT), others, "x"]),
        BotSpec("other2", [sys.executable, str(BOT), others, "x"]),
    ]
    thread, result = play_in_thread(bots, tmp_path, policy, ponder, startup_ms=15_000)
    samples: list[list[bytes]] = []
    while thread.is_alive():
        found = states(tag)
        if len(found) > crowd:  # the crowd is up (and the bot, and its sandbox helpers)
            samples.append(found)
        time.sleep(0.01)
    thread.join()
    return result[0], samples, tag


def policies() -> list[object]:
    problem = bwrap_problem()
    bwrap = pytest.param(
        SandboxPolicy("bwrap"),
        "crowd",
        id="bwrap-double-forked-crowd",
        marks=pytest.mark.skipif(
            problem is not None and not os.environ.get("CI"), reason=str(problem)
        ),
    )
    return [bwrap, pytest.param(SandboxPolicy("none"), "children", id="none-child-crowd")]


@pytest.mark.parametrize(("policy", "mode"), policies())
def test_a_waiting_bots_processes_are_stopped_while_others_think(
    policy: SandboxPolicy, mode: str, tmp_path: Path
) -> None:
    outcome, samples, tag = watched_match(mode, policy, False, tmp_path)
    assert outcome.verdicts == ["ok", "ok", "ok"], [s.detail for s in outcome.seats]
    assert len(samples) >= 10, "the crowd never came up"
    stopped = [s for s in samples if all(state in (b"T", b"t") for state in s)]
    # Running only in the attacker's own (instant) moves and the first 10 ms of each
    # 150 ms think of the others: most samples find every process stopped.
    assert len(stopped) >= 0.6 * len(samples), (len(stopped), len(samples))
    assert replay(tmp_path / "m.jsonl", lookup=lambda name: GAME).header.clock.get("ponder") is None
    deadline = time.monotonic() + 3.0
    while states(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert states(tag) == [], "a process of the attacker outlived its match"


def test_with_pondering_allowed_nothing_is_stopped(tmp_path: Path) -> None:
    outcome, samples, _ = watched_match("children", SandboxPolicy("none"), True, tmp_path)
    assert outcome.verdicts == ["ok", "ok", "ok"]
    assert len(samples) >= 10
    assert not any(state in (b"T", b"t") for s in samples for state in s)
    assert any(b"R" in s for s in samples)  # the crowd was seen computing
    assert replay(tmp_path / "m.jsonl", lookup=lambda name: GAME).header.clock["ponder"] == 1


@pytest.mark.parametrize(("policy", "mode"), policies())
def test_the_out_of_memory_killer_takes_bots_first(
    policy: SandboxPolicy, mode: str, tmp_path: Path
) -> None:
    """Every process of a bot, the sandbox's own included, has the highest
    oom_score_adj, so a bot that fills the memory cannot have the referee killed."""

    def adjustments(bot: BotProcess) -> list[int]:
        found = []
        for pid in bot.tree():
            with open(f"/proc/{pid}/oom_score_adj") as f:
                found.append(int(f.read()))
        return found

    _, found = while_ready([sys.executable, str(BOT), "think", "x"], policy, adjustments)
    assert found and all(adj == OOM_SCORE_ADJ == 1000 for adj in found), found
    with open("/proc/self/oom_score_adj") as f:
        assert int(f.read()) < OOM_SCORE_ADJ  # the referee itself keeps its own


@pytest.mark.parametrize(("policy", "mode"), policies())
def test_a_fork_bomb_is_a_crash_and_costs_the_others_no_time(
    policy: SandboxPolicy, mode: str, tmp_path: Path
) -> None:
    """A bot found running more than 256 processes while others think is faulted at
    once (reading a huge tree could take seconds), its processes stay stopped, and
    it is ended between two moves, so the others' clocks see none of it."""
    outcome, _, tag = watched_match("bomb", policy, False, tmp_path, crowd=400)
    assert outcome.verdicts == ["crash", "ok", "ok"], [s.detail for s in outcome.seats]
    assert outcome.seats[0].detail == "ran more than 256 processes at once"
    assert all(s.max_ms < 1000 for s in outcome.seats[1:]), [s.max_ms for s in outcome.seats]
    result = replay(tmp_path / "m.jsonl", lookup=lambda name: GAME)
    assert result.result.ranks == outcome.ranks
    deadline = time.monotonic() + 10.0
    while states(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert states(tag) == [], "a process of the bomb outlived its match"


def bot_pids(tag: str) -> list[int]:
    """Pids of the Python processes of :data:`BOT` whose command line holds ``tag``
    (not the sandbox's own processes, which carry the tag too)."""
    found = []
    for pid in tagged_states(tag):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if len(argv) > 2 and argv[1].endswith(BOT.name.encode()) and tag.encode() in argv[3:4]:
            found.append(pid)
    return found


@pytest.mark.parametrize("ponder", [False, True])
def test_a_bot_ready_early_is_stopped_while_the_others_start(ponder: bool, tmp_path: Path) -> None:
    """The same attack during start-up: the attacker answers start at once and starts
    its crowd as it answers while the others are held in start-up; it is stopped meanwhile.

    The others answer ``start`` only when the test releases them, once it has
    sampled the crowd (every process up) enough times: the verdict rests on counts of
    samples, never on how many fit into some wall-clock time.  Without pondering the
    crowd may run briefly before the referee stops it (the samples until then), but
    once stopped it stays stopped until the others are ready; with pondering no
    sample is stopped."""
    wanted = 30
    tag, others_tag = f"tag{secrets.token_hex(6)}", f"held{secrets.token_hex(6)}"
    bots = [
        BotSpec("attacker", [sys.executable, str(BOT), "early", tag, "6"]),
        BotSpec("other1", [sys.executable, str(BOT), "held_start", others_tag]),
        BotSpec("other2", [sys.executable, str(BOT), "held_start", others_tag]),
    ]
    policy = SandboxPolicy("bwrap") if bwrap_problem() is None else SandboxPolicy("none")
    thread, result = play_in_thread(bots, tmp_path, policy, ponder, startup_ms=30_000)
    held: list[list[bytes]] = []  # samples of the whole crowd while the others are held
    stopped = 0
    while thread.is_alive() and (stopped if not ponder else len(held)) < wanted:
        found = states(tag)
        if len(found) > 6:  # the crowd is up (and the bot, and its sandbox helpers)
            held.append(found)
            stopped += all(state in (b"T", b"t") for state in found)
        time.sleep(0.01)
    while thread.is_alive():  # release the others (again, should one come too early)
        for pid in bot_pids(others_tag):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGWINCH)
        time.sleep(0.05)
    thread.join()
    outcome = result[0]
    assert outcome.verdicts == ["ok", "ok", "ok"], [s.detail for s in outcome.seats]
    flags = [all(state in (b"T", b"t") for state in s) for s in held]
    if ponder:
        assert len(held) >= wanted and not any(flags), flags
    else:
        assert stopped >= wanted, (stopped, len(held))
        first = flags.index(True)
        assert all(flags[first:]), flags  # once stopped, stopped until the others are ready
