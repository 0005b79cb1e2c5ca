"""Tournament throughput: a Manila round robin of the bundled bots, matches/s and CPU
per match, with bot reuse on and off, at concurrency 1 and 2, against a baseline
revision of the referee measured in the same run.

The tournament is ``tournaments/manila.toml``'s field (random, heuristic, cautious;
3 seats, move_ms 1000, bank_ms 10000) over ``--rounds`` rounds of 3 rotations: 20
rounds make the issue's 60 matches.  Every configuration runs in a fresh
subprocess; its CPU is that subprocess's and everything it reaped (referee, pool
workers, bots), so the bots run without a sandbox here (a sandboxed bot's CPU is
not reported back through bubblewrap); one more line gives the wall figure under
the sandbox.  The reuse-on lines, whose ratios are the issue's targets, run
``--repeats`` times with concurrency 1 and 2 alternating, and show the run of median
wall time: a 60-match tournament lasts 2-4 s, so one run swings by 10% or more.

The baseline (default ``04b8b0d``, the main branch when the speed work began) is
extracted with ``git archive`` (its ``referee``, ``bots`` and ``tournaments``) into a
temporary folder and run with the same code path; without git or that revision its
lines are skipped with a note.

Run: ``python -m benchmarks.tournament [--rounds 20] [--repeats 3] [--baseline REV]``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from referee.process import loop as event_loop
from referee.process.isolation.affinity import wanted

ROOT = Path(__file__).resolve().parents[1]

FIELD = [
    ("random", "python3 ../bots/random_bot.py"),
    ("heuristic", "python3 ../bots/manila_bot.py"),
    ("cautious", "python3 ../bots/manila_bot.py --cautious"),
]

PLAY = r"""
import json, sys, tempfile, time
from pathlib import Path
import referee
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.run import create_run, run_tournament

args = json.loads(sys.argv[1])
known = set(TournamentConfig.__struct_fields__)
extra = {k: v for k, v in args["extra"].items() if k in known}
config = TournamentConfig(
    name="bench", game="manila", seats=3, rounds=args["rounds"], move_ms=1000,
    bank_ms=10000, bots=[BotEntry(n, c) for n, c in args["field"]], **extra,
)
with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp) / "run"
    create_run(config, Path.cwd() / "tournaments", out)
    start = time.perf_counter()
    rows = run_tournament(out, concurrency=args["concurrency"])
    wall = time.perf_counter() - start
bad = sum(1 for r in rows for v in r.verdicts if v != "ok")
print(json.dumps({"matches": len(rows), "wall": wall, "faults": bad,
                  "package": str(Path(referee.__file__).parent)}))
