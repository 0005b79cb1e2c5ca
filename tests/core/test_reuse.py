"""Bot processes reused across matches (referee.process.pool; docs/protocol.md, "Reuse").

Each test plays toy-game matches through :func:`referee.match.match.run_match` with one
:class:`referee.process.pool.BotPool` and reads, from every match's stderr logs, which
process (pid) played it.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from pathlib import Path

import msgspec
import pytest

import referee.process.bot
import referee.process.isolation.cgroups
from referee.match.match import Clock, MatchOutcome, run_match
from referee.match.replay import replay
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.pool import BotPool
from referee.process.spec import BotLimits, BotSpec
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.resultsdb import MatchRow
from referee.tournament.run import create_run, run_tournament
from tests.core.toygame import GAME
from tests.zoo.procs import scheduler_state, spawned

ROOT = Path(__file__).resolve().parents[2]
REUSE_BOT = Path(__file__).with_name("reuse_bot.py")
CLOCK = Clock(startup_ms=5000, move_ms=3000)


def bot(name: str, mode: str = "ok") -> BotSpec:
    return BotSpec(name, [sys.executable, str(REUSE_BOT), mode])


async def series(
    tmp: Path,
    lineups: list[list[BotSpec]],
    tags: list[str],
    pool: BotPool,
    limits: BotLimits | None = None,
) -> list[MatchOutcome]:
    """Play one match per lineup (match ``m<k>``, tag ``tags[k]``) with ``pool``, the
    run directory ``tmp`` hidden; close the pool at the end."""
    outcomes = []
    try:
        for k, (lineup, tag) in enumerate(zip(lineups, tags, strict=True)):
            outcomes.append(
                await run_match(
                    GAME,
                    lineup,
                    seed=k,
                    clock=CLOCK,
                    match_id=f"m{k}",
                    record_path=tmp / "records" / f"m{k}.jsonl",
                    log_dir=tmp / "logs" / f"m{k}",
                    fsync=False,
                    limits=limits,
                    sandbox=SandboxPolicy("none", False, (str(tmp.resolve()),)),
                    pool=pool,
                    reuse_tag=tag,
                )
            )
    finally:
        await pool.close()
    return outcomes


def pids(tmp: Path, match: int) -> list[int]:
    """The pid that played each seat of match ``m<match>``, from its stderr logs; every
    log must hold exactly that match's start line."""
    found = []
    for seat in range(len(list((tmp / "logs" / f"m{match}").glob("seat*.stderr.log")))):
        text = (tmp / "logs" / f"m{match}" / f"seat{seat}.stderr.log").read_text()
        lines = re.findall(r"pid (\d+) match (\S+) n \d+", text)
        assert [m for _, m in lines] == [f"m{match}"], text
        found.append(int(lines[0][0]))
    return found


def test_processes_are_reused_across_blocks_and_logs_follow_the_match(tmp_path: Path) -> None:
    pool = BotPool()
    lineup = [bot("a"), bot("b")]
    out = asyncio.run(series(tmp_path, [lineup] * 3, ["b0", "b1", "b2"], pool))
    assert all(o.verdicts == ["ok", "ok"] for o in out)
    assert pids(tmp_path, 0) == pids(tmp_path, 1) == pids(tmp_path, 2)
    assert (pool.spawned, pool.reused) == (2, 4)
    for k in range(3):  # every record still replays with its chance checked
        assert replay(tmp_path / "records" / f"m{k}.jsonl", lookup=lambda _: GAME).chance_checked


def test_no_process_plays_two_rotations_of_one_block(tmp_path: Path) -> None:
    pool = BotPool()
    a, b = bot("a"), bot("b")
    tags = ["block-7", "block-7", "block-8", "block-7"]
    asyncio.run(series(tmp_path, [[a, b], [b, a], [a, b], [b, a]], tags, pool))
    first, second, third, fourth = (set(pids(tmp_path, k)) for k in range(4))
    assert not first & second  # rotation 1 of block 7: all fresh processes
    assert third & (first | second)  # block 8 reuses
    assert not fourth & (first | second)  # block 7 again: only strangers to block 7


def test_entrants_never_share_a_process(tmp_path: Path) -> None:
    pool = BotPool()
    lineups = [[bot("a"), bot("b")], [bot("b"), bot("c")]]
    asyncio.run(series(tmp_path, lineups, ["x", "y"], pool))
    (a0, b0), (b1, c1) = pids(tmp_path, 0), pids(tmp_path, 1)
    assert b1 == b0  # same name, same command: reused
    assert c1 not in (a0, b0)  # same command, other entrant: a fresh process


