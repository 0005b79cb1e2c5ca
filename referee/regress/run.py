"""``referee regress``: a CI gate that decides, with an SPRT, whether a bot regressed.

The candidate and the baseline play *duplicate blocks*: one seed per block, two
games on it, identical except that the candidate sits in the tested seat in game A
and the baseline in game B.  Blocks are fed, in block order, to a sequential test
from :mod:`referee.regress.sprt`, which stops as soon as it decides.  docs/regress.md
explains the statistic, the Elo mapping, the fault policy and the exit codes.

Two modes:

* head to head (two seats, no ``--field``): game A puts the candidate in seat ``s``
  and the baseline in the other seat, game B swaps them; the block's outcome is the
  candidate's pair score (0, 1/2, 1, 3/2, 2), tested with :class:`PentanomialSPRT`;
* field (three or more seats, or ``--field`` given): the other seats hold the field
  (``--field`` bots cycled, or copies of the baseline without ``--field``), the same
  in A and B; the outcome is ``u_A - u_B``, the tested seat's pairwise score in game
  A minus that in game B, tested with :class:`NormalGSPRT`.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import math
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import msgspec

from referee.display import terminal
from referee.games import get_game
from referee.match.match import Clock, Match
from referee.match.settings import (
    DEFAULT_BANK_MS,
    DEFAULT_MOVE_MS,
    DEFAULT_STARTUP_MS,
    MatchSettings,
)
from referee.process.isolation.affinity import wanted
from referee.process.isolation.sandbox import SandboxPolicy
from referee.process.pool import BotPool, run_here
from referee.process.spec import BotSpec
from referee.regress.sprt import NormalGSPRT, PentanomialSPRT, SequentialTest
from referee.tournament.schedule import block_seed
from referee.tournament.workers import dispatch

EXIT_PASS = 0
EXIT_REGRESSION = 1
EXIT_INCONCLUSIVE = 2
EXIT_FAULT = 3
EXIT_USAGE = 4

Role = Literal["candidate", "baseline", "field"]
Status = Literal["H1", "H0", "inconclusive", "fault"]

EXIT_CODES: dict[Status, int] = {
    "H1": EXIT_PASS,
    "H0": EXIT_REGRESSION,
    "inconclusive": EXIT_INCONCLUSIVE,
    "fault": EXIT_FAULT,
}


# -- blocks -----------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """One bot of a lineup: its role, display name and resolved argv."""

    role: Role
    name: str
    argv: list[str]
    command: str


@dataclass(frozen=True)
class BlockJob:
    """Everything a worker needs to play one block (picklable).

    ``lineups`` holds game A then game B, each a list of entrants by seat; ``seat``
    is the tested seat; ``settings`` is the :class:`MatchSettings` both games are
    played under (seed, options, clock, ply limit, sandbox, block tag: the same object
    ``play`` and the tournament hand to :class:`~referee.match.match.Match`; each game
    gets its own match id); ``records`` is a directory for records and stderr logs,
    or ``None`` (hidden from the bots); with ``reuse`` bots may be reused processes
    (:mod:`referee.process.pool`), never across the two games of the block.
    """

    game: str
    block: int
    seat: int
    lineups: tuple[list[Entrant], list[Entrant]]
    settings: MatchSettings
    records: str | None = None
    reuse: bool = False


@dataclass(frozen=True)
class GameResult:
    """One finished game of a block: roles, names, ranks (1 = best), verdicts by seat."""

    roles: list[Role]
    names: list[str]
    ranks: list[int]
    verdicts: list[str]
    details: list[str]
    record: str | None


@dataclass(frozen=True)
class BlockResult:
    """Both games of a block, A then B."""

    block: int
    seed: int
    seat: int
    games: tuple[GameResult, GameResult]


async def play_block(job: BlockJob, pool: BotPool | None = None) -> BlockResult:
    """Play game A then game B of ``job`` (one after the other, for fair clocks), with
    bots from ``pool`` where ``job.reuse`` allows.

    Raises what :func:`referee.match.match.run_match` raises (engine or OS errors).
    """
    game = get_game(job.game)
    results = []
    for label, lineup in zip("ab", job.lineups, strict=True):
        match_id = f"regress-b{job.block}-{label}"
        record = log_dir = None
        if job.records is not None:
            record = Path(job.records) / f"b{job.block:05d}-{label}.jsonl"
            log_dir = Path(job.records) / "logs" / f"b{job.block:05d}-{label}"
        match = Match(
            game,
            [BotSpec(e.name, e.argv, e.command) for e in lineup],
            replace(job.settings, match_id=match_id),
            record_path=record,
            log_dir=log_dir,
            pool=pool if job.reuse else None,
        )
        outcome = await match.play()
        results.append(
            GameResult(
                roles=[e.role for e in lineup],
                names=[e.name for e in lineup],
                ranks=list(outcome.ranks),
                verdicts=list(outcome.verdicts),
                details=[s.detail for s in outcome.seats],
                record=str(outcome.record) if outcome.record else None,
            )
        )
    return BlockResult(job.block, job.settings.seed, job.seat, (results[0], results[1]))


def play_block_sync(job: BlockJob) -> BlockResult:
    """:func:`play_block` in this process (the worker-process entry point): in a fresh
    event loop, or, with ``job.reuse``, in the process's lasting loop and bot pool."""
    return run_here(lambda pool: play_block(job, pool), job.reuse)


