"""Run one match: bots, engine, clock, verdicts, forfeit policy, record.

:func:`run_match` is a coroutine, so one process can run many matches at once.  The
referee owns all randomness: chance outcomes come from an RNG derived from the match
seed and are written to the record; the fallback moves of forfeited seats come from
a second RNG derived from the same seed.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

import msgspec

from referee import __version__
from referee.bot import BotFault, BotLimits, BotProcess, BotSpec
from referee.engine import CHANCE, TERMINAL, Game, IllegalAction, State
from referee.pool import BotPool, PoolKey, pool_key
from referee.protocol import (
    PROTOCOL_VERSION,
    Act,
    End,
    MatchResult,
    MoveClock,
    Start,
    StartClock,
    Verdict,
    cap_bytes,
    cap_name,
)
from referee.record import (
    FORMAT,
    LIVE_FLUSH_S,
    ChanceLine,
    FaultLine,
    Header,
    MoveLine,
    RecordWriter,
    ResultLine,
    SeatInfo,
)
from referee.rng import KEYED, derive_seed, match_rng
from referee.sandbox import SandboxPolicy
from referee.turns import TurnGuard


@dataclass
class Clock:
    """Clock settings in milliseconds: start-up answer, per move, and time bank;
    ``ponder``: let the bots of the seats not on move compute (off: they are stopped
    while another seat thinks, see :mod:`referee.turns`)."""

    startup_ms: int = 10_000
    move_ms: int = 1_000
    bank_ms: int = 0
    ponder: bool = False


def header_clock(clock: Clock) -> dict[str, int]:
    """The record header's ``clock`` (ms): ``ponder`` (1) appears only when allowed,
    so records and run checks from before it existed read the same."""
    found = {"startup_ms": clock.startup_ms, "move_ms": clock.move_ms, "bank_ms": clock.bank_ms}
    if clock.ponder:
        found["ponder"] = 1
    return found


Adjudication = Literal["scores", "draw"]
"""How a match cut short by a ply limit is ranked: by the engine's ranking of the
position reached (its current scores and tie-breaks), or as a draw (every seat 1st)."""


def adjudicated_ranks(state: State, adjudication: Adjudication) -> list[int]:
    """Engine ranks of a position that is not over, by ``adjudication``."""
    if adjudication == "draw":
        return [1] * len(state.scores())
    return state.ranks()


@dataclass
class SeatOutcome:
    """What happened to one seat: verdict, fault detail and ply, timing."""

    name: str
    verdict: Verdict = "ok"
    detail: str = ""
    fault_ply: int | None = None
    moves: int = 0
    total_ms: float = 0.0
    max_ms: float = 0.0
    unsolicited_lines: int = 0
    stderr_dropped: int = 0
    bot_name: str | None = None
    """The name the bot gave in ``ready``, cut to ``MAX_NAME_CHARS`` (protocol)."""
    reused: bool = False
    """The seat's process had played an earlier match (see :mod:`referee.pool`)."""
    reuse_failed: str = ""
    """Why a reused process failed to answer ``start`` (it was then replaced by a fresh
    one; not a verdict)."""
    offered_reuse: bool = False
    """The bot's ``ready`` in this match announced ``"reuse": true``."""
    peak_mb: float | None = None
    """Most memory all of the seat's bot processes used together, in MiB, over the
    process's life so far (``None`` without a memory cgroup, :mod:`referee.cgroups`)."""


@dataclass
class MatchOutcome:
    """The result of :func:`run_match`."""

    match: str
    game: str
    seed: int
    scores: list[float]
    ranks: list[int]
    seats: list[SeatOutcome]
    plies: int
    reason: str = "finished"
    record: Path | None = None

    @property
    def verdicts(self) -> list[Verdict]:
        return [s.verdict for s in self.seats]


def new_match_id(prefix: str = "play") -> str:
    """A fresh match id such as ``play-3f9a0c1b2d4e``: random, so it says nothing of
    the match seed (every bot receives it in ``start``)."""
    return f"{prefix}-{secrets.token_hex(6)}"


def final_ranks(engine_ranks: Sequence[int], fault_plies: Sequence[int | None]) -> list[int]:
    """Ranks after the forfeit policy: every faulted seat ranks below every clean seat.

    Clean seats keep the engine's order; faulted seats are ordered by when they
    faulted (earlier fault ranks lower); equal keys share a rank (1 = best).
    """
    keys = [
        (0, rank) if ply is None else (1, -ply)
        for rank, ply in zip(engine_ranks, fault_plies, strict=True)
    ]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


