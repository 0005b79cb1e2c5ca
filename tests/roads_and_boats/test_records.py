"""Records written by referee 0.1 still replay (issue 15: rules changed in 0.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games.roads_and_boats import GAME
from referee.match.replay import ReplayError, replay

RECORDS = Path(__file__).parent / "records"
OLD = sorted(RECORDS.glob("referee-0.1-*.jsonl"))


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_records_of_referee_0_1_replay_under_its_rules(path: Path) -> None:
    """A 0.1 header lists exactly the 0.1 options, so it is read with rules=referee-0.1
    (and its map_seed 1 pins the generated map of 3-4 seats)."""
    result = replay(path)
    assert result.header.referee == "0.1.0"
    assert result.state.options.rules == "referee-0.1"  # type: ignore[attr-defined]


def test_old_options_objects_map_to_the_old_rules() -> None:
    old = json.loads((RECORDS / "referee-0.1-3-seats.jsonl").read_text().splitlines()[0])
    options = GAME.parse_options(old["options"])
    assert options.rules == "referee-0.1" and options.legacy and options.map_seed == 1
    assert GAME.parse_options({"map_seed": 1}).rules == "rulebook"  # a partial object


def test_an_old_setup_under_the_new_rules_fails_naming_the_rule(tmp_path: Path) -> None:
    """Without the pinned seed the first chance outcome must be the map seed; an old
    temple order there is rejected with a message naming the changed rule."""
    lines = (RECORDS / "referee-0.1-3-seats.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["options"] = {"map": "auto", "rules": "rulebook"}
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ReplayError, match="map is drawn at setup"):
        replay(path)
