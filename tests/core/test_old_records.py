"""Records written by an earlier release still replay.

``old_records/`` holds one record per game written by release 5031fe4 (``referee play``
with the C random bot, ``bots/examples/random_bot.c``, seed 7), the baseline of
``make bench``.  Each must verify with today's engines and replay rules: every move
legal where it was played, every chance outcome and fallback the seed's, the final
state ranked as the result line says.  A speed-up that changed what a move leads to
fails here; one that changed what a seat is shown fails the golden trajectories
(``tests/test_golden_trajectories.py``).
"""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from referee.match.replay import replay

RECORDS = sorted((Path(__file__).parent / "old_records").glob("*.jsonl.xz"))


def test_there_is_an_old_record_of_every_game() -> None:
    games = {p.name.rsplit("-", 1)[0] for p in RECORDS}
    assert games == {"manila", "navegador", "puerto-rico", "roads-and-boats"}


@pytest.mark.parametrize("packed", RECORDS, ids=lambda p: p.name.split(".")[0])
def test_an_old_record_replays_to_its_own_result(packed: Path, tmp_path: Path) -> None:
    record = tmp_path / packed.name.removesuffix(".xz")
    record.write_bytes(lzma.decompress(packed.read_bytes()))
    result = replay(record, seat=0)
    assert result.header.referee == "0.2.0"
    assert result.chance_checked
    assert result.plies > 100
    assert result.state.ranks() == result.result.ranks
    assert result.result.verdicts == ["ok"] * len(result.header.seats)
    assert len(result.shown) > 10
