"""Run one match: bots, engine, clock, verdicts, forfeit policy, record.

:class:`Match` plays one match from its :class:`~referee.match.settings.MatchSettings`
(:func:`run_match` is the same with keywords); it is a coroutine, so one process can
run many matches at once.  The
referee owns all randomness: chance outcomes come from an RNG derived from the match
seed and are written to the record; the fallback moves of forfeited seats come from
a second RNG derived from the same seed.
"""

from __future__ import annotations

import asyncio
import enum
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import msgspec

from referee import __version__
from referee.api.engine import CHANCE, TERMINAL, Game, IllegalAction
from referee.api.rng import KEYED, derive_seed, match_rng
from referee.match.ranks import Adjudication, adjudicated_ranks, final_ranks
from referee.match.record import (
    FORMAT,
    LIVE_FLUSH_S,
    ChanceLine,
    FaultLine,
    Header,
    RecordWriter,
    ResultLine,
    SeatInfo,
)
from referee.match.settings import Clock, MatchSettings, header_clock
from referee.match.walk import event, observe
from referee.process.bot import BotFault, BotProcess, BotStats, Sent
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.pool import BotPool, PoolKey, close_all, pool_key
from referee.process.protocol import (
    PROTOCOL_VERSION,
    Act,
    ActionReply,
    End,
    MatchResult,
    MoveClock,
    Start,
    StartClock,
    Verdict,
    cap_bytes,
    cap_name,
)
from referee.process.spec import BotLimits, BotSpec
from referee.process.turns import TurnGuard


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
    """The seat's process had played an earlier match (see :mod:`referee.process.pool`)."""
    reuse_failed: str = ""
    """Why a reused process failed to answer ``start`` (it was then replaced by a fresh
    one; not a verdict)."""
    offered_reuse: bool = False
    """The bot's ``ready`` in this match announced ``"reuse": true``."""
    peak_mb: float | None = None
    """Most memory all of the seat's bot processes used together, in MiB, over the
    process's life so far (``None`` without a memory cgroup,
    :mod:`referee.process.isolation.cgroups`)."""


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


class _Step(enum.Enum):
    """Things :meth:`Match.loop` awaits between plies."""

    SETTLE = "settle"
    """The guard closing the bots found over their process limit (between moves, no
    seat thinking)."""
    JUDGE = "judge"
    """The reply to the act in flight, read and judged by :meth:`BotProcess.reply`
    (stray lines, faults, timeouts)."""


_Need = Sent | BotFault | _Step | str
"""What :meth:`Match.loop` must await next: a reply to the act :class:`Sent`, a
:class:`BotFault` to act on (forfeit the seat on move), a :class:`_Step`, or the
reason the match ended (``"finished"``, ``"ply_limit"``)."""