class _Seat:
    """Referee-side state of one seat during a match."""

    def __init__(
        self, outcome: SeatOutcome, bot: BotProcess | None, bank_ms: int, move_ms: int
    ) -> None:
        self.outcome = outcome
        self.bot = bot
        self.bank_ms = float(bank_ms)
        self.start_bank_ms = bank_ms
        self.move_ms = move_ms  # this seat's clock: the match's, or its entrant's own
        self.events: list[Any] = []

    @property
    def live(self) -> bool:
        return self.bot is not None and self.outcome.verdict == "ok"


EventHook = Callable[[str, dict[str, Any]], None]


async def run_match(
    game: Game,
    bots: Sequence[BotSpec],
    *,
    seed: int,
    options: Any = None,
    clock: Clock | None = None,
    match_id: str = "match",
    record_path: Path | None = None,
    log_dir: Path | None = None,
    limits: BotLimits | None = None,
    fsync: bool = True,
    max_plies: int = 0,
    adjudication: Adjudication = "scores",
    sandbox: SandboxPolicy | None = None,
    pool: BotPool | None = None,
    reuse_tag: str = "",
    on_ply: Callable[[int], None] | None = None,
) -> MatchOutcome:
    """Play one match between bot processes, one per seat, to the end.

    ``seed`` drives chance and fallbacks; ``options`` is the game's options Struct
    (defaults if ``None``).  Faulting seats are forfeited (process group ended,
    fallback moves, ranked last); the game always goes on to a real result.
    ``max_plies`` (0 = no limit) ends a game that has not finished after that many
    plies (moves and chance outcomes); it is then ranked by ``adjudication`` and its
    reason is ``ply_limit``.  The record (if ``record_path``) is published only when
    the match is complete.  ``sandbox`` isolates the bots (default: none); the
    record's directory and ``log_dir`` are hidden from them.  With ``pool``, bots
    are taken from it where an idle process of the same entrant exists that has never
    played a match tagged ``reuse_tag`` (the duplicate block), and every bot that ends
    the match with verdict ``ok`` and announced reuse goes back to it (see
    :mod:`referee.pool`); the pool is used only where the record's directory and
    ``log_dir`` lie inside the paths ``sandbox`` already hides.  Raises
    :class:`referee.engine.OptionError` for a bad seat count and ValueError for a
    negative ``max_plies``.  ``on_ply(plies)`` is called before every ply with the
    number of plies played so far (progress displays).
    """
    if max_plies < 0:
        raise ValueError(f"max_plies must be 0 (no limit) or positive, not {max_plies}")
    clock = clock or Clock()
    limits = limits or BotLimits()
    game.check_seats(len(bots))
    options = options if options is not None else game.parse_options({})
    options_json = game.options_dict(options)
    state = game.new_game(len(bots), options)
    chance_rng = match_rng(seed, "chance", KEYED)
    fallback_rng = match_rng(seed, "fallback", KEYED)
    base_policy = sandbox or SandboxPolicy()
    private = [record_path.parent if record_path else None, log_dir]
    policy = base_policy.hiding(private)
    if pool is not None and not _covered(private, base_policy.hidden):
        pool = None  # a reused process could not have these paths hidden
    keys = [pool_key(spec, limits, base_policy) for spec in bots]
    finished = False
    writer = (
        RecordWriter(record_path, fsync=fsync, flush_after_s=LIVE_FLUSH_S) if record_path else None
    )
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    seats: list[_Seat] = []
    guard: TurnGuard | None = None
    try:
        if writer:
            writer.write(
                Header(
                    format=FORMAT,
                    game=game.name,
                    options=options_json,
                    seats=[SeatInfo(b.name, b.command, b.move_ms, b.bank_ms) for b in bots],
                    referee=__version__,
                    match=match_id,
                    clock=header_clock(clock),
                    max_plies=max_plies,
                    adjudication=adjudication,
                    chance=KEYED,
                    sandbox=policy.mode,
                )
            )
        ply = 0

        def fault(index: int, verdict: Verdict, detail: str) -> None:
            seat = seats[index]
            # Bot-controlled text (stderr, stray lines, echoed values): capped, not escaped.
            detail = cap_bytes(detail)
            seat.outcome.verdict, seat.outcome.detail = verdict, detail
            seat.outcome.fault_ply = ply
            if writer:
                writer.write(FaultLine(ply=ply, seat=index, verdict=verdict, detail=detail))

        procs = await _obtain(bots, keys, log_dir, limits, policy, pool, reuse_tag)
        seats.extend(
            _Seat(
                SeatOutcome(spec.name),
                None if isinstance(proc, BotFault) else proc,
                clock.bank_ms if spec.bank_ms is None else spec.bank_ms,
                clock.move_ms if spec.move_ms is None else spec.move_ms,
            )
            for spec, proc in zip(bots, procs, strict=True)
        )
        # A bot that could not even be started is a startup fault at ply 0.
        for index, proc in enumerate(procs):
            if isinstance(proc, BotFault):
                fault(index, "startup", proc.detail)

        async def respawn(index: int) -> BotProcess | BotFault:
            (fresh,) = await _obtain(
                [bots[index]],
                [keys[index]],
                log_dir,
                limits,
                policy,
                pool,
                reuse_tag,
                [index],
                fresh=True,
            )
            return fresh

        guard = None if clock.ponder else TurnGuard(seats, fault)
        await _handshake(game, seats, options_json, clock, match_id, fault, respawn, guard)
        if guard is not None:
            guard.started()

        act_id = 0
        reason = "finished"
        while (to_move := state.to_move()) != TERMINAL:
            if on_ply is not None:
                on_ply(ply)
            if max_plies and ply >= max_plies:
                reason = "ply_limit"
                break
            if to_move == CHANCE:
                outcome = state.sample_chance(chance_rng)
                _broadcast(seats, state, ply, chance=outcome)
                state.apply_chance(outcome)
                if writer:
                    writer.write(ChanceLine(ply=ply, outcome=outcome))
                ply += 1
                continue
            seat = seats[to_move]
            legal = state.legal_actions()
            action: Any = None
            ms = 0.0
            if guard is not None and guard.doomed:
                await guard.settle()
            if seat.live:
                act_id += 1
                action, ms = await _ask(
                    game, state, seat, to_move, legal, act_id, ply, clock, fault, guard
                )
            fallback = action is None
            if fallback:
                action = legal[fallback_rng.randrange(len(legal))]
            _broadcast(seats, state, ply, seat=to_move, action=action)
            state.apply_action(action)
            if writer:
                writer.write(
                    MoveLine(
                        ply=ply,
                        seat=to_move,
                        action=action,
                        ms=round(ms, 3),
                        fallback=fallback,
                    )
                )
            ply += 1

        engine_ranks = (
            state.ranks() if reason == "finished" else adjudicated_ranks(state, adjudication)
        )
        ranks = final_ranks(engine_ranks, [s.outcome.fault_ply for s in seats])
        scores = [float(x) for x in state.scores()]
        verdicts = [s.outcome.verdict for s in seats]
        if guard is not None:
            guard.release()
        await _finish(seats, scores, ranks, verdicts, reason)
        finished = True
        result = MatchOutcome(
            match=match_id,
            game=game.name,
            seed=seed,
            scores=scores,
            ranks=ranks,
            seats=[s.outcome for s in seats],
            plies=ply,
            reason=reason,
        )
        if writer:
            result.record = writer.finish(
                ResultLine(scores=scores, ranks=ranks, verdicts=verdicts, reason=reason, seed=seed)
            )
        return result
    finally:
        if guard is not None:
            guard.release()
        await _close_all(seats, pool if finished else None, keys)
        if writer:
            writer.close()


