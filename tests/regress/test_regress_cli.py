"""``referee regress`` end to end on the toy game with real bot processes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import cast

import click
import pytest
from click.testing import CliRunner

from referee.cli.regress import regress
from referee.games import all_games
from referee.match.replay import replay
from referee.regress.run import (
    BlockResult,
    Entrant,
    GameResult,
    Role,
    block_statistic,
    first_foreign_fault,
    lineups_for,
    pairwise_score,
)
from tests.core.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'}"
ZOO = f"{sys.executable} {ROOT / 'tests' / 'zoo' / 'zoo_bot.py'}"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(all_games(), GAME.name, GAME)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(regress, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def base_args(candidate: str, baseline: str, *extra: str) -> list[str]:
    return [
        "--game",
        "secret-race",
        "--candidate",
        candidate,
        "--baseline",
        baseline,
        "--quiet",
        "--move-ms",
        "3000",
        "--seed-secret",
        "fixed",
        *extra,
    ]


# -- pieces -----------------------------------------------------------------------


def test_pairwise_score() -> None:
    assert pairwise_score([1, 2], 0) == 1.0 and pairwise_score([1, 2], 1) == 0.0
    assert pairwise_score([1, 1], 0) == 0.5
    assert pairwise_score([2, 1, 2, 4], 0) == pytest.approx((0 + 0.5 + 1) / 3)
    with pytest.raises(ValueError):
        pairwise_score([1], 0)


def entrant(role: Role, name: str) -> Entrant:
    return Entrant(role, name, ["x"], name)


CAND, BASE = entrant("candidate", "c"), entrant("baseline", "b")
F1, F2 = entrant("field", "f1"), entrant("field", "f2")


def test_head_to_head_lineups_swap_colours() -> None:
    seat, a, b = lineups_for(0, 2, CAND, BASE, [])
    assert seat == 0 and a == [CAND, BASE] and b == [BASE, CAND]
    seat, a, b = lineups_for(1, 2, CAND, BASE, [])
    assert seat == 1 and a == [BASE, CAND] and b == [CAND, BASE]


def test_field_lineups_differ_only_in_the_tested_seat() -> None:
    for block in range(6):
        seat, a, b = lineups_for(block, 3, CAND, BASE, [F1, F2])
        assert seat == block % 3
        assert a[seat] == CAND and b[seat] == BASE
        assert [e for i, e in enumerate(a) if i != seat] == [
            e for i, e in enumerate(b) if i != seat
        ]
        assert {e.name for i, e in enumerate(a) if i != seat} == {"f1", "f2"}
    # One field bot fills every other seat; the tested seat rotates.
    assert [lineups_for(k, 4, CAND, BASE, [F1])[1] for k in (0, 3)] == [
        [CAND, F1, F1, F1],
        [F1, F1, F1, CAND],
    ]


def game(roles: list[str], ranks: list[int], verdicts: list[str] | None = None) -> GameResult:
    seats = len(roles)
    return GameResult(
        roles=cast(list[Role], roles),
        names=[f"bot{i}" for i in range(seats)],
        ranks=ranks,
        verdicts=verdicts or ["ok"] * seats,
        details=[""] * seats,
        record=None,
    )


def test_block_statistics() -> None:
    # Head to head: candidate wins A in seat 0, draws B in seat 1: pair score 1.5.
    h2h = BlockResult(
        0, 1, 0, (game(["candidate", "baseline"], [1, 2]), game(["baseline", "candidate"], [1, 1]))
    )
    assert block_statistic(h2h, head_to_head=True) == 1.5
    # Field, tested seat 1: candidate 2nd of 3 in A (u = 1/2), baseline 1st in B (u = 1).
    fld = BlockResult(
        1,
        1,
        1,
        (
            game(["field", "candidate", "field"], [1, 2, 3]),
            game(["field", "baseline", "field"], [2, 1, 3]),
        ),
    )
    assert block_statistic(fld, head_to_head=False) == -0.5
    assert first_foreign_fault(fld) is None


def test_only_foreign_faults_stop_the_run() -> None:
    cand_fault = BlockResult(
        3,
        1,
        0,
        (
            game(["candidate", "baseline"], [2, 1], ["crash", "ok"]),
            game(["baseline", "candidate"], [1, 2]),
        ),
    )
    assert first_foreign_fault(cand_fault) is None
    base_fault = BlockResult(
        4,
        1,
        0,
        (
            game(["candidate", "baseline"], [1, 2]),
            game(["baseline", "candidate"], [2, 1], ["timeout", "ok"]),
        ),
    )
    message = first_foreign_fault(base_fault)
    assert message is not None
    assert "baseline" in message and "block 4 game B" in message and "timeout" in message


# -- end to end -------------------------------------------------------------------


def test_crashing_candidate_is_a_regression(tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    code, out, _ = invoke(
        *base_args(f"{ZOO} crash", RANDOM, "--elo0", "-200", "--json", str(summary))
    )
    assert code == 1, out
    assert "regression detected" in out and "exit 1" in out
    data = json.loads(summary.read_text())
    assert data["status"] == "H0" and data["exit_code"] == 1
    assert data["llr"] <= data["lower"] < 0
    assert data["pentanomial"][1:] == [0, 0, 0, 0] and data["pentanomial"][0] == data["blocks"]
    assert data["candidate_faults"] == {"crash": data["games"]}
    assert data["elo"] is None  # -inf: it lost every game
    assert data["mode"] == "head-to-head"


def test_identical_bots_pass_and_records_replay(tmp_path: Path) -> None:
    records = tmp_path / "records"
    code, out, err = invoke(
        *base_args(
            f"{ZOO} ok",
            f"{ZOO} ok",
            "--elo0",
            "-100",
            "--records",
            str(records),
            "--json",
            "-",
        )
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["status"] == "H1" and data["llr"] >= data["upper"]
    # The first legal move every time on the same seed: every pair is split evenly.
    assert data["pentanomial"] == [0, 0, data["blocks"], 0, 0]
    assert data["elo"] == 0.0
    assert "not worse" in err  # the human report goes to stderr with --json -
    files = sorted(records.glob("*.jsonl"))
    assert len(files) == data["games"]
    assert replay(files[0]).result.verdicts == ["ok", "ok"]


def test_random_against_random_is_inconclusive_at_max_games() -> None:
    code, out, _ = invoke(*base_args(RANDOM, RANDOM, "--max-games", "4"))
    assert code == 2
    assert "INCONCLUSIVE" in out and "games 4 in 2 blocks (max 4)" in out


def test_faulting_baseline_stops_with_exit_3(tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    code, _, err = invoke(*base_args(RANDOM, f"{ZOO} crash", "--json", str(summary)))
    assert code == 3
    assert "baseline 'baseline' faulted in block 0" in err and "crash" in err
    data = json.loads(summary.read_text())
    assert data["status"] == "fault" and data["blocks"] == 0 and "baseline" in data["fault"]


def test_faulting_field_stops_with_exit_3() -> None:
    code, _, err = invoke(
        *base_args(
            RANDOM, RANDOM, "--seats", "3", "--field", f"{ZOO} json_array", "--field", RANDOM
        )
    )
    assert code == 3
    assert "field 'field1' faulted" in err and "protocol" in err


def test_three_seats_with_crashing_candidate_and_concurrency(tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    code, out, _ = invoke(
        *base_args(
            f"{ZOO} crash",
            RANDOM,
            "--seats",
            "3",
            "--elo0",
            "-200",
            "--concurrency",
            "2",
            "--json",
            str(summary),
        )
    )
    assert code == 1, out
    data = json.loads(summary.read_text())
    assert data["mode"] == "field" and data["test"] == "normal-gsprt" and data["seats"] == 3
    assert data["pentanomial"] is None and data["mean"] < 0
    assert data["candidate_faults"] == {"crash": data["blocks"]}  # game A of every block


def test_decisions_do_not_depend_on_concurrency(tmp_path: Path) -> None:
    # Seeded random bots make every game a function of its seed, so the whole summary
    # must be the same whether blocks run one at a time or in two worker processes.
    outputs = []
    for workers in ("1", "2"):
        path = tmp_path / f"s{workers}.json"
        code, _, err = invoke(
            *base_args(
                f"{ZOO} ok",
                f"{RANDOM} --seed 3",
                "--seats",
                "3",
                "--field",
                f"{RANDOM} --seed 5",
                "--max-games",
                "12",
                "--concurrency",
                workers,
                "--json",
                str(path),
            )
        )
        assert code == 2, err
        outputs.append(json.loads(path.read_text()))
    assert outputs[0] == outputs[1]
    assert outputs[0]["blocks"] == 6 and outputs[0]["field"] == [f"{RANDOM} --seed 5"]


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--seats", "7"], "2-4 seats, not 7"),
        (["--elo0", "5", "--elo1", "0"], "--elo0 < --elo1"),
        (["--alpha", "0.6", "--beta", "0.5"], "alpha + beta < 1"),
        (["--option", "bogus=1"], "bad option"),
        (["--candidate", "no-such-program-xyz"], "not found"),
    ],
)
def test_bad_input_exits_4_with_one_line(extra: list[str], needle: str) -> None:
    args = base_args(RANDOM, RANDOM)
    for i in range(0, len(extra), 2):  # later options override earlier ones
        args += extra[i : i + 2]
    code, out, err = invoke(*args)
    assert code == 4, err
    assert needle in err and "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_usage_errors_exit_4_when_registered_in_a_group() -> None:
    @click.group()
    def cli() -> None:
        pass

    cli.add_command(regress)
    result = CliRunner().invoke(cli, ["regress", "--game", "secret-race"])
    assert result.exit_code == 4
    assert "--candidate" in result.stderr
    result = CliRunner().invoke(cli, ["regress", "--help"])
    assert result.exit_code == 0 and "--elo0" in result.stdout


def test_reuse_keeps_processes_across_blocks_but_never_within_one(tmp_path: Path) -> None:
    """Three seats, a field of one reusable bot: a field process plays in many blocks,
    yet never in both games (A and B, same seed) of one block."""
    import re

    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'}"
    records = tmp_path / "records"
    code, out, err = invoke(
        *base_args(
            f"{reuse_bot} ok",
            f"{reuse_bot} ok",
            "--seats",
            "3",
            "--max-games",
            "8",
            "--records",
            str(records),
            "--sandbox",
            "none",
        )
    )
    assert code in (0, 2), err
    assert "sandbox none" in out
    played: dict[str, set[str]] = {}  # pid -> the games it played ("00002-a", ...)
    for log in records.glob("logs/*/seat*.stderr.log"):
        for pid, match in re.findall(r"pid (\d+) match regress-b(\d+-[ab])", log.read_text()):
            played.setdefault(pid, set()).add(match.zfill(7))
    assert played and max(len(games) for games in played.values()) > 1  # reused
    for games in played.values():
        blocks = [g.split("-")[0] for g in games]
        assert len(blocks) == len(set(blocks)), games  # never A and B of one block
    assert len(played) < 16  # 8 games x 3 seats would need 24 fresh processes


def test_no_reuse_flag_starts_a_process_per_game(tmp_path: Path) -> None:
    reuse_bot = f"{sys.executable} {ROOT / 'tests' / 'core' / 'reuse_bot.py'}"
    records = tmp_path / "records"
    code, _, err = invoke(
        *base_args(
            f"{reuse_bot} ok",
            f"{reuse_bot} ok",
            "--max-games",
            "4",
            "--records",
            str(records),
            "--no-reuse",
        )
    )
    assert code in (0, 2), err
    logs = list(records.glob("logs/*/seat*.stderr.log"))
    assert len(logs) == 8
    assert all(" n 1 cores " in log.read_text() for log in logs)