class Match:
    """One match between bot processes, one per seat, played to the end.

    :meth:`play` goes through four steps: :meth:`setup` (the record's header, a
    process per seat, ``start``/``ready``), :meth:`loop` (chance outcomes and moves
    until the game ends or reaches ``max_plies``), :meth:`adjudicate` (scores and the
    forfeit policy's ranks) and :meth:`publish` (``end`` to every bot, the record's
    result line, then the record is renamed into place: published only when
    complete).  Faulting seats are forfeited (process group ended, fallback moves
    drawn from the seed, ranked last); the game always goes on to a real result.

    ``settings`` says how it is played (:class:`MatchSettings`).  The record's
    directory and ``log_dir`` are hidden from the bots.  With ``pool``, bots are taken
    from it where an idle process of the same entrant exists that has never played a
    match tagged ``settings.reuse_tag`` (the duplicate block), and every bot that ends
    the match with verdict ``ok`` and announced reuse goes back to it (see
    :mod:`referee.process.pool`); the pool is used only where the record's directory
    and ``log_dir`` lie inside the paths the sandbox already hides.  ``on_ply(plies)``
    is called before every ply with the number of plies played so far (progress
    displays).  Raises :class:`referee.api.engine.OptionError` for a bad seat count
    and ValueError for a negative ``max_plies``.
    """

    def __init__(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        settings: MatchSettings,
        *,
        record_path: Path | None = None,
        log_dir: Path | None = None,
        pool: BotPool | None = None,
        on_ply: Callable[[int], None] | None = None,
    ) -> None:
        if settings.max_plies < 0:
            raise ValueError(
                f"max_plies must be 0 (no limit) or positive, not {settings.max_plies}"
            )
        game.check_seats(len(bots))
        self.game, self.bots, self.settings = game, list(bots), settings
        self.clock = settings.clock
        options = settings.options
        self.options = options if options is not None else game.parse_options({})
        self.state = game.new_game(len(bots), self.options)
        self.chance_rng = match_rng(settings.seed, "chance", KEYED)
        self.fallback_rng = match_rng(settings.seed, "fallback", KEYED)
        base_policy = settings.sandbox or SandboxPolicy()
        private = [record_path.parent if record_path else None, log_dir]
        self.policy = base_policy.hiding(private)
        # hiding() resolved them (each resolution is a walk of the file system)
        resolved = self.policy.hidden[len(base_policy.hidden) :]
        if pool is not None and not _covered(resolved, base_policy.hidden):
            pool = None  # a reused process could not have these paths hidden
        self.pool, self.log_dir, self.on_ply = pool, log_dir, on_ply
        self.keys = [pool_key(spec, settings.limits, base_policy) for spec in bots]
        self.writer = (
            RecordWriter(record_path, fsync=settings.fsync, flush_after_s=LIVE_FLUSH_S)
            if record_path
            else None
        )
        self.seats: list[_Seat] = []
        self.guard: TurnGuard | None = None
        self.ply = 0
        self.act_id = 0
        # The decision under way (loop() and its helpers): the seat on move, its legal
        # actions, its act in flight, the bot heard from, and what loop() waits for.
        self._mover = -1
        self._legal: list[Any] = []
        self._sent = Sent(None, 0.0, 0.0, 0.0, False)
        self._listening: BotProcess | None = None
        self._heard_from: asyncio.Future[_Need] | None = None

    async def play(self) -> MatchOutcome:
        """Play the match; see the class docstring."""
        # The clean-up awaits, so it is not a ``finally`` clause: compiled, a coroutine
        # that awaits in ``finally`` can lose the exception it is propagating
        # (docs/native.md); the exception is kept here and raised after it instead.
        failure: BaseException | None = None
        try:
            await self.setup()
            reason = await self.loop()
            scores, ranks = self.adjudicate(reason)
            result = await self.publish(scores, ranks, reason)
        except BaseException as exc:  # every way out, cancellation included
            failure = exc
        if self.guard is not None:
            self.guard.release()
        try:
            await _close_all(self.seats, self.pool if failure is None else None, self.keys)
        finally:
            if self.writer:
                self.writer.close()
        if failure is not None:
            raise failure
        return result

    def fault(self, index: int, verdict: Verdict, detail: str) -> None:
        """Forfeit seat ``index`` at the current ply, and record why."""
        seat = self.seats[index]
        # Bot-controlled text (stderr, stray lines, echoed values): capped, not escaped.
        detail = cap_bytes(detail)
        seat.outcome.verdict, seat.outcome.detail = verdict, detail
        seat.outcome.fault_ply = self.ply
        if self.writer:
            self.writer.write(FaultLine(ply=self.ply, seat=index, verdict=verdict, detail=detail))

    async def setup(self) -> None:
        """Write the record's header, obtain a process per seat (a bot that cannot
        even be started is a ``startup`` fault at ply 0) and exchange
        ``start``/``ready``."""
        game, settings, bots = self.game, self.settings, self.bots
        options_json = game.options_dict(self.options)
        if self.writer:
            self.writer.write(
                Header(
                    format=FORMAT,
                    game=game.name,
                    options=options_json,
                    seats=[SeatInfo(b.name, b.command, b.move_ms, b.bank_ms) for b in bots],
                    referee=__version__,
                    match=settings.match_id,
                    clock=header_clock(self.clock),
                    max_plies=settings.max_plies,
                    adjudication=settings.adjudication,
                    chance=KEYED,
                    sandbox=self.policy.mode,
                )
            )
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
        procs = await self._obtain(range(len(bots)))
        self.seats.extend(
            _Seat(
                SeatOutcome(spec.name),
                None if isinstance(proc, BotFault) else proc,
                self.clock.bank_ms if spec.bank_ms is None else spec.bank_ms,
                self.clock.move_ms if spec.move_ms is None else spec.move_ms,
            )
            for spec, proc in zip(bots, procs, strict=True)
        )
        for index, proc in enumerate(procs):
            if isinstance(proc, BotFault):
                self.fault(index, "startup", proc.detail)

        async def respawn(index: int) -> BotProcess | BotFault:
            (fresh,) = await self._obtain([index], fresh=True)
            return fresh

        self.guard = None if self.clock.ponder else TurnGuard(self.seats, self.fault)
        await _handshake(
            game,
            self.seats,
            options_json,
            self.clock,
            settings.match_id,
            self.fault,
            respawn,
            self.guard,
        )
        if self.guard is not None:
            self.guard.started()

    async def _obtain(
        self, numbers: Iterable[int], fresh: bool = False
    ) -> list[BotProcess | BotFault]:
        indices = list(numbers)
        return await _obtain(
            [self.bots[i] for i in indices],
            [self.keys[i] for i in indices],
            self.log_dir,
            self.settings.limits,
            self.policy,
            self.pool,
            self.settings.reuse_tag,
            indices,
            fresh=fresh,
        )

    async def loop(self) -> str:
        """Play plies until the game ends (``"finished"``) or reaches the ply limit
        (``"ply_limit"``); returns that reason.

        The plies are played by :meth:`_advance` and its helpers, which never wait:
        they draw chance outcomes, ask the seat on move (its act written) or draw a
        forfeited seat's fallback, tell every live seat what it sees of a move, apply
        and record it.  They stop where something must be awaited, and say what:
        this coroutine awaits it and goes on.  The awaited thing is nearly always a
        reply, and that is heard from the event loop's callback with no task woken:
        a plain reply to the act is taken there and the next ply played at once
        (:meth:`_heard`), so one decision costs one write and one read.  Anything
        else a bot's output brings (text, a late or malformed line, the end of its
        output, a timeout) is handed back here and judged by
        :meth:`BotProcess.reply`, as every reply once was."""
        self._loop = asyncio.get_running_loop()
        need = self._advance()
        writer = self.writer
        while True:
            if writer:  # the lines of the plies played, the next act on its way
                writer.release()
            if isinstance(need, str):
                return need
            if isinstance(need, Sent):
                need = await self._wait()
            elif isinstance(need, BotFault):
                await self._forfeit(self._mover, need)
                need = self._conclude(None, 0.0)
            elif need is _Step.SETTLE:
                assert self.guard is not None
                await self.guard.settle()
                need = self._ask_or_fall_back() or self._advance()
            else:  # _Step.JUDGE: the reply to the act in flight, judged by reply()
                need = await self._judge(self._sent)

    def _advance(self) -> _Need:
        """Play plies from the current one until a seat must be asked (its act
        written: :class:`Sent`), the match ends (its reason), or something must be
        awaited first (a :class:`BotFault` from writing the act, :attr:`_Step.SETTLE`)."""
        state, on_ply, max_plies = self.state, self.on_ply, self.settings.max_plies
        while (to_move := state.to_move()) != TERMINAL:
            ply = self.ply
            if on_ply is not None:
                on_ply(ply)
            if max_plies and ply >= max_plies:
                return "ply_limit"
            if to_move == CHANCE:
                outcome = state.sample_chance(self.chance_rng)
                self._broadcast_chance(outcome)
                state.apply_chance(outcome)
                if self.writer:
                    self.writer.hold(ChanceLine(ply, outcome))
                self.ply = ply + 1
                continue
            self._mover = to_move
            self._legal = state.legal_actions()
            if self.guard is not None and self.guard.doomed:
                return _Step.SETTLE
            need = self._ask_or_fall_back()
            if need is not None:
                return need
        return "finished"

    def _ask_or_fall_back(self) -> _Need | None:
        """Write the act to the seat on move if it is live (:class:`Sent`, or the
        :class:`BotFault` of a bot that cannot take it); else play its fallback move
        and return ``None``."""
        index = self._mover
        seat = self.seats[index]
        if not seat.live:
            self._play(None, 0.0)
            return None
        bot = seat.bot
        assert bot is not None
        self.act_id += 1
        message = Act(
            id=self.act_id,
            ply=self.ply,
            view=self.state.view(index),
            legal=self._legal,
            events=seat.events,
            clock=MoveClock(seat.move_ms, int(seat.bank_ms)),
        )
        seat.events = []
        guard = self.guard
        if guard is not None:  # continues this seat's bot; stops the others if it is slow
            guard.asking(index)
        try:
            self._sent = bot.send(message, (seat.move_ms + seat.bank_ms) / 1000.0)
        except BotFault as exc:
            if guard is not None:
                guard.answered()
            return exc
        return self._sent

    def _conclude(self, action: Any, ms: float) -> _Need:
        """:meth:`_play` the move, then :meth:`_advance`."""
        self._play(action, ms)
        return self._advance()

    def _play(self, action: Any, ms: float) -> None:
        """Play the move of the seat on move: ``action`` (``None``: its fallback,
        drawn from the seed), taking ``ms``; tell every live seat what it sees of it,
        apply and record it."""
        state, ply, to_move, seats = self.state, self.ply, self._mover, self.seats
        fallback = action is None
        if fallback:
            legal = self._legal
            action = legal[self.fallback_rng.randrange(len(legal))]
        # What each live seat sees of the move: the protocol's events, shaped as
        # referee.match.walk.event shapes them for replay and the viewer.
        observe_action = state.observe_action
        for viewer, other in enumerate(seats):
            if other.bot is not None and other.outcome.verdict == "ok":
                seen = observe_action(to_move, action, viewer)
                if seen is not None:
                    other.events.append({"ply": ply, "seat": to_move, "action": seen})
        state.apply_action(action)
        if self.writer:  # made and encoded by the dozen, off the path from reply to act
            self.writer.hold_move(ply, to_move, action, ms, fallback)
        self.ply = ply + 1

    async def _wait(self) -> _Need:
        """Wait for what comes after the act in flight: plies are played from the
        event loop's callback (:meth:`_heard`) until one needs this coroutine."""
        done = self._heard_from = self._loop.create_future()
        try:
            self._listen()
            self._heard()  # what the bot may have written already
            return await done
        finally:
            self._heard_from = None
            if self._listening is not None:
                self._listening.listen(None)
                self._listening = None

    def _listen(self) -> BotProcess:
        """Hear the seat on move's output (and only its) from the event loop; returns
        that seat's bot."""
        bot = self.seats[self._mover].bot
        assert bot is not None
        if self._listening is not bot:
            if self._listening is not None:
                self._listening.listen(None)
            self._listening = bot
        bot.listen(self._heard, self._sent.deadline)
        return bot

    def _heard(self) -> None:
        """The seat on move's output moved, or its deadline passed: take a plain reply
        and play on, as far as nothing must be awaited; hand the rest to :meth:`loop`
        (:attr:`_Step.JUDGE`: its output to be judged by :meth:`BotProcess.reply`).

        One reply per pass: where the next seat's reply is here already (written
        ahead of its act), the next pass comes after the event loop's other work,
        so bots that answer ahead cannot hold the loop (other matches' bots, the
        turn guard's timers) for a whole game."""
        done = self._heard_from
        if done is None or done.done():
            return
        try:
            bot = self.seats[self._mover].bot
            assert bot is not None
            sent = self._sent
            got = bot.take_reply(sent)
            if got is None:
                if not bot.quiet(sent):
                    done.set_result(_Step.JUDGE)
                return
            if self.guard is not None:
                self.guard.answered()
            reply, ms = got
            try:
                action = self._accept(reply, ms)
            except BotFault as exc:
                done.set_result(exc)
                return
            need = self._conclude(action, ms)
            if not isinstance(need, Sent):
                done.set_result(need)
                return
            if not self._listen().quiet(need):  # its output is here, or its input is full
                self._loop.call_soon(self._heard)
        except Exception as exc:  # the engine's or the referee's own: raised by loop()
            done.set_exception(exc)

    async def _judge(self, sent: Sent) -> _Need:
        """Read and judge the reply to ``sent`` as :meth:`BotProcess.reply` rules
        (stray lines skipped, faults raised), then play the move or forfeit."""
        seat = self.seats[self._mover]
        assert seat.bot is not None
        try:
            try:
                reply, ms = await seat.bot.act_reply(sent)
            finally:
                if self.guard is not None:
                    self.guard.answered()
            action = self._accept(reply, ms)
        except BotFault as exc:
            await self._forfeit(self._mover, exc)
            return self._conclude(None, 0.0)
        return self._conclude(action, ms)

    def _accept(self, reply: ActionReply, ms: float) -> Any:
        """The legal action ``reply`` names, taking ``ms``, charged to the seat on
        move's clock.  Raises :class:`BotFault`: ``timeout`` (over its move time and
        bank), ``illegal`` (index out of range, action not legal), ``protocol``."""
        seat, legal = self.seats[self._mover], self._legal
        if ms > seat.move_ms + seat.bank_ms:
            raise BotFault("timeout", f"replied after {ms:.0f} ms")
        seat.bank_ms -= max(0.0, ms - seat.move_ms)
        if reply.index is not None:
            if not 0 <= reply.index < len(legal):
                raise BotFault("illegal", f"index {reply.index} out of range 0..{len(legal) - 1}")
            action = legal[reply.index]
        else:
            action = _decode_action(self.game, reply.action, legal)
        outcome = seat.outcome
        outcome.moves += 1
        outcome.total_ms += ms
        outcome.max_ms = max(outcome.max_ms, ms)
        return action

    async def _forfeit(self, index: int, exc: BotFault) -> None:
        """Forfeit seat ``index`` for ``exc`` (a crash's detail ends with the bot's
        stderr tail) and end its bot."""
        bot = self.seats[index].bot
        assert bot is not None
        detail = exc.detail
        if exc.verdict == "crash" and (tail := await bot.stderr_tail()):
            detail += f"; stderr: {tail}"
        self.fault(index, exc.verdict, detail)
        await bot.close(graceful=False)

    def _broadcast_chance(self, outcome: Any) -> None:
        """Queue what every live seat may learn of this chance outcome (the protocol's
        ``events``, by :func:`referee.match.walk.observe`, as replay and the viewer see
        it; a move's are queued inline by :meth:`loop`)."""
        seen = observe(self.state, len(self.seats), chance=outcome)
        for s, observed in zip(self.seats, seen, strict=True):
            if s.live and observed is not None:
                s.events.append(event(self.ply, observed))

    def adjudicate(self, reason: str) -> tuple[list[float], list[int]]:
        """The final scores and ranks: the engine's (or, cut at the ply limit, by the
        settings' adjudication), then every faulted seat below every clean one."""
        state = self.state
        engine_ranks = (
            state.ranks()
            if reason == "finished"
            else adjudicated_ranks(state, self.settings.adjudication)
        )
        ranks = final_ranks(engine_ranks, [s.outcome.fault_ply for s in self.seats])
        return [float(x) for x in state.scores()], ranks

    async def publish(self, scores: list[float], ranks: list[int], reason: str) -> MatchOutcome:
        """Send ``end`` to every live bot, then complete and publish the record."""
        verdicts = [s.outcome.verdict for s in self.seats]
        if self.guard is not None:
            self.guard.release()
        await _finish(self.seats, scores, ranks, verdicts, reason)
        seed = self.settings.seed
        result = MatchOutcome(
            match=self.settings.match_id,
            game=self.game.name,
            seed=seed,
            scores=scores,
            ranks=ranks,
            seats=[s.outcome for s in self.seats],
            plies=self.ply,
            reason=reason,
        )
        if self.writer:
            result.record = self.writer.finish(
                ResultLine(scores=scores, ranks=ranks, verdicts=verdicts, reason=reason, seed=seed)
            )
        return result


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
    """Play one match: :class:`Match` with the :class:`MatchSettings` these keywords
    make (same names, same meaning; ``clock`` and ``limits`` default to
    :class:`Clock` and :class:`BotLimits`)."""
    settings = MatchSettings(
        seed=seed,
        options=options,
        clock=clock or Clock(),
        match_id=match_id,
        max_plies=max_plies,
        adjudication=adjudication,
        limits=limits or BotLimits(),
        sandbox=sandbox,
        fsync=fsync,
        reuse_tag=reuse_tag,
    )
    match = Match(
        game, bots, settings, record_path=record_path, log_dir=log_dir, pool=pool, on_ply=on_ply
    )
    return await match.play()


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


