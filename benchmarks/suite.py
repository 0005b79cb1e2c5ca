"""``make bench``: the baseline as shipped beside this checkout, in one run, every
target printed beside its figure.

The baseline (``--base``, default ``5031fe4``, the release before this round) is
built in its own venv from its own ``pyproject.toml`` (:mod:`benchmarks.baseline`);
every measurement runs in a fresh interpreter of one side (:mod:`benchmarks.probe`)
and the sides alternate, old, new, new, old, ... for ``--repeats`` rounds.  Each
figure is printed as the median and the minimum (for rates: the maximum, the best
run) of its repetitions; each section prints the load average before and after.

Sections (``--only NAME``, repeatable; default all):

* ``engines``: view-inclusive random playouts (what the referee asks of an engine at
  every decision) for all four games, and Roads & Boats without views; decisions per
  CPU second.  Target: Roads & Boats with views at least 2x the baseline;
* ``match``: referee CPU per decision in real matches of the C random bot
  (``bots/examples/random_bot.c``), sandbox on (bwrap, where it works) and reuse on,
  as a tournament runs them, for every game, divided by the raw echo round trip of
  that game's first act through C echo children **on the same event loop**, for both
  loops (the echo's runs of both sides pooled: it runs no referee code).  The target
  (at most 3.0x) compares like with like: the match's recurring CPU per decision
  (without the part a run pays once per process: the bots' spawns, the set-up, the
  pool's close; the echo's figure leaves out its spawn and warm-up too) over the echo
  through one child per seat, written to in turn as a match's acts are.  The whole
  run's figure over that echo and over the echo through a single child are printed
  beside it, each with its verdict;
* ``path``: the request path (``BotProcess.act``) against the raw echo on the same
  loop, both loops;
* ``gap``: the harness gap per move (a reply flushed to the next request read, wall
  µs, stamped by the bots) with reused C and Python stamping bots, each match writing
  its record as in a tournament.  The target
  compares it with fastchess's on the same trivial Python player speaking UCI
  (:data:`benchmarks.players.STAMP_UCI_PY`, a knight shuffle), its runs alternating
  with ours; fastchess is measured only where it is on ``PATH`` or named in the
  environment variable ``FASTCHESS`` (it is not part of this project);
* ``startup``: spawn to ``ready`` of a trivial bot without and with the sandbox, per
  bot, with bots in a row and 50 ms apart (each alone, as reused bots start); the
  sandbox's cost is the difference of the medians.  Target: under 15 ms in both;
* ``guard``: what a slow move costs the referee per waiting bot: the turn guard's
  stop and continue (``BotProcess.freeze`` then ``thaw``) of an idle shell bot, alone
  and with 4 sleeping children, without and with the sandbox, on the referee's loop;
  referee CPU and wall µs per cycle (:mod:`benchmarks.turn_guard` says more).  No
  target: a quick move costs nothing, and this is the price of a slow one;
* ``tournament``: a 60-match Manila round robin of the bundled Python bots in the
  default configuration (sandbox on, reuse on) at concurrency 1; matches/s and CPU
  per match of the whole process tree (a bot's CPU inside bubblewrap is reported to
  the caller's ``RUSAGE_CHILDREN`` like any child's).  ``python -m
  benchmarks.tournament`` adds reuse off and other concurrencies.

Run: ``python -m benchmarks.suite [--base REV] [--repeats N] [--only SECTION]``.
"""

from __future__ import annotations

import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from benchmarks import baseline
from benchmarks.baseline import Side, alternate, run_probe
from benchmarks.figures import command_line, crowd, host_processes, load_report
from benchmarks.players import ECHO_C, STAMP_C, STAMP_PY, STAMP_UCI_PY
from benchmarks.probe import stamp_gaps
from referee.api.native import problem as native_problem
from referee.process import loop as event_loop
from referee.process.isolation.sandbox import bwrap_problem

ROOT = Path(__file__).resolve().parents[1]
GAMES = [("manila", 4), ("navegador", 4), ("puerto-rico", 4), ("roads-and-boats", 2)]
SECTIONS = ("engines", "match", "path", "gap", "startup", "guard", "tournament")