def pairwise_score(ranks: Sequence[int], seat: int) -> float:
    """Mean score of ``seat`` against each other seat: 1 ahead, 1/2 level, 0 behind.

    In ``[0, 1]``; for two seats it is the usual win/draw/loss score.  Raises
    ``ValueError`` for fewer than two seats.
    """
    if len(ranks) < 2:
        raise ValueError("a pairwise score needs at least two seats")
    mine = ranks[seat]
    points = sum(
        1.0 if r > mine else 0.5 if r == mine else 0.0 for j, r in enumerate(ranks) if j != seat
    )
    return points / (len(ranks) - 1)


def lineups_for(
    block: int,
    seats: int,
    candidate: Entrant,
    baseline: Entrant,
    field_bots: Sequence[Entrant],
) -> tuple[int, list[Entrant], list[Entrant]]:
    """The tested seat and the lineups of games A and B of ``block``.

    The tested seat is ``block % seats``.  Head to head (``field_bots`` empty, two
    seats): A is candidate vs baseline, B the same with the seats swapped.
    Otherwise the other seats hold ``field_bots`` (cycled, starting one further along
    each block so every field bot meets every seat) in both games, and the tested
    seat holds the candidate in A and the baseline in B.
    """
    s = block % seats
    if not field_bots and seats == 2:
        a = [candidate, baseline] if s == 0 else [baseline, candidate]
        return s, a, a[::-1]
    others = [field_bots[(block + j) % len(field_bots)] for j in range(seats - 1)]
    a = [*others[:s], candidate, *others[s:]]
    b = [*others[:s], baseline, *others[s:]]
    return s, a, b


def block_statistic(result: BlockResult, head_to_head: bool) -> float:
    """The paired outcome of a block.

    Head to head: the candidate's pair score over both games (0, 0.5, 1, 1.5, 2).
    Field: the tested seat's :func:`pairwise_score` in A minus that in B, in [-1, 1].
    """
    a, b = result.games
    if head_to_head:
        return sum(pairwise_score(g.ranks, g.roles.index("candidate")) for g in (a, b))
    return pairwise_score(a.ranks, result.seat) - pairwise_score(b.ranks, result.seat)


def first_foreign_fault(result: BlockResult) -> str | None:
    """A message for the first fault of a non-candidate seat in ``result``, else ``None``."""
    for label, game in zip("AB", result.games, strict=True):
        for seat, (role, verdict) in enumerate(zip(game.roles, game.verdicts, strict=True)):
            if role != "candidate" and verdict != "ok":
                detail = game.details[seat] or "no detail"
                where = f" (record {game.record})" if game.record else ""
                return (
                    f"{role} {game.names[seat]!r} faulted in block {result.block} game {label}, "
                    f"seat {seat}: {verdict}: {detail}{where}"
                )
    return None


def candidate_faults(result: BlockResult) -> list[str]:
    """The verdicts of the candidate's faults in ``result`` (empty if it played clean)."""
    return [
        verdict
        for game in result.games
        for role, verdict in zip(game.roles, game.verdicts, strict=True)
        if role == "candidate" and verdict != "ok"
    ]