async def _handshake(
    game: Game,
    seats: list[_Seat],
    options_json: dict[str, Any],
    clock: Clock,
    match_id: str,
    fault: Callable[[int, Verdict, str], None],
    respawn: Callable[[int], Awaitable[BotProcess | BotFault]],
    guard: TurnGuard | None,
) -> None:
    """Send every live seat ``start`` and wait for ``ready``.  A reused process that
    fails to answer is closed and replaced by a fresh one (its failure is no verdict:
    it may have died while idle); a fresh process's failure is the seat's fault.
    ``guard`` stops a seat that is ready while others still start."""
    players = [s.outcome.name for s in seats]

    async def one(index: int, seat: _Seat) -> None:
        assert seat.bot is not None
        start = Start(
            protocol=PROTOCOL_VERSION,
            match=match_id,
            game=game.name,
            options=options_json,
            seat=index,
            seats=len(seats),
            players=players,
            clock=StartClock(clock.startup_ms, seat.move_ms, seat.start_bank_ms, clock.ponder),
        )
        try:
            ready = await seat.bot.handshake(start, clock.startup_ms)
            seat.outcome.bot_name = cap_name(ready.name)
            seat.outcome.offered_reuse = ready.reuse is True
            seat.outcome.reused = seat.bot.matches > 1
            if guard is not None:
                guard.ready(index)
            return
        except BotFault as exc:
            if seat.bot.matches <= 1:
                fault(index, exc.verdict, exc.detail)
                await seat.bot.close(graceful=False)
                return
            seat.outcome.reuse_failed = cap_bytes(exc.detail)
        await seat.bot.close(graceful=False)
        fresh = await respawn(index)
        if isinstance(fresh, BotFault):
            seat.bot = None
            fault(index, "startup", fresh.detail)
            return
        seat.bot = fresh
        try:
            ready = await fresh.handshake(start, clock.startup_ms)
            seat.outcome.bot_name = cap_name(ready.name)
            seat.outcome.offered_reuse = ready.reuse is True
            if guard is not None:
                guard.ready(index)
        except BotFault as exc:
            fault(index, exc.verdict, exc.detail)
            await fresh.close(graceful=False)

    await asyncio.gather(*(one(i, s) for i, s in enumerate(seats) if s.live))