def test_bots_that_do_not_announce_reuse_get_a_fresh_process(tmp_path: Path) -> None:
    pool = BotPool()
    lineup = [bot("a", "no_reuse"), bot("b")]
    asyncio.run(series(tmp_path, [lineup] * 2, ["x", "y"], pool))
    assert pids(tmp_path, 0)[0] != pids(tmp_path, 1)[0]
    assert pids(tmp_path, 0)[1] == pids(tmp_path, 1)[1]


def test_a_faulted_bot_is_never_reused(tmp_path: Path) -> None:
    pool = BotPool()
    lineup = [bot("a", "illegal"), bot("b")]
    out = asyncio.run(series(tmp_path, [lineup] * 2, ["x", "y"], pool))
    assert [o.verdicts for o in out] == [["illegal", "ok"]] * 2
    assert pids(tmp_path, 0)[0] != pids(tmp_path, 1)[0]


def test_a_bot_that_died_while_idle_is_replaced_without_a_verdict(tmp_path: Path) -> None:
    pool = BotPool()
    lineup = [bot("a", "exit_after_end"), bot("b")]
    out = asyncio.run(series(tmp_path, [lineup] * 2, ["x", "y"], pool))
    assert [o.verdicts for o in out] == [["ok", "ok"]] * 2
    assert pids(tmp_path, 0)[0] != pids(tmp_path, 1)[0]


def test_the_pool_keeps_at_most_max_idle_and_ends_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots handed back over ``max_idle`` are ended with the match (the oldest idle
    ones first), and their seats' outcomes are complete."""
    pool = BotPool(max_idle=1)

    async def scenario() -> tuple[MatchOutcome, list[int], list[int]]:
        out = await play(tmp_path, pool, [bot("a"), bot("b")], 0)
        kept = [p.pid for p in pool.idle()]
        ended = [p for p in played if p.pid not in kept]
        codes = [await asyncio.wait_for(p.process.wait(), 10) for p in ended]
        await pool.close()
        return out, kept, codes

    played = spawned(monkeypatch)
    out, kept, codes = asyncio.run(scenario())
    assert out.verdicts == ["ok", "ok"] and len(played) == 2
    assert len(kept) == 1 and len(codes) == 1 and codes[0] is not None
    assert all(s.moves > 0 and s.unsolicited_lines == 0 for s in out.seats)


def test_a_pooled_bot_whose_log_cannot_open_is_ended_and_the_error_raised(
    tmp_path: Path,
) -> None:
    """The referee's own failure while taking an idle process (its stderr log cannot
    be opened) is raised by the match, and that process is ended, not lost."""
    pool = BotPool()
    logs = tmp_path / "logs"

    async def scenario() -> tuple[list[int], BaseException | None]:
        kw = {"clock": CLOCK, "fsync": False, "sandbox": hidden(tmp_path), "pool": pool}
        lineup = [bot("a"), bot("b")]
        await run_match(GAME, lineup, seed=0, log_dir=logs, reuse_tag="x", **kw)  # type: ignore[arg-type]
        idle = list(pool.idle())
        (logs / "seat0.stderr.log").unlink()
        (logs / "seat0.stderr.log").mkdir()  # opening it for writing fails
        failure = None
        try:
            await run_match(GAME, lineup, seed=1, log_dir=logs, reuse_tag="y", **kw)  # type: ignore[arg-type]
        except OSError as exc:
            failure = exc
        codes = [await asyncio.wait_for(p.process.wait(), 10) for p in idle]
        await pool.close()
        return codes, failure

    codes, failure = asyncio.run(scenario())
    assert isinstance(failure, IsADirectoryError)
    assert all(code is not None for code in codes)  # both processes ended
    assert len(pool) == 0


def test_a_referee_failure_while_handing_bots_back_ends_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were reading a bot's peak memory to fail at the end of a match, its process is
    ended instead of kept, and the match's result still stands."""
    pool = BotPool()

    def broken(self: referee.process.bot.BotProcess) -> float | None:
        raise RuntimeError("peak memory unreadable (test)")

    async def scenario() -> tuple[MatchOutcome, int, list[int]]:
        out = await play(tmp_path, pool, [bot("a"), bot("b")], 0)
        kept = len(pool)
        codes = [await asyncio.wait_for(p.process.wait(), 10) for p in played]
        await pool.close()
        return out, kept, codes

    played = spawned(monkeypatch)
    monkeypatch.setattr(referee.process.bot.BotProcess, "peak_memory_mb", broken)
    out, kept, codes = asyncio.run(scenario())
    assert out.verdicts == ["ok", "ok"] and out.reason == "finished"
    assert kept == 0 and len(codes) == 2  # both ended by the match, none kept