# -- the run ----------------------------------------------------------------------


@dataclass
class RegressSettings:
    """A whole regression run.  ``field_bots`` may be empty (see :func:`lineups_for`)."""

    game: str
    seats: int
    candidate: Entrant
    baseline: Entrant
    field_bots: list[Entrant]
    options: dict[str, Any] = field(default_factory=dict)
    clock: tuple[int, int, int] = (DEFAULT_STARTUP_MS, DEFAULT_MOVE_MS, DEFAULT_BANK_MS)
    ponder: bool = False
    elo0: float = -20.0
    elo1: float = 0.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 1000
    concurrency: int = 1
    records: Path | None = None
    secret: str = ""
    confidence: float = 0.95
    max_plies: int = 0
    sandbox: Literal["bwrap", "none"] = "none"
    network: bool = False
    reuse: bool = True
    affinity: bool | None = None

    @property
    def head_to_head(self) -> bool:
        return self.seats == 2 and not self.field_bots


@dataclass
class RegressSummary:
    """What a run decided and the evidence (also the JSON summary, see :meth:`to_json`)."""

    status: Status
    exit_code: int
    game: str
    seats: int
    mode: str
    test: str
    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float
    alpha: float
    beta: float
    games: int
    blocks: int
    max_games: int
    mean: float
    mean_low: float
    mean_high: float
    elo: float
    elo_low: float
    elo_high: float
    confidence: float
    pentanomial: list[int] | None
    candidate_faults: dict[str, int]
    fault: str | None
    candidate: str
    baseline: str
    field: list[str]
    sandbox: str = "none"

    def to_json(self) -> bytes:
        """Pretty JSON; infinite Elo values become ``null``."""
        data = {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in self.__dict__.items()
        }
        return msgspec.json.format(msgspec.json.encode(data)) + b"\n"