"""


def play(
    tree: Path,
    rounds: int,
    concurrency: int,
    extra: dict[str, Any],
    loop: str | None = None,
) -> dict[str, Any]:
    """Run one tournament with the referee in ``tree`` (on event loop ``loop``:
    ``REFEREE_LOOP``'s value, default this process's); returns matches, wall seconds,
    faults, the package path used and ``cpu`` (seconds of the subprocess tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if loop is not None:
        env["REFEREE_LOOP"] = loop
    args = {"rounds": rounds, "concurrency": concurrency, "extra": extra, "field": FIELD}
    done = subprocess.run(
        [sys.executable, "-c", PLAY, json.dumps(args)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise click.ClickException(f"tournament in {tree} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if Path(result["package"]).resolve() != (tree / "referee").resolve():
        raise click.ClickException(f"expected the referee of {tree}, got {result['package']}")
    return result


def extract(rev: str, into: Path) -> bool:
    """``git archive`` of ``rev``'s referee, bots and tournaments into ``into``."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "referee", "bots", "tournaments"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


@click.command()
@click.option("--rounds", default=20, show_default=True, help="Rounds of 3 matches.")
@click.option("--baseline", default="04b8b0d", show_default=True, help="Revision to compare.")
@click.option(
    "--repeats",
    default=3,
    show_default=True,
    help="Runs of each reuse-on line (concurrency 1 and 2 alternating; median shown).",
)
@click.option("--no-sandbox-line", is_flag=True, help="Skip the line under the sandbox.")
def main(rounds: int, baseline: str, repeats: int, no_sandbox_line: bool) -> None:
    """Print matches/s and CPU per match for each configuration, and the ratios."""
    rows: list[list[Any]] = []
    figures: dict[str, dict[str, Any]] = {}
    pairs: dict[str, list[float]] = {}
    started, load = time.strftime("%H:%M:%S"), os.getloadavg()[0]

    def show(label: str, concurrency: int, got: dict[str, Any], note: str = "") -> None:
        figures[label] = got
        rate = got["matches"] / got["wall"]
        cpu = got["cpu"] / got["matches"] * 1000
        rows.append([label + note, concurrency, got["matches"], got["faults"], rate, cpu])

    def add(
        label: str, tree: Path, concurrency: int, extra: dict[str, Any], loop: str | None = None
    ) -> None:
        show(label, concurrency, play(tree, rounds, concurrency, extra, loop))

    def add_paired(label: str, extra: dict[str, Any]) -> None:
        """Concurrency 1 and 2 in alternation, ``repeats`` times each, so that both
        see the same drift of the machine; each line is the run of median wall."""
        runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
        for _ in range(repeats):
            for concurrency in (1, 2):
                runs[concurrency].append(play(ROOT, rounds, concurrency, extra))
        for concurrency, got in runs.items():
            mid = sorted(got, key=lambda g: g["wall"])[len(got) // 2]
            note = f" (median of {repeats})" if repeats > 1 else ""
            show(f"{label}, c{concurrency}", concurrency, mid, note)
        paired = zip(runs[1], runs[2], strict=True)
        pairs[label] = [one["wall"] / two["wall"] for one, two in paired]

    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        base = Path(tmp)
        have_base = extract(baseline, base)
        if have_base:
            add(f"baseline {baseline}", base, 1, {})
        else:
            print(f"(baseline {baseline} not available: git archive failed; skipped)")
        for concurrency in (1, 2):
            add(
                f"now, reuse off, c{concurrency}",
                ROOT,
                concurrency,
                {"sandbox": "none", "reuse": False, "affinity": False},
            )
        for affinity in (False, True):
            label = "now, reuse on" + (", affinity" if affinity else "")
            add_paired(label, {"sandbox": "none", "reuse": True, "affinity": affinity})
        if event_loop.name() == "uvloop":
            add(
                "now, reuse on, asyncio's loop (REFEREE_LOOP=asyncio)",
                ROOT,
                1,
                {"sandbox": "none", "reuse": True, "affinity": False},
                "asyncio",
            )
        if not no_sandbox_line:
            add(
                "now, reuse on, sandbox bwrap (wall only)",
                ROOT,
                1,
                {"sandbox": "auto", "reuse": True},
            )
            rows[-1][-1] = ""
    print(
        tabulate(
            rows,
            headers=[
                "configuration",
                "concurrency",
                "matches",
                "faults",
                "matches/s",
                "CPU ms/match",
            ],
            floatfmt=".2f",
        )
    )

    def rate(label: str) -> float:
        got = figures[label]
        return float(got["matches"] / got["wall"])

    on1, on2 = rate("now, reuse on, c1"), rate("now, reuse on, c2")
    pin1, pin2 = rate("now, reuse on, affinity, c1"), rate("now, reuse on, affinity, c2")
    print(f"reuse on vs off at concurrency 1: {on1 / rate('now, reuse off, c1'):.2f}x")
    if have_base:
        then = rate(f"baseline {baseline}")
        print(
            f"reuse on (c1) vs baseline {baseline} (c1): {on1 / then:.2f}x, with affinity "
            f"{pin1 / then:.2f}x (target >= 3)"
        )
    print(
        f"concurrency 2 vs 1, reuse on: {on2 / on1:.2f}x; with affinity {pin2 / pin1:.2f}x "
        "(target >= 1.8 on an idle machine)"
    )
    auto1, auto2 = wanted(None, 1), wanted(None, 2)
    default = (pin2 if auto2 else on2) / (pin1 if auto1 else on1)
    print(
        f"  default affinity on this machine (c1 {'bound' if auto1 else 'free'}, "
        f"c2 {'bound' if auto2 else 'free'}): {default:.2f}x"
    )
    for label, ratios in pairs.items():
        shown = ", ".join(f"{r:.2f}" for r in ratios)
        print(f"  {label}: c2/c1 of each alternating pair {shown}")
    print(f"event loop of the 'now' lines: {event_loop.name()} (referee.process.loop)")
    print(
        f"(started {started}, load average then {load:.1f}; "
        f"ended {time.strftime('%H:%M:%S')}, load average {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