def test_a_cpu_time_limit_turns_reuse_off(tmp_path: Path) -> None:
    pool = BotPool()
    lineup = [bot("a"), bot("b")]
    asyncio.run(series(tmp_path, [lineup] * 2, ["x", "y"], pool, BotLimits(cpu_s=30)))
    assert not set(pids(tmp_path, 0)) & set(pids(tmp_path, 1))
    assert pool.reused == 0


def test_no_reuse_where_the_run_paths_are_not_hidden(tmp_path: Path) -> None:
    """A reused process keeps the sandbox of its first match, so the pool is skipped
    when a match's record or logs lie outside the paths the policy hides."""
    pool = BotPool()

    async def two() -> None:
        try:
            for k in range(2):
                await run_match(
                    GAME,
                    [bot("a"), bot("b")],
                    seed=k,
                    clock=CLOCK,
                    record_path=tmp_path / f"m{k}.jsonl",
                    log_dir=tmp_path / "logs" / f"m{k}",
                    fsync=False,
                    pool=pool,
                    match_id=f"m{k}",
                    reuse_tag=str(k),
                )
        finally:
            await pool.close()

    asyncio.run(two())
    assert (pool.spawned, pool.reused) == (0, 0)
    assert not set(pids(tmp_path, 0)) & set(pids(tmp_path, 1))


def manila_run(tmp: Path, name: str) -> Path:
    config = TournamentConfig(
        name=name,
        game="manila",
        seats=3,
        rounds=2,
        move_ms=5000,
        sandbox="none",
        bots=[
            BotEntry(f"random{i}", f"{sys.executable} bots/random_bot.py --seed {i}")
            for i in range(3)
        ],
    )
    out = tmp / name
    create_run(config, ROOT, out)
    return out


def test_reuse_leaves_tournament_results_unchanged(tmp_path: Path) -> None:
    """Seeded random bots on the same schedule and secret: identical rows with reuse
    on (in-process and in two workers) and off."""
    first = manila_run(tmp_path, "with")
    others = []
    for name in ("workers", "without"):
        copy = tmp_path / name
        shutil.copytree(first, copy)
        others.append(copy)
    with_reuse = run_tournament(first, concurrency=1)
    in_workers = run_tournament(others[0], concurrency=2)
    without = run_tournament(others[1], concurrency=1, reuse=False)

    def key(rows: list[MatchRow]) -> list[tuple[str, list[float], list[int], list[str]]]:
        return sorted((r.id, r.scores, r.ranks, list(r.verdicts)) for r in rows)

    assert len(with_reuse) == 6
    assert key(with_reuse) == key(in_workers) == key(without)
    assert all(r.verdicts == ["ok"] * 3 for r in with_reuse)


def test_old_manifests_default_to_reuse() -> None:
    raw = {"name": "x", "game": "manila", "bots": [{"name": "a", "command": "a"}]}
    assert msgspec.convert(raw, TournamentConfig).reuse is True


@pytest.mark.parametrize("flag", [True, False])
def test_ready_reuse_field_decodes(flag: bool) -> None:
    from referee.process.protocol import Ready, decode_bot_line

    line = msgspec.json.encode({"type": "ready", "name": "x", "reuse": flag}) + b"\n"
    reply = decode_bot_line(line)
    assert isinstance(reply, Ready) and reply.reuse is flag


def states(pids: list[int]) -> list[str]:
    """The scheduler state letter of each live pid (``T``: stopped, by a signal or
    by its cgroup's freezer)."""
    found = []
    for pid in pids:
        state = scheduler_state(pid)
        if state is not None:
            found.append(state.decode())
    return found


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_idle_bots_are_stopped_with_everything_they_started(tmp_path: Path, mode: str) -> None:
    """A bot that keeps computing after ``end`` (a child here) is frozen while it waits
    in the pool, continued for its next match, and ended with the pool."""
    if mode == "bwrap":
        from referee.process.isolation.sandbox import bwrap_problem

        if bwrap_problem() is not None:
            pytest.skip(f"no sandbox here: {bwrap_problem()}")
    pool = BotPool()
    policy = SandboxPolicy(mode, False, (str(tmp_path.resolve()),))  # type: ignore[arg-type]

    async def scenario() -> tuple[list[str], int, int, list[str], list[int]]:
        lineup = [bot("a", "ponder"), bot("b")]
        kw = {"clock": CLOCK, "fsync": False, "sandbox": policy, "pool": pool}
        kw["record_path"] = tmp_path / "m0.jsonl"
        await run_match(GAME, lineup, seed=0, reuse_tag="x", **kw)  # type: ignore[arg-type]
        (ponderer,) = [p for p in pool.idle() if p.spec.name == "a"]
        tree = ponderer.tree()
        await asyncio.sleep(0.2)
        busy = tree[-1]  # the last descendant found: the computing child
        before = cpu_ticks(busy)
        await asyncio.sleep(0.5)
        after = cpu_ticks(busy)
        frozen = states(tree)
        kw["record_path"] = tmp_path / "m1.jsonl"
        out = await run_match(GAME, lineup, seed=1, reuse_tag="y", **kw)  # type: ignore[arg-type]
        await pool.close()
        return frozen, before, after, list(out.verdicts), tree

    frozen, before, after, verdicts, tree = asyncio.run(scenario())
    assert len(tree) >= 2 and frozen and set(frozen) == {"T"}
    assert after == before  # not a tick of CPU while frozen
    assert verdicts == ["ok", "ok"]
    assert states(tree) in ([], ["Z"] * len(states(tree)))  # all gone after the pool closed