def _blocks(settings: RegressSettings) -> Iterator[BlockJob]:
    field_bots = settings.field_bots or [
        Entrant("field", "baseline", settings.baseline.argv, settings.baseline.command)
    ]
    if settings.head_to_head:
        field_bots = []
    records = str(settings.records) if settings.records else None
    hidden = (str(Path(records).resolve()),) if records is not None else ()
    policy = SandboxPolicy(settings.sandbox, settings.network, hidden)
    options = get_game(settings.game).parse_options(settings.options)
    clock = Clock(*settings.clock, settings.ponder)
    for block in range(settings.max_games // 2):
        seat, a, b = lineups_for(
            block, settings.seats, settings.candidate, settings.baseline, field_bots
        )
        yield BlockJob(
            game=settings.game,
            block=block,
            seat=seat,
            lineups=(a, b),
            settings=MatchSettings(
                seed=block_seed(settings.secret, block),
                options=options,
                clock=clock,
                max_plies=settings.max_plies,
                sandbox=policy,
                reuse_tag=f"block-{block}",
            ),
            records=records,
            reuse=settings.reuse,
        )


def _results(
    jobs: Iterator[BlockJob],
    concurrency: int,
    executor: concurrent.futures.Executor | None,
    affinity: bool = False,
) -> Generator[BlockResult, None, None]:
    """Results in block order; at most ``2 * concurrency`` blocks in flight; with
    ``affinity`` each worker (or this process at concurrency 1) is bound to one core
    with its bots.  A dead worker, Ctrl-C and an early stop are handled as
    :func:`referee.tournament.workers.dispatch` says (it raises
    :class:`referee.tournament.workers.WorkerDied`)."""
    return dispatch(
        play_block_sync,
        jobs,
        concurrency=concurrency,
        executor=executor,
        affinity=affinity,
        ordered=True,
        window=2 * concurrency,
        noun="block",
    )


def run_regress(
    settings: RegressSettings,
    *,
    on_block: Callable[[BlockResult, SequentialTest], None] | None = None,
    executor: concurrent.futures.Executor | None = None,
) -> RegressSummary:
    """Play blocks until the SPRT decides, ``max_games`` is reached, or a fault stops it.

    Results are fed to the test in block order whatever the concurrency, so a run
    with a given secret decides the same way at any ``concurrency``.  A candidate
    fault is simply its loss (the forfeit policy ranks it last); a fault of the
    baseline or a field bot stops the run with status ``"fault"``; so does an
    exception while playing (engine bug, OS error), whose message is kept.
    Raises ``ValueError`` for bad test parameters.
    """
    test: SequentialTest
    if settings.head_to_head:
        test = PentanomialSPRT(settings.elo0, settings.elo1, settings.alpha, settings.beta)
    else:
        test = NormalGSPRT(settings.elo0, settings.elo1, settings.alpha, settings.beta)
    if settings.max_games < 2:
        raise ValueError("--max-games must be at least 2 (one block)")
    status: Status = "inconclusive"
    fault: str | None = None
    faults: collections.Counter[str] = collections.Counter()
    try:
        with contextlib.closing(
            _results(
                _blocks(settings),
                settings.concurrency,
                executor,
                wanted(settings.affinity, settings.concurrency),
            )
        ) as results:
            for result in results:
                fault = first_foreign_fault(result)
                if fault is not None:
                    status = "fault"
                    break
                faults.update(candidate_faults(result))
                test.add(block_statistic(result, settings.head_to_head))
                if on_block:
                    on_block(result, test)
                decision = test.decision()
                if decision is not None:
                    status = decision
                    break
    except Exception as exc:  # anything that stops play is the referee's fault: exit 3
        status, fault = "fault", f"infrastructure error: {type(exc).__name__}: {exc}"
    estimate = test.estimate(settings.confidence)
    return RegressSummary(
        status=status,
        exit_code=EXIT_CODES[status],
        game=settings.game,
        seats=settings.seats,
        mode="head-to-head" if settings.head_to_head else "field",
        test="pentanomial" if settings.head_to_head else "normal-gsprt",
        llr=test.llr(),
        lower=test.lower,
        upper=test.upper,
        elo0=settings.elo0,
        elo1=settings.elo1,
        alpha=settings.alpha,
        beta=settings.beta,
        games=2 * test.blocks,
        blocks=test.blocks,
        max_games=settings.max_games,
        mean=estimate.mean,
        mean_low=estimate.low,
        mean_high=estimate.high,
        elo=estimate.elo,
        elo_low=estimate.elo_low,
        elo_high=estimate.elo_high,
        confidence=settings.confidence,
        pentanomial=list(test.counts) if isinstance(test, PentanomialSPRT) else None,
        candidate_faults=dict(sorted(faults.items())),
        fault=fault,
        candidate=settings.candidate.command,
        baseline=settings.baseline.command,
        field=[e.command for e in settings.field_bots],
        sandbox=settings.sandbox,
    )


# -- the report -------------------------------------------------------------------

RESULT_TEXT: dict[Status, str] = {
    "H1": "PASS: H1 accepted, the candidate is not worse",
    "H0": "FAIL: H0 accepted, regression detected",
    "inconclusive": "INCONCLUSIVE: no decision within --max-games",
    "fault": "STOPPED: a fault outside the candidate",
}


def _elo_text(elo: float) -> str:
    return f"{elo:+.1f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")


def summary_text(summary: RegressSummary) -> str:
    """The human report of a run (several lines, no trailing newline)."""
    s = summary
    lines = [
        f"regress {s.game}: {s.seats} seats, {s.mode} ({s.test}), sandbox {s.sandbox}",
        f"result: {RESULT_TEXT[s.status]} (exit {s.exit_code})",
        f"LLR {s.llr:.3f}, bounds [{s.lower:.3f}, {s.upper:.3f}] "
        f"(elo0 {s.elo0:g}, elo1 {s.elo1:g}, alpha {s.alpha:g}, beta {s.beta:g})",
        f"games {s.games} in {s.blocks} blocks (max {s.max_games})"
        + (f", pentanomial {s.pentanomial}" if s.pentanomial is not None else ""),
        f"Elo {_elo_text(s.elo)}, {round(100 * s.confidence)}% interval "
        f"[{_elo_text(s.elo_low)}, {_elo_text(s.elo_high)}] "
        f"({'score per game' if s.pentanomial is not None else 'mean paired difference'} "
        f"{s.mean:.4f})",
        "candidate faults: "
        + (", ".join(f"{v} {n}" for v, n in s.candidate_faults.items()) or "none"),
    ]
    if s.fault:
        lines.append(f"fault: {terminal(s.fault)}")
    return "\n".join(lines)
