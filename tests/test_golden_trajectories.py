"""Every engine output of 300 seeded random games equals the golden files.

The golden files (``tests/golden/``) were recorded before the engines were
optimised; regenerate them (``python -m tests.golden.generate [--game NAME]``) only
for a deliberate rules change.  Roads & Boats was recorded later than the other
games, on its rules-corrected engine (version 0.2.0) before its speed work.
"""

from __future__ import annotations

import lzma

import msgspec
import pytest

from tests.golden.generate import DIGESTS, full_path
from tests.golden.trajectory import CASES, FULL, case_key, digest, game_seed, trajectory

GOLDEN = msgspec.json.decode(DIGESTS.read_bytes())


def test_golden_files_cover_every_case() -> None:
    assert sum(count for *_, count in CASES) == 300
    assert set(GOLDEN) == {case_key(g, s, o) for g, s, o, _ in CASES}
    assert all(len(GOLDEN[case_key(g, s, o)]) == n for g, s, o, n in CASES)
    assert {g for g, *_ in CASES} == {"manila", "navegador", "puerto-rico", "roads-and-boats"}


CHUNK = 4
"""Games per test item, so that parallel workers share the long cases."""

CHUNKS = [
    (game, seats, options, start, min(start + CHUNK, count))
    for game, seats, options, count in CASES
    for start in range(0, count, CHUNK)
]


@pytest.mark.parametrize(
    ("game", "seats", "options", "start", "stop"),
    CHUNKS,
    ids=[f"{case_key(g, s, o)}#{a}-{b - 1}" for g, s, o, a, b in CHUNKS],
)
def test_trajectory_digests_unchanged(
    game: str, seats: int, options: dict[str, object], start: int, stop: int
) -> None:
    rows = GOLDEN[case_key(game, seats, options)]
    for index in range(start, stop):
        row = rows[index]
        seed = game_seed(game, seats, options, index)
        assert row["seed"] == seed
        assert digest(trajectory(game, seats, options, seed)) == row["sha256"], (
            f"{case_key(game, seats, options)} game {index} (seed {seed}) changed"
        )


@pytest.mark.parametrize(("case", "index"), FULL)
def test_full_trajectory_unchanged(case: int, index: int) -> None:
    game, seats, options, _ = CASES[case]
    stored = lzma.decompress(full_path(case, index).read_bytes()).splitlines()
    assert digest(iter(stored)) == GOLDEN[case_key(game, seats, options)][index]["sha256"]
    played = list(trajectory(game, seats, options, game_seed(game, seats, options, index)))
    for ply, (want, got) in enumerate(zip(stored, played, strict=False)):
        if want != got:
            pytest.fail(
                f"{game} first difference at line {ply}:\n"
                f"golden: {want[:2000]!r}\nnow:    {got[:2000]!r}"
            )
    assert len(played) == len(stored)