def build(directory: Path) -> dict[str, str] | None:
    """Compile the C echo child, the stamping C bot and the example C random bot into
    ``directory`` (made readable to the sandbox's user); paths by name, or ``None``
    without a C compiler."""
    cc = shutil.which("cc")
    if cc is None:
        return None
    directory.chmod(0o755)
    sources = {"echo": ECHO_C, "stamp": STAMP_C}
    built: dict[str, str] = {}
    for name, source in sources.items():
        (directory / f"{name}.c").write_text(source)
        built[name] = str(directory / name)
        subprocess.run([cc, "-O2", "-o", built[name], str(directory / f"{name}.c")], check=True)
    built["random_bot"] = str(directory / "random_bot")
    src = ROOT / "bots" / "examples" / "random_bot.c"
    subprocess.run([cc, "-O2", "-o", built["random_bot"], str(src)], check=True)
    return built


def fastchess_gap(fastchess: str, python: str, work: Path) -> tuple[float, int]:
    """One fastchess run of 50 games (25 rounds, colours swapped) between two reused
    copies of :data:`benchmarks.players.STAMP_UCI_PY`: the median harness gap in µs
    (from a ``bestmove`` flushed to the next ``go`` read, a game's first ``go`` left
    out, as for our own players) and the number of gaps.  Raises
    :class:`subprocess.CalledProcessError` if fastchess fails."""
    stamps = Path(tempfile.mkdtemp(dir=work))
    player = stamps / "player.py"
    player.write_text(STAMP_UCI_PY)
    engines = []
    for seat in range(2):
        engines += ["-engine", f"cmd={python}", f"args={player} {stamps / f'seat{seat}'}"]
        engines += [f"name=stamp{seat}"]
    match = ["-each", "tc=60+1", "proto=uci", "-rounds", "25", "-games", "2", "-concurrency", "1"]
    subprocess.run(
        [fastchess, *engines, *match],
        cwd=stamps,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    gaps = stamp_gaps(stamps)
    return statistics.median(gaps), len(gaps)


def engine_builds() -> str:
    """How each game and the match loop of this checkout run, compiled or Python and
    why (:mod:`referee.api.native`), as one line: ``"manila compiled, ..."``."""
    games = sorted(p for p in (ROOT / "referee" / "games").iterdir() if (p / "game.py").exists())
    parts = []
    packages = [(g, g.name, f"referee.games.{g.name}") for g in games]
    packages.append((ROOT / "referee" / "match", "match loop", "referee.match"))
    for folder, name, package in packages:
        problem = native_problem(folder, package)
        parts.append(f"{name} " + ("compiled" if problem is None else f"Python ({problem})"))
    return ", ".join(parts)


def sandbox_modes() -> list[str]:
    """The sandbox modes this machine runs: ``none``, and ``bwrap`` where it works."""
    return ["none"] + (["bwrap"] if bwrap_problem() is None else [])


def med(values: Sequence[float]) -> float:
    """The median of ``values``."""
    return float(statistics.median(values))


def _span(values: Sequence[float]) -> str:
    """``min-max`` of ``values`` (µs, one decimal)."""
    return f"{min(values):.1f}-{max(values):.1f}"


def recurring(run: dict[str, Any]) -> float:
    """A ``match`` probe's referee CPU per decision (s) without the part its run pays
    once per process (``once``); the whole figure where that part is unknown (a run of
    one match, or a probe that does not split it)."""
    once = run.get("once", float("nan"))
    return float(run["cpu"] - once) if math.isfinite(once) else float(run["cpu"])


def verdict(ok: bool) -> str:
    """``met`` or ``NOT met``."""
    return "met" if ok else "NOT met"


class Suite:
    """The sides under test and the shared build folder; one method per section, each
    printing its tables and its target lines."""

    def __init__(self, sides: list[Side], repeats: int, built: dict[str, str] | None, work: Path):
        self.sides, self.repeats, self.built, self.work = sides, repeats, built, work
        self.loops = list(event_loop.installed())
        self.sandbox = "bwrap" if bwrap_problem() is None else "none"

    def each(self, kind: str, args: Callable[[Side], dict[str, Any]]) -> dict[str, list[Any]]:
        """Probe ``kind`` on every side, alternating, ``repeats`` times."""
        return alternate(self.sides, self.repeats, lambda side: run_probe(side, kind, args(side)))

    def header(self) -> str:
        return f"{self.repeats} repetitions per side, alternating (ABBA...)"

    def engines(self) -> None:
        cases = [(g, n, "view") for g, n in GAMES] + [("roads-and-boats", 2, "bare")]
        rows = []
        ratio_rb = 0.0
        for game, seats, loop in cases:
            args = {"game": game, "seats": seats, "loop": loop, "seconds": 1.0}
            got = self.each("engine", lambda _side, a=args: a)  # type: ignore[misc]
            row: list[Any] = [game, seats, loop]
            medians = []
            for side in self.sides:
                rates = [r["decisions_per_s"] for r in got[side.label]]
                medians.append(med(rates))
                row += [med(rates), max(rates)]
            ratio = medians[-1] / medians[0]
            row.append(ratio)
            if (game, loop) == ("roads-and-boats", "view"):
                ratio_rb = ratio
            rows.append(row)
        headers = ["game", "seats", "loop"]
        for side in self.sides:
            headers += [f"{side.label} median/s", f"{side.label} best/s"]
        headers.append("new/old (medians)")
        print(f"Decisions per CPU second of random playouts, {self.header()}:")
        formats = [".0f"] * (len(headers) - 1) + [".2f"]
        print(tabulate(rows, headers=headers, floatfmt=formats))
        if len(self.sides) > 1:
            print(
                f"TARGET Roads & Boats view-inclusive decisions/s >= 2x the baseline: "
                f"{ratio_rb:.2f}x, {verdict(ratio_rb >= 2.0)}"
            )

    def match(self) -> None:
        if self.built is None:
            print("(no C compiler: real-match figures not measured)")
            return
        rows = []
        worst: dict[tuple[str, str], float] = {}  # by (loop, which figure over which echo)
        for loop in self.loops:
            for game, seats in GAMES:
                args = {
                    "game": game,
                    "seats": seats,
                    "loop": loop,
                    "decisions": 1500,
                    "bot": self.built["random_bot"],
                    "sandbox": self.sandbox,
                    "reuse": True,
                    "echo": self.built["echo"],
                }
                got = self.each("match", lambda _side, a=args: a)  # type: ignore[misc]
                # The echo is the same raw pipe for both sides (no referee code): its
                # runs are pooled, and both sides divide by that one median.  Through
                # one child, a run is bimodal (the child on the referee's core or on
                # the other: 28 or 37 us on uvloop here), so a game's verdict could
                # turn on where its echo's child ran.  Through a child per seat in
                # turn, as the match's acts go, the echo sees the match's own mix of
                # placements; that is the figure the target divides by.
                ones = [r["echo"] * 1e6 for side in self.sides for r in got[side.label]]
                turns = [r["echo_seats"] * 1e6 for side in self.sides for r in got[side.label]]
                one, per_seat = med(ones), med(turns)
                for side in self.sides:
                    runs = got[side.label]
                    cpus = [r["cpu"] * 1e6 for r in runs]
                    # Older probes' results lack the one-time part: shown as nan.
                    once = [r.get("once", float("nan")) * 1e6 for r in runs]
                    again = med([recurring(r) * 1e6 for r in runs])
                    rows.append(
                        [
                            game,
                            loop,
                            side.label,
                            f"{per_seat:.1f} ({_span(turns)})",
                            f"{one:.1f} ({_span(ones)})",
                            med(cpus),
                            min(cpus),
                            med(once),
                            again,
                            again / per_seat,
                            med(cpus) / per_seat,
                            med(cpus) / one,
                        ]
                    )
                    if side is self.sides[-1]:
                        for key, ratio in (
                            ("recurring", again / per_seat),
                            ("whole", med(cpus) / per_seat),
                            ("one child", med(cpus) / one),
                        ):
                            worst[loop, key] = max(worst.get((loop, key), 0.0), ratio)
        print(
            f"Referee CPU per decision in real matches of the C random bot (sandbox "
            f"{self.sandbox}, reuse on, about 1500 decisions a run), against the raw echo "
            f"of the game's first act on the same loop, through one C echo child per seat "
            f"in turn as the match's acts go, and through a single child (each: the "
            f"median of both sides' echo runs, and their range); 'once per process': the "
            f"part of the whole run's figure that a run pays once, spread over its "
            f"decisions (the first match's CPU beyond what its decisions cost later: the "
            f"bots' spawns in the sandbox and the referee's set-up; and ending the pool's "
            f"bots; nan where a run was one match); 'recurring': the whole run's figure "
            f"without that part (the whole where it is nan), what every further decision "
            f"costs, as the echo's figure leaves out the echo's spawn and warm-up; "
            f"{self.header()}:"
        )
        headers = [
            "game",
            "loop",
            "side",
            "echo us, child per seat (range)",
            "echo us, one child (range)",
            "whole run us/decision (median)",
            "(min)",
            "of which once per process",
            "recurring us/decision",
            "recurring ÷ echo per seat",
            "whole ÷ echo per seat",
            "whole ÷ echo one child",
        ]
        print(tabulate(rows, headers=headers, floatfmt=".2f"))
        default = event_loop.name()
        for loop in self.loops:
            which = "the referee's loop" if loop == default else "not the referee's loop"
            ratio = worst[loop, "recurring"]
            whole, alone = worst[loop, "whole"], worst[loop, "one child"]
            print(
                f"TARGET real-match referee CPU per move <= 3.0x the raw echo on the same "
                f"loop, every game ({loop}, {which}): worst game {ratio:.2f}x, the recurring "
                f"cost over the echo through a child per seat, {verdict(ratio <= 3.0)} "
                f"(whole runs, the one-time part included: {whole:.2f}x that echo, "
                f"{verdict(whole <= 3.0)}; {alone:.2f}x the echo through one child, "
                f"{verdict(alone <= 3.0)})"
            )

    def path(self) -> None:
        if self.built is None:
            return
        rows = []
        for loop in self.loops:
            args = {
                "loop": loop,
                "acts": 2000,
                "bot": self.built["random_bot"],
                "echo": self.built["echo"],
            }
            got = self.each("path", lambda _side, a=args: a)  # type: ignore[misc]
            for side in self.sides:
                runs = got[side.label]
                ratios = [r["path"] / r["echo"] for r in runs]
                rows.append(
                    [
                        loop,
                        side.label,
                        med([r["echo"] * 1e6 for r in runs]),
                        med([r["path"] * 1e6 for r in runs]),
                        med(ratios),
                        min(ratios),
                    ]
                )
        print(
            "Request path (BotProcess.act to the C random bot, a 4-seat Manila act) against "
            f"the raw echo of the same line on the same loop, referee CPU; {self.header()}:"
        )
        headers = ["loop", "side", "echo us", "request path us", "÷ echo (median)", "(min)"]
        print(tabulate(rows, headers=headers, floatfmt=".2f"))

    def gap(self) -> None:
        if self.built is None:
            return
        python = shutil.which("python3") or sys.executable
        players = [("C", [self.built["stamp"]]), ("Python", [python, "-c", STAMP_PY])]
        loop = "uvloop" if "uvloop" in self.loops else "asyncio"
        fastchess = os.environ.get("FASTCHESS") or shutil.which("fastchess")
        rows = []
        ours = 0.0  # the new side's Python player
        ours_by_round: list[float] = []
        theirs: list[tuple[float, int]] = []
        for name, argv in players:
            args = {"matches": 8, "argv": argv, "dir": str(self.work), "loop": loop}
            # The Python player's runs alternate with fastchess's, one of theirs per round.
            rival = fastchess if name == "Python" else None

            def measure(side: Side, a: dict[str, Any] = args, rival: str | None = rival) -> Any:
                if rival is not None and side is self.sides[0]:
                    theirs.append(fastchess_gap(rival, python, self.work))
                return run_probe(side, "gap", a)

            got = alternate(self.sides, self.repeats, measure)
            for side in self.sides:
                gaps = [r["median_us"] for r in got[side.label]]
                count = got[side.label][0]["gaps"]
                rows.append([f"{name} stamping bot", side.label, med(gaps), min(gaps), count])
            if name == "Python":
                ours = med(gaps)  # the last side is the new one
                ours_by_round = gaps
        if theirs:
            medians = [median for median, _ in theirs]
            rows.append(
                ["Python player, UCI", "fastchess", med(medians), min(medians), theirs[0][1]]
            )
        print(
            f"Harness gap per move (wall us from a reply flushed to the next request read; "
            f"reused bots; ours: Manila, 4 seats, no sandbox, records written, {loop}; "
            f"fastchess: chess, 2 engines, a knight shuffle); {self.header()}:"
        )
        headers = ["player", "side", "median of run medians", "min", "gaps per run"]
        print(tabulate(rows, headers=headers, floatfmt=".1f"))
        if not theirs:
            print(
                "TARGET harness gap at or below fastchess's with the same trivial Python "
                "player: not measured (no fastchess: put it on PATH or name it in FASTCHESS; "
                "the figures above are ours only)"
            )
            return
        limit = rows[-1][2]
        # Each round measures fastchess next to our sides: the ratio within a round is
        # not moved by the load drifting between rounds, so its spread is printed too.
        paired = [o / t for o, (t, _) in zip(ours_by_round, theirs, strict=True)]
        print(
            f"new ÷ fastchess within each round: median {med(paired):.2f}x, range "
            f"{min(paired):.2f}-{max(paired):.2f}x"
        )
        print(
            f"TARGET harness gap at or below fastchess's ({fastchess}) with the same trivial "
            f"Python player: {ours:.1f} us against {limit:.1f} us ({ours / limit:.2f}x), "
            f"{verdict(ours <= limit)}"
        )

    def startup(
        self, bots: int = 20, apart: Sequence[float] = (0.0, 50.0), crowd_size: int = 0
    ) -> None:
        """Spawn to ready per bot in each regime of ``apart`` (ms between two bots: 0,
        in a row; 50, each bot alone, as reused bots start in a tournament), with
        ``crowd_size`` idle processes more on the host (:func:`figures.crowd`)."""
        with crowd(crowd_size):
            self._startup(bots, apart)

    def _startup(self, bots: int, apart: Sequence[float]) -> None:
        modes = sandbox_modes()
        processes = host_processes()
        rows = []
        cost: dict[str, float] = {}
        for apart_ms in apart:
            args = {"bots": bots, "apart_ms": apart_ms}
            got = alternate(
                self.sides,
                self.repeats,
                lambda side, a=args: {  # type: ignore[misc]
                    mode: run_probe(side, "startup", {**a, "sandbox": mode}) for mode in modes
                },
            )
            regime = "in a row" if not apart_ms else f"{apart_ms:.0f} ms apart"
            for side in self.sides:
                runs = got[side.label]
                row: list[Any] = [regime, side.label]
                for mode in modes:
                    medians = [med(r[mode]["ready_ms"]) for r in runs]
                    row += [med(medians), min(medians)]
                if "bwrap" in modes:
                    diffs = [med(r["bwrap"]["ready_ms"]) - med(r["none"]["ready_ms"]) for r in runs]
                    key = f"{side.label} {regime}"
                    cost[key] = med(diffs)
                    row += [med(diffs), min(diffs)]
                row.append(med([r["none"]["cpu_ms"] for r in runs]))
                rows.append(row)
        headers = ["bots", "side"]
        for mode in modes:
            headers += [f"{mode}: ready ms (median)", "(min)"]
        if "bwrap" in modes:
            headers += ["sandbox cost ms (median)", "(min)"]
        headers.append("referee CPU ms/bot, no sandbox")
        print(
            f"Spawn to ready of a trivial shell bot, per bot (each run: the median of {bots} "
            f"bots), {processes} processes on the host; {self.header()}:"
        )
        print(tabulate(rows, headers=headers, floatfmt=".2f"))
        if cost:
            new_label = self.sides[-1].label
            worst = max(v for k, v in cost.items() if k.startswith(f"{new_label} "))
            print(
                f"TARGET sandbox start-up cost per bot < 15 ms at the median, in every regime: "
                f"{worst:.2f} ms ({', '.join(f'{k} {v:.2f}' for k, v in cost.items())}), "
                f"{verdict(worst < 15)}"
            )

    def guard(self, cycles: int = 100, children: int = 4) -> None:
        """Referee CPU and wall µs per stop and continue of a waiting bot, per sandbox
        mode and bot (alone, and with ``children`` sleeping children)."""
        modes = sandbox_modes()
        loop = "uvloop" if "uvloop" in self.loops else "asyncio"
        variants = [(mode, size) for mode in modes for size in (0, children)]

        def one(side: Side) -> dict[str, Any]:
            return {
                f"{mode} {size}": run_probe(
                    side,
                    "guard",
                    {"sandbox": mode, "children": size, "cycles": cycles, "loop": loop},
                )
                for mode, size in variants
            }

        got = alternate(self.sides, self.repeats, one)
        rows = []
        for mode, size in variants:
            for side in self.sides:
                runs = [r[f"{mode} {size}"] for r in got[side.label]]
                cpu = [r["cpu_us"] for r in runs]
                wall = [r["wall_us"] for r in runs]
                bot = f"shell + {size} children" if size else "shell alone"
                row = [mode, bot, side.label, runs[0]["mechanism"], med(cpu), min(cpu)]
                rows.append([*row, med(wall), min(wall)])
        print(
            f"The turn guard's stop and continue of a waiting bot (freeze, then thaw), per "
            f"cycle, {cycles} cycles a run, {loop}; {self.header()}:"
        )
        headers = ["sandbox", "bot", "side", "stopped by", "referee CPU us (median)", "(min)"]
        headers += ["wall us (median)", "(min)"]
        print(tabulate(rows, headers=headers, floatfmt=".0f"))

    def tournament(
        self, rounds: int, concurrency: Sequence[int] = (1,), reuse_off: bool = False
    ) -> None:
        """The default configuration at concurrency 1, with ``reuse_off`` also with
        reuse off, and the default at each other ``concurrency``."""
        configs: list[tuple[str, int, dict[str, Any]]] = [
            ("default (sandbox auto, reuse on)", 1, {})
        ]
        if reuse_off:
            configs.append(("reuse off", 1, {"reuse": False}))
        configs += [(f"default, concurrency {c}", c, {}) for c in concurrency if c != 1]

        def one(side: Side) -> dict[str, Any]:
            return {
                label: run_probe(
                    side, "tournament", {"rounds": rounds, "concurrency": c, "extra": extra}
                )
                for label, c, extra in configs
            }

        got = alternate(self.sides, self.repeats, one)
        rows = []
        for side in self.sides:
            runs = got[side.label]
            for label, _, _ in configs:
                rates = [r[label]["matches"] / r[label]["wall"] for r in runs]
                cpu = [1000 * r[label]["children_cpu"] / r[label]["matches"] for r in runs]
                ref = [1000 * r[label]["referee_cpu"] / r[label]["matches"] for r in runs]
                faults = sum(r[label]["faults"] for r in runs)
                rows.append([side.label, label, med(rates), max(rates), med(cpu), med(ref), faults])
            if reuse_off:
                on_off = [
                    (r[configs[0][0]]["matches"] / r[configs[0][0]]["wall"])
                    / (r["reuse off"]["matches"] / r["reuse off"]["wall"])
                    for r in runs
                ]
                rows.append([side.label, "reuse on ÷ off (pairs)", med(on_off), max(on_off)])
        print(
            f"Manila round robin of the bundled Python bots, {3 * rounds} matches, "
            f"concurrency 1 unless said; {self.header()}:"
        )
        headers = [
            "side",
            "configuration",
            "matches/s (median)",
            "(best)",
            "CPU ms/match, all processes",
            "referee CPU ms/match",
            "faults",
        ]
        print(tabulate(rows, headers=headers, floatfmt=".2f"))


def run_suite(
    base: str | None,
    repeats: int,
    only: Sequence[str],
    rounds: int = 20,
    bots: int = 20,
    concurrency: Sequence[int] = (1,),
    reuse_off: bool = False,
    crowd_size: int = 0,
) -> None:
    """Build the baseline (unless ``base`` is ``None``), then run the chosen sections
    (all by default), each between two load-average lines; ``crowd_size`` idle
    processes more on the host during the ``startup`` section."""
    sides = [baseline.current()]
    if base:
        try:
            sides.insert(0, baseline.prepare(base))
        except baseline.BaselineError as error:
            print(f"(baseline {base} not measured: {error})")
    print(f"sides: {', '.join(f'{s.label} ({s.tree})' for s in sides)}")
    print(f"engines and match loop of the new side: {engine_builds()}")
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        work = Path(tmp)
        suite = Suite(sides, repeats, build(work), work)
        sections: dict[str, Callable[[], None]] = {
            "engines": suite.engines,
            "match": suite.match,
            "path": suite.path,
            "gap": suite.gap,
            "startup": lambda: suite.startup(bots, crowd_size=crowd_size),
            "guard": suite.guard,
            "tournament": lambda: suite.tournament(rounds, concurrency, reuse_off),
        }
        for name in only or SECTIONS:
            print(f"\n== {name} ==")
            with load_report(name):
                sections[name]()


@click.command()
@click.option("--base", default="5031fe4", show_default=True, help="Baseline revision.")
@click.option("--no-base", is_flag=True, help="Measure this checkout only.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--only", multiple=True, type=click.Choice(SECTIONS), help="Sections to run.")
@click.option("--rounds", default=20, show_default=True, help="Tournament rounds of 3 matches.")
def main(base: str, no_base: bool, repeats: int, only: tuple[str, ...], rounds: int) -> None:
    """Old as shipped beside new, every target beside its figure."""
    args = sys.argv[1:]
    print(f"command: {command_line('benchmarks.suite', args)}")
    with load_report("make bench"):
        run_suite(None if no_base else base, repeats, only, rounds)


if __name__ == "__main__":
    main()
