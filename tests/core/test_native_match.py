"""The compiled match loop (``referee/match/match.py``, built by ``make setup``): used
where built, written so that compiling it changes nothing, and playing the same
matches, faults included, as its Python source."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from benchmarks import match_loop
from benchmarks.critical import build_bot
from referee.api import native
from tests.core.python_build import assert_all_pass_in_python
from tests.zoo.procs import require

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from build_native import TARGETS  # noqa: E402

MATCH = ROOT / "referee" / "match"


def compiled_coroutine_hazards(source: str) -> list[str]:
    """Where a compiled coroutine may lose the exception it propagates: an ``await``
    inside a ``finally`` clause, or an ``except`` clause that awaits and then raises
    the caught exception again with a bare ``raise`` (line numbers, as text)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Try | ast.TryStar):
            continue
        for statement in node.finalbody:
            for inner in ast.walk(statement):
                if isinstance(inner, ast.Await):
                    found.append(f"line {inner.lineno}: await in finally")
        for handler in node.handlers:
            inside = [inner for s in handler.body for inner in ast.walk(s)]
            awaits = any(isinstance(inner, ast.Await) for inner in inside)
            if awaits and any(isinstance(i, ast.Raise) and i.exc is None for i in inside):
                found.append(f"line {handler.lineno}: await, then a bare raise, in except")
    return found


def test_the_hazard_check_finds_both_shapes() -> None:
    source = """
async def f():
    try:
        await g()
    finally:
        await h()
    try:
        pass
    except Exception:
        await h()
        raise
    try:
        pass
    except Exception:
        await h()
    finally:
        h()
"""
    assert compiled_coroutine_hazards(source) == [
        "line 6: await in finally",
        "line 9: await, then a bare raise, in except",
    ]


@pytest.mark.parametrize("folder", sorted(TARGETS))
def test_no_compiled_coroutine_awaits_where_it_could_lose_an_exception(folder: str) -> None:
    """mypyc 2.4 compiled ``Match.play``'s ``finally: await ...`` so that an exception
    raised in the match (an engine's error, a cancellation on Ctrl-C) was lost and
    ``play`` returned ``None``: compiled modules keep awaits out of those places."""
    for module in TARGETS[folder]:
        hazards = compiled_coroutine_hazards((ROOT / folder / module).read_text())
        assert not hazards, f"{folder}/{module}: {hazards}"


def test_the_match_loop_runs_compiled_where_built() -> None:
    require(native.problem(MATCH), "compiled match loop")
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, referee.match.match as m; from referee.api.native import status; "
            "print(json.dumps([m.__file__, status()['referee.match']]))",
        ],
        cwd=ROOT,
        env=native.environment(python=False),
        capture_output=True,
        text=True,
        check=True,
    )
    module, status = json.loads(out.stdout)
    assert module.endswith(EXTENSION_SUFFIXES[0]) and status == "compiled"


def test_the_python_match_loop_passes_the_match_tests() -> None:
    """Where the suite runs the match loop compiled, its Python source (what a machine
    without a C compiler runs) passes the match tests too."""
    if native.problem(MATCH) is not None:
        pytest.skip("the match loop runs in Python here: the suite itself tests it so")
    assert_all_pass_in_python(
        "tests/core/test_match.py", "tests/core/test_heard.py", "tests/core/test_ply_limit.py"
    )


PLAY = """
import asyncio, json, sys
from pathlib import Path
from referee.api.native import status
from referee.games import get_game
from referee.match.match import Clock, run_match
from referee.process.spec import BotSpec

zoo, folder = sys.argv[1], Path(sys.argv[2])
lines_by_seed = {}
SEATS = [["ok", "stray_lines", "not_legal", "ok"], ["close_stdout", "ok", "ok"]]
for seed, modes in enumerate(SEATS):
    bots = [BotSpec(f"{m}{i}", [sys.executable, zoo, m]) for i, m in enumerate(modes)]
    record = folder / f"{seed}.jsonl"
    out = asyncio.run(run_match(get_game("manila"), bots, seed=seed, record_path=record,
                                clock=Clock(startup_ms=10000, move_ms=5000), fsync=False))
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    for line in lines:
        line.pop("ms", None)
    seats = [[s.name, s.verdict, s.detail, s.moves, s.unsolicited_lines, s.fault_ply]
             for s in out.seats]
    lines_by_seed[seed] = [lines, out.scores, out.ranks, out.plies, out.reason, seats]
print(json.dumps({"status": status().get("referee.match"), "matches": lines_by_seed}))
"""


def test_compiled_and_python_match_loops_play_the_same_matches(tmp_path: Path) -> None:
    """Two seeded Manila matches of deterministic test bots, one with a seat that
    writes stray lines, one whose moves are illegal (fallback moves drawn from the
    seed) and one that closes its output: the same records, moment of each fault,
    verdicts, details, scores and counts, compiled or not (the moves' times aside)."""
    require(native.problem(MATCH), "compiled match loop")
    zoo = str(ROOT / "tests" / "zoo" / "zoo_bot.py")
    got = {}
    for pure in (False, True):
        folder = tmp_path / ("python" if pure else "compiled")
        folder.mkdir()
        out = subprocess.run(
            [sys.executable, "-c", PLAY, zoo, str(folder)],
            cwd=ROOT,
            env=native.environment(python=pure),
            capture_output=True,
            text=True,
            check=True,
        )
        got[pure] = json.loads(out.stdout)
    assert got[False]["status"] == "compiled"
    assert str(got[True]["status"]).startswith("Python (REFEREE_PURE")
    assert got[False]["matches"] == got[True]["matches"]
    verdicts = [s[1] for m in got[False]["matches"].values() for s in m[-1]]
    assert sorted(set(verdicts)) == ["crash", "illegal", "ok"]


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_the_benchmark_measures_each_build(tmp_path: Path) -> None:
    """``benchmarks.match_loop`` runs the match loop from its source where asked (the
    engines compiled either way) and compiled otherwise; its probe checks which ran."""
    require(native.problem(MATCH), "compiled match loop")
    bot = str(build_bot(tmp_path))
    assert match_loop.probe("manila", bot, 200, python=True) > 0
    assert match_loop.probe("manila", bot, 200, python=False) > 0
