"""One measurement in a fresh interpreter of one side (old or new), for
:mod:`benchmarks.baseline`: ``python probe.py KIND JSON-ARGS``; prints one JSON line.

Run as a script with the side's own venv interpreter, so ``referee`` is that side's
package (the line names it, and the caller checks); it uses only the API both the
baseline and this checkout have (``get_game``, states, ``BotProcess``, ``run_match``,
``BotPool``, ``SandboxPolicy``, ``referee.loop``, ``run_tournament``), each looked up
where either layout of the package keeps it (:func:`find`).

Kinds (all times in seconds unless said):

* ``engine`` {game, seats, loop: bare|view, seconds}: random playouts for about
  ``seconds`` of CPU; ``decisions_per_s`` per CPU second.  ``view`` is what the
  referee does per decision (the mover's view, legal actions, every seat's
  observation, apply);
* ``match`` {game, seats, loop, decisions, bot, sandbox, reuse, echo}: the raw echo
  round trip of this game's first act through the C echo child on the same event
  loop (``echo``, referee CPU per round trip; ``echo_seats``: through one echo child
  per seat, in turn), then whole matches of the C random bot
  until ``decisions`` are played (``cpu``, referee CPU per decision, the bots'
  CPU excluded);
* ``path`` {loop, acts, bot, echo}: request path (``BotProcess.act`` to the C bot,
  a real Manila act) and the raw echo of the same line, on the same loop;
* ``gap`` {matches, argv, dir}: wall µs from a reply flushed to the next act read,
  stamped by the bots themselves, over Manila matches of reused bots, records
  written;
* ``startup`` {sandbox, bots, apart_ms}: spawn to ``ready`` and close of a trivial shell bot,
  per bot (``ready_ms`` list, referee ``cpu_ms`` per bot);
* ``guard`` {sandbox, children, cycles}: the turn guard's stop and continue of a
  waiting bot (``BotProcess.freeze`` then ``thaw``) repeated ``cycles`` times on a
  shell bot with ``children`` sleeping child processes; referee CPU and wall µs per
  cycle (``cpu_us``, ``wall_us``) and how the bot was stopped (``mechanism``);
* ``tournament`` {rounds, concurrency, extra}: a Manila round robin of the bundled
  bots (``tournaments/manila.toml``'s field); matches, wall, faults.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

import referee


def find(name: str, *modules: str) -> Any:
    """``name`` from the first of ``modules`` that has it: a probe runs against the
    baseline's layout of the ``referee`` package and against this checkout's, which
    may differ (today's module first, then where a restructure may move it)."""
    for module in modules:
        try:
            found = importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        if hasattr(found, name):
            return getattr(found, name)
    raise ImportError(f"{name} is in none of {', '.join(modules)}")


class _Missing:
    """A name the measured referee's layout lacks (an old baseline): any use raises
    :class:`ImportError`, so probes that do not need it (``engine``) still run."""

    def __init__(self, why: str) -> None:
        self._why = why

    def __getattr__(self, attr: str) -> Any:
        raise ImportError(self._why)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise ImportError(self._why)


def lookup(name: str, *modules: str) -> Any:
    """:func:`find`, or a :class:`_Missing` stand-in where no module has ``name``."""
    try:
        return find(name, *modules)
    except ImportError as exc:
        return _Missing(str(exc))


_installed = lookup("installed", "referee.loop", "referee.api.loop", "referee.process.loop")
event_loop = (
    _installed
    if isinstance(_installed, _Missing)
    else importlib.import_module(_installed.__module__)
)
BotLimits = lookup("BotLimits", "referee.bot", "referee.process.spec")
BotProcess = lookup("BotProcess", "referee.bot", "referee.process.bot")
BotSpec = lookup("BotSpec", "referee.bot", "referee.process.spec")
CHANCE = lookup("CHANCE", "referee.api.engine", "referee.engine")
TERMINAL = lookup("TERMINAL", "referee.api.engine", "referee.engine")
get_game = lookup("get_game", "referee.games")
Clock = lookup("Clock", "referee.match", "referee.match.match")
run_match = lookup("run_match", "referee.match", "referee.match.match")
BotPool = lookup("BotPool", "referee.pool", "referee.process.pool")
_protocol = ("referee.protocol", "referee.process.protocol")
PROTOCOL_VERSION = lookup("PROTOCOL_VERSION", *_protocol)
Act = lookup("Act", *_protocol)
MoveClock = lookup("MoveClock", *_protocol)
Start = lookup("Start", *_protocol)
StartClock = lookup("StartClock", *_protocol)
encode = lookup("encode", *_protocol)
SandboxPolicy = lookup("SandboxPolicy", "referee.sandbox", "referee.process.isolation.sandbox")


def loop_factory(name: str) -> Any:
    """The factory of the event loop ``name`` (``asyncio`` or ``uvloop``)."""
    return event_loop.installed()[name]


def run(name: str, main: Any) -> Any:
    with asyncio.Runner(loop_factory=loop_factory(name)) as runner:
        return runner.run(main)


def engine(game: str, seats: int, loop: str, seconds: float) -> dict[str, Any]:
    g = get_game(game)
    options = g.parse_options({})
    rng = random.Random(2026)
    games = decisions = 0
    everyone = range(seats)
    view = loop == "view"
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        state = g.new_game(seats, options)
        while (seat := state.to_move()) != TERMINAL:
            if seat == CHANCE:
                outcome = state.sample_chance(rng)
                if view:
                    for viewer in everyone:
                        state.observe_chance(outcome, viewer)
                state.apply_chance(outcome)
                continue
            if view:
                state.view(seat)
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if view:
                for viewer in everyone:
                    state.observe_action(seat, action, viewer)
            state.apply_action(action)
            decisions += 1
        games += 1
    elapsed = time.process_time() - start
    return {"decisions_per_s": decisions / elapsed, "games": games, "decisions": decisions}


def first_act(game: str, seats: int) -> Any:
    """The first decision of a game of ``game`` as the referee sends it."""
    state = get_game(game).new_game(seats)
    rng = random.Random(1)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    seat = state.to_move()
    return Act(1, 0, state.view(seat), state.legal_actions(), [], MoveClock(1000, 0))


async def echo_cpu(echo: str, line: bytes, n: int, warm: int = 20, children: int = 1) -> float:
    """Referee CPU seconds per raw round trip of ``line`` through the echo child
    ``echo`` (asyncio streams), over ``n`` round trips after ``warm`` untimed ones.

    With ``children`` > 1, that many echo children are started and the round trips
    go to each in turn, as a match's acts go to its seats: the same pipes, wake-ups
    and CPU placements as the match, with no referee code.  (With one child the
    round trip is bimodal on two cores, its child on the referee's core or on the
    other, and a run's median lands on either mode.)
    """
    procs = [
        await asyncio.create_subprocess_exec(
            echo, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 22
        )
        for _ in range(children)
    ]
    pipes = [(p.stdin, p.stdout) for p in procs if p.stdin and p.stdout]
    assert len(pipes) == children
    turns = itertools.cycle(pipes)
    for _ in range(warm):
        stdin, stdout = next(turns)
        stdin.write(line)
        await stdin.drain()
        await stdout.readline()
    start = time.process_time()
    for _ in range(n):
        stdin, stdout = next(turns)
        stdin.write(line)
        await stdin.drain()
        await stdout.readline()
    cpu = time.process_time() - start
    for proc in procs:
        assert proc.stdin
        proc.stdin.close()
        await proc.wait()
    return cpu / n


class MatchesCpu(NamedTuple):
    """What :func:`matches_cpu` measured: referee CPU seconds per decision over the
    whole run, the decisions and matches played, and the parts of the run that come
    once per referee process: the first match's CPU seconds and decisions (the bots
    spawned, the sandbox's and the referee's one-time set-up) and the pool's close
    (every bot ended)."""

    cpu: float
    decisions: int
    matches: int
    first_s: float
    first_decisions: int
    close_s: float

    @property
    def once_per_decision(self) -> float:
        """CPU seconds per decision of the whole run that the one-time parts add: the
        first match's CPU beyond what its decisions cost in the later matches, plus
        the pool's close, spread over every decision (NaN for a run of one match:
        nothing to tell its first match from)."""
        later = self.decisions - self.first_decisions
        if later <= 0:
            return float("nan")
        rest = self.cpu * self.decisions - self.first_s - self.close_s
        extra = self.first_s - self.first_decisions * rest / later + self.close_s
        return extra / self.decisions


async def matches_cpu(
    game: str, seats: int, bot: str, decisions: int, sandbox: str, reuse: bool, record: bool = True
) -> MatchesCpu:
    """Referee CPU per decision, decisions and matches played, and the one-time parts
    (:class:`MatchesCpu`): matches of the C random bot ``bot`` until ``decisions``
    are played, each writing its record (unless not ``record``; never fsynced) to a
    temporary folder."""
    g = get_game(game)
    pool = BotPool() if reuse else None
    played = matches = 0
    first_s, first_decisions, close_s = 0.0, 0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        policy = SandboxPolicy(sandbox, False, (tmp,))
        start = time.process_time()
        while played < decisions:
            out = await run_match(
                g,
                [BotSpec(f"c{k}", [bot]) for k in range(seats)],
                seed=matches,
                clock=Clock(move_ms=5000),
                sandbox=policy,
                record_path=Path(tmp) / f"{matches}.jsonl" if record else None,
                fsync=False,
                pool=pool,
                reuse_tag=str(matches),
            )
            faults = [s for s in out.seats if s.verdict != "ok"]
            if faults:
                raise SystemExit(f"{game}: a C random bot faulted: {faults[0]}")
            played += sum(s.moves for s in out.seats)
            matches += 1
            if matches == 1:
                first_s, first_decisions = time.process_time() - start, played
        if pool is not None:
            closing = time.process_time()
            await pool.close()
            close_s = time.process_time() - closing
        cpu = time.process_time() - start
    return MatchesCpu(cpu / played, played, matches, first_s, first_decisions, close_s)


def match(args: dict[str, Any]) -> dict[str, Any]:
    act = first_act(args["game"], args["seats"])
    line = encode(act)
    echo = run(args["loop"], echo_cpu(args["echo"], line, 2000))
    echo_seats = run(args["loop"], echo_cpu(args["echo"], line, 2000, children=args["seats"]))
    got = run(
        args["loop"],
        matches_cpu(
            args["game"],
            args["seats"],
            args["bot"],
            args["decisions"],
            args["sandbox"],
            args["reuse"],
        ),
    )
    return {
        "echo": echo,
        "echo_seats": echo_seats,
        "cpu": got.cpu,
        "decisions": got.decisions,
        "matches": got.matches,
        "once": got.once_per_decision,
        "first_s": got.first_s,
        "close_s": got.close_s,
        "bytes": len(line),
    }


async def act_cpu(argv: list[str], act: Any, n: int, warm: int = 20) -> float:
    """Referee CPU seconds per :meth:`BotProcess.act` round trip of ``act`` (its ``id``
    set each time) to the bot ``argv``, over ``n`` acts after ``warm`` untimed ones."""
    proc = await BotProcess.spawn(BotSpec("bench", argv))
    start_msg = Start(PROTOCOL_VERSION, "bench", "manila", {}, 0, 4, ["b"] * 4, StartClock(1, 1, 0))
    await proc.handshake(start_msg, 10_000)
    for i in range(1, warm + 1):
        act.id = i
        await proc.act(act, 10.0)
    start = time.process_time()
    for i in range(warm + 1, n + warm + 1):
        act.id = i
        await proc.act(act, 10.0)
    cpu = time.process_time() - start
    await proc.close()
    return cpu / n


def path(args: dict[str, Any]) -> dict[str, Any]:
    act = first_act("manila", 4)
    echo = run(args["loop"], echo_cpu(args["echo"], encode(act), args["acts"]))
    cpu = run(args["loop"], act_cpu([args["bot"]], act, args["acts"]))
    return {"echo": echo, "path": cpu}


async def stamped(argv: list[str], matches: int, stamps: Path) -> None:
    """Manila matches of reused stamping bots, each writing its record as a
    tournament's does (not fsynced: that happens once a match is over)."""
    pool = BotPool()
    with tempfile.TemporaryDirectory() as records:
        for seed in range(matches):
            await run_match(
                get_game("manila"),
                [BotSpec(f"s{k}", [*argv, str(stamps / f"seat{k}")]) for k in range(4)],
                seed=seed,
                clock=Clock(move_ms=5000),
                sandbox=SandboxPolicy("none", False, (str(stamps), records)),
                record_path=Path(records) / f"{seed}.jsonl",
                fsync=False,
                pool=pool,
                reuse_tag=str(seed),
            )
    await pool.close()


def stamp_gaps(stamps: Path) -> list[float]:
    """The harness gaps in µs from the stamp files (``seat*``) the stamping players of
    :mod:`benchmarks.players` wrote in ``stamps``: from each reply flushed ("r") to the
    next act read ("a"), the first act of a match left out."""
    events: list[tuple[int, str, int]] = []
    for file in stamps.glob("seat*"):
        for text in file.read_text().split("\n"):
            parts = text.split()
            if parts and parts[0] == "a":
                events.append((int(parts[2]), "a", int(parts[1])))
            elif parts and parts[0] == "r":
                events.append((int(parts[1]), "r", 0))
    events.sort()
    return [
        (t - prev_t) / 1000.0
        for (prev_t, prev_kind, _), (t, kind, act_id) in itertools.pairwise(events)
        if kind == "a" and prev_kind == "r" and act_id > 1
    ]


def gap(args: dict[str, Any]) -> dict[str, Any]:
    stamps = Path(tempfile.mkdtemp(dir=args["dir"]))
    run(args["loop"], stamped(args["argv"], args["matches"], stamps))
    gaps = stamp_gaps(stamps)
    return {"median_us": statistics.median(gaps), "gaps": len(gaps)}


TRIVIAL = [
    "/bin/sh",
    "-c",
    'while read l; do case "$l" in *\'"start"\'*) echo \'{"type":"ready","reuse":true}\';; '
    "esac; done",
]
"""A trivial shell bot: it answers every ``start`` with ``ready`` and ignores the rest."""


def start_message() -> Any:
    """The ``start`` a benchmark sends a trivial bot (a function: an old baseline's
    layout may lack the protocol's names, which only a probe that starts bots needs)."""
    return Start(PROTOCOL_VERSION, "bench", "manila", {}, 0, 1, ["b"], StartClock(10_000, 1000, 0))


async def startups(sandbox: str, bots: int, apart_ms: float = 0.0) -> tuple[list[float], float]:
    spec = BotSpec("bench", TRIVIAL)
    policy = SandboxPolicy(sandbox)
    start = start_message()
    readies: list[float] = []
    cpu0 = time.process_time()
    for _ in range(bots):
        if apart_ms:  # each bot alone, as reused bots start in a tournament (not timed)
            await asyncio.sleep(apart_ms / 1000.0)
        t0 = time.perf_counter()
        bot = await BotProcess.spawn(spec, limits=BotLimits(exit_grace_s=1.0), sandbox=policy)
        await bot.handshake(start, 10_000)
        readies.append(1000 * (time.perf_counter() - t0))
        await bot.close()
    return readies, 1000 * (time.process_time() - cpu0) / bots


def startup(args: dict[str, Any]) -> dict[str, Any]:
    apart = float(args.get("apart_ms", 0.0))
    readies, cpu = run(args.get("loop", "asyncio"), startups(args["sandbox"], args["bots"], apart))
    return {"ready_ms": readies, "cpu_ms": cpu}


def guarded_bot(children: int) -> list[str]:
    """:data:`TRIVIAL` after starting ``children`` sleeping child processes."""
    shell, flag, script = TRIVIAL
    return [shell, flag, "".join("sleep 600 & " for _ in range(children)) + script]


async def guard_cycles(sandbox: str, children: int, cycles: int) -> tuple[float, float, str]:
    """Referee CPU and wall µs per stop and continue (``freeze`` then ``thaw``) of an
    idle :func:`guarded_bot` under ``sandbox``, over ``cycles`` cycles after one
    untimed; and how it was stopped (``"cgroup freezer"`` where the bot's cgroup has
    one, else ``"signals"``).  The bot is closed afterwards."""
    bot = await BotProcess.spawn(
        BotSpec("guarded", guarded_bot(children)),
        limits=BotLimits(exit_grace_s=1.0),
        sandbox=SandboxPolicy(sandbox),
    )
    try:
        await bot.handshake(start_message(), 10_000)
        await bot.freeze()
        bot.thaw()
        cpu, wall = time.thread_time_ns(), time.perf_counter_ns()
        for _ in range(cycles):
            await bot.freeze()
            bot.thaw()
        cpu, wall = time.thread_time_ns() - cpu, time.perf_counter_ns() - wall
        group = getattr(bot, "_group", None)
        frozen_by_group = group is not None and getattr(group, "freezer", None) is not None
        return (
            cpu / cycles / 1000,
            wall / cycles / 1000,
            ("cgroup freezer" if frozen_by_group else "signals"),
        )
    finally:
        await bot.close(graceful=False)


def guard(args: dict[str, Any]) -> dict[str, Any]:
    cpu, wall, mechanism = run(
        args.get("loop", "asyncio"), guard_cycles(args["sandbox"], args["children"], args["cycles"])
    )
    return {"cpu_us": cpu, "wall_us": wall, "mechanism": mechanism}


PLAY_FIELD = [
    ("random", "python3 ../bots/random_bot.py"),
    ("heuristic", "python3 ../bots/manila_bot.py"),
    ("cautious", "python3 ../bots/manila_bot.py --cautious"),
]


def tournament(args: dict[str, Any]) -> dict[str, Any]:
    config_modules = ("referee.config", "referee.tournament.config")
    BotEntry = find("BotEntry", *config_modules)
    TournamentConfig = find("TournamentConfig", *config_modules)
    runner = ("referee.tournament", "referee.tournament.tournament", "referee.tournament.run")
    create_run = find("create_run", *runner)
    run_tournament = find("run_tournament", *runner)

    known = set(TournamentConfig.__struct_fields__)
    extra = {k: v for k, v in args["extra"].items() if k in known}
    config = TournamentConfig(
        name="bench",
        game="manila",
        seats=3,
        rounds=args["rounds"],
        move_ms=1000,
        bank_ms=10000,
        bots=[BotEntry(n, c) for n, c in PLAY_FIELD],
        **extra,
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        create_run(config, Path.cwd() / "tournaments", out)
        cpu0 = time.process_time()
        start = time.perf_counter()
        rows = run_tournament(out, concurrency=args["concurrency"])
        wall = time.perf_counter() - start
        cpu = time.process_time() - cpu0
    bad = sum(1 for r in rows for v in r.verdicts if v != "ok")
    return {"matches": len(rows), "wall": wall, "faults": bad, "referee_cpu": cpu}


KINDS = {
    "engine": lambda a: engine(a["game"], a["seats"], a["loop"], a["seconds"]),
    "match": match,
    "path": path,
    "gap": gap,
    "startup": startup,
    "guard": guard,
    "tournament": tournament,
}

if __name__ == "__main__":
    result = KINDS[sys.argv[1]](json.loads(sys.argv[2]))
    result["package"] = str(Path(referee.__file__).resolve().parent)
    print(json.dumps(result))