async def _ask(
    game: Game,
    state: State,
    seat: _Seat,
    index: int,
    legal: list[Any],
    act_id: int,
    ply: int,
    clock: Clock,
    fault: Callable[[int, Verdict, str], None],
    guard: TurnGuard | None,
) -> tuple[Any, float]:
    """Ask a live seat for its move; on any fault, forfeit it and return ``(None, 0)``.
    ``guard`` (unless the match allows pondering) continues this seat's bot if it was
    stopped and stops the others if the move takes long."""
    assert seat.bot is not None
    message = Act(
        id=act_id,
        ply=ply,
        view=state.view(index),
        legal=legal,
        events=seat.events,
        clock=MoveClock(seat.move_ms, int(seat.bank_ms)),
    )
    seat.events = []
    allowance_s = (seat.move_ms + seat.bank_ms) / 1000.0
    if guard is not None:
        guard.asking(index)
    try:
        try:
            reply, ms = await seat.bot.act(message, allowance_s)
        finally:
            if guard is not None:
                guard.answered()
        if ms > seat.move_ms + seat.bank_ms:
            raise BotFault("timeout", f"replied after {ms:.0f} ms")
        seat.bank_ms -= max(0.0, ms - seat.move_ms)
        if reply.index is not None:
            if not 0 <= reply.index < len(legal):
                raise BotFault("illegal", f"index {reply.index} out of range 0..{len(legal) - 1}")
            action = legal[reply.index]
        else:
            action = _decode_action(game, reply.action, legal)
    except BotFault as exc:
        detail = exc.detail
        if exc.verdict == "crash" and (tail := await seat.bot.stderr_tail()):
            detail += f"; stderr: {tail}"
        fault(index, exc.verdict, detail)
        await seat.bot.close(graceful=False)
        return None, 0.0
    outcome = seat.outcome
    outcome.moves += 1
    outcome.total_ms += ms
    outcome.max_ms = max(outcome.max_ms, ms)
    return action, ms


def _decode_action(game: Game, raw: Any, legal: list[Any]) -> Any:
    """The legal action a bot's ``action`` object names.  Raises :class:`BotFault`:
    ``illegal`` for a well-formed action that is not legal or not of this game,
    ``protocol`` for an object nothing can be made of (e.g. nested too deeply)."""
    try:
        action = game.decode_action(raw)
        text = "" if action in legal else msgspec.json.encode(raw).decode()[:200]
    except IllegalAction as exc:
        raise BotFault("illegal", str(exc)) from None
    except Exception as exc:  # whatever a bot's object provokes is the bot's fault
        raise BotFault("protocol", f"unusable action object: {type(exc).__name__}") from None
    if text:
        raise BotFault("illegal", f"action {text} is not legal")
    return action