async def _finish(
    seats: list[_Seat],
    scores: list[float],
    ranks: list[int],
    verdicts: list[Verdict],
    reason: str,
) -> None:
    result = MatchResult(scores=scores, ranks=ranks)
    unread: list[Awaitable[None]] = []  # bots whose input is full: waited for together
    for seat in seats:
        if seat.live:
            assert seat.bot is not None
            end = End(result=result, verdicts=verdicts, reason=reason, events=seat.events)
            if seat.bot.post(end):
                unread.append(seat.bot.flush())
            seat.events = []
    if unread:
        await asyncio.gather(*unread)


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

    async def spawn(spec: BotSpec, seat: int) -> BotProcess | BotFault:
        try:
            proc = await BotProcess.spawn(
                spec, stderr_path=log(seat), limits=limits, sandbox=policy
            )
        except BotFault as fault:
            return fault
        if pool is not None:
            pool.spawned += 1
        return proc

    # Idle processes first, with no task (a tournament's usual case: every seat's
    # process is taken from the pool), then the missing ones spawned together.
    got: list[BotProcess | BotFault | BaseException | None] = []
    for key, seat in zip(keys, numbers, strict=True):
        idle = pool.take(key, tag) if pool is not None and not fresh else None
        if idle is not None:
            try:
                idle.next_match(log(seat))
            except Exception as exc:  # the referee's own (its stderr log): raised below
                got.append(exc)
                await idle.close(graceful=False)
                continue
        got.append(idle)
    missing = [i for i, g in enumerate(got) if g is None]
    if missing:
        spawned = await asyncio.gather(
            *(spawn(bots[i], numbers[i]) for i in missing), return_exceptions=True
        )
        for i, g in zip(missing, spawned, strict=True):
            got[i] = g
    broken = [g for g in got if isinstance(g, BaseException) and not isinstance(g, BotFault)]
    if broken:  # the referee's own failure: no process it did start is left behind
        await close_all([g for g in got if isinstance(g, BotProcess)], graceful=False)
        raise broken[0]
    for proc in got:
        if isinstance(proc, BotProcess):
            proc.matches += 1
            proc.blocks.add(tag)
    return cast(list[BotProcess | BotFault], got)


