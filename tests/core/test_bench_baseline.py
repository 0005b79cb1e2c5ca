"""The benchmark harness (benchmarks/baseline.py, probe.py, figures.py): sides alternate,
a probe runs in the side's own interpreter and is refused when it imported another
``referee``, and every figure has its spread."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.baseline import Side, alternate, current, run_probe
from benchmarks.figures import Spread
from benchmarks.players import STAMP_UCI_PY
from benchmarks.probe import MatchesCpu, lookup, stamp_gaps
from referee.games import get_game

ROOT = Path(__file__).resolve().parents[2]


def test_sides_alternate_and_flip_each_round() -> None:
    sides = [Side("old", ROOT, Path(sys.executable)), Side("new", ROOT, Path(sys.executable))]
    order: list[str] = []

    def measure(side: Side) -> int:
        order.append(side.label)
        return len(order)

    got = alternate(sides, 4, measure)
    assert order == ["old", "new", "new", "old", "old", "new", "new", "old"]
    assert got == {"old": [1, 4, 5, 8], "new": [2, 3, 6, 7]}


def test_spread_gives_count_minimum_and_median() -> None:
    assert Spread.of([3.0, 1.0, 2.0, 10.0]) == Spread(4, 1.0, 2.5)
    with pytest.raises(ValueError):
        Spread.of([])


def test_probe_runs_in_the_side_interpreter_and_reports_its_referee() -> None:
    got = run_probe(
        current(), "engine", {"game": "manila", "seats": 3, "loop": "view", "seconds": 0.05}
    )
    assert got["games"] >= 1 and got["decisions"] > 0 and got["decisions_per_s"] > 0
    assert got["children_cpu"] > 0


def test_probe_importing_another_referee_is_refused(tmp_path: Path) -> None:
    # A tree whose referee package is not the one the interpreter imports.
    (tmp_path / "referee").mkdir()
    other = Side("other", tmp_path, Path(sys.executable))
    with pytest.raises(RuntimeError, match="imported a referee outside"):
        run_probe(other, "engine", {"game": "manila", "seats": 3, "loop": "bare", "seconds": 0.01})


def test_the_uci_stamping_player_shuffles_a_knight_and_stamps_each_go(tmp_path: Path) -> None:
    """The fastchess comparison's player (``STAMP_UCI_PY``) answers the UCI handshake,
    plays the knight shuffle that is legal from the start position for both colours,
    and stamps each ``go`` (the first of a game as ``a 1``) and each ``bestmove``, in
    a file that the gap parser reads like our own players' files."""
    session = "\n".join(
        [
            "uci",
            "isready",
            "ucinewgame",
            "position startpos",
            "go wtime 60000 btime 60000",
            "position startpos moves g1f3 g8f6",
            "go wtime 60000 btime 60000",
            "position startpos moves g1f3 g8f6 f3g1",
            "go wtime 60000 btime 60000",
            "quit",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", STAMP_UCI_PY, str(tmp_path / "seat0")],
        input=session,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.split("\n")[:4] == ["id name stamp", "uciok", "readyok", "bestmove g1f3"]
    assert done.stdout.split("\n")[4:6] == ["bestmove f3g1", "bestmove f6g8"]
    (stamps,) = tmp_path.glob("seat0.*")
    lines = [line.split() for line in stamps.read_text().split("\n") if line]
    assert [w[1] if w[0] == "a" else w[0] for w in lines] == ["1", "r", "2", "r", "2", "r"]
    assert len(stamp_gaps(tmp_path)) == 2  # the game's first go is left out


def test_a_name_an_old_layout_lacks_fails_only_when_used() -> None:
    # An old baseline (04b8b0d) has no event-loop module: the engine probe must still
    # import, and a probe that needs the missing name must fail loudly, naming it.
    missing = lookup("no_such_name", "referee.games", "referee.no_such_module")
    with pytest.raises(ImportError, match="no_such_name"):
        missing()
    with pytest.raises(ImportError, match="no_such_name"):
        _ = missing.anything
    assert lookup("get_game", "referee.no_such_module", "referee.games") is get_game


def test_the_one_time_part_is_the_first_match_beyond_its_later_cost_plus_the_close() -> None:
    # 1000 decisions, 0.1 s in all: the first match 0.03 s for 200 of them, the close
    # 0.005 s; the 800 later decisions cost 0.065 s (81.25 us each), so the first match
    # costs 0.03 - 200 * 81.25e-6 = 0.01375 s more than later ones would.
    got = MatchesCpu(1e-4, 1000, 5, 0.03, 200, 0.005)
    assert got.once_per_decision == pytest.approx((0.01375 + 0.005) / 1000)
    assert math.isnan(MatchesCpu(1e-4, 1000, 1, 0.1, 1000, 0.0).once_per_decision)