def _broadcast(
    seats: list[_Seat],
    state: State,
    ply: int,
    *,
    seat: int | None = None,
    action: Any = None,
    chance: Any = None,
) -> None:
    """Queue what every live seat may learn of this ply (the protocol's ``events``)."""
    for viewer, s in enumerate(seats):
        if not s.live:
            continue
        if seat is None:
            seen = state.observe_chance(chance, viewer)
            if seen is not None:
                s.events.append({"ply": ply, "chance": seen})
        else:
            seen = state.observe_action(seat, action, viewer)
            if seen is not None:
                s.events.append({"ply": ply, "seat": seat, "action": seen})


async def _finish(
    seats: list[_Seat],
    scores: list[float],
    ranks: list[int],
    verdicts: list[Verdict],
    reason: str,
) -> None:
    result = MatchResult(scores=scores, ranks=ranks)

    async def one(seat: _Seat) -> None:
        assert seat.bot is not None
        await seat.bot.tell(
            End(result=result, verdicts=verdicts, reason=reason, events=seat.events)
        )
        seat.events = []

    await asyncio.gather(*(one(s) for s in seats if s.live))


async def _obtain(
    bots: Sequence[BotSpec],
    keys: Sequence[PoolKey],
    log_dir: Path | None,
    limits: BotLimits,
    policy: SandboxPolicy,
    pool: BotPool | None,
    tag: str,
    seats: Sequence[int] | None = None,
    fresh: bool = False,
) -> list[BotProcess | BotFault]:
    """A process per bot (``seats``: their seat numbers, default 0, 1, ...): an idle
    one from ``pool`` where allowed (unless ``fresh``), else a newly spawned one.
    Every process is marked as having played ``tag``."""
    numbers = list(seats) if seats is not None else list(range(len(bots)))

    def log(seat: int) -> Path | None:
        return log_dir / f"seat{seat}.stderr.log" if log_dir else None

    async def one(spec: BotSpec, key: PoolKey, seat: int) -> BotProcess | BotFault:
        proc = pool.take(key, tag) if pool is not None and not fresh else None
        if proc is not None:
            proc.next_match(log(seat))
        else:
            try:
                proc = await BotProcess.spawn(
                    spec, stderr_path=log(seat), limits=limits, sandbox=policy
                )
            except BotFault as fault:
                return fault
            if pool is not None:
                pool.spawned += 1
        proc.matches += 1
        proc.blocks.add(tag)
        return proc

    got = await asyncio.gather(*map(one, bots, keys, numbers), return_exceptions=True)
    broken = [g for g in got if isinstance(g, BaseException) and not isinstance(g, BotFault)]
    if broken:  # the referee's own failure: no process it did start is left behind
        await asyncio.gather(
            *(g.close(graceful=False) for g in got if isinstance(g, BotProcess)),
            return_exceptions=True,
        )
        raise broken[0]
    return cast(list[BotProcess | BotFault], got)


def _covered(paths: Sequence[Path | None], hidden: Sequence[str]) -> bool:
    """True if every path lies inside one of the ``hidden`` paths."""
    roots = [Path(h) for h in hidden]
    return all(
        p is None or any(Path(p).resolve().is_relative_to(root) for root in roots) for p in paths
    )


async def _close_all(seats: list[_Seat], pool: BotPool | None, keys: Sequence[PoolKey]) -> None:
    """End every seat's process, or hand it back to ``pool`` (a finished match, verdict
    ``ok``, and the bot reusable)."""

    async def one(seat: _Seat, key: PoolKey) -> None:
        if seat.bot is not None:
            stats = seat.bot.stats  # this match's: a reused bot gets a new object
            seat.outcome.peak_mb = seat.bot.peak_memory_mb()
            if pool is not None and seat.outcome.verdict == "ok":
                await pool.give_back(key, seat.bot)  # closes it if it is not reusable
            else:
                await seat.bot.close(graceful=seat.outcome.verdict == "ok")
            seat.outcome.unsolicited_lines = stats.unsolicited_lines
            seat.outcome.stderr_dropped = stats.stderr_dropped

    # ``seats`` is empty when starting the bots failed (their processes are closed).
    await asyncio.gather(
        *(one(s, k) for s, k in zip(seats, keys, strict=False)), return_exceptions=True
    )


__all__ = [
    "Adjudication",
    "Clock",
    "MatchOutcome",
    "SeatOutcome",
    "adjudicated_ranks",
    "derive_seed",
    "final_ranks",
    "new_match_id",
    "run_match",
]
