"""``referee report``: a partial run's page with every table, intervals and links."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from referee.cli.main import main
from referee.match.record import ResultLine, read_record
from referee.tournament.config import load_config
from referee.tournament.resultsdb import MatchRow, ResultsDB
from referee.tournament.run import create_run
from tests.viewer.records import write_record

CONFIG = """
name = "report-test"
game = "manila"
seats = 3
rounds = 1
[[bots]]
name = "alpha"
command = "python3 {bot}"
[[bots]]
name = "beta"
command = "python3 {bot}"
[[bots]]
name = "gamma"
command = "python3 {bot}"
[[bots]]
name = "delta"
command = "python3 {bot}"
"""


def make_partial_run(tmp_path: Path, played: int) -> tuple[Path, int]:
    """A run whose first ``played`` scheduled matches are in its database and records."""
    bot = Path(__file__).resolve().parents[2] / "bots" / "random_bot.py"
    config = tmp_path / "t.toml"
    config.write_text(CONFIG.format(bot=bot))
    run = tmp_path / "run"
    manifest = create_run(load_config(config), tmp_path, run)
    db = ResultsDB(run / "results.sqlite", create=True)
    try:
        for i, match in enumerate(manifest.schedule[:played]):
            record = write_record(
                run / "records" / f"{match.id}.jsonl",
                "manila",
                3,
                seed=i,
                fault=(2, 20) if i == 0 else None,
            )
            result = read_record(record)[-1]
            assert isinstance(result, ResultLine)
            db.add(
                MatchRow(
                    id=match.id,
                    block=match.block,
                    rotation=match.rotation,
                    seed=i,
                    bots=[manifest.config.bots[b].name for b in match.lineup],
                    scores=result.scores,
                    ranks=result.ranks,
                    verdicts=list(result.verdicts),
                    details=["", "", ""],
                    moves=[1, 1, 1],
                    total_ms=[1.0] * 3,
                    max_ms=[1.0] * 3,
                    plies=10,
                    record=f"{match.id}.jsonl",
                    reason=result.reason,
                )
            )
    finally:
        db.close()
    return run, len(manifest.schedule)


def test_report_of_a_partial_run(tmp_path: Path) -> None:
    run, scheduled = make_partial_run(tmp_path, 5)
    result = CliRunner().invoke(main, ["report", str(run), "--viewers"])
    assert result.exit_code == 0, result.output
    page = (run / "report.html").read_text()
    assert f"5 of {scheduled} matches done" in page and "partial run" in page
    for section in ("standings", "ratings", "pairwise", "seats", "history", "faults", "matches"):
        assert f"id='{section}'" in page
    assert page.count('class="interval"') == 4  # one rating interval per bot
    assert page.count('class="series"') == 4  # one rating line per bot
    tips = re.findall(r'title="([a-z]+ ahead of [a-z]+: [^"]*)"', page)
    assert tips and all("[95% " in t and "n=" in t for t in tips)
    links = re.findall(r'href="(records/[^"]+\.html)"', page)
    assert len(links) == 5 and all((run / link).is_file() for link in links)
    assert "timeout" in page  # the faulted seat
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")


def test_report_of_a_run_without_matches_and_of_no_run(tmp_path: Path) -> None:
    run, scheduled = make_partial_run(tmp_path, 0)
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["report", str(run), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"0 of {scheduled} matches done" in out.read_text()
    result = CliRunner().invoke(main, ["report", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "manifest" in result.output