def hidden(tmp: Path) -> SandboxPolicy:
    """No sandbox, the test's folder hidden (so the pool may keep the processes)."""
    return SandboxPolicy("none", False, (str(tmp.resolve()),))


async def play(tmp: Path, pool: BotPool, lineup: list[BotSpec], seed: int) -> MatchOutcome:
    """One toy match with ``pool``, tag ``t<seed>``, record ``m<seed>.jsonl`` in ``tmp``."""
    return await run_match(
        GAME,
        lineup,
        seed=seed,
        clock=CLOCK,
        record_path=tmp / f"m{seed}.jsonl",
        fsync=False,
        sandbox=hidden(tmp),
        pool=pool,
        reuse_tag=f"t{seed}",
    )


def test_a_bot_taken_again_at_once_is_never_stopped(tmp_path: Path) -> None:
    """Within ``freeze_after_s`` of its match's end a pooled process keeps running (no
    SIGSTOP/SIGCONT round for a bot that plays the very next match); once the delay
    has passed it is stopped with everything it started."""
    pool = BotPool(freeze_after_s=0.3)

    async def scenario() -> tuple[list[str], list[str], list[int]]:
        await play(tmp_path, pool, [bot("a", "ponder"), bot("b")], 0)
        (ponderer,) = [p for p in pool.idle() if p.spec.name == "a"]
        tree = ponderer.tree()
        early = states(tree)
        await asyncio.sleep(0.6)
        late = states(tree)
        await pool.close()
        return early, late, tree

    early, late, tree = asyncio.run(scenario())
    assert len(tree) >= 2
    assert "T" not in early  # not stopped yet
    assert set(late) == {"T"}  # stopped after the delay


def no_freezer(self: object) -> None:
    raise OSError("no freezer (test)")


def test_a_freeze_cut_short_by_the_next_match_is_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process handed out while it is being stopped (the delay ran out, the stop is
    under way) is continued whole: no process of its tree stays stopped, and it plays
    its match normally."""
    # The freeze then keeps waiting for its processes to stop (for up to 0.1 s), so
    # the next match always finds it half-way.  Only stopping by signals has a
    # half-way (a cgroup freezer is one write): no freezer here.
    monkeypatch.setattr(referee.process.bot, "_stopped", lambda pid: False)
    monkeypatch.setattr(referee.process.isolation.cgroups.MemoryGroup, "freeze", no_freezer)
    pool = BotPool(freeze_after_s=0.0)

    async def scenario() -> tuple[bool, list[str], list[str]]:
        lineup = [bot("a", "ponder"), bot("b")]
        await play(tmp_path, pool, lineup, 0)
        (ponderer,) = [p for p in pool.idle() if p.spec.name == "a"]
        tree = ponderer.tree()
        caught = False
        for _ in range(10_000):  # until the freeze has signalled and waits for the stop
            await asyncio.sleep(0)
            pending = pool._freezing.get(ponderer.pid)
            if ponderer.frozen and isinstance(pending, asyncio.Task) and not pending.done():
                caught = True
                break
        out = await play(tmp_path, pool, lineup, 1)
        after = states(tree)
        await pool.close()
        return caught, after, list(out.verdicts)

    caught, after, verdicts = asyncio.run(scenario())
    assert caught  # the match was handed the process in the middle of its freeze
    assert "T" not in after
    assert verdicts == ["ok", "ok"]


def test_a_negative_freeze_delay_is_refused() -> None:
    with pytest.raises(ValueError, match="freeze_after_s"):
        BotPool(freeze_after_s=-1)