def _covered(resolved: Sequence[str], hidden: Sequence[str]) -> bool:
    """True if every path of ``resolved`` (already resolved) lies inside one of the
    ``hidden`` paths."""
    roots = [Path(h) for h in hidden]
    return all(any(Path(p).is_relative_to(root) for root in roots) for p in resolved)


async def _close_all(seats: list[_Seat], pool: BotPool | None, keys: Sequence[PoolKey]) -> None:
    """End every seat's process, or hand it back to ``pool`` (a finished match, verdict
    ``ok``, and the bot reusable); the processes to end are ended together, and no
    task is made when every one goes back to the pool."""
    ending: list[Awaitable[int | None]] = []
    ended: list[tuple[_Seat, BotStats]] = []
    # ``seats`` is empty when starting the bots failed (their processes are closed).
    for seat, key in zip(seats, keys, strict=False):
        bot = seat.bot
        if bot is None:
            continue
        ended.append((seat, bot.stats))  # this match's: a reused bot gets a new object
        try:
            seat.outcome.peak_mb = bot.peak_memory_mb()
            if pool is not None and seat.outcome.verdict == "ok":
                ending += (proc.close() for proc in pool.keep(key, bot))  # unless reusable
                continue
        except Exception:  # the referee's own failure: the bot is ended, never lost
            pass
        ending.append(bot.close(graceful=seat.outcome.verdict == "ok"))
    if ending:
        await asyncio.gather(*ending, return_exceptions=True)
    for seat, stats in ended:  # counted until its stderr closed
        seat.outcome.unsolicited_lines = stats.unsolicited_lines
        seat.outcome.stderr_dropped = stats.stderr_dropped


__all__ = [
    "Adjudication",
    "Clock",
    "Match",
    "MatchOutcome",
    "MatchSettings",
    "SeatOutcome",
    "adjudicated_ranks",
    "derive_seed",
    "final_ranks",
    "new_match_id",
    "run_match",
]
