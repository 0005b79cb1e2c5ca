"""The viewer's data: delta encoding, frames from the engine, self-contained pages,
seat pages that embed only that seat's information, the ``view`` command."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from referee.api.engine import CHANCE
from referee.cli.main import main
from referee.games import get_game
from referee.match.record import ChanceLine, Header, MoveLine, iter_record
from referee.viewer import delta, write_viewer
from referee.viewer.timeline import build_timeline, frame_at
from tests.viewer.conftest import EXTREMES

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values, json_values)
def test_delta_turns_old_into_new(old: Any, new: Any) -> None:
    assert delta.apply(old, delta.diff(old, new)) == new


def test_delta_of_equal_values_is_empty() -> None:
    value = {"a": [1, 2, {"b": None}], "c": "x"}
    assert delta.diff(value, json.loads(json.dumps(value))) == []


def test_delta_keeps_a_short_list_change_small() -> None:
    old = {"xs": list(range(50))}
    new = {"xs": [*range(50), 50]}
    assert delta.diff(old, new) == [[["xs", 50], 50]]
    assert delta.diff(new, old) == [[["xs", delta.LENGTH], 50]]


def embedded(html_text: str) -> dict[str, Any]:
    """The JSON object a viewer page embeds."""
    match = re.search(
        r'<script type="application/json" id="referee-data">(.*?)</script>', html_text, re.S
    )
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def frames_of(data: dict[str, Any], key: str) -> list[Any]:
    """Decode every frame of one perspective the way the page script does."""
    stream = data["streams"][key]
    if stream["base"] is None:
        frames, frame = [], None
        for ops in stream["ops"]:
            frame = delta.apply(frame, ops)
            frames.append(frame)
        return frames
    base = frames_of(data, stream["base"])
    out: list[Any] = []
    last: Any = []
    for b, ops in zip(base, stream["ops"], strict=True):
        last = last if ops == 0 else ops
        out.append(delta.apply(b, last))
    return out


def engine_views(record: Path, seat: int) -> list[Any]:
    """``state.view(seat)`` before every ply and at the end, straight from the engine."""
    lines = iter(iter_record(record))
    _, header = next(lines)
    assert isinstance(header, Header)
    game = get_game(header.game)
    state = game.new_game(len(header.seats), game.parse_options(header.options))
    views = [msgspec.to_builtins(state.view(seat))]
    for _, line in lines:
        if isinstance(line, ChanceLine):
            state.apply_chance(line.outcome)
        elif isinstance(line, MoveLine):
            state.apply_action(game.decode_action(line.action))
        else:
            continue
        views.append(msgspec.to_builtins(state.view(seat)))
    return views


@pytest.mark.parametrize(("game", "seats"), EXTREMES)
def test_page_is_self_contained_and_frames_are_the_seat_views(
    game: str, seats: int, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    out = write_viewer(records[(game, seats)], tmp_path / "v.html")
    text = out.read_text()
    assert "<script src" not in text and "<link" not in text and "@import" not in text
    assert set(re.findall(r"https?://[^\s\"'<>)]+", text)) <= {"http://www.w3.org/2000/svg"}
    data = embedded(text)
    assert data["perspectives"] == ["omni", *map(str, range(seats))]
    for seat in (0, seats - 1):
        assert frames_of(data, str(seat)) == engine_views(records[(game, seats)], seat)
    omni = frames_of(data, "omni")
    assert len(omni) == data["plies"] + 1
    assert all(len(row) == seats for row in data["progress"]["omni"])
    kinds = {m[1] for m in data["moves"]}
    assert "move" in kinds
    assert all(isinstance(m[3], str) and m[3] for m in data["moves"])
    if seats > 1:
        faults = [m for m in data["moves"] if m[1] == "fault"]
        assert faults and faults[0][2] == 1 and "timeout" in faults[0][3]
        assert any(m[4] for m in data["moves"] if m[2] == 1)  # fallback moves flagged
        assert data["result"]["verdicts"][1] == "timeout"


def test_manila_seat_page_embeds_only_that_seats_secrets(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("manila", 5)]
    full = embedded(write_viewer(record, tmp_path / "all.html").read_text())
    omni = frames_of(full, "omni")
    hands = [h for f in omni if "hands" in f for h in f["hands"]]
    assert any(any(h.values()) for h in hands), "the omniscient view shows every hand"
    deal_full = next(m[3] for m in full["moves"] if m[3].startswith("deal: "))
    for seat in range(5):
        text = write_viewer(record, tmp_path / f"s{seat}.html", seat=seat).read_text()
        data = embedded(text)
        assert data["perspectives"] == [str(seat)] and data["only_seat"] == seat
        assert set(data["streams"]) == {str(seat)}
        assert '"hands"' not in text and '"mortgaged_hands"' not in text
        assert deal_full not in text
        frames = frames_of(data, str(seat))
        assert frames == engine_views(record, seat)
        assert all(f["seat"] == seat for f in frames)
        deal = next(m[3] for m in data["moves"] if m[3].startswith("deal: "))
        shown = deal.removeprefix("deal: ").split(" | ")
        assert [i for i, h in enumerate(shown) if h != "?"] == [seat]


def test_seat_page_move_texts_are_what_the_seat_observed(
    records: dict[tuple[str, int], Path],
) -> None:
    record = records[("manila", 3)]
    timeline, _ = build_timeline(record, [None, 2])
    lines = iter(iter_record(record))
    _, header = next(lines)
    assert isinstance(header, Header)
    game = get_game(header.game)
    state = game.new_game(3, game.parse_options(header.options))
    redacted = 0
    entries = iter(e for e in timeline.entries if e.kind != "fault")
    for _, line in lines:
        if isinstance(line, ChanceLine):
            entry = next(entries)
            assert state.to_move() == CHANCE
            seen = state.observe_chance(line.outcome, 2)
            redacted += seen != line.outcome
            state.apply_chance(line.outcome)
        elif isinstance(line, MoveLine):
            entry = next(entries)
            action = game.decode_action(line.action)
            seen = state.observe_action(line.seat, action, 2)
            if seen != action:
                redacted += 1
                assert entry.text["2"] != entry.text["omni"]
            state.apply_action(action)
    assert redacted >= 1


def test_view_command_writes_beside_the_record(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = tmp_path / "game.jsonl"
    record.write_bytes(records[("puerto-rico", 3)].read_bytes())
    result = CliRunner().invoke(main, ["view", str(record)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(tmp_path / "game.html")
    assert (tmp_path / "game.html").stat().st_size > 1000
    result = CliRunner().invoke(main, ["view", str(record), "--seat", "1"])
    assert result.stdout.strip() == str(tmp_path / "game.seat1.html")
    result = CliRunner().invoke(main, ["view", str(record), "--seat", "7"])
    assert result.exit_code == 2 and "seat 7" in result.output
    result = CliRunner().invoke(main, ["view", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2


def test_frame_at_names_the_fields(records: dict[tuple[str, int], Path]) -> None:
    record = records[("manila", 3)]
    frame = frame_at(record, 0)
    assert frame["seat"] == -1 and "hands" in frame and "cash" in frame
    assert frame_at(record, 5, seat=1)["seat"] == 1
    with pytest.raises(ValueError, match="beyond the end"):
        frame_at(record, 10_000)


def test_replay_at_prints_the_viewers_named_fields(
    records: dict[tuple[str, int], Path],
) -> None:
    record = records[("puerto-rico", 3)]
    result = CliRunner().invoke(main, ["replay", str(record), "--unchecked-chance", "--at", "9"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output[: result.output.rindex("}") + 1])
    assert printed == frame_at(record, 9)
    assert {"phase", "roles", "players", "ships", "building_supply"} <= set(printed)


def test_seat_views_cost_little_beside_the_omniscient_one(
    records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[("navegador", 5)]
    everything = write_viewer(record, tmp_path / "all.html").stat().st_size
    one_seat = write_viewer(record, tmp_path / "one.html", seat=0).stat().st_size
    assert everything < 1.3 * one_seat  # six perspectives, little more than one


@pytest.mark.parametrize(("game", "seats"), [("navegador", 5), ("puerto-rico", 5)])
def test_tracker_notes_follow_the_moves(
    game: str, seats: int, records: dict[tuple[str, int], Path], tmp_path: Path
) -> None:
    record = records[(game, seats)]
    timeline, _ = build_timeline(record, [None])
    frames = timeline.frames["omni"]
    notes = dict(timeline.notes)
    current: dict[str, Any] = {}
    checked = 0
    for position in range(len(frames)):
        current = notes.get(position, current)
        frame = frames[position]
        if game == "puerto-rico":
            assert set(frame["taken_roles"]) <= set(current["role_takers"])
            checked += len(frame["taken_roles"])
        else:
            founded = sum(len(v) for v in current["colonies"].values())
            assert founded == sum(sum(p["colonies"]) for p in frame["players"])
            checked += founded
    assert checked > 0
